/* chart_monthly_cost.c -- data of `monthly-cost`: one bar per run and
 * calendar month (cost_monthly), stacked by pricing model, and after a
 * run's months its 730-hour run rate (the run's cost of each pricing
 * model x 730 h / its horizon), so that a 7-day run's bill of $31.5K
 * never reads as what a month costs; a month the run covers in part says
 * so ("2026-01 (7 of 31 days)", summary_format.c).  The bars of one run
 * side by side, a gap between runs.
 *
 * Data: one row per bar: label index, then the cost of each pricing model
 * (columns in the order of the `pricing` array).  Preamble: pricing[],
 * label[] ("RUN YYYY-MM (7 of 31 days)", "RUN run rate (730 h)"),
 * npricing, nbars, money axis. */
#include "plots/plot_impl.h"

#include <stdlib.h>
#include <string.h>
#include "sim/cli/shared/summary.h"

/* The pricing models of all runs, sorted (on-demand, reserved, ...). */
static int collect_pricing(fs_plot_ctx *ctx, fs_plot_strs *pr)
{
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT DISTINCT pricing FROM cost_monthly WHERE run_id = ?"
        " ORDER BY pricing");
    if (!st)
        return -1;
    for (size_t r = 0; r < ctx->rq->nruns; r++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, ctx->rq->run_ids[r]);
        while (sqlite3_step(st) == SQLITE_ROW)
            if (fs_plot_strs_index(pr, (const char *)
                                   sqlite3_column_text(st, 0)) < 0) {
                sqlite3_finalize(st);
                return fs_error_set(ctx->err, "out of memory");
            }
    }
    sqlite3_finalize(st);
    /* Runs listed in another order may have found them in another order:
     * sort, for the same colours whatever the runs. */
    for (size_t i = 1; i < pr->n; i++)
        for (size_t j = i; j > 0 && strcmp(pr->v[j - 1], pr->v[j]) > 0; j--) {
            char *t = pr->v[j];
            pr->v[j] = pr->v[j - 1];
            pr->v[j - 1] = t;
        }
    return 0;
}

/* One bar: its label's index, then v[0..n) (zeroed after); *max gets
 * the tallest bar.  0, or -1 out of memory. */
static int write_bar(fs_plot_ctx *ctx, fs_plot_strs *labels,
                     const char *label, double *v, size_t n, double *max)
{
    long k = fs_plot_strs_index(labels, label);
    if (k < 0)
        return fs_error_set(ctx->err, "out of memory");
    fprintf(ctx->data, "%ld", k + 1);
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        fputc('\t', ctx->data);
        fs_plot_num(ctx->data, v[i], "");
        sum += v[i];
        v[i] = 0;
    }
    fputc('\n', ctx->data);
    if (sum > *max)
        *max = sum;
    return 0;
}

/* The run's start date and horizon (start "" when unknown). */
static void run_span(fs_plot_ctx *ctx, long run, char *start, size_t size,
                     double *horizon)
{
    start[0] = '\0';
    *horizon = 0;
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT start_date, horizon_s FROM run WHERE run_id = ?");
    if (!st)
        return;
    sqlite3_bind_int64(st, 1, run);
    if (sqlite3_step(st) == SQLITE_ROW) {
        if (sqlite3_column_text(st, 0))
            snprintf(start, size, "%s",
                     (const char *)sqlite3_column_text(st, 0));
        *horizon = sqlite3_column_double(st, 1);
    }
    sqlite3_finalize(st);
}

/* Writes one row per month of the run, then its run rate; adds the
 * labels; *max gets the tallest bar. */
