/* commit_rows.c -- a commitment portfolio's answer as rows and cost
 * lines: the portfolio (each reservation option bought, each savings
 * plan, and the plans' covered usage per pool), then the expected cost
 * over the runs in its parts, which add up to it, its p10/p50/p90 across
 * the runs, the same runs all on demand and with the sum of roi's
 * one-pool answers, and the unused commitment's share.  `commit` prints
 * them in its formats (commit_out.c), the report as its portfolio
 * section, so the two agree to the cent. */
#include "sim/app/commit_rows.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/portfolio.h"
#include "models/purchase/purchase.h"

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
                            const fs_pf_solution *s, fs_commit_row *rows)
{
    size_t n = 0;
    double hours = span_hours(in);
    for (size_t o = 0; o < in->noptions; o++) {
        const fs_pf_option *op = &in->options[o];
        if (s->count[o] <= 0)
            continue;
        fs_commit_row *w = &rows[n++];
        double k = (double)s->count[o], dh = demand_hours(in, s, op->group, 0);
        *w = (fs_commit_row){fs_purchase_committing(FS_COMMIT_COUNT)->name, "", op->term_months == 36 ? "3y" : "1y",
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
                        fs_commit_row *rows)
{
    size_t n = 0;
    for (int t = 0; t < FS_PF_PLANS; t++) {
        if (s->plan[t] <= 1e-9)
            continue;
        const char *term = t ? "3y" : "1y";
        fs_commit_row *plan = &rows[n++];
        double covered = 0, dollars = 0;
        for (size_t q = 0; q < in->npools; q++) {
            double hq = s->pool_plan_hours[q * FS_PF_PLANS + t];
            if (hq <= 1e-9)
                continue;
            fs_commit_row *w = &rows[n++];
            double usd = hq * in->pools[q].plan_rate[t];
            *w = (fs_commit_row){"plan-pool", "", term, "none", NAN, NAN, NAN, hq,
                           usd, NAN, NAN};
            snprintf(w->item, sizeof w->item, "%s", in->pool_names[q]);
            covered += hq;
            dollars += usd;
        }
        double hours = span_hours(in), dh = demand_hours(in, s, (size_t)-1,
                                                         t);
        *plan = (fs_commit_row){fs_purchase_committing(FS_COMMIT_SPEND)->name,
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
                            const fs_pf_solution *s, fs_commit_cost *c)
{
    static const char *const npv[] = {"npv_1y", "npv_3y"};
    static const char *const be[] = {"breakeven_month_1y",
                                     "breakeven_month_3y"};
    size_t k = 0;
    c[k++] = (fs_commit_cost){"horizon_months", in->problem.horizon_months};
    c[k++] = (fs_commit_cost){"discount_rate", in->problem.discount_rate};
    c[k++] = (fs_commit_cost){"growth_mean", gsl_stats_mean(in->growth, 1,
                                                      in->nruns)};
    c[k++] = (fs_commit_cost){"slots", (double)s->slots};
    for (int t = 0; t < FS_PF_PLANS; t++) {
        if (!isnan(s->term_npv[t]))
            c[k++] = (fs_commit_cost){npv[t], s->term_npv[t]};
        if (!isnan(s->term_breakeven[t]))
            c[k++] = (fs_commit_cost){be[t], s->term_breakeven[t]};
    }
    return k;
}

size_t fs_commit_costs(const fs_commit_inputs *in, const fs_pf_solution *s,
                       fs_commit_cost *c, double *shares)
{
    size_t n = in->nruns, k = 0;
    double total = gsl_stats_mean(s->run_cost, 1, n);
    int long_view = in->problem.horizon_months > 0;
    double od = gsl_stats_mean(long_view ? s->run_all_on_demand
                                         : in->on_demand_cost, 1, n);
    double roi = gsl_stats_mean(in->roi_cost, 1, n);
    unused_shares(s, n, shares);
    c[k++] = (fs_commit_cost){"expected_total", total};
    c[k++] = (fs_commit_cost){"reservations", gsl_stats_mean(s->run_reserved, 1, n)};
    c[k++] = (fs_commit_cost){"savings_plans", gsl_stats_mean(s->run_plan, 1, n)};
    c[k++] = (fs_commit_cost){"on_demand", gsl_stats_mean(s->run_on_demand, 1, n)};
    c[k++] = (fs_commit_cost){"p10", quantile(s->run_cost, n, 0.10)};
    c[k++] = (fs_commit_cost){"p50", quantile(s->run_cost, n, 0.50)};
    c[k++] = (fs_commit_cost){"p90", quantile(s->run_cost, n, 0.90)};
    c[k++] = (fs_commit_cost){"all_on_demand", od};
    if (!long_view)   /* roi answers over the run's hours only */
        c[k++] = (fs_commit_cost){"roi_per_pool_sum", roi};
    c[k++] = (fs_commit_cost){"saving_vs_on_demand", od - total};
    if (!long_view)
        c[k++] = (fs_commit_cost){"saving_vs_roi", roi - total};
    c[k++] = (fs_commit_cost){"unused_share_p90", quantile(shares, n, 0.90)};
    c[k++] = (fs_commit_cost){"unused_share_max", quantile(shares, n, 1.0)};
    if (in->problem.risk) {
        c[k++] = (fs_commit_cost){"risk_bound", in->problem.risk_bound};
        c[k++] = (fs_commit_cost){"risk_quantile", in->problem.risk_quantile};
        c[k++] = (fs_commit_cost){"unused_share_at_risk_quantile",
                            quantile(shares, n, in->problem.risk_quantile)};
    }
    if (long_view)
        k += horizon_lines(in, s, c + k);
    return k;
}


size_t fs_commit_rows_max(const fs_commit_inputs *in)
{
    return in->noptions + FS_PF_PLANS * (in->npools + 1) + 1;
}

size_t fs_commit_rows(const fs_commit_inputs *in, const fs_pf_solution *s,
                      fs_commit_row *rows)
{
    size_t n = reserved_rows(in, s, rows);
    return n + plan_rows(in, s, rows + n);
}
