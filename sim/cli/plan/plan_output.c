/* plan_output.c -- what `fleetsim plan` prints: the candidates ranked
 * (feasible by monthly cost, cheapest first, then those excluded), the
 * cost-vs-latency frontier, the count - 1 check of each chosen fleet and
 * why each excluded candidate failed; as a table, CSV, JSON (a list in
 * rank order) or Markdown.  Money is a run rate over a 730-hour month. */
#include "sim/cli/plan/plan.h"
#include "sim/base/textout.h"
#include "sim/app/summary.h"

#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fs_plan_say(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *v = fs_text_visible(buf);
    fprintf(stderr, "fleetsim: plan: %s\n", v ? v : buf);
    free(v);
}

/* Text from a scenario or a database, made safe for a terminal. */
static void put(FILE *out, const char *s)
{
    char *v = fs_text_escape(s);
    fputs(v ? v : "?", out);
    free(v);
}

static double key(const fs_plan_candidate *c)
{
    if (!c->feasible)
        return INFINITY;
    return isnan(c->monthly) ? DBL_MAX : c->monthly;
}

static int by_rank(const void *a, const void *b)
{
    const fs_plan_candidate *x = a, *y = b;
    double kx = key(x), ky = key(y);
    if (kx != ky)
        return kx < ky ? -1 : 1;
    if (x->feasible && x->best.value[0] != y->best.value[0])
        return x->best.value[0] < y->best.value[0] ? -1 : 1;
    return 0;
}

void fs_plan_rank(fs_plan *p)
{
    /* stable: ties keep the order of the lists */
    for (int i = 1; i < p->ncand; i++)
        for (int j = i; j > 0 && by_rank(&p->cand[j - 1], &p->cand[j]) > 0;
             j--) {
            fs_plan_candidate t = p->cand[j];
            p->cand[j] = p->cand[j - 1];
            p->cand[j - 1] = t;
        }
}

/* On the cost-vs-(first SLO metric) front: no other feasible priced one
 * at most as dear and as slow, and strictly better in one. */
static int on_front(const fs_plan *p, int i)
{
    const fs_plan_candidate *c = &p->cand[i];
    if (!c->feasible || isnan(c->monthly))
        return 0;
    int ge = p->slo[0].ge;
    for (int j = 0; j < p->ncand; j++) {
        const fs_plan_candidate *d = &p->cand[j];
        if (j == i || !d->feasible || isnan(d->monthly))
            continue;
        double vc = ge ? -c->best.value[0] : c->best.value[0];
        double vd = ge ? -d->best.value[0] : d->best.value[0];
        if (d->monthly <= c->monthly && vd <= vc &&
            (d->monthly < c->monthly || vd < vc))
            return 0;
    }
    return 1;
}

static void size_text(const fs_plan *p, const fs_plan_candidate *c,
                      char *buf, size_t len)
{
    if (!c->feasible)
        snprintf(buf, len, "-");
    else if (p->autoscale)
        snprintf(buf, len, "%ld-%ld", c->min, c->count);
    else if (c->pd[0])   /* the searched pool + the other */
        snprintf(buf, len, "%ld+%ld", c->count,
                 fs_plan_partner_count(p, c, c->count));
    else
        snprintf(buf, len, "%ld", c->count);
}

static void money(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        fs_format_money(v, buf, len);
}

/* The margin of value v against s: the share of the bound left. */
static void margin(const fs_plan_slo *s, double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (s->ge)
        snprintf(buf, len, "%+.2f pt", (v - s->value) * 100);
    else
        snprintf(buf, len, "%+.1f%%", (s->value - v) / s->value * 100);
}

static const char *purchase_text(const fs_plan_candidate *c, char *buf,
                                 size_t len)
{
    if (!c->feasible || c->purchase < 0 || isnan(c->monthly))
        snprintf(buf, len, "-");
    else if (c->purchase == FS_PLAN_RESERVED)
        snprintf(buf, len, "%ld reserved + on-demand", c->reserved_k);
    else if (c->purchase == FS_PLAN_SPOT && c->spot_k)
        snprintf(buf, len, "%ld reserved + spot", c->spot_k);
    else if (c->purchase == FS_PLAN_SAVINGS)
        snprintf(buf, len, "savings plan $%.2f/h + on-demand",
                 c->commitment);
    else
        snprintf(buf, len, "%s", fs_plan_purchase_name(c->purchase));
    return buf;
}

/* ---- table and Markdown ---- */

/* The table's tp cell: "8", "1/8" with expert parallelism (the header
 * then "tp/ep"), "-" for a generic service. */
