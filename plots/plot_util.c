/* plot_util.c -- helpers of the chart data writers: numbers and names
 * into the data and the preamble, run names, statements, string sets.
 *
 * Names (runs, pools, workloads) never go into the data file, which holds
 * numbers only: they go into the preamble as gnuplot string arrays, in
 * single quotes with ' doubled, where gnuplot expands nothing. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fs_plot_var(fs_plot_ctx *ctx, const char *name, double value)
{
    fprintf(ctx->vars, "%s = %.10g\n", name, value);
}

void fs_plot_names(fs_plot_ctx *ctx, const char *name,
                   const char *const *values, size_t n)
{
    fprintf(ctx->vars, "array %s[%zu]\n", name, n ? n : 1);
    if (n == 0)
        fprintf(ctx->vars, "%s[1] = ''\n", name);
    for (size_t i = 0; i < n; i++) {
        fprintf(ctx->vars, "%s[%zu] = '", name, i + 1);
        for (const unsigned char *p = (const unsigned char *)values[i];
             p && *p; p++) {
            if (*p == '\'')
                fputc('\'', ctx->vars);
            fputc(*p < 0x20 || *p == 0x7f ? ' ' : *p, ctx->vars);
        }
        fputs("'\n", ctx->vars);
    }
}

sqlite3_stmt *fs_plot_prepare(fs_plot_ctx *ctx, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ctx->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fs_error_set(ctx->err, "reading the runs: %s",
                     sqlite3_errmsg(ctx->db));
        return NULL;
    }
    return st;
}

int fs_plot_run_name(fs_plot_ctx *ctx, long run_id, char *buf, size_t size)
{
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT name FROM run WHERE run_id = ?");
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run_id);
    int rc = 0, step = sqlite3_step(st);
    if (step == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
    else if (step == SQLITE_ROW || step == SQLITE_DONE)
        snprintf(buf, size, "run %ld", run_id);
    else
        rc = fs_error_set(ctx->err, "reading run %ld: %s", run_id,
                          sqlite3_errmsg(ctx->db));
    sqlite3_finalize(st);
    return rc;
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
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 8;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n] = strdup(s);
    if (!a->v[a->n])
        return -1;
    return (long)a->n++;
}

int fs_plot_strs_push(fs_plot_strs *a, const char *s)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 8;
        char **v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    if (!(a->v[a->n] = strdup(s ? s : "")))
        return -1;
    a->n++;
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