static int write_run(fs_plot_ctx *ctx, long run, const fs_plot_strs *pr,
                     fs_plot_strs *labels, double *max)
{
    char name[512];
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0)
        return -1;
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT month, pricing, SUM(cost_usd) FROM cost_monthly"
        " WHERE run_id = ? GROUP BY month, pricing ORDER BY month");
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    size_t np = pr->n ? pr->n : 1;
    double *v = calloc(2 * np, sizeof *v), horizon;
    if (!v) {
        sqlite3_finalize(st);
        return fs_error_set(ctx->err, "out of memory");
    }
    double *all = v + np;       /* the run's whole cost by pricing */
    char month[32] = "", start[40], label[700], when[96];
    run_span(ctx, run, start, sizeof start, &horizon);
    int have = 0, rc = 0, step;
    for (;;) {
        step = sqlite3_step(st);
        const char *m = step == SQLITE_ROW ?
            (const char *)sqlite3_column_text(st, 0) : NULL;
        if (have && (!m || strcmp(m, month) != 0)) {
            fs_format_month(month, start, horizon, when, sizeof when);
            snprintf(label, sizeof label, "%s %s", name, when);
            if ((rc = write_bar(ctx, labels, label, v, pr->n, max)) != 0)
                break;
            have = 0;
        }
        if (!m)
            break;
        snprintf(month, sizeof month, "%s", m);
        have = 1;
        const char *p = (const char *)sqlite3_column_text(st, 1);
        for (size_t i = 0; i < pr->n; i++)
            if (strcmp(pr->v[i], p ? p : "") == 0) {
                v[i] += sqlite3_column_double(st, 2);
                all[i] += sqlite3_column_double(st, 2);
            }
    }
    if (rc == 0 && step == SQLITE_DONE && horizon > 0) {
        for (size_t i = 0; i < pr->n; i++)
            all[i] *= 730 * 3600 / horizon;
        snprintf(label, sizeof label, "%s run rate (730 h)", name);
        rc = write_bar(ctx, labels, label, all, pr->n, max);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = fs_error_set(ctx->err, "reading run %ld: %s", run,
                          sqlite3_errmsg(ctx->db));
    free(v);
    sqlite3_finalize(st);
    return rc;
}

int fs_chart_monthly_cost(fs_plot_ctx *ctx)
{
    fs_plot_strs pr = {0}, labels = {0};
    double max = 0;
    int rc = collect_pricing(ctx, &pr);
    if (rc == 0 && pr.n == 0)
        rc = fs_error_set(ctx->err, "monthly-cost: the runs have no "
                          "cost_monthly rows");
    for (size_t r = 0; rc == 0 && r < ctx->rq->nruns; r++) {
        if (r > 0) {    /* an empty bar between runs */
            long k = fs_plot_strs_index(&labels, "");
            fprintf(ctx->data, "%ld", k + 1);
            for (size_t i = 0; i < pr.n; i++)
                fputs("\t0", ctx->data);
            fputc('\n', ctx->data);
        }
        rc = write_run(ctx, ctx->rq->run_ids[r], &pr, &labels, &max);
    }
    if (rc == 0) {
        fs_plot_names(ctx, "pricing", (const char *const *)pr.v, pr.n);
        fs_plot_names(ctx, "label", (const char *const *)labels.v, labels.n);
        fs_plot_var(ctx, "npricing", (double)pr.n);
        fs_plot_var(ctx, "nlabels", (double)labels.n);
        fs_plot_money_axis(ctx, max);
        /* more than 6 bars: numbered, named in a legend below */
        int wide = labels.n > 6;
        fs_plot_var(ctx, "wide", wide);
        /* one column: a bar's name (run, month and its days) is long */
        size_t named = labels.n - (ctx->rq->nruns > 1);   /* the gaps' "" */
        ctx->legend_rows = wide ? (int)(named + pr.n) : 0;
        fs_plot_var(ctx, "legend_rows", ctx->legend_rows);
        /* bar numbers, 1.. over the named bars (the gaps have none) */
        fprintf(ctx->vars, "array num[%zu]\n", labels.n ? labels.n : 1);
        for (size_t i = 0, k = 0; i < labels.n; i++)
            fprintf(ctx->vars, "num[%zu] = %zu\n", i + 1,
                    labels.v[i][0] ? ++k : 0);
    }
    fs_plot_strs_free(&pr);
    fs_plot_strs_free(&labels);
    return rc;
}
