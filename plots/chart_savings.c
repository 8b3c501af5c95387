/* chart_savings.c -- data of `savings`: a waterfall of run-rate cost
 * (cost_per_month_usd: the horizon's cost scaled to a 730-hour month)
 * from the baseline run (--baseline, else the first RUN) through the
 * other runs in the order given: the baseline's bar, one floating bar per
 * step (green a saving, red an increase, labelled with the change from the
 * previous run), and the last run's total.
 *
 * Readable for a 20-point sweep: past 6 bars they are numbered, named in
 * a legend below the plot (two columns; the image grows with it), and
 * their amounts stand upright above them.
 *
 * Data: x, bottom, top, kind (1 total, 2 saving, 3 increase).
 * Preamble: label[] (x tick labels), amount[] (text above each bar),
 * nbars, wide (past 6 bars), legend_rows, money axis. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void money(double v, char *buf, size_t size)
{
    char num[64];
    fs_format_thousands(fabs(v), 0, num, sizeof num);
    snprintf(buf, size, "%s$%s", v < 0 ? "-" : "", num);
}

static int add(fs_plot_ctx *ctx, fs_plot_strs *labels, fs_plot_strs *amounts,
               const char *label, const char *amount, double lo, double hi,
               int kind)
{
    if (fs_plot_strs_push(labels, label) != 0 ||
        fs_plot_strs_push(amounts, amount) != 0)
        return fs_error_set(ctx->err, "out of memory");
    fprintf(ctx->data, "%zu\t", labels->n);
    fs_plot_num(ctx->data, lo, "\t");
    fs_plot_num(ctx->data, hi, "\t");
    fprintf(ctx->data, "%d\n", kind);
    return 0;
}

int fs_chart_savings(fs_plot_ctx *ctx)
{
    const fs_plot_request *rq = ctx->rq;
    long base = rq->baseline ? rq->baseline : rq->run_ids[0];
    fs_plot_strs labels = {0}, amounts = {0};
    char name[512], label[600], amount[300], a2[96], a3[96];
    double b, prev, max = 0;
    int rc = fs_plot_run_name(ctx, base, name, sizeof name);
    if (rc == 0)
        rc = fs_plot_summary_num(ctx, base, "cost_per_month_usd", &b);
    if (rc == 0 && isnan(b))
        rc = fs_error_set(ctx->err, "savings: run %ld has no cost", base);
    if (rc == 0) {
        snprintf(label, sizeof label, "%s (baseline)", name);
        money(b, amount, sizeof amount);
        rc = add(ctx, &labels, &amounts, label, amount, 0, b, 1);
        max = b;
    }
    prev = b;
    for (size_t r = 0; rc == 0 && r < rq->nruns; r++) {
        long id = rq->run_ids[r];
        double v;
        if (id == base)
            continue;
        rc = fs_plot_run_name(ctx, id, name, sizeof name);
        if (rc == 0)
            rc = fs_plot_summary_num(ctx, id, "cost_per_month_usd", &v);
        if (rc != 0)
            break;
        if (isnan(v)) {
            rc = fs_error_set(ctx->err, "savings: run %ld has no cost", id);
            break;
        }
        snprintf(label, sizeof label, "to %s", name);
        money(v - prev, a2, sizeof a2);
        snprintf(amount, sizeof amount, "%s%s (%+.1f%%)", v > prev ? "+" : "",
                 a2, prev != 0 ? 100 * (v - prev) / prev : 0.0);
        rc = add(ctx, &labels, &amounts, label, amount, fmin(prev, v),
                 fmax(prev, v), v < prev ? 2 : 3);
        prev = v;
        max = fmax(max, v);
    }
    if (rc == 0 && labels.n > 1) {
        money(prev, a2, sizeof a2);
        money(prev - b, a3, sizeof a3);
        if (labels.n + 1 > 6)      /* upright: short */
            snprintf(amount, sizeof amount, "%s (%+.1f%%)", a2,
                     b != 0 ? 100 * (prev - b) / b : 0.0);
        else
            snprintf(amount, sizeof amount, "%s (%s%s, %+.1f%% vs baseline)",
                     a2, prev > b ? "+" : "", a3,
                     b != 0 ? 100 * (prev - b) / b : 0.0);
        snprintf(label, sizeof label, "%s (last)", name);
        rc = add(ctx, &labels, &amounts, label, amount, 0, prev, 1);
    }
    if (rc == 0) {
        fs_plot_names(ctx, "label", (const char *const *)labels.v, labels.n);
        fs_plot_names(ctx, "amount", (const char *const *)amounts.v,
                      amounts.n);
        fs_plot_var(ctx, "nbars", (double)labels.n);
        fs_plot_money_axis(ctx, max);
        /* more than 6 bars: numbered, named in a legend below, amounts
         * upright, so that nothing prints over anything */
        int wide = labels.n > 6;
        fs_plot_var(ctx, "wide", wide);
        ctx->legend_rows = wide ? (int)(labels.n + 1) / 2 : 0;
        fs_plot_var(ctx, "legend_rows", ctx->legend_rows);
    }
    fs_plot_strs_free(&labels);
    fs_plot_strs_free(&amounts);
    return rc;
}
