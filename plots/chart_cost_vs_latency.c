/* chart_cost_vs_latency.c -- data of `cost-vs-latency`: each run as a
 * point, p99 latency (run_summary.latency_p99_s, over its finished
 * requests) against its run-rate cost (cost_per_month_usd: the horizon's
 * cost scaled to a 730-hour month); the Pareto front joins the runs that
 * no other run beats on both (lower or equal cost and p99, one strictly
 * lower).  A run with more than 1% of its requests unfinished at the
 * horizon or dropped (run_summary.unfinished_share) is overloaded: its
 * p99 leaves those out, so it is drawn ringed and kept off the front.
 *
 * Readable for a 20-point sweep: latency on a log axis labelled in time
 * units, each run its own colour and shape, numbered beside its point
 * (points that fall together share one label "11, 12, 13", never
 * overprinted) and named in the legend outside the plot, in two columns
 * below it (the image grows with it).
 *
 * Data: block 0: p99, cost, run number (into runs[]), overloaded (0/1);
 * block 1: the front, sorted by p99.  Preamble: runs[] ("N  NAME"), pr[]
 * (each point's run number), the labels, npoints, nover, legend_rows,
 * money axis, time tics.
 * Runs without a p99 (no requests) are left out; none with one is an
 * error. */
#include "plots/plot_impl.h"
#include "sim/store/columns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct point {
    double p99, cost;
    size_t run;
    int over;
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
        if (j != i && !pt[j].over && pt[j].p99 <= pt[i].p99 &&
            pt[j].cost <= pt[i].cost &&
            (pt[j].p99 < pt[i].p99 || pt[j].cost < pt[i].cost))
            return 1;
    return 0;
}

/* Reads run r's point; 1 when it has none (no p99). */
static int read_point(fs_plot_ctx *ctx, size_t r, point *p, char **name)
{
    long id = ctx->rq->run_ids[r];
    char buf[512], label[600];
    double share;
    if (fs_plot_run_name(ctx, id, buf, sizeof buf) ||
        fs_plot_summary_num(ctx, id, "latency_p99_s", &p->p99) ||
        fs_plot_summary_num(ctx, id, "cost_per_month_usd", &p->cost) ||
        fs_plot_summary_num(ctx, id, "unfinished_share", &share))
        return -1;
    p->run = r;
    p->over = share > FS_OVERLOADED_SHARE;
    snprintf(label, sizeof label, "%zu  %s%s", r + 1, buf,
             p->over ? " (overloaded)" : "");
    if (!(*name = strdup(label)))
        return fs_error_set(ctx->err, "out of memory");
    return isnan(p->p99) || isnan(p->cost) || !(p->p99 > 0);
}

/* The points' numbers, never printed over each other: points that fall
 * close together (within 8% of the p99 axis's span in logarithms, about
 * a label's width, and 6% of the cost span, a label's height) share one
 * label, "11, 12, 13", right of the rightmost of them.  Written as `set
 * label` commands of digits and commas only (no name). */
static void write_labels(fs_plot_ctx *ctx, const point *pt, size_t m)
{
    double lmin = INFINITY, lmax = -INFINITY, cmin = INFINITY,
           cmax = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        lmin = fmin(lmin, log10(pt[i].p99));
        lmax = fmax(lmax, log10(pt[i].p99));
        cmin = fmin(cmin, pt[i].cost);
        cmax = fmax(cmax, pt[i].cost);
    }
    double lspan = fmax(lmax - lmin, 1);
    double cspan = fmax(cmax - cmin, fabs(cmax) * 0.1 + 1);
    size_t *of = malloc((m ? m : 1) * sizeof *of);   /* cluster anchor */
    if (!of)
        return;
    for (size_t i = 0; i < m; i++) {
        of[i] = i;
        for (size_t j = 0; j < i && of[i] == i; j++)
            if (of[j] == j &&
                fabs(log10(pt[i].p99) - log10(pt[j].p99)) < 0.08 * lspan &&
                fabs(pt[i].cost - pt[j].cost) < 0.06 * cspan)
                of[i] = j;
    }
    int k = 0;
    for (size_t a = 0; a < m; a++) {
        if (of[a] != a)
            continue;
        double x = pt[a].p99, y = pt[a].cost;
        fprintf(ctx->vars, "set label %d '", ++k);
        for (size_t i = a, first = 1; i < m; i++)
            if (of[i] == a) {
                fprintf(ctx->vars, "%s%zu", first ? "" : ", ",
                        pt[i].run + 1);
                first = 0;
                x = fmax(x, pt[i].p99);
            }
        fprintf(ctx->vars, "' at %.10g, %.10g / money_div left offset "
                "char 1.3, 0 font ',9'\n", x, y);
    }
    free(of);
}

static void write_points(fs_plot_ctx *ctx, const point *pt, size_t m)
{
    size_t nover = 0;
    for (size_t i = 0; i < m; i++) {
        fs_plot_num(ctx->data, pt[i].p99, "\t");
        fs_plot_num(ctx->data, pt[i].cost, "\t");
        fprintf(ctx->data, "%zu\t%d\n", pt[i].run + 1, pt[i].over);
        nover += pt[i].over;
    }
    fprintf(ctx->vars, "npoints = %zu\nnover = %zu\narray pr[%zu]\n", m,
            nover, m ? m : 1);
    for (size_t i = 0; i < m; i++)
        fprintf(ctx->vars, "pr[%zu] = %zu\n", i + 1, pt[i].run + 1);
}

int fs_chart_cost_vs_latency(fs_plot_ctx *ctx)
{
    size_t n = ctx->rq->nruns, m = 0;
    point *pt = calloc(n, sizeof *pt);
    char **names = calloc(n, sizeof *names);
    int rc = pt && names ? 0 : fs_error_set(ctx->err, "out of memory");
    double max = 0, lo = INFINITY, hi = 0;
    for (size_t r = 0; rc == 0 && r < n; r++) {
        int k = read_point(ctx, r, &pt[m], &names[r]);
        if (k < 0)
            rc = -1;
        else if (k == 0) {
            max = fmax(max, pt[m].cost);
            lo = fmin(lo, pt[m].p99);
            hi = fmax(hi, pt[m].p99);
            m++;
        }
    }
    if (rc == 0 && m == 0)
        rc = fs_error_set(ctx->err, "cost-vs-latency: no run has a p99 "
                          "latency (no requests served)");
    if (rc == 0) {
        write_points(ctx, pt, m);
        qsort(pt, m, sizeof *pt, by_p99);
        fputs("\n\n", ctx->data);
        for (size_t i = 0; i < m; i++)
            if (!pt[i].over && !dominated(pt, m, i)) {
                fs_plot_num(ctx->data, pt[i].p99, "\t");
                fs_plot_num(ctx->data, pt[i].cost, "\n");
            }
        fs_plot_names(ctx, "runs", (const char *const *)names, n);
        ctx->legend_rows = (int)(m + 3) / 2;   /* two columns below */
        fs_plot_var(ctx, "legend_rows", ctx->legend_rows);
        fs_plot_money_axis(ctx, max);
        fs_plot_time_tics(ctx, "x", lo, hi);
        write_labels(ctx, pt, m);
    }
    for (size_t r = 0; names && r < n; r++)
        free(names[r]);
    free(names);
    free(pt);
    return rc;
}
