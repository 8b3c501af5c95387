/* commit_out.c -- `fleetsim commit`'s answer as a table, CSV, JSON
 * (jansson) or Markdown: the portfolio (each reservation option bought,
 * each savings plan, and the plans' covered usage per pool), then the
 * expected cost over the runs in its parts, which add up to it, its
 * p10/p50/p90 across the runs, the same runs all on demand and with the
 * sum of roi's one-pool answers, and the unused commitment's share.
 *
 * Each format prints the same rows (what rows[] and costs[] hold), so
 * that one test of the parts covers them all. */
#include "sim/cli/commit/commit.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/portfolio.h"
#include "models/purchase/purchase.h"

/* One line of the portfolio. */
typedef struct out_row {
    const char *kind;     /* the option's name (a count, a spend), "plan-pool" */
    char item[200];       /* the instance type, or the pool */
    const char *term, *upfront;
    double count;         /* instances (reserved), NaN otherwise */
    double usd_h;         /* the commitment: hourly $ (reserved: count x
                             recurring; plan: the $ an hour) */
    double upfront_usd;   /* count x upfront, for the term */
    double covered_h;     /* instance-hours covered, mean over runs */
    double covered_usd;   /* the commitment's $ used on them, mean */
    double coverage;      /* of the demand it may cover */
    double utilization;   /* of the commitment */
} out_row;

typedef struct out_cost {
    const char *name;
    double usd;
} out_cost;

static const char *const upfronts[] = {"none", "partial", "all"};

/* With --horizon: the same over the horizon's slots, from the solution
 * (each pool's demand is what it got reserved, from plans and on demand). */
static double horizon_demand(const fs_commit_inputs *in,
                             const fs_pf_solution *s, size_t g, int t)
{
    double sum = 0;
    for (size_t q = 0; q < in->npools; q++) {
        if (g == (size_t)-1 ? isnan(in->pools[q].plan_rate[t])
                            : in->pools[q].group != g)
            continue;
        sum += s->pool_reserved_hours[q] + s->pool_on_demand_hours[q];
        for (int k = 0; k < FS_PF_PLANS; k++)
            sum += s->pool_plan_hours[q * FS_PF_PLANS + k];
    }
    return sum;
}

/* The hours a commitment is weighed over: the horizon's, else a run's
 * (the mean over the runs). */
static double span_hours(const fs_commit_inputs *in)
{
    double hours = 0;
    if (in->problem.horizon_months)
        return 730.0 * in->problem.horizon_months;
    for (size_t r = 0; r < in->nruns; r++)
        hours += (double)in->hours[r] / (double)in->nruns;
    return hours;
}

/* Mean over the runs of group g's (or, g == SIZE_MAX, the plan-eligible
 * pools' of plan t) demand in instance-hours. */
static double demand_hours(const fs_commit_inputs *in,
                           const fs_pf_solution *s, size_t g, int t)
{
    double sum = 0;
    if (in->problem.horizon_months)
        return horizon_demand(in, s, g, t);
    for (size_t r = 0; r < in->nruns; r++)
        for (size_t q = 0; q < in->npools; q++) {
            int in_scope = g == (size_t)-1
                ? !isnan(in->pools[q].plan_rate[t])
                : in->pools[q].group == g;
            for (size_t h = 0; in_scope && h < in->hours[r]; h++)
                sum += in->demand[r * in->npools + q][h];
        }
    return sum / (double)in->nruns;
}

static size_t reserved_rows(const fs_commit_inputs *in,
                            const fs_pf_solution *s, out_row *rows)
{
    size_t n = 0;
    double hours = span_hours(in);
    for (size_t o = 0; o < in->noptions; o++) {
        const fs_pf_option *op = &in->options[o];
        if (s->count[o] <= 0)
            continue;
        out_row *w = &rows[n++];
        double k = (double)s->count[o], dh = demand_hours(in, s, op->group, 0);
        *w = (out_row){fs_purchase_committing(FS_COMMIT_COUNT)->name, "", op->term_months == 36 ? "3y" : "1y",
                       upfronts[op->upfront_kind], k, k * op->hourly,
                       k * op->upfront, s->option_used[o],
                       s->option_used[o] * fs_pf_amortized(op), dh > 0 ? s->option_used[o] / dh : NAN,
                       s->option_used[o] / (k * hours)};
        snprintf(w->item, sizeof w->item, "%s", in->group_names[op->group]);
    }
    return n;
}

