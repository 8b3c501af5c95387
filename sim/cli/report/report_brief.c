/* report_brief.c -- the executive summary that opens `fleetsim report`:
 * what a finance lead reads first, in plain words on one screen.
 *
 *   - a headline: the baseline's monthly run rate (730 hours, said so) and
 *     its bill by calendar month, and each run's change against it;
 *   - at a glance: one row per run (bill by calendar month, run rate,
 *     change against the baseline in $ and %, SLO attainment, unfinished
 *     requests with "overloaded" past 1%);
 *   - the top savings: one run's difference to the baseline, per change,
 *     with the ceilings and options beyond it (report_savings.c);
 *   - the risks: SLO attainment under 99%, unfinished work (requests and
 *     training deadlines), commitments paid for and left idle.
 * Money reads $1,234 (cents under $1,000), counts have separators. */
#include "sim/cli/report/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/vec.h"
#include "sim/store/columns.h"
#include "sim/store/store_changes.h"
#include "sim/store/store_query.h"
#include "models/purchase/purchase.h"
#include "sim/app/summary.h"

#define SLO_WANTED FS_SLO_MET_SHARE  /* under it an SLO is missed: a risk */
#define IDLE_RISK 0.10      /* idle share of a commitment that is a risk */

static const char *const head_glance[] = {
    "Run", "Bill by calendar month", "Monthly run rate (730 h)",
    "Against the baseline", "SLO attainment", "Unfinished requests"};

/* One run's figures. */
typedef struct brief_run {
    const char *name;
    long id;
    double total, rate, horizon, slo, requests, unfinished, share;
    double missed;
} brief_run;

const char *fs_report_money(double usd, int whole, char *buf, size_t size)
{
    char num[64];
    int cents = !(whole && fabs(usd) >= 1000);
    fs_format_thousands(fabs(usd), cents ? 2 : 0, num, sizeof num);
    snprintf(buf, size, "%s$%s", usd < 0 && strspn(num, "0.,") !=
             strlen(num) ? "-" : "", num);
    return buf;
}

int fs_rlines_add(fs_rlines *l, fs_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = fs_report_vappend(&l->v, &l->n, &l->cap, err, fmt, ap);
    va_end(ap);
    return rc;
}

int fs_rbrief_option(fs_rbrief *b, long run_id, const char *key,
                     double monthly, fs_error *err, const char *fmt, ...)
{
    fs_rsaving *s = NULL;
    for (size_t i = 0; i < b->noptions && !s; i++)
        if (strcmp(b->options[i].key, key) == 0)
            s = &b->options[i];
    if (s && s->monthly >= monthly)
        return 0;
    if (!s) {
        fs_rsaving *v = fs_vec_grow(b->options, &b->ocap, b->noptions + 1,
                                    sizeof *v);
        if (!v)
            return fs_error_set(err, "out of memory");
        b->options = v;
        s = &v[b->noptions++];
    }
    snprintf(s->key, sizeof s->key, "%s", key);
    s->monthly = monthly;
    s->run_id = run_id;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->text, sizeof s->text, fmt, ap);
    va_end(ap);
    return 0;
}

static void lines_free(fs_rlines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

void fs_rbrief_free(fs_rbrief *b)
{
    lines_free(&b->headline);
    lines_free(&b->risks);
    lines_free(&b->savings_intro);
    lines_free(&b->further);
    free(b->options);
    for (size_t i = 0; i < b->glance.ncells; i++)
        free(b->glance.cells[i]);
    free(b->glance.cells);
    free(b->savings);
    memset(b, 0, sizeof *b);
}

/* ---- reading ------------------------------------------------------------ */

static double col(const fs_summary *sm, const char *name)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, name) == 0)
            return sm->col[c] ? atof(sm->col[c]) : NAN;
    return NAN;
}

static int read_run(fs_store *s, long id, const char *name, brief_run *b,
                    fs_error *err)
{
    fs_summary sm;
    if (fs_store_summary(s, id, &sm, err))
        return -1;
    *b = (brief_run){name, id, col(&sm, "total_cost_usd"),
                     col(&sm, "cost_per_month_usd"), col(&sm, "horizon_s"),
                     col(&sm, "slo_attainment"), col(&sm, "requests"),
                     col(&sm, "requests_unfinished"),
                     col(&sm, "unfinished_share"),
                     col(&sm, "jobs_missed_deadline")};
    fs_summary_free(&sm);
    return 0;
}

/* The bills line as its months come. */
typedef struct bill_line {
    char *buf;
    size_t size, at;
    int k;
    const char *start;
    double horizon;
} bill_line;

