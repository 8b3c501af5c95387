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

typedef struct util_run {
    fs_plot_ctx *ctx;
    const char *name;
    fs_plot_strs *series;
    char pool[512];
    int open;
} util_run;

/* One row: a new block when the pool changes. */
static int write_row(const fs_row *row, void *arg, fs_error *err)
{
    util_run *u = arg;
    const char *p = fs_row_text(row, 0);
    if (!p)
        p = "";
    if (!u->open || strcmp(p, u->pool) != 0) {
        if (u->series->n > 0)
            fputs("\n\n", u->ctx->data);
        snprintf(u->pool, sizeof u->pool, "%s", p);
        char label[1100];
        snprintf(label, sizeof label, "%s / %s", u->name, u->pool);
        if (fs_plot_strs_push(u->series, label) != 0)
            return fs_error_set(err, "out of memory");
        u->open = 1;
    }
    fs_plot_num(u->ctx->data, fs_row_double(row, 1) / 86400.0, "\t");
    fs_plot_num(u->ctx->data, fs_row_double(row, 2), "\t");
    fs_plot_num(u->ctx->data, fs_row_double(row, 3), "\n");
    return 0;
}

/* Writes the blocks of one run's pools. */
static int write_run(fs_plot_ctx *ctx, long run, fs_plot_strs *series)
{
    util_run u = {ctx, "", series, "", 0};
    char name[512];
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0)
        return -1;
    u.name = name;
    return fs_plot_each(ctx, FS_Q_UTILIZATION, run, NULL, write_row, &u);
}

int fs_chart_utilization(fs_plot_ctx *ctx)
{
    fs_plot_strs series = {0};
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < ctx->rq->nruns; r++)
        rc = write_run(ctx, ctx->rq->run_ids[r], &series);
    if (rc == 0)
        rc = fs_plot_series(ctx, &series, "utilization: the runs have no "
                            "utilization rows");
    fs_plot_strs_free(&series);
    return rc;
}