/* The plans bought, and under each the pools whose usage it covers. */
static size_t plan_rows(const fs_commit_inputs *in, const fs_pf_solution *s,
                        out_row *rows)
{
    size_t n = 0;
    for (int t = 0; t < FS_PF_PLANS; t++) {
        if (s->plan[t] <= 1e-9)
            continue;
        const char *term = t ? "3y" : "1y";
        out_row *plan = &rows[n++];
        double covered = 0, dollars = 0;
        for (size_t q = 0; q < in->npools; q++) {
            double hq = s->pool_plan_hours[q * FS_PF_PLANS + t];
            if (hq <= 1e-9)
                continue;
            out_row *w = &rows[n++];
            double usd = hq * in->pools[q].plan_rate[t];
            *w = (out_row){"plan-pool", "", term, "none", NAN, NAN, NAN, hq,
                           usd, NAN, NAN};
            snprintf(w->item, sizeof w->item, "%s", in->pool_names[q]);
            covered += hq;
            dollars += usd;
        }
        double hours = span_hours(in), dh = demand_hours(in, s, (size_t)-1,
                                                         t);
        *plan = (out_row){fs_purchase_committing(FS_COMMIT_SPEND)->name,
                          "any eligible pool", term, "none",
                          NAN, s->plan[t], 0, covered, dollars, dh > 0 ? covered / dh : NAN,
                          dollars / (s->plan[t] * hours)};
        snprintf(plan->item, sizeof plan->item, "any eligible pool");
    }
    return n;
}

/* The quantile q of the runs' totals (GSL, linear interpolation). */
static double quantile(const double *v, size_t n, double q)
{
    double *c = malloc(n * sizeof *c);
    if (!c)
        return NAN;
    memcpy(c, v, n * sizeof *c);
    gsl_sort(c, 1, n);
    double x = gsl_stats_quantile_from_sorted_data(c, 1, n, q);
    free(c);
    return x;
}

/* The runs' unused commitment as shares of the commitment (0 with none). */
static void unused_shares(const fs_pf_solution *s, size_t n, double *out)
{
    for (size_t r = 0; r < n; r++)
        out[r] = s->run_committed[r] > 0
                 ? s->run_unused[r] / s->run_committed[r] : 0;
}

/* With --horizon: the horizon, the rate, the program's size, and each
 * term's NPV and break-even month where one was bought. */
static size_t horizon_lines(const fs_commit_inputs *in,
                            const fs_pf_solution *s, out_cost *c)
{
    static const char *const npv[] = {"npv_1y", "npv_3y"};
    static const char *const be[] = {"breakeven_month_1y",
                                     "breakeven_month_3y"};
    size_t k = 0;
    c[k++] = (out_cost){"horizon_months", in->problem.horizon_months};
    c[k++] = (out_cost){"discount_rate", in->problem.discount_rate};
    c[k++] = (out_cost){"growth_mean", gsl_stats_mean(in->growth, 1,
                                                      in->nruns)};
    c[k++] = (out_cost){"slots", (double)s->slots};
    for (int t = 0; t < FS_PF_PLANS; t++) {
        if (!isnan(s->term_npv[t]))
            c[k++] = (out_cost){npv[t], s->term_npv[t]};
        if (!isnan(s->term_breakeven[t]))
            c[k++] = (out_cost){be[t], s->term_breakeven[t]};
    }
    return k;
}

/* The cost lines: the expected total, its parts, the spread, the
 * alternatives and the risk.  Returns how many. */
static size_t cost_lines(const fs_commit_inputs *in, const fs_pf_solution *s,
                         out_cost *c, double *shares)
{
    size_t n = in->nruns, k = 0;
    double total = gsl_stats_mean(s->run_cost, 1, n);
    int long_view = in->problem.horizon_months > 0;
    double od = gsl_stats_mean(long_view ? s->run_all_on_demand
                                         : in->on_demand_cost, 1, n);
    double roi = gsl_stats_mean(in->roi_cost, 1, n);
    unused_shares(s, n, shares);
    c[k++] = (out_cost){"expected_total", total};
    c[k++] = (out_cost){"reservations", gsl_stats_mean(s->run_reserved, 1, n)};
    c[k++] = (out_cost){"savings_plans", gsl_stats_mean(s->run_plan, 1, n)};
    c[k++] = (out_cost){"on_demand", gsl_stats_mean(s->run_on_demand, 1, n)};
    c[k++] = (out_cost){"p10", quantile(s->run_cost, n, 0.10)};
    c[k++] = (out_cost){"p50", quantile(s->run_cost, n, 0.50)};
    c[k++] = (out_cost){"p90", quantile(s->run_cost, n, 0.90)};
    c[k++] = (out_cost){"all_on_demand", od};
    if (!long_view)   /* roi answers over the run's hours only */
        c[k++] = (out_cost){"roi_per_pool_sum", roi};
    c[k++] = (out_cost){"saving_vs_on_demand", od - total};
    if (!long_view)
        c[k++] = (out_cost){"saving_vs_roi", roi - total};
    c[k++] = (out_cost){"unused_share_p90", quantile(shares, n, 0.90)};
    c[k++] = (out_cost){"unused_share_max", quantile(shares, n, 1.0)};
    if (in->problem.risk) {
        c[k++] = (out_cost){"risk_bound", in->problem.risk_bound};
        c[k++] = (out_cost){"risk_quantile", in->problem.risk_quantile};
        c[k++] = (out_cost){"unused_share_at_risk_quantile",
                            quantile(shares, n, in->problem.risk_quantile)};
    }
    if (long_view)
        k += horizon_lines(in, s, c + k);
    return k;
}

