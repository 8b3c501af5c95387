/* chart_portfolio.c -- data of `portfolio-cost`: each run's cost over its
 * hours under the commitment portfolio `fleetsim commit` chooses for all
 * the runs at once (sim/app/commit_inputs.h, the same solve, so the bars
 * are commit's figures), beside the same run all on demand and with the
 * sum of roi's one-pool answers; the portfolio's p10, p50 and p90 across
 * the runs (commit's cost lines, sim/app/commit_rows.h) drawn as lines.
 *
 * Data: x, portfolio, all on demand, roi's per-pool sum.
 * Preamble: label[] (the runs), nruns, p10, p50, p90, money axis. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/commit_inputs.h"
#include "sim/app/commit_rows.h"

/* Cost line name of commit's (p10, p50, p90: commit's own figures). */
static double cost_line(const fs_commit_cost *c, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, name))
            return c[i].usd;
    return NAN;
}

static int write_runs(fs_plot_ctx *ctx, const fs_commit_inputs *in,
                      const fs_pf_solution *sol)
{
    fs_plot_strs labels = {0};
    char name[512];
    double max = 0;
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < in->nruns; r++) {
        rc = fs_plot_run_name(ctx, in->run_ids[r], name, sizeof name);
        if (rc == 0 && fs_plot_strs_push(&labels, name) != 0)
            rc = fs_error_set(ctx->err, "out of memory");
        fprintf(ctx->data, "%zu\t", r + 1);
        /* over a horizon: all on demand over it; roi answers for the
         * run's hours only, so no bar */
        int long_view = in->problem.horizon_months > 0;
        double od = long_view ? sol->run_all_on_demand[r]
                              : in->on_demand_cost[r];
        double roi = long_view ? NAN : in->roi_cost[r];
        fs_plot_num(ctx->data, sol->run_cost[r], "\t");
        fs_plot_num(ctx->data, od, "\t");
        fs_plot_num(ctx->data, roi, "\n");
        max = fmax(max, fmax(sol->run_cost[r], fmax(od, long_view ? 0
                                                                  : roi)));
    }
    double *shares = calloc(in->nruns, sizeof *shares);
    fs_commit_cost c[FS_COMMIT_COSTS_MAX];
    if (rc == 0 && !shares)
        rc = fs_error_set(ctx->err, "out of memory");
    if (rc == 0) {
        size_t nc = fs_commit_costs(in, sol, c, shares);
        fs_plot_names(ctx, "label", (const char *const *)labels.v, labels.n);
        fs_plot_var(ctx, "nruns", (double)in->nruns);
        fs_plot_var(ctx, "p10", cost_line(c, nc, "p10"));
        fs_plot_var(ctx, "p50", cost_line(c, nc, "p50"));
        fs_plot_var(ctx, "p90", cost_line(c, nc, "p90"));
        fs_plot_var(ctx, "horizon_months", in->problem.horizon_months);
        fs_plot_money_axis(ctx, max);
    }
    free(shares);
    fs_plot_strs_free(&labels);
    return rc;
}

int fs_chart_portfolio(fs_plot_ctx *ctx)
{
    fs_commit_inputs in;
    fs_pf_solution sol;
    if (ctx->rq->portfolio_off)
        return fs_error_set(ctx->err, "portfolio-cost: not asked for "
                            "(report --portfolio)");
    if (ctx->rq->portfolio_sol)   /* the report's own solve */
        return write_runs(ctx, ctx->rq->portfolio_in, ctx->rq->portfolio_sol);
    int rc = fs_commit_solve_ids(ctx->store, ctx->rq->run_ids,
                                 ctx->rq->nruns, NULL, &in, &sol, ctx->err);
    if (rc == 1) {
        char why[sizeof ctx->err->msg];
        snprintf(why, sizeof why, "%s", ctx->err->msg);
        fs_error_set(ctx->err, "portfolio-cost: nothing these runs could "
                     "commit%s%s", *why ? ": " : "", why);
    }
    if (rc == 0) {
        rc = write_runs(ctx, &in, &sol);
        fs_pf_solution_free(&sol);
    }
    fs_commit_inputs_free(&in);
    return rc ? -1 : 0;
}
