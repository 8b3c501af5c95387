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
#include "sim/app/summary.h"

static int add_pricing(const fs_row *row, void *arg, fs_error *err)
{
    if (fs_plot_strs_index(arg, fs_row_text(row, 0)) < 0)
        return fs_error_set(err, "out of memory");
    return 0;
}

/* The pricing models of all runs, sorted (on-demand, reserved, ...). */
static int collect_pricing(fs_plot_ctx *ctx, fs_plot_strs *pr)
{
    for (size_t r = 0; r < ctx->rq->nruns; r++)
        if (fs_plot_each(ctx, FS_Q_PRICINGS, ctx->rq->run_ids[r], NULL,
                         add_pricing, pr))
            return -1;
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

/* One run's bars as its rows come, a month's pricing models at a time. */
typedef struct run_bars {
    fs_plot_ctx *ctx;
    const fs_plot_strs *pr;
    fs_plot_strs *labels;
    double *max, *v, *all;      /* this month's, the run's, by pricing */
    const char *name;
    char month[32], start[40];
    double horizon;
    int have;
} run_bars;

/* The bar of the month gathered so far. */
static int month_bar(run_bars *b)
{
    char label[700], when[96];
    fs_format_month(b->month, b->start, b->horizon, when, sizeof when);
    snprintf(label, sizeof label, "%s %s", b->name, when);
    b->have = 0;
    return write_bar(b->ctx, b->labels, label, b->v, b->pr->n, b->max);
}

static int month_row(const fs_row *row, void *arg, fs_error *err)
{
    (void)err;
    run_bars *b = arg;
    const char *m = fs_row_text(row, 0);
    if (!m)
        return 1;
    if (b->have && strcmp(m, b->month) != 0 && month_bar(b) != 0)
        return -1;
    snprintf(b->month, sizeof b->month, "%s", m);
    b->have = 1;
    const char *p = fs_row_text(row, 1);
    for (size_t i = 0; i < b->pr->n; i++)
        if (strcmp(b->pr->v[i], p ? p : "") == 0) {
            b->v[i] += fs_row_double(row, 2);
            b->all[i] += fs_row_double(row, 2);
        }
    return 0;
}

/* Writes one row per month of the run, then its run rate; adds the
 * labels; *max gets the tallest bar. */
static int write_run(fs_plot_ctx *ctx, long run, const fs_plot_strs *pr,
                     fs_plot_strs *labels, double *max)
{
    char name[512], label[700];
    fs_error e;
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0)
        return -1;
    size_t np = pr->n ? pr->n : 1;
    double *v = calloc(2 * np, sizeof *v);
    if (!v)
        return fs_error_set(ctx->err, "out of memory");
    run_bars b = {ctx, pr, labels, max, v, v + np, name, "", "", 0, 0};
    if (fs_store_run_start(ctx->store, run, b.start, sizeof b.start,
                           &b.horizon, &e) != 0)
        b.start[0] = '\0', b.horizon = 0;
    int rc = fs_plot_each(ctx, FS_Q_MONTH_PRICING, run, NULL, month_row, &b);
    if (rc == 0 && b.have)
        rc = month_bar(&b);
    if (rc == 0 && b.horizon > 0) {
        for (size_t i = 0; i < pr->n; i++)
            b.all[i] *= 730 * 3600 / b.horizon;
        snprintf(label, sizeof label, "%s run rate (730 h)", name);
        rc = write_bar(ctx, labels, label, b.all, pr->n, max);
    }
    free(v);
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
