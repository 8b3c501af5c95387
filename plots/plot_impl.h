/* plot_impl.h -- what the chart data writers (chart_*.c) share with
 * plot.c: the chart table entry, the context they write through, and
 * helpers that read runs and write gnuplot-safe names. */
#ifndef FS_PLOT_IMPL_H
#define FS_PLOT_IMPL_H

#include <stdio.h>
#include "plots/plot.h"
#include "sim/store/store_query.h"

typedef struct fs_plot_ctx {
    fs_store *store;
    const fs_plot_request *rq;
    FILE *data;     /* data.tsv: numbers only, tab-separated */
    FILE *vars;     /* preamble: numeric variables, the name arrays read */
    FILE *names;    /* names.tsv: the names, as data (fs_plot_names) */
    int narrays;    /* name arrays written so far */
    fs_error *err;
    int legend_rows;   /* rows of a legend below the plot: the image
                          grows 13 px a row past 6 (the chart sets it) */
} fs_plot_ctx;

/* A chart: its name, a one-line summary, and the writer of its data.
 * The template is plots/NAME.gp. */
typedef struct fs_chart {
    const char *name;
    const char *summary;
    int (*write)(fs_plot_ctx *ctx);
    /* what `fleetsim help plot` says of it, lines each ending in a
     * newline (sim/cli/shared/help.c sets them beside the name) */
    const char *help;
    /* the report leaves it out, rather than saying why, when it cannot
     * be drawn (a section that applies to some runs only) */
    int optional;
} fs_chart;

int fs_chart_monthly_cost(fs_plot_ctx *ctx);
int fs_chart_utilization(fs_plot_ctx *ctx);
int fs_chart_latency_cdf(fs_plot_ctx *ctx);
int fs_chart_cost_vs_latency(fs_plot_ctx *ctx);
int fs_chart_ri_breakeven(fs_plot_ctx *ctx);
int fs_chart_savings(fs_plot_ctx *ctx);
int fs_chart_portfolio(fs_plot_ctx *ctx);

/* Writes `NAME = value` (a number) into the preamble. */
void fs_plot_var(fs_plot_ctx *ctx, const char *name, double value);

/* Makes gnuplot's string array NAME[n] hold the strings, passed as data
 * (names.tsv, read by the preamble), never as gnuplot text: a name that
 * begins with a quote, or holds any byte, draws as written (control
 * characters, U+202E and U+2028 escaped as fs_text_visible shows them). */
void fs_plot_names(fs_plot_ctx *ctx, const char *name,
                   const char *const *values, size_t n);

/* The run's name into buf ("run ID" when it has none). */
int fs_plot_run_name(fs_plot_ctx *ctx, long run_id, char *buf,
                     size_t size);

/* Runs the store's query q for run_id (and text), each row to fn; -1
 * with ctx->err set ("reading the runs: ...") when the read failed. */
int fs_plot_each(fs_plot_ctx *ctx, fs_query q, long run_id, const char *text,
                 fs_row_fn fn, void *arg);

/* A number as data ("%.10g"; NaN as "NaN"). */
void fs_plot_num(FILE *f, double v, const char *sep);

/* A growable array of strings (names found in the data). */
typedef struct fs_plot_strs {
    char **v;
    size_t n, cap;
} fs_plot_strs;
/* Index of s in a, added when absent; -1 when out of memory. */
long fs_plot_strs_index(fs_plot_strs *a, const char *s);
/* Appends s even when present (one entry per series); -1 out of memory. */
int fs_plot_strs_push(fs_plot_strs *a, const char *s);
void fs_plot_strs_free(fs_plot_strs *a);
/* Writes the series' names (series[]) and their count (nseries), or fails
 * with why_none when there is none. */
int fs_plot_series(fs_plot_ctx *ctx, const fs_plot_strs *series,
                   const char *why_none);

/* Writes money_div and money_fmt ('$%g', '$%gk' or '$%gM') for an axis
 * whose largest amount is max_abs (chart_money.c). */
void fs_plot_money_axis(fs_plot_ctx *ctx, double max_abs);

/* Writes `set AXIStics (...)` for a log time axis from lo to hi seconds,
 * labelled "100 ms", "1 s", "10 min", "1 h" (1-2-5 steps over up to 2.5
 * decades, decades beyond, every other decade beyond 6). */
void fs_plot_time_tics(fs_plot_ctx *ctx, const char *axis, double lo,
                       double hi);

/* A numeric column of run_summary for the run (NaN when NULL). */
int fs_plot_summary_num(fs_plot_ctx *ctx, long run_id, const char *column,
                        double *out);

#endif