static const char *tp_cell(const fs_plan_candidate *c, char *buf, size_t len)
{
    if (!c->tp)
        return "-";
    if (c->ep > 1)
        snprintf(buf, len, "%d/%d", c->tp, c->ep);
    else
        snprintf(buf, len, "%d", c->tp);
    return buf;
}

/* " tp8", " tp1 ep8" after a candidate's GPU and precision, then its
 * choices (" routing=prefix-aware"); "" when none. */
static const char *tp_words(const fs_plan_candidate *c, char *buf,
                            size_t len)
{
    buf[0] = '\0';
    if (c->tp && c->ep > 1)
        snprintf(buf, len, " tp%d ep%d", c->tp, c->ep);
    else if (c->tp)
        snprintf(buf, len, " tp%d", c->tp);
    if (c->choice[0])
        snprintf(buf + strlen(buf), len - strlen(buf), " %s", c->choice);
    return buf;
}

/* The width of the choice column: 0 when nothing is a choice. */
static int choice_width(const fs_plan *p)
{
    int w = 0;
    for (int i = 0; i < p->ncand; i++)
        if ((int)strlen(p->cand[i].choice) > w)
            w = (int)strlen(p->cand[i].choice);
    return w ? (w < 6 ? 6 : w) : 0;
}

static int any_ep(const fs_plan *p)
{
    for (int i = 0; i < p->ncand; i++)
        if (p->cand[i].ep > 1)
            return 1;
    return 0;
}

static void print_rows(FILE *out, const fs_plan *p, int md)
{
    const char *sep = md ? " | " : "  ";
    int tpw = any_ep(p) ? 5 : 3;   /* "tp/ep" */
    int cw = choice_width(p);
    fprintf(out, "%s%-4s%s%-10s%s%-9s%s%-*s", md ? "| " : "", "rank", sep,
            "gpu", sep, "precision", sep, tpw, tpw > 3 ? "tp/ep" : "tp");
    if (cw)
        fprintf(out, "%s%-*s", sep, cw, "choice");
    fprintf(out, "%s%-6s%s%-13s%s%-30s", sep,
            p->autoscale ? "min-max" : "count", sep, "monthly", sep,
            "purchase");
    for (int k = 0; k < FS_PLAN_PURCHASES; k++)
        if (p->purchases[k])
            fprintf(out, "%s%-13s", sep, fs_plan_purchase_name(k));
    fprintf(out, "%s%-13s", sep, "as run");
    if (p->llm)
        fprintf(out, "%s%-8s", sep, "$/Mtok");
    for (int k = 0; k < p->nslo; k++)
        fprintf(out, "%s%-10s%s%-8s", sep, p->slo[k].metric, sep, "margin");
    fprintf(out, "%s%-10s%s%s%s\n", sep, "unfinished", sep, "run",
            md ? " |" : "");
    if (md) {
        int cols = 10 + 2 * p->nslo + p->llm + (cw > 0);
        for (int k = 0; k < FS_PLAN_PURCHASES; k++)
            cols += p->purchases[k];
        for (int k = 0; k < cols; k++)
            fputs("|---", out);
        fputs("|\n", out);
    }
    for (int i = 0; i < p->ncand; i++) {
        const fs_plan_candidate *c = &p->cand[i];
        char size[48], m[48], pur[96], rank[16], tp[16];
        size_text(p, c, size, sizeof size);
        money(c->monthly, m, sizeof m);
        snprintf(rank, sizeof rank, "%s%d", on_front(p, i) ? "*" : "",
                 i + 1);
        if (!c->feasible)
            snprintf(rank, sizeof rank, "-");
        fprintf(out, "%s%-4s%s%-10s%s%-9s%s%-*s", md ? "| " : "", rank,
                sep, c->gpu, sep, c->precision[0] ? c->precision : "-", sep,
                tpw, tp_cell(c, tp, sizeof tp));
        if (cw)
            fprintf(out, "%s%-*s", sep, cw, c->choice);
        fprintf(out, "%s%-6s%s%-13s%s%-30s", sep, size, sep, m, sep,
                purchase_text(c, pur, sizeof pur));
        for (int k = 0; k < FS_PLAN_PURCHASES; k++) {
            char v[48];
            money(c->feasible ? c->cost[k] : NAN, v, sizeof v);
            if (p->purchases[k])
                fprintf(out, "%s%-13s", sep, v);
        }
        char ar[48];
        money(c->feasible ? c->as_run : NAN, ar, sizeof ar);
        fprintf(out, "%s%-13s", sep, ar);
        if (p->llm) {
            char mt[32] = "-";
            if (c->feasible && !isnan(c->usd_per_mtok))
                snprintf(mt, sizeof mt, "$%.3f", c->usd_per_mtok);
            fprintf(out, "%s%-8s", sep, mt);
        }
        for (int k = 0; k < p->nslo; k++) {
            char v[48], g[48];
            double x = c->feasible ? c->best.value[k] : NAN;
            fs_plan_value_format(&p->slo[k], x, v, sizeof v);
            margin(&p->slo[k], x, g, sizeof g);
            fprintf(out, "%s%-10s%s%-8s", sep, v, sep, g);
        }
        char u[32] = "-";
        if (c->feasible)
            snprintf(u, sizeof u, "%.3f%%", c->best.unfinished * 100);
        fprintf(out, "%s%-10s%s%s%s\n", sep, u, sep,
                c->feasible ? c->best.run_name : "-", md ? " |" : "");
    }
}

