/* chart_ri_breakeven.c -- data of `ri-breakeven`: for one pool of each
 * run, what `fleetsim roi` recommends, drawn from roi's own figures
 * (sim/app/roi_run.h: the same call the report's reservation table
 * makes, so the chart and the table agree to the cent), in two panels:
 *   top:    the pool's instances in use hour by hour (the utilization
 *           table's instances_up, time-averaged into hours, as roi reads
 *           them), the recommended reserved count as a line, and the
 *           on-demand overflow above it shaded: the hours the
 *           reservation does not cover;
 *   bottom: cumulative cost over the term: all on demand (roi's monthly
 *           run rate x months), with the reservation (roi's amortized
 *           monthly cost x months; the upfront paid in month 0 when there
 *           is one), break-even marked where roi finds one.
 * The pool: --pool, else where the money is: the run's on-demand pool
 * (its purchase option's FOCUS category Standard) with the largest monthly
 * bill roi sized, else its first sized pool.  A pool already committed
 * ("already reserved", "already savings-plan") is marked so: roi's count there is what it
 * would have chosen.  The bill beside the saving is labelled by the
 * pool's purchase option ("all on demand", "all on spot, as paid").
 *
 * Data: block 2i: hours of run i (days, instances in use); block 2i+1:
 * months (month, all on demand, with the reservation).  Preamble:
 * series[] ("RUN / POOL ..." with roi's count and savings), count[],
 * breakeven[] (months; -1: none within the term), nseries, term_months,
 * money axis. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/app/roi_run.h"
#include "sim/store/store.h"
#include "models/purchase/purchase.h"

typedef struct rb_series {
    long count;
    double breakeven;
} rb_series;

/* The pool's purchase option, from its stored pricing (NULL: unknown). */
static const fs_purchase_option *pool_option(fs_plot_ctx *ctx, long run,
                                             const char *pool)
{
    char pricing[64];
    fs_error err;
    if (fs_store_pool_pricing(ctx->store, run, pool, pricing, sizeof pricing,
                              &err) != 0 || !pricing[0])
        return NULL;
    return fs_purchase_find(pricing);
}

/* The pool to draw among roi's rows: where the money is, the pool paid
 * on demand (FOCUS Standard) with the largest monthly bill, else the
 * first pool roi could size.  0.., or -1 (why in ctx->err). */
static long pick_pool(fs_plot_ctx *ctx, long run, const fs_roi_pool *p,
                      size_t n)
{
    long first = -1, best = -1;
    for (size_t i = 0; i < n; i++) {
        if (!p[i].ok)
            continue;
        if (first < 0)
            first = (long)i;
        const fs_purchase_option *o = pool_option(ctx, run, p[i].row.pool);
        if (o && o->list_priced &&
            (best < 0 || p[i].row.r.on_demand_monthly >
                             p[best].row.r.on_demand_monthly))
            best = (long)i;
    }
    if (best >= 0)
        return best;
    if (first >= 0)
        return first;
    return fs_error_set(ctx->err, "ri-breakeven: run %ld: %s", run,
                        n ? p[0].note : "no pool to size");
}

/* Instance-seconds by hour, as the samples come. */
typedef struct hours {
    double *d;
    size_t n;
    double prev;        /* the time of the sample before */
} hours;

/* One utilization sample: its instances_up over the interval it closes,
 * spread over the hours that interval covers. */
static int add_sample(const fs_row *row, void *arg, fs_error *err)
{
    (void)err;
    hours *hs = arg;
    double t = fs_row_double(row, 0);
    double up = fs_row_double(row, 1);
    for (size_t h = (size_t)(hs->prev / 3600); h < hs->n && h * 3600.0 < t;
         h++) {
        double a = fmax(hs->prev, h * 3600.0), b = fmin(t, (h + 1) * 3600.0);
        if (b > a)
            hs->d[h] += up * (b - a);
    }
    hs->prev = t;
    return 0;
}

/* The pool's instances in use hour by hour, as roi reads them: each
 * utilization sample's instances_up over the interval it closes, spread
 * over the hours it covers, divided by the hour's length. */
static int write_demand(fs_plot_ctx *ctx, long run, const char *pool,
                        double *peak)
{
    double horizon = 0;
    if (fs_roi_run_horizon(ctx->store, run, &horizon, ctx->err))
        return -1;
    size_t n = (size_t)ceil(horizon / 3600 - 1e-9);
    double *d = calloc(n ? n : 1, sizeof *d);
    if (!d)
        return fs_error_set(ctx->err, "out of memory");
    hours hs = {d, n, 0};
    if (fs_plot_each(ctx, FS_Q_POOL_UP, run, pool, add_sample, &hs)) {
        free(d);
        return -1;
    }
    for (size_t h = 0; h < n; h++) {
        double v = d[h] / fmin(3600.0, horizon - h * 3600.0);
        fprintf(ctx->data, "%.10g\t", h / 24.0);
        fs_plot_num(ctx->data, v, "\n");
        fprintf(ctx->data, "%.10g\t", (h + 1) / 24.0);
        fs_plot_num(ctx->data, v, "\n");
        *peak = fmax(*peak, v);
    }
    free(d);
    return 0;
}

