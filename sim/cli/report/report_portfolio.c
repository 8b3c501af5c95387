/* report_portfolio.c -- the report's commitment portfolio: tables 8 and
 * 9, what `fleetsim commit RUN...` answers for the report's runs (the
 * same inputs and solve, sim/app/commit_inputs.h, and the same rows and
 * cost lines, sim/app/commit_rows.h, so the two agree to the cent): the
 * buys as commit's table shows them, then the expected cost in its parts
 * (reservations, savings plans and on demand add up to it), its
 * p10/p50/p90 across the runs, against all on demand and the sum of
 * roi's one-pool answers.  Only when asked for (`report --portfolio`, or
 * one of commit's options --risk, --horizon, --discount-rate, which it
 * passes to the same solve): a program is solved only then, once, and
 * the portfolio-cost chart draws that solve.  Left out when the runs hold
 * no pool a reservation or savings plan could cover. */
#include "sim/cli/report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/commit_inputs.h"
#include "sim/app/commit_rows.h"

static const char *const head_buys[] = {
    "Kind", "Item", "Term", "Upfront", "Count", "$ an hour", "Upfront ($)",
    "Covered instance-hours", "Covered ($)", "Coverage", "Utilization",
};

static const char *const head_costs[] = {"Cost", "Amount ($)"};

/* The cost lines the section shows: commit's name, the reader's label
 * (money, but for the shares, rates and months: plain_format).  Those
 * commit leaves out (roi's with a horizon, the bound's without one) are
 * left out here too. */
static const struct {
    const char *name, *label;
} shown[] = {
    {"expected_total", "Expected total (mean over the runs)"},
    {"reservations", "Reservations (upfront amortized)"},
    {"savings_plans", "Savings plans"},
    {"on_demand", "On demand (the rest)"},
    {"p10", "p10 across the runs"},
    {"p50", "p50 across the runs"},
    {"p90", "p90 across the runs"},
    {"all_on_demand", "All on demand"},
    {"roi_per_pool_sum", "roi's per-pool answers, summed"},
    {"saving_vs_on_demand", "Saving against all on demand"},
    {"saving_vs_roi", "Saving against roi's per-pool answers"},
    {"unused_share_p90", "Unused share of the commitment, p90"},
    {"risk_bound", "Risk bound (unused share)"},
    {"unused_share_at_risk_quantile",
     "Unused share at the bound's percentile"},
    {"horizon_months", "Horizon (months of 730 h)"},
    {"discount_rate", "Discount rate a year"},
    {"npv_1y", "NPV of the 1-year commitments"},
    {"npv_3y", "NPV of the 3-year commitments"},
    {"breakeven_month_1y", "Break-even month, 1-year"},
    {"breakeven_month_3y", "Break-even month, 3-year"},
};

/* How a line that is not money reads: a month as a whole number, a
 * share or a rate to 4 decimals (as commit's csv); NULL: money. */
static const char *plain_format(const char *name)
{
    if (strstr(name, "month"))
        return "%.0f";
    if (strstr(name, "share") || strstr(name, "rate") ||
        strstr(name, "bound"))
        return "%.4f";
    return NULL;
}

/* A number as commit's table prints it ("" where it does not apply). */
static int add_num(fs_rtable *t, double v, const char *fmt, fs_error *err)
{
    return isnan(v) ? fs_rtable_add(t, "", err)
                    : fs_rtable_addf(t, err, fmt, v);
}

static int add_row(fs_rtable *t, const fs_commit_row *w, fs_error *err)
{
    char m[64];
    return fs_rtable_addf(t, err, "%s", w->kind) ||
           fs_rtable_addf(t, err, "%s", w->item) ||
           fs_rtable_addf(t, err, "%s", w->term) ||
           fs_rtable_addf(t, err, "%s", w->upfront) ||
           add_num(t, w->count, "%.0f", err) ||
           add_num(t, w->usd_h, "%.2f", err) ||
           (isnan(w->upfront_usd) ? fs_rtable_add(t, "", err)
            : fs_rtable_addf(t, err, "%s", fs_report_money(w->upfront_usd,
                                                           0, m, sizeof m))) ||
           add_num(t, w->covered_h, "%.2f", err) ||
           fs_rtable_addf(t, err, "%s", fs_report_money(w->covered_usd, 0, m,
                                                        sizeof m)) ||
           add_num(t, w->coverage, "%.4f", err) ||
           add_num(t, w->utilization, "%.4f", err) ? -1 : 0;
}

