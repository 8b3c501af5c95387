/* chart_utilization.c -- data of `utilization`: each pool of each run
 * over time (utilization table): GPUs provisioned and GPUs busy.
 *
 * Data: one block per series (run, pool), blocks separated by two blank
 * lines: days from the start, gpus_provisioned, gpus_busy.  Preamble:
 * series[] ("RUN / POOL"), nseries.  Each series is drawn at its own
 * value, never shifted apart from an equal one (a 40-GPU pool reads 40):
 * colour and dash tell equal lines apart. */
#include "plots/plot_impl.h"

#include <string.h>

/* Writes the blocks of one run's pools. */
static int write_run(fs_plot_ctx *ctx, long run, fs_plot_strs *series)
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
    }
    sqlite3_finalize(st);
    return 0;
}

int fs_chart_utilization(fs_plot_ctx *ctx)
{
    fs_plot_strs series = {0};
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < ctx->rq->nruns; r++)
        rc = write_run(ctx, ctx->rq->run_ids[r], &series);
    if (rc == 0 && series.n == 0)
        rc = fs_error_set(ctx->err, "utilization: the runs have no "
                          "utilization rows");
    if (rc == 0) {
        fs_plot_names(ctx, "series", (const char *const *)series.v,
                      series.n);
        fs_plot_var(ctx, "nseries", (double)series.n);
    }
    fs_plot_strs_free(&series);
    return rc;
}