/* "$1,234.56" */
static const char *usd(double v, char *buf, size_t size)
{
    char n[64];
    snprintf(buf, size, "%s$%s", v < 0 ? "-" : "",
             fs_format_thousands(fabs(v), 2, n, sizeof n));
    return buf;
}

static int write_run(fs_plot_ctx *ctx, long run, int years,
                     fs_plot_strs *series, rb_series *out, double *max,
                     double *peak)
{
    char name[512];
    if (fs_plot_run_name(ctx, run, name, sizeof name))
        return -1;
    fs_roi_query q;
    fs_roi_query_default(&q);
    q.term_months = 12 * years;
    q.pool = ctx->rq->pool;
    q.coarse_as_note = 1;
    fs_roi_pool *pools = NULL;
    size_t np = 0;
    if (fs_roi_for_run(ctx->store, run, &q, &pools, &np, ctx->err))
        return -1;
    long k = np ? pick_pool(ctx, run, pools, np) : -1;
    if (np == 0)
        fs_error_set(ctx->err, ctx->rq->pool ?
                     "ri-breakeven: run %ld has no pool '%s'" :
                     "ri-breakeven: run %ld has no pools", run,
                     ctx->rq->pool);
    if (k < 0) {
        free(pools);
        return -1;
    }
    const fs_roi_row *w = &pools[k].row;
    const fs_roi_result *r = &w->r;
    const fs_purchase_option *o = pool_option(ctx, run, w->pool);
    char label[1400], a[64], b[64], held[64] = "";
    if (o && o->commitment != FS_COMMIT_NONE)
        snprintf(held, sizeof held, ", already %s", o->name);
    snprintf(label, sizeof label, "%s / %s (%s%s): reserve %ld (roi), "
             "saves %s a month (%.1f%%) of %s (%s)", name, w->pool,
             w->gpu, held, r->count,
             usd(r->savings_monthly, a, sizeof a), r->savings_pct,
             usd(r->on_demand_monthly, b, sizeof b),
             o ? o->bill_label : "as billed");
    out->count = r->count;
    out->breakeven = isnan(r->break_even_months) ? -1
                                                 : r->break_even_months;
    int rc = fs_plot_strs_push(series, label) ? fs_error_set(ctx->err,
                                                     "out of memory") : 0;
    if (rc == 0) {
        if (series->n > 1)
            fputs("\n\n", ctx->data);
        rc = write_demand(ctx, run, w->pool, peak);
    }
    if (rc == 0) {
        /* months: all on demand, and with the reservation (its upfront
         * in month 0, the rest of its amortized monthly cost after) */
        int months = 12 * years;
        double rest = r->with_monthly - r->upfront_cost / months;
        fputs("\n\n", ctx->data);
        for (int m = 0; m <= months; m++) {
            fprintf(ctx->data, "%d\t", m);
            fs_plot_num(ctx->data, r->on_demand_monthly * m, "\t");
            fs_plot_num(ctx->data, r->upfront_cost + rest * m, "\n");
        }
        *max = fmax(*max, fmax(r->on_demand_monthly,
                               r->with_monthly) * months);
    }
    free(pools);
    return rc;
}

int fs_chart_ri_breakeven(fs_plot_ctx *ctx)
{
    int years = ctx->rq->term_years == 3 ? 3 : 1;
    size_t n = ctx->rq->nruns;
    rb_series *s = calloc(n ? n : 1, sizeof *s);
    double max = 0, peak = 0;
    fs_plot_strs series = {0};
    int rc = s ? 0 : fs_error_set(ctx->err, "out of memory");
    for (size_t r = 0; rc == 0 && r < n; r++)
        rc = write_run(ctx, ctx->rq->run_ids[r], years, &series, &s[r],
                       &max, &peak);
    if (rc == 0) {
        fs_plot_names(ctx, "series", (const char *const *)series.v,
                      series.n);
        fs_plot_var(ctx, "nseries", (double)series.n);
        fs_plot_var(ctx, "term_months", 12 * years);
        fs_plot_var(ctx, "peak", peak);
        fprintf(ctx->vars, "array count[%zu]\narray breakeven[%zu]\n", n,
                n);
        for (size_t r = 0; r < n; r++)
            fprintf(ctx->vars, "count[%zu] = %ld\nbreakeven[%zu] = %.10g\n",
                    r + 1, s[r].count, r + 1, s[r].breakeven);
        fs_plot_money_axis(ctx, max);
        ctx->legend_rows = 2 * (int)n + 2;   /* in the top panel: half the image */
    }
    fs_plot_strs_free(&series);
    free(s);
    return rc;
}