static int bill_month(const fs_row *row, void *ctx, fs_error *err)
{
    (void)err;
    bill_line *l = ctx;
    if (l->at >= l->size)
        return 1;
    const char *month = fs_row_text(row, 0);
    char m[64], part[64] = "";
    double run;
    int days;
    if (++l->k > 3) {
        snprintf(l->buf + l->at, l->size - l->at, "; …");
        return 1;
    }
    fs_month_days(month ? month : "", l->start, l->horizon, &run, &days);
    if (!isnan(run) && days > 0 && run < 1 - 1e-9)
        snprintf(part, sizeof part, " (%.3g hour%s of its %d days "
                 "run)", run * 24, fabs(run * 24 - 1) < 1e-9 ? "" : "s",
                 days);
    else if (!isnan(run) && days > 0 && run < days - 1e-9)
        snprintf(part, sizeof part, " (%.3g of %d days run)", run, days);
    l->at += (size_t)snprintf(l->buf + l->at, l->size - l->at, "%s%s: %s%s",
                              l->k > 1 ? "; " : "", month ? month : "?",
                              fs_report_money(fs_row_double(row, 1), 1, m,
                                              sizeof m), part);
    return 0;
}

/* "2026-01: $48.00 (1 of 31 days run); 2026-02: ..." into buf. */
static void bills(fs_store *s, long id, double horizon, char *buf,
                  size_t size)
{
    buf[0] = '\0';
    char start[40] = "";
    double stored;
    fs_error err;
    if (fs_store_run_start(s, id, start, sizeof start, &stored, &err))
        start[0] = '\0';
    bill_line l = {buf, size, 0, 0, start, horizon};
    fs_query_arg a = {id, NULL, 0};
    fs_store_each(s, FS_Q_MONTHS, &a, bill_month, &l, &err);
    if (!buf[0])
        snprintf(buf, size, "no bill");
}

/* ---- the sections ------------------------------------------------------- */

static const char *change(double v, double b, char *buf, size_t size)
{
    char m[64];
    if (isnan(v) || isnan(b))
        snprintf(buf, size, "—");
    else if (b != 0)
        snprintf(buf, size, "%s%s (%+.1f%%)", v > b ? "+" : "",
                 fs_report_money(v - b, 1, m, sizeof m),
                 100 * (v - b) / b);
    else
        snprintf(buf, size, "%s%s", v > b ? "+" : "",
                 fs_report_money(v - b, 1, m, sizeof m));
    return buf;
}

static int glance_row(fs_store *s, const brief_run *b, const brief_run *base,
                      fs_rtable *t, fs_error *err)
{
    char bill[400], rate[64], ch[96], slo[32], un[96], n[64];
    bills(s, b->id, b->horizon, bill, sizeof bill);
    if (isnan(b->rate))
        snprintf(rate, sizeof rate, "—");
    else
        fs_report_money(b->rate, 1, rate, sizeof rate);
    if (b->id == base->id)
        snprintf(ch, sizeof ch, "the baseline");
    else
        change(b->rate, base->rate, ch, sizeof ch);
    if (isnan(b->slo))
        snprintf(slo, sizeof slo, "no SLO set");
    else
        snprintf(slo, sizeof slo, "%.2f%%", 100 * b->slo);
    fs_format_thousands(isnan(b->unfinished) ? 0 : b->unfinished, 0, n,
                        sizeof n);
    if (!isnan(b->share) && b->share > 0 && b->share < 1e-4)
        snprintf(un, sizeof un, "%s (under 0.01%%)", n);
    else if (!isnan(b->share) && b->share > 0)
        snprintf(un, sizeof un, "%s (%.2f%%)%s", n, 100 * b->share,
                 b->share > FS_OVERLOADED_SHARE ? ", overloaded" : "");
    else
        snprintf(un, sizeof un, "%s", n);
    return fs_rtable_add(t, b->name, err) || fs_rtable_add(t, bill, err) ||
           fs_rtable_add(t, rate, err) || fs_rtable_add(t, ch, err) ||
           fs_rtable_add(t, slo, err) || fs_rtable_add(t, un, err) ? -1 : 0;
}

static int headline(fs_store *s, const brief_run *runs, size_t n,
                    const brief_run *base, fs_rbrief *br, fs_error *err)
{
    char rate[64], bill[400], ch[96];
    bills(s, base->id, base->horizon, bill, sizeof bill);
    if (fs_rlines_add(&br->headline, err, "%s (the baseline) runs at %s a "
                      "month (run rate: its cost scaled to a 730-hour "
                      "month); its bill by calendar month: %s.", base->name,
                      fs_report_money(base->rate, 1, rate, sizeof rate),
                      bill))
        return -1;
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const brief_run *b = &runs[i];
        if (b->id == base->id || isnan(b->rate) || shown == 4)
            continue;
        shown++;
        change(b->rate, base->rate, ch, sizeof ch);
        if (fs_rlines_add(&br->headline, err, "%s runs at %s a month: %s "
                          "against the baseline%s.", b->name,
                          fs_report_money(b->rate, 1, rate, sizeof rate), ch,
                          b->share > FS_OVERLOADED_SHARE ? ", but it is overloaded "
                          "(see the risks)" : ""))
            return -1;
    }
    if (shown == 4 && n > 5)
        return fs_rlines_add(&br->headline, err, "%zu more runs in the "
                             "table below.", n - 5);
    return 0;
}

