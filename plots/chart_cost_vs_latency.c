/* chart_cost_vs_latency.c -- data of `cost-vs-latency`: each run as a
 * point, p99 latency (run_summary.latency_p99_s, over all its requests)
 * against its run-rate cost (cost_per_month_usd: the horizon's cost scaled
 * to a 730-hour month); the Pareto front joins the runs that no other run
 * beats on both (lower or equal cost and p99, one strictly lower).
 *
 * Data: block 0: p99, cost, run index (into runs[]); block 1: the front,
 * sorted by p99.  Preamble: runs[], px[], py[], pr[] (the points again,
 * for their labels), npoints, money axis.  Runs without a p99 (no
 * requests) are left out; none with one is an error. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct point {
    double p99, cost;
    size_t run;
} point;

static int by_p99(const void *a, const void *b)
{
    const point *x = a, *y = b;
    if (x->p99 != y->p99)
        return x->p99 < y->p99 ? -1 : 1;
    if (x->cost != y->cost)
        return x->cost < y->cost ? -1 : 1;
    return x->run < y->run ? -1 : x->run > y->run;
}

static int dominated(const point *pt, size_t n, size_t i)
{
    for (size_t j = 0; j < n; j++)
        if (j != i && pt[j].p99 <= pt[i].p99 && pt[j].cost <= pt[i].cost &&
            (pt[j].p99 < pt[i].p99 || pt[j].cost < pt[i].cost))
            return 1;
    return 0;
}

int fs_chart_cost_vs_latency(fs_plot_ctx *ctx)
{
    size_t n = ctx->rq->nruns, m = 0;
    point *pt = calloc(n, sizeof *pt);
    char **names = calloc(n, sizeof *names);
    int rc = pt && names ? 0 : fs_error_set(ctx->err, "out of memory");
    double max = 0;
    for (size_t r = 0; rc == 0 && r < n; r++) {
        long id = ctx->rq->run_ids[r];
        char name[512];
        double p99, cost;
        rc = fs_plot_run_name(ctx, id, name, sizeof name);
        if (rc == 0)
            rc = fs_plot_summary_num(ctx, id, "latency_p99_s", &p99);
        if (rc == 0)
            rc = fs_plot_summary_num(ctx, id, "cost_per_month_usd", &cost);
        if (rc != 0)
            break;
        names[r] = strdup(name);
        if (isnan(p99) || isnan(cost))
            continue;
        pt[m++] = (point){p99, cost, r};
        if (cost > max)
            max = cost;
    }
    if (rc == 0 && m == 0)
        rc = fs_error_set(ctx->err, "cost-vs-latency: no run has a p99 "
                          "latency (no requests served)");
    if (rc == 0) {
        for (size_t i = 0; i < m; i++) {
            fs_plot_num(ctx->data, pt[i].p99, "\t");
            fs_plot_num(ctx->data, pt[i].cost, "\t");
            fprintf(ctx->data, "%zu\n", pt[i].run + 1);
        }
        /* The points again, for the labels (set label keeps every
         * character of a name; `with labels` drops backslashes). */
        fprintf(ctx->vars, "npoints = %zu\narray px[%zu]\narray py[%zu]\n"
                "array pr[%zu]\n", m, m, m, m);
        for (size_t i = 0; i < m; i++)
            fprintf(ctx->vars, "px[%zu] = %.10g\npy[%zu] = %.10g\n"
                    "pr[%zu] = %zu\n", i + 1, pt[i].p99, i + 1, pt[i].cost,
                    i + 1, pt[i].run + 1);
        qsort(pt, m, sizeof *pt, by_p99);
        fputs("\n\n", ctx->data);
        for (size_t i = 0; i < m; i++)
            if (!dominated(pt, m, i)) {
                fs_plot_num(ctx->data, pt[i].p99, "\t");
                fs_plot_num(ctx->data, pt[i].cost, "\n");
            }
        fs_plot_names(ctx, "runs", (const char *const *)names, n);
        fs_plot_money_axis(ctx, max);
    }
    for (size_t r = 0; names && r < n; r++)
        free(names[r]);
    free(names);
    free(pt);
    return rc;
}