/* How many simulations the plan ran, and the candidates it excluded
 * before simulating (memory, price or precision; a lone request's bound). */
static void print_counts(FILE *out, const fs_plan *p, int md)
{
    int sims = 0, before = 0, bound = 0;
    for (int i = 0; i < p->ncand; i++) {
        sims += p->cand[i].sims;
        before += !fs_plan_searched(&p->cand[i]);
        bound += p->cand[i].excluded_bound;
    }
    fprintf(out, "\n%ssimulations: %d run for %d candidates; %d excluded "
            "before simulating (%d by a lone request's bound%s)%s\n",
            md ? "**" : "", sims, p->ncand, before, bound,
            p->no_prune ? ", --no-prune" : "", md ? "**" : "");
}

static void print_notes(FILE *out, const fs_plan *p, int md)
{
    const char *bullet = md ? "- " : "  ";
    fprintf(out, "\n%sverified by simulation (the same seed for every "
            "count):%s\n", md ? "**" : "", md ? "**\n" : "");
    for (int i = 0; i < p->ncand; i++) {
        const fs_plan_candidate *c = &p->cand[i];
        if (!c->feasible)
            continue;
        char tp[160];
        fprintf(out, "%s%s%s%s%s: %s=%ld meets every SLO (run %ld, %s)",
                bullet, c->gpu, c->precision[0] ? " " : "", c->precision,
                tp_words(c, tp, sizeof tp), p->autoscale ? "max" : "count",
                c->count, c->best.run_id, c->best.run_name);
        if (c->below.done) {
            fprintf(out, "; %ld fails (run %ld, %s): ", c->below.count,
                    c->below.run_id, c->below.run_name);
            put(out, c->below.why);
        }
        fprintf(out, "; %d simulations%s\n", c->sims,
                c->estimate <= 0 ? "" : p->llm ? ", started at the roofline's "
                "bound" : ", started at the M/M/c estimate");
        if (c->cost_note[0]) {
            fprintf(out, "%s  cost: ", bullet);
            put(out, c->cost_note);
            fputc('\n', out);
        }
    }
    int any = 0;
    for (int i = 0; i < p->ncand; i++) {
        const fs_plan_candidate *c = &p->cand[i];
        char m[48], v[48], tp[160];
        if (!on_front(p, i))
            continue;
        money(c->monthly, m, sizeof m);
        fs_plan_value_format(&p->slo[0], c->best.value[0], v, sizeof v);
        if (!any++)
            fprintf(out, "\n%scost-vs-%s frontier:%s ", md ? "**" : "",
                    p->slo[0].metric, md ? "**" : "");
        else
            fputs(" -> ", out);
        fprintf(out, "%s%s%s", c->gpu, c->precision[0] ? " " : "",
                c->precision);
        fprintf(out, "%s x%ld %s %s", tp_words(c, tp, sizeof tp), c->count,
                m, v);
    }
    if (any)
        fputc('\n', out);
    any = 0;
    for (int i = 0; i < p->ncand; i++) {
        const fs_plan_candidate *c = &p->cand[i];
        if (c->feasible)
            continue;
        if (!any++)
            fprintf(out, "\n%sexcluded:%s\n", md ? "**" : "",
                    md ? "**\n" : "");
        char tp[160];
        fprintf(out, "%s%s%s%s%s: ", bullet, c->gpu,
                c->precision[0] ? " " : "", c->precision,
                tp_words(c, tp, sizeof tp));
        put(out, c->reason);
        fputc('\n', out);
    }
}

/* ---- CSV and JSON ---- */

static void csv_num(FILE *out, double v)
{
    if (isnan(v))
        fputs(",", out);
    else
        fprintf(out, ",%.17g", v);
}

