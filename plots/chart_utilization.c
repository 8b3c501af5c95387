/* chart_utilization.c -- data of `utilization`: each pool of each run
 * over time (utilization table): GPUs provisioned and GPUs busy.
 *
 * Data: one block per series (run, pool), blocks separated by two blank
 * lines: days from the start, gpus_provisioned, gpus_busy.  Preamble:
 * series[] ("RUN / POOL"), nseries, ystep (how far apart series are
 * drawn, so that lines at equal height stay visible: 0.8% of the largest
 * count, at most 12% between the outermost two). */
#include "plots/plot_impl.h"

#include <math.h>
#include <string.h>

/* Writes the blocks of one run's pools. */
static int write_run(fs_plot_ctx *ctx, long run, fs_plot_strs *series,
                     double *max)
{
    char name[512];
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0)
        return -1;
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT pool, t_s / 86400.0, gpus_provisioned, gpus_busy"
        " FROM utilization WHERE run_id = ? ORDER BY pool, t_s");
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    char pool[512] = "";
    int open = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *p = (const char *)sqlite3_column_text(st, 0);
        if (!p)
            p = "";
        if (!open || strcmp(p, pool) != 0) {
            if (series->n > 0)
                fputs("\n\n", ctx->data);
            snprintf(pool, sizeof pool, "%s", p);
            char label[1100];
            snprintf(label, sizeof label, "%s / %s", name, pool);
            if (fs_plot_strs_push(series, label) != 0) {
                sqlite3_finalize(st);
                return fs_error_set(ctx->err, "out of memory");
            }
            open = 1;
        }
        for (int c = 1; c <= 3; c++)
            fs_plot_num(ctx->data, sqlite3_column_double(st, c),
                        c < 3 ? "\t" : "\n");
        if (sqlite3_column_double(st, 2) > *max)
            *max = sqlite3_column_double(st, 2);
    }
    sqlite3_finalize(st);
    return 0;
}

int fs_chart_utilization(fs_plot_ctx *ctx)
{
    fs_plot_strs series = {0};
    int rc = 0;
    double max = 0;
    for (size_t r = 0; rc == 0 && r < ctx->rq->nruns; r++)
        rc = write_run(ctx, ctx->rq->run_ids[r], &series, &max);
    if (rc == 0 && series.n == 0)
        rc = fs_error_set(ctx->err, "utilization: the runs have no "
                          "utilization rows");
    if (rc == 0) {
        fs_plot_names(ctx, "series", (const char *const *)series.v,
                      series.n);
        fs_plot_var(ctx, "nseries", (double)series.n);
        /* series apart by about a thick line's width (0.8% of the
         * largest count), at most 12% between the outermost two */
        double top = max > 0 ? max : 1, n1 = (double)series.n - 1;
        fs_plot_var(ctx, "ystep", series.n > 1 ?
                    fmin(0.008 * top, 0.12 * top / n1) : 0);
    }
    fs_plot_strs_free(&series);
    return rc;
}