#define NCOLS 11
static const char *const columns[NCOLS] = {
    "kind", "item", "term", "upfront", "count", "usd_h", "upfront_usd",
    "covered_instance_hours", "covered_usd", "coverage", "utilization"};

/* Row w's cell i as text ("" for what does not apply): rounded to the
 * cent (counts whole, shares 4 decimals), or with precise, 12 digits. */
static void cell(const out_row *w, int i, int precise, char *buf,
                 size_t len)
{
    double v[] = {0, 0, 0, 0, w->count, w->usd_h, w->upfront_usd,
                  w->covered_h, w->covered_usd, w->coverage, w->utilization};
    const char *t[] = {w->kind, w->item, w->term, w->upfront};
    if (i < 4)
        snprintf(buf, len, "%s", t[i]);
    else if (isnan(v[i]))
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, precise ? "%.12g" : i == 4 ? "%.0f"
                 : i >= 9 ? "%.4f" : "%.2f", v[i]);
}

static void print_text(FILE *out, int md, const out_row *rows, size_t n,
                       const out_cost *c, size_t nc)
{
    char buf[256];
    const char *sep = md ? " | " : "  ";
    fputs(md ? "| " : "", out);
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", columns[i], i + 1 < NCOLS ? sep : "");
    fputs(md ? " |\n|" : "\n", out);
    for (int i = 0; md && i < NCOLS; i++)
        fputs("---|", out);
    fputs(md ? "\n" : "", out);
    for (size_t r = 0; r < n; r++) {
        fputs(md ? "| " : "", out);
        for (int i = 0; i < NCOLS; i++) {
            cell(&rows[r], i, 0, buf, sizeof buf);
            fprintf(out, "%s%s", md && !*buf ? "-" : buf,
                    i + 1 < NCOLS ? sep : "");
        }
        fputs(md ? " |\n" : "\n", out);
    }
    if (n == 0)
        fputs(md ? "| (nothing to commit: all on demand) |\n"
                 : "(nothing to commit: all on demand)\n", out);
    fputs(md ? "\n| cost | usd |\n|---|---|\n" : "\n", out);
    for (size_t i = 0; i < nc; i++)
        fprintf(out, md ? "| %s | %.4f |\n" : "%-30s %14.4f\n", c[i].name,
                c[i].usd);
}

static void print_csv(FILE *out, const out_row *rows, size_t n,
                      const out_cost *c, size_t nc)
{
    char buf[256];
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", columns[i], i + 1 < NCOLS ? "," : "\n");
    for (size_t r = 0; r < n; r++)
        for (int i = 0; i < NCOLS; i++) {
            cell(&rows[r], i, 0, buf, sizeof buf);
            fprintf(out, "%s%s%s%s", i == 1 ? "\"" : "", buf,
                    i == 1 ? "\"" : "", i + 1 < NCOLS ? "," : "\n");
        }
    for (size_t i = 0; i < nc; i++)   /* the cost lines, kind "cost" */
        fprintf(out, "cost,%s,,,,,,,%.4f,,\n", c[i].name, c[i].usd);
}

static json_t *json_cell(const out_row *w, int i)
{
    char buf[256];
    cell(w, i, 1, buf, sizeof buf);
    if (i < 4)
        return json_string(buf);
    return *buf ? json_real(strtod(buf, NULL)) : json_null();
}

static void print_json(FILE *out, const out_row *rows, size_t n,
                       const out_cost *c, size_t nc)
{
    json_t *root = json_object(), *list = json_array(), *cost = json_object();
    for (size_t r = 0; r < n; r++) {
        json_t *o = json_object();
        for (int i = 0; i < NCOLS; i++)
            json_object_set_new(o, columns[i], json_cell(&rows[r], i));
        json_array_append_new(list, o);
    }
    for (size_t i = 0; i < nc; i++)
        json_object_set_new(cost, c[i].name, json_real(c[i].usd));
    json_object_set_new(root, "portfolio", list);
    json_object_set_new(root, "cost", cost);
    json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                          JSON_REAL_PRECISION(12));
    fputc('\n', out);
    json_decref(root);
}

void fs_commit_print(FILE *out, int fmt, const fs_commit_inputs *in,
                     const fs_pf_solution *sol)
{
    size_t cap = in->noptions + FS_PF_PLANS * (in->npools + 1) + 1;
    out_row *rows = calloc(cap, sizeof *rows);
    double *shares = calloc(in->nruns, sizeof *shares);
    out_cost costs[32];
    if (!rows || !shares) {
        free(rows);
        free(shares);
        return;
    }
    size_t n = reserved_rows(in, sol, rows);
    n += plan_rows(in, sol, rows + n);
    size_t nc = cost_lines(in, sol, costs, shares);
    if (fmt == FS_COMMIT_CSV)
        print_csv(out, rows, n, costs, nc);
    else if (fmt == FS_COMMIT_JSON)
        print_json(out, rows, n, costs, nc);
    else
        print_text(out, fmt == FS_COMMIT_MARKDOWN, rows, n, costs, nc);
    free(rows);
    free(shares);
}