/* Idle commitments (a risk); an idle on-demand pool is a ceiling
 * (report_ceiling.c). */
static int idle_pools(fs_store *s, const brief_run *b, fs_rbrief *br,
                      fs_error *err)
{
    fs_pool_rate *v;
    size_t n;
    if (fs_store_pool_rates(s, b->id, &v, &n, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char m[64];
        const fs_purchase_option *o = fs_purchase_find(v[i].pricing);
        int committed = o && o->commitment != FS_COMMIT_NONE;
        double share = v[i].rate > 0 ? v[i].idle_rate / v[i].rate : 0;
        if (committed && share > IDLE_RISK)
            rc = fs_rlines_add(&br->risks, err, "Unused commitment: pool %s "
                               "of run %s (%s) sat idle for %.1f%% of what it "
                               "paid for: %s a month (730 h) of commitment "
                               "unused.", v[i].pool, b->name, v[i].pricing,
                               100 * share, fs_report_money(v[i].idle_rate,
                               1, m, sizeof m));
    }
    free(v);
    return rc;
}

/* One workload under the attainment wanted, as a risk line. */
static int slo_risk(const fs_row *row, void *ctx, fs_error *err)
{
    const void *const *c = ctx;
    const brief_run *b = c[0];
    fs_rbrief *br = (fs_rbrief *)c[1];
    const char *w = fs_row_text(row, 0);
    char slo[64];
    fs_format_latency(fs_row_double(row, 1), slo, sizeof slo);
    return fs_rlines_add(&br->risks, err, "SLO missed: workload %s of run "
                         "%s serves %.2f%% of its finished requests within "
                         "its p99 SLO of %s (under %.0f%%).",
                         w ? w : "?", b->name, 100 * fs_row_double(row, 2),
                         slo, 100 * SLO_WANTED) ? -1 : 0;
}

static int slo_risks(fs_store *s, const brief_run *b, fs_rbrief *br,
                     fs_error *err)
{
    const void *ctx[2] = {b, br};
    fs_query_arg a = {b->id, NULL, SLO_WANTED};
    return fs_store_each(s, FS_Q_SLO_MISSED, &a, slo_risk, ctx, err);
}

static int work_risks(const brief_run *b, fs_rbrief *br, fs_error *err)
{
    char n[64];
    if (b->share > FS_OVERLOADED_SHARE &&
        fs_rlines_add(&br->risks, err, "Unfinished work: run %s left %s "
                      "requests (%.2f%% of those that arrived) unfinished "
                      "at the horizon or dropped: it is overloaded, and its "
                      "latency figures cover finished requests only.",
                      b->name, fs_format_thousands(b->unfinished, 0, n,
                                                   sizeof n),
                      100 * b->share))
        return -1;
    if (b->missed > 0 &&
        fs_rlines_add(&br->risks, err, "Unfinished work: %s training "
                      "job(s) of run %s missed their deadline.",
                      fs_format_thousands(b->missed, 0, n, sizeof n),
                      b->name))
        return -1;
    return 0;
}

int fs_report_gather_brief(fs_store *s, const long *ids, size_t n,
                           long base, fs_report *r, fs_error *err)
{
    fs_rbrief *br = &r->brief;
    br->glance.title = "At a glance";
    br->glance.intro = "Each run's bill by calendar month, its monthly run "
                       "rate (its cost scaled to a 730-hour month), its "
                       "change against the baseline, and how well it "
                       "served.";
    br->glance.ncols = 6;
    br->glance.head = head_glance;
    brief_run *runs = calloc(n ? n : 1, sizeof *runs), b0;
    int rc = runs ? 0 : fs_error_set(err, "out of memory");
    const brief_run *pb = NULL;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = read_run(s, ids[i], r->run_names[i], &runs[i], err);
        if (ids[i] == base)
            pb = &runs[i];
    }
    if (rc == 0 && !pb) {
        rc = read_run(s, base, r->baseline_name, &b0, err);
        pb = &b0;
    }
    if (rc == 0)
        rc = headline(s, runs, n, pb, br, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = glance_row(s, &runs[i], pb, &br->glance, err) ||
             slo_risks(s, &runs[i], br, err) ||
             work_risks(&runs[i], br, err) ||
             idle_pools(s, &runs[i], br, err) ? -1 : 0;
    if (rc == 0 && br->risks.n == 0)
        rc = fs_rlines_add(&br->risks, err, "No risk found in these runs: "
                           "every SLO met for at least %.0f%% of requests, "
                           "every request finished, no commitment left "
                           "idle.", 100 * SLO_WANTED);
    free(runs);
    return rc;
}