static int add_costs(fs_rtable *t, const fs_commit_cost *c, size_t nc,
                     fs_error *err)
{
    char m[64];
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++)
        for (size_t i = 0; i < nc; i++)
            if (!strcmp(c[i].name, shown[k].name) &&
                (fs_rtable_addf(t, err, "%s", shown[k].label) ||
                 (plain_format(c[i].name)
                  ? add_num(t, c[i].usd, plain_format(c[i].name), err)
                  : fs_rtable_addf(t, err, "%s", fs_report_money(
                        c[i].usd, 0, m, sizeof m)))))
                return -1;
    return 0;
}

static int fill(fs_report *r, const fs_commit_inputs *in,
                const fs_pf_solution *sol, fs_error *err)
{
    fs_commit_row *rows = calloc(fs_commit_rows_max(in), sizeof *rows);
    double *shares = calloc(in->nruns, sizeof *shares);
    fs_commit_cost c[FS_COMMIT_COSTS_MAX];
    int rc = rows && shares ? 0 : fs_error_set(err, "out of memory");
    size_t n = rc ? 0 : fs_commit_rows(in, sol, rows);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = add_row(&r->tables[8], &rows[i], err);
    if (rc == 0)
        rc = add_costs(&r->tables[9], c, fs_commit_costs(in, sol, c, shares),
                       err);
    free(rows);
    free(shares);
    return rc;
}

static void setup_tables(fs_report *r, int long_view)
{
    fs_rtable_setup(&r->tables[8], "Commitment portfolio",
                    "What `fleetsim commit` on these runs buys at once "
                    "over every pool (reservations by instance type, "
                    "savings plans in $ an hour, the pools each plan "
                    "covers), solved as one mixed-integer program on "
                    "the runs' hourly demand.", 11, head_buys);
    fs_rtable_setup(&r->tables[9], "Portfolio cost", long_view
                    ? "The portfolio's expected cost over the horizon, "
                      "each run's demand grown by its own rate: "
                      "reservations, savings plans and on demand add up "
                      "to the expected total; p10, p50 and p90 across the "
                      "runs; against all on demand; each term's NPV and "
                      "break-even month."
                    : "The portfolio's expected cost over the runs' hours: "
                      "reservations, savings plans and on demand add up "
                      "to the expected total; p10, p50 and p90 across the "
                      "runs; against all on demand and the sum of roi's "
                      "per-pool answers.", 2, head_costs);
    r->tables[8].optional = 1;   /* nothing bought: the costs alone */
}

int fs_report_gather_portfolio(fs_store *s, const long *ids, size_t n,
                               fs_report *r, fs_error *err)
{
    if (!r->portfolio)
        return 0;   /* not asked for: no program solved */
    fs_error why = {0};
    int rc = fs_commit_solve_ids(s, ids, n, r->portfolio, &r->pf_in,
                                 &r->pf_sol, &why);
    if (rc < 0)
        return fs_error_set(err, "report: %s", why.msg);
    if (rc > 0)
        return 0;   /* nothing to commit: no section, no chart */
    r->pf_solved = 1;
    setup_tables(r, r->portfolio->horizon_months > 0);
    return fill(r, &r->pf_in, &r->pf_sol, err);
}

void fs_report_portfolio_free(fs_report *r)
{
    if (r->pf_solved)   /* a failed solve frees its own answer */
        fs_pf_solution_free(&r->pf_sol);
    fs_commit_inputs_free(&r->pf_in);
}