static void print_csv(FILE *out, const fs_plan *p)
{
    fputs("rank,gpu,precision,tp,count,min,max,feasible,reason,"
          "monthly_cost_usd,purchase,reserved_k,commitment_usd_h", out);
    for (int k = 0; k < FS_PLAN_PURCHASES; k++)
        fprintf(out, ",%s_monthly_usd", fs_plan_purchase_name(k));
    /* in the rows' order: as run, then each objective's value */
    fputs(",as_run_monthly_usd", out);
    for (int k = 0; k < p->nslo; k++)
        fprintf(out, ",%s", p->slo[k].metric);
    fputs(",unfinished,run_id,run,ep,choice\n", out);
    for (int i = 0; i < p->ncand; i++) {
        const fs_plan_candidate *c = &p->cand[i];
        fprintf(out, "%d,", i + 1);
        fs_csv_write_field(out, c->gpu);
        fputc(',', out);
        fs_csv_write_field(out, c->precision);
        fprintf(out, ",%d", c->tp);
        if (c->feasible && !p->autoscale)
            fprintf(out, ",%ld,,", c->count);
        else if (c->feasible)
            fprintf(out, ",,%ld,%ld", c->min, c->count);
        else
            fputs(",,,", out);
        fprintf(out, ",%d,", c->feasible);
        fs_csv_write_field(out, c->reason);
        csv_num(out, c->monthly);
        fputc(',', out);
        fs_csv_write_field(out, c->feasible && c->purchase >= 0
                                    ? fs_plan_purchase_name(c->purchase)
                                    : "");
        fprintf(out, ",%ld", c->reserved_k);
        csv_num(out, c->commitment);
        for (int k = 0; k < FS_PLAN_PURCHASES; k++)
            csv_num(out, c->feasible ? c->cost[k] : NAN);
        csv_num(out, c->feasible ? c->as_run : NAN);
        for (int k = 0; k < p->nslo; k++)
            csv_num(out, c->feasible ? c->best.value[k] : NAN);
        csv_num(out, c->feasible ? c->best.unfinished : NAN);
        if (c->feasible) {
            fprintf(out, ",%ld,", c->best.run_id);
            fs_csv_write_field(out, c->best.run_name);
        } else {
            fputs(",,", out);
        }
        fprintf(out, ",%d,", c->ep > 1 ? c->ep : 1);
        fs_csv_write_field(out, c->choice);
        fputc('\n', out);
    }
}

static void json_num(FILE *out, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        fprintf(out, "\"%s\": null", k);
    else
        fprintf(out, "\"%s\": %.17g", k, v);
}

/* A JSON string, or null when s is empty (or the value not there). */
static void json_str_or_null(FILE *out, const char *s, int there)
{
    if (there && s[0])
        fs_json_write_string(out, s);
    else
        fputs("null", out);
}

/* The candidate: its shape, count, feasibility and reason. */
static void json_shape(FILE *out, const fs_plan *p, int i)
{
    const fs_plan_candidate *c = &p->cand[i];
    fputs("  {\"gpu\": ", out);
    fs_json_write_string(out, c->gpu);
    fputs(", \"precision\": ", out);
    json_str_or_null(out, c->precision, 1);
    fprintf(out, ", \"tp\": %d, \"ep\": %d, \"instance\": ", c->tp ? c->tp : 1,
            c->ep > 1 ? c->ep : 1);
    json_str_or_null(out, c->instance, 1);
    fputs(", \"choice\": ", out);
    json_str_or_null(out, c->choice, 1);
    fputs(", \"routing\": ", out);
    json_str_or_null(out, c->routing, 1);
    fputs(", \"pd_ratio\": ", out);
    if (c->pd[0])
        fprintf(out, "\"%d:%d\"", c->pd[0], c->pd[1]);
    else
        json_str_or_null(out, p->npd ? "colocated" : "", 1);
    fprintf(out, ", \"spec\": %s, ", p->spec_on + p->spec_off == 0 ? "null"
            : c->spec_off ? "false" : "true");
    if (c->pd[0] && c->feasible)   /* the other pool's count */
        fprintf(out, "\"partner\": \"%s\", \"partner_count\": %ld, ",
                p->partner, fs_plan_partner_count(p, c, c->count));
    if (!c->feasible)
        fputs(p->autoscale ? "\"min\": null, \"max\": null"
                           : "\"count\": null", out);
    else if (p->autoscale)
        fprintf(out, "\"min\": %ld, \"max\": %ld", c->min, c->count);
    else
        fprintf(out, "\"count\": %ld", c->count);
    fprintf(out, ", \"feasible\": %s, \"front\": %s, \"reason\": ",
            c->feasible ? "true" : "false", on_front(p, i) ? "true" : "false");
    fs_json_write_string(out, c->reason);
    fputs(", ", out);
}

