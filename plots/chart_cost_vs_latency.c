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
 * (labels that would meet become one, "11, 12, 13", never
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

/* A cluster of points sharing one label: its anchor (the rightmost
 * point), its label's box in the plot's unit square (x: log p99 over its
 * span, y: cost over its span), and its points (of[i] == cluster). */
typedef struct cluster {
    double x, y;        /* the label's left end and middle, unit square */
    size_t chars;       /* the label's length */
    int alive;
} cluster;

/* The plot's ranges are set here (not autoscaled) so that a label's size
 * in the unit square is known: log p99 from 10% of its span below the
 * lowest to 25% above the highest (room for labels), cost 12% beyond
 * either end.  The plot is at least 880 x 380 pixels; a font-9 character
 * is about 6 px wide and 12 px high (its box: 6 px each side of its
 * middle), a marker about 12 px across, a label 1.3 characters right of
 * its point. */
#define PLOT_W 880.0
#define PLOT_H 380.0
#define CHAR_W (6 / PLOT_W)
#define HALF_H (6 / PLOT_H)
#define GAP_X (8 / PLOT_W)
#define MARK_X (6 / PLOT_W)
#define MARK_Y (6 / PLOT_H)

static int boxes_meet(const cluster *a, const cluster *b)
{
    return a->x < b->x + (double)b->chars * CHAR_W &&
           b->x < a->x + (double)a->chars * CHAR_W &&
           fabs(a->y - b->y) < 2 * HALF_H;
}

/* True when label a would print over the marker at (x, y). */
static int covers_mark(const cluster *a, double x, double y)
{
    return a->x < x + MARK_X && x - MARK_X < a->x + (double)a->chars *
           CHAR_W && fabs(a->y - y) < HALF_H + MARK_Y;
}

/* Cluster b joins cluster a. */
static void join(cluster *cl, size_t *of, size_t m, size_t a, size_t b)
{
    for (size_t i = 0; i < m; i++)
        if (of[i] == b)
            of[i] = a;
    cl[b].alive = 0;
    cl[a].x = fmax(cl[a].x, cl[b].x);
    cl[a].chars += 2 + cl[b].chars;
}

/* The points' numbers, never printed over each other: each point starts
 * as its own label right of it; two labels whose boxes would meet become
 * one, "11, 12, 13", right of the rightmost of their points, and so does
 * a label that would cover another point, until none does.  Written as `set label` commands of digits and commas only. */
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
    double lspan = fmax(lmax - lmin, 0.5);
    double cspan = fmax(cmax - cmin, fabs(cmax) * 0.2 + 1);
    lmin -= 0.10 * lspan;       /* the ranges drawn */
    cmin -= 0.12 * cspan;
    lspan *= 1.35;
    cspan *= 1.24;
    fprintf(ctx->vars, "set xrange [%.10g:%.10g]\n"
            "set yrange [%.10g / money_div:%.10g / money_div]\n",
            pow(10, lmin), pow(10, lmin + lspan), cmin, cmin + cspan);
    size_t *of = malloc((m ? m : 1) * sizeof *of);
    cluster *cl = malloc((m ? m : 1) * sizeof *cl);
    if (!of || !cl) {
        free(of);
        free(cl);
        return;
    }
    for (size_t i = 0; i < m; i++) {
        of[i] = i;
        cl[i] = (cluster){(log10(pt[i].p99) - lmin) / lspan + GAP_X,
                          (pt[i].cost - cmin) / cspan,
                          (size_t)snprintf(NULL, 0, "%zu", pt[i].run + 1),
                          1};
    }
    for (int merged = 1; merged;) {
        merged = 0;
        for (size_t a = 0; a < m && !merged; a++) {
            if (!cl[a].alive)
                continue;
            for (size_t b = a + 1; b < m && !merged; b++)
                if (cl[b].alive && boxes_meet(&cl[a], &cl[b])) {
                    join(cl, of, m, a, b);
                    merged = 1;
                }
            for (size_t i = 0; i < m && !merged; i++) {
                double x = (log10(pt[i].p99) - lmin) / lspan;
                double y = (pt[i].cost - cmin) / cspan;
                if (of[i] != a && covers_mark(&cl[a], x, y)) {
                    size_t b = of[i];
                    join(cl, of, m, a < b ? a : b, a < b ? b : a);
                    merged = 1;
                }
            }
        }
    }
    int k = 0;
    for (size_t a = 0; a < m; a++) {
        if (!cl[a].alive)
            continue;
        double x = 0, y = pt[a].cost;
        fprintf(ctx->vars, "set label %d '", ++k);
        for (size_t i = 0, first = 1; i < m; i++)
            if (of[i] == a) {
                fprintf(ctx->vars, "%s%zu", first ? "" : ", ",
                        pt[i].run + 1);
                first = 0;
                x = fmax(x, pt[i].p99);
            }
        fprintf(ctx->vars, "' at %.10g, %.10g / money_div left offset "
                "char 1.3, 0 font ',11'\n", x, y);
    }
    free(of);
    free(cl);
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
