/* chart_latency_cdf.c -- data of `latency-cdf`: for each workload of each
 * run, the latency CDF through the stored percentiles (latency table: p50,
 * p90, p95, p99, p99.9), with the workload's SLO.
 *
 * The table keeps those five quantiles, not the whole distribution, so
 * the curve is drawn through them.  The y axis is -log10(1 - p), which
 * spreads the tail: p50 at 0.30, p90 at 1, p99 at 2, p99.9 at 3.
 *
 * Data: one block per series: latency (s), -log10(1 - p).  Preamble:
 * series[] ("RUN / WORKLOAD"), slo[] (s; 0 when none), nseries, logx. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double probs[] = {0.5, 0.9, 0.95, 0.99, 0.999};

typedef struct slos {
    double *v;
    size_t n, cap;
} slos;

static int push_slo(slos *s, double v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        double *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = v;
    return 0;
}

typedef struct cdf_run {
    fs_plot_ctx *ctx;
    const char *name;
    fs_plot_strs *series;
    slos *slo;
    double *min_q, *max_q;
} cdf_run;

/* One workload's curve through its five stored quantiles. */
static int write_workload(const fs_row *row, void *arg, fs_error *err)
{
    cdf_run *c = arg;
    const char *w = fs_row_text(row, 0);
    char label[1100];
    snprintf(label, sizeof label, "%s / %s", c->name, w ? w : "");
    if (fs_plot_strs_push(c->series, label) != 0 ||
        push_slo(c->slo, fs_row_null(row, 6) ? 0 : fs_row_double(row, 6)) < 0)
        return fs_error_set(err, "out of memory");
    if (c->series->n > 1)
        fputs("\n\n", c->ctx->data);
    for (int i = 0; i < 5; i++) {
        double q = fs_row_double(row, i + 1);
        if (q < *c->min_q)
            *c->min_q = q;
        if (q > *c->max_q)
            *c->max_q = q;
        fs_plot_num(c->ctx->data, q, "\t");
        fs_plot_num(c->ctx->data, -log10(1 - probs[i]), "\n");
    }
    return 0;
}

static int write_run(fs_plot_ctx *ctx, long run, fs_plot_strs *series,
                     slos *slo, double *min_q, double *max_q)
{
    char name[512];
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0)
        return -1;
    cdf_run c = {ctx, name, series, slo, min_q, max_q};
    return fs_plot_each(ctx, FS_Q_LATENCY, run, NULL, write_workload, &c);
}

int fs_chart_latency_cdf(fs_plot_ctx *ctx)
{
    fs_plot_strs series = {0};
    slos slo = {0};
    double min_q = INFINITY, max_q = 0;
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < ctx->rq->nruns; r++)
        rc = write_run(ctx, ctx->rq->run_ids[r], &series, &slo, &min_q,
                       &max_q);
    if (rc == 0)
        rc = fs_plot_series(ctx, &series, "latency-cdf: the runs have no "
                            "served requests (no latency rows)");
    if (rc == 0) {
        fprintf(ctx->vars, "array slo[%zu]\n", slo.n);
        for (size_t i = 0; i < slo.n; i++)
            fprintf(ctx->vars, "slo[%zu] = %.10g\n", i + 1, slo.v[i]);
        fs_plot_var(ctx, "logx", min_q > 0);
        for (size_t i = 0; i < slo.n; i++)
            if (slo.v[i] > 0)
                max_q = fmax(max_q, slo.v[i]), min_q = fmin(min_q, slo.v[i]);
        fs_plot_time_tics(ctx, "x", min_q, max_q);
    }
    free(slo.v);
    fs_plot_strs_free(&series);
    return rc;
}
