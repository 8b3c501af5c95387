/* plot_util.c -- helpers of the chart data writers: numbers and names
 * into the data and the preamble, run names, statements, string sets.
 *
 * Names (runs, pools, workloads) never go into gnuplot's command text nor
 * into the data file of numbers: they go into their own data file,
 * names.tsv, encoded as numbers, which the preamble reads into gnuplot
 * string arrays (fs_plot_names says how). */
#include "plots/plot_impl.h"
#include "sim/base/textout.h"
#include "sim/base/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fs_plot_var(fs_plot_ctx *ctx, const char *name, double value)
{
    fprintf(ctx->vars, "%s = %.10g\n", name, value);
}

/* Each name is one row of names.tsv: the array's number, the index, and
 * the name's bytes, each as 100 + its value (three digits, never a
 * leading zero that gnuplot would read as octal) after an 'n' (so that
 * an empty name is a field too).  Gnuplot reads the file with `stats`
 * into the array and decodes each entry with sprintf('%c') in a loop: a
 * name is never gnuplot text, whatever bytes it holds (a quote, a
 * backslash, `EOD`, a newline).  What it draws is the name as the rest
 * of the report shows it (fs_text_visible): control characters, bytes
 * that are not UTF-8 and the characters that reorder text (U+202E,
 * U+2028) escaped, never raw in a chart's labels. */
void fs_plot_names(fs_plot_ctx *ctx, const char *name,
                   const char *const *values, size_t n)
{
    int k = ++ctx->narrays;
    fprintf(ctx->vars, "array %s[%zu]\n", name, n ? n : 1);
    fprintf(ctx->vars, "%s[1] = ''\n", name);
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++) {
        fprintf(ctx->names, "%d\t%zu\tn", k, i + 1);
        char *shown = fs_text_visible(values[i] ? values[i] : "");
        /* out of memory: the name drawn empty, never raw */
        for (const unsigned char *p = (const unsigned char *)shown;
             p && *p; p++)
            fprintf(ctx->names, "%d", 100 + *p);
        free(shown);
        fputc('\n', ctx->names);
    }
    fflush(ctx->names);
    fprintf(ctx->vars,
            "stats namesfile using (($1 == %d) ? (%s[int($2)] = strcol(3),"
            " 0) : 0) nooutput\n"
            "do for [fs_i = 1:%zu] { fs_s = %s[fs_i]; fs_r = '';"
            " do for [fs_j = 2:strlen(fs_s):3] {"
            " fs_r = fs_r . sprintf('%%c', int(fs_s[fs_j:fs_j + 2]) - 100) };"
            " %s[fs_i] = fs_r }\n", k, name, n, name, name);
}

int fs_plot_each(fs_plot_ctx *ctx, fs_query q, long run_id, const char *text,
                 fs_row_fn fn, void *arg)
{
    fs_query_arg a = {run_id, text, 0};
    fs_error e = {{0}};
    if (fs_store_each(ctx->store, q, &a, fn, arg, &e) == 0)
        return 0;
    return e.msg[0] ? fs_error_set(ctx->err, "reading the runs: %s", e.msg)
                    : -1;
}

int fs_plot_run_name(fs_plot_ctx *ctx, long run_id, char *buf, size_t size)
{
    fs_error e;
    if (fs_store_run_name(ctx->store, run_id, buf, size, &e) != 0)
        return fs_error_set(ctx->err, "reading run %ld: %s", run_id, e.msg);
    if (!buf[0])
        snprintf(buf, size, "run %ld", run_id);
    return 0;
}

void fs_plot_num(FILE *f, double v, const char *sep)
{
    if (isnan(v))
        fprintf(f, "NaN%s", sep);
    else
        fprintf(f, "%.10g%s", v, sep);
}

long fs_plot_strs_index(fs_plot_strs *a, const char *s)
{
    if (!s)
        s = "";
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], s) == 0)
            return (long)i;
    return fs_plot_strs_push(a, s) ? -1 : (long)a->n - 1;
}

int fs_plot_strs_push(fs_plot_strs *a, const char *s)
{
    char **v = fs_vec_grow(a->v, &a->cap, a->n + 1, sizeof *v);
    if (!v)
        return -1;
    a->v = v;
    if (!(a->v[a->n] = strdup(s ? s : "")))
        return -1;
    a->n++;
    return 0;
}

int fs_plot_series(fs_plot_ctx *ctx, const fs_plot_strs *series,
                   const char *why_none)
{
    if (series->n == 0)
        return fs_error_set(ctx->err, "%s", why_none);
    fs_plot_names(ctx, "series", (const char *const *)series->v, series->n);
    fs_plot_var(ctx, "nseries", (double)series->n);
    return 0;
}

void fs_plot_strs_free(fs_plot_strs *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

/* Tics of a log time axis, labelled in time units. */
static const struct tic {
    double s;
    const char *label;
    int fine;       /* 0: a 1-10 step, 1: a 2 or 5 between */
} time_tics[] = {
    {1e-3, "1 ms", 0}, {2e-3, "2 ms", 1}, {5e-3, "5 ms", 1},
    {1e-2, "10 ms", 0}, {2e-2, "20 ms", 1}, {5e-2, "50 ms", 1},
    {0.1, "100 ms", 0}, {0.2, "200 ms", 1}, {0.5, "500 ms", 1},
    {1, "1 s", 0}, {2, "2 s", 1}, {5, "5 s", 1}, {10, "10 s", 0},
    {20, "20 s", 1}, {30, "30 s", 1}, {60, "1 min", 0}, {120, "2 min", 1},
    {300, "5 min", 1}, {600, "10 min", 0}, {1200, "20 min", 1},
    {1800, "30 min", 1}, {3600, "1 h", 0}, {7200, "2 h", 1},
    {18000, "5 h", 1}, {36000, "10 h", 0}, {86400, "1 d", 1},
    {172800, "2 d", 1}, {432000, "5 d", 1}, {864000, "10 d", 0},
    {2592000, "30 d", 1},
};

void fs_plot_time_tics(fs_plot_ctx *ctx, const char *axis, double lo,
                       double hi)
{
    if (!(lo > 0) || !(hi >= lo))
        return;
    double decades = log10(hi / lo);
    int every = decades > 6 ? 2 : 1, k = 0, first = 1;
    fprintf(ctx->vars, "set %stics (", axis);
    for (size_t i = 0; i < sizeof time_tics / sizeof time_tics[0]; i++) {
        const struct tic *t = &time_tics[i];
        if (t->s < lo / 3 || t->s > hi * 3 || (t->fine && decades > 2.5))
            continue;
        if (!t->fine && k++ % every)
            continue;
        fprintf(ctx->vars, "%s'%s' %g", first ? "" : ", ", t->label, t->s);
        first = 0;
    }
    fputs(")\n", ctx->vars);
}