/* What it costs: by the cheapest purchase and by each. */
static void json_costs(FILE *out, const fs_plan *p, const fs_plan_candidate *c)
{
    json_num(out, "monthly_cost_usd", c->feasible ? c->monthly : NAN);
    fputs(", \"purchase\": ", out);
    json_str_or_null(out, c->purchase >= 0
                              ? fs_plan_purchase_name(c->purchase) : "",
                     c->feasible);
    fprintf(out, ", \"reserved_count\": %ld, ", c->reserved_k);
    json_num(out, "commitment_usd_per_hour", c->commitment);
    fputs(", \"monthly_cost_by_purchase\": {", out);
    for (int k = 0, n = 0; k < FS_PLAN_PURCHASES; k++)
        if (p->purchases[k]) {
            fputs(n++ ? ", " : "", out);
            json_num(out, fs_plan_purchase_name(k),
                     c->feasible ? c->cost[k] : NAN);
        }
    fputs("}, ", out);
    json_num(out, "as_run_monthly_usd", c->feasible ? c->as_run : NAN);
    fputs(", ", out);
    json_num(out, "usd_per_million_tokens",
             c->feasible ? c->usd_per_mtok : NAN);
}

/* What was measured: the SLO metrics, memory, the run, the count below. */
static void json_measured(FILE *out, const fs_plan *p,
                          const fs_plan_candidate *c)
{
    fputs(", \"slo\": {", out);
    for (int k = 0; k < p->nslo; k++) {
        fputs(k ? ", " : "", out);
        json_num(out, p->slo[k].metric, c->feasible ? c->best.value[k] : NAN);
    }
    fputs("}, ", out);
    for (int k = 0; k < p->nslo; k++) {   /* and each at the top level */
        json_num(out, p->slo[k].metric,
                 c->feasible ? c->best.value[k] : NAN);
        fputs(", ", out);
    }
    json_num(out, "unfinished", c->feasible ? c->best.unfinished : NAN);
    fputs(", \"memory\": ", out);
    fs_json_write_string(out, c->memory);
    fprintf(out, ", \"excluded_memory\": %s, \"excluded_before_simulating\": "
            "%s, \"run_id\": ", c->excluded_memory ? "true" : "false",
            fs_plan_searched(c) ? "false" : "true");
    if (c->feasible)
        fprintf(out, "%ld, \"run\": ", c->best.run_id);
    else
        fputs("null, \"run\": ", out);
    if (c->feasible)
        fs_json_write_string(out, c->best.run_name);
    else
        fputs("null", out);
    fputs(", \"below\": ", out);
    if (c->below.done) {
        fprintf(out, "{\"count\": %ld, \"run_id\": %ld, \"run\": ",
                c->below.count, c->below.run_id);
        fs_json_write_string(out, c->below.run_name);
        fputs(", \"reason\": ", out);
        fs_json_write_string(out, c->below.why);
        fputs("}", out);
    } else {
        fputs("null", out);
    }
}

static void print_json_one(FILE *out, const fs_plan *p, int i)
{
    const fs_plan_candidate *c = &p->cand[i];
    json_shape(out, p, i);
    json_costs(out, p, c);
    json_measured(out, p, c);
    fprintf(out, ", \"simulations\": %d}", c->sims);
}

void fs_plan_print(FILE *out, const fs_plan *p, int format)
{
    if (format == FS_PLAN_JSON) {
        fputs("[\n", out);
        for (int i = 0; i < p->ncand; i++) {
            print_json_one(out, p, i);
            fputs(i + 1 < p->ncand ? ",\n" : "\n", out);
        }
        fputs("]\n", out);
        return;
    }
    if (format == FS_PLAN_CSV) {
        print_csv(out, p);
        return;
    }
    int md = format == FS_PLAN_MARKDOWN;
    char slos[512] = "";
    for (int k = 0; k < p->nslo; k++) {
        char s[96];
        fs_plan_slo_format(&p->slo[k], s, sizeof s);
        snprintf(slos + strlen(slos), sizeof slos - strlen(slos), "%s%s",
                 k ? ", " : "", s);
    }
    fprintf(out, "%splan for workload '", md ? "### " : "");
    put(out, p->workload);
    fputs("' of ", out);
    put(out, p->scenario);
    fputs(" (pool '", out);
    put(out, p->pool);
    fprintf(out, "'): %s; monthly = run rate over a 730-hour month; * = on "
            "the cost-vs-%s frontier\n\n", slos, p->slo[0].metric);
    print_rows(out, p, md);
    print_notes(out, p, md);
    print_counts(out, p, md);
}
