/* arrivals.c -- what every arrival stream shares: its messages, the calls
 * through its vtable, the registry of trace formats and the header lookup.
 *
 * The registry of arrival processes (fs_arrivals_open) is arrivals_open.c,
 * above the implementations, which call down into this file only.  A
 * trace's format (format=) is trace_NAME.c, one line in a table below; the
 * messages that list the choices are made from the tables. */
#include "traces/arrivals_impl.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int fs_arrivals_error(const fs_arrivals_spec *spec, fs_error *err,
                      const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (spec->file)
        return fs_error_at(err, spec->file, spec->line, spec->key, "%s", msg);
    if (spec->key)
        return fs_error_set(err, "%s: %s", spec->key, msg);
    return fs_error_set(err, "%s", msg);
}

/* The candidate a typo most likely meant: the nearest by edit distance, or
 * one that name is the start of ("azure" for "azure-llm"). */
static const char *suggest(const char *name, const char *const *candidates)
{
    const char *near = fs_nearest_name(name, candidates);
    size_t n = strlen(name);
    for (const char *const *c = candidates; !near && *c && n >= 3; c++)
        if (strncasecmp(*c, name, n) == 0)
            near = *c;
    return near;
}

/* " (did you mean 'X'?)" or "". */
void fs_arrivals_did_you_mean(const char *name,
                              const char *const *candidates, char *buf,
                              size_t len)
{
    const char *near = suggest(name, candidates);
    if (near)
        snprintf(buf, len, " (did you mean '%s'?)", near);
    else
        buf[0] = '\0';
}

/* "a, b or c" from a NULL-ended list of names. */
void fs_arrivals_list_names(const char *const *names, char *buf, size_t len)
{
    size_t n = 0, used = 0;
    while (names[n])
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0 ? "" : i + 1 == n ? " or " : ", ",
                                 names[i]);
}

/* ---- Trace formats ----------------------------------------------------- */

/* One line per format: a new one is traces/trace_NAME.c with its table,
 * and a line here.  The first is the example messages give. */
extern const fs_trace_format fs_trace_azure_llm;
extern const fs_trace_format fs_trace_alibaba_lora;
extern const fs_trace_format fs_trace_generic;
extern const fs_trace_format fs_trace_mooncake;

static const fs_trace_format *const formats[] = {
    &fs_trace_azure_llm,
    &fs_trace_alibaba_lora,
    &fs_trace_generic,
    &fs_trace_mooncake,
    NULL,
};

#define MAX_KINDS 32   /* formats or processes, for the lists of names */

const fs_trace_format *fs_trace_format_find(const fs_arrivals_spec *spec,
                                            fs_error *err)
{
    const char *names[MAX_KINDS + 1];
    size_t n = 0;
    for (; formats[n] && n < MAX_KINDS; n++)
        names[n] = formats[n]->name;
    names[n] = NULL;
    char list[256];
    fs_arrivals_list_names(names, list, sizeof list);
    const char *name = fs_call_get(spec->call, "format");
    if (!name) {
        fs_arrivals_error(spec, err, "trace: missing format=: one of %s, "
                          "e.g. trace(%s, format=%s)", list,
                          fs_call_positional(spec->call, 0), names[0]);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(name, formats[i]->name) == 0)
            return formats[i];
    char dym[80];
    fs_arrivals_did_you_mean(name, names, dym, sizeof dym);
    fs_arrivals_error(spec, err, "trace: unknown format '%s': expected %s%s",
                      name, list, dym);
    return NULL;
}

void fs_arrivals_free(fs_arrivals *a)
{
    if (a)
        a->ops->free(a);
}

int fs_arrivals_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    return a->ops->next(a, out, err);
}

double fs_arrivals_mean_rate(const fs_arrivals *a)
{
    return a->ops->mean_rate(a);
}

double fs_arrivals_expected(const fs_arrivals *a, double *extra)
{
    double x = 0, n = a->ops->expected(a, &x);
    if (extra)
        *extra = x;
    return n;
}

double fs_trace_rate(const fs_trace_stats *st)
{
    return st->span_s > 0 ? (double)st->valid / st->span_s : 0;
}

void fs_arrivals_stats(const fs_arrivals *a, fs_trace_stats *out)
{
    memset(out, 0, sizeof *out);
    if (a->ops->stats)
        a->ops->stats(a, out);
}

/* ---- Header lookup ------------------------------------------------------ */

int fs_trace_require_column(const fs_csv *header, const char *name, int *col,
                            fs_error *err)
{
    *col = fs_csv_column(header, name);
    if (*col >= 0) {
        /* A second column of that name: which one is meant is a guess. */
        size_t n = fs_csv_nfields(header);
        for (size_t i = (size_t)*col + 1; i < n; i++)
            if (strcasecmp(fs_csv_field(header, i), name) == 0)
                return fs_error_set(err, "%s:%ld: column '%s' appears twice "
                                    "in the header (fields %d and %zu)",
                                    fs_csv_path(header), fs_csv_line(header),
                                    name, *col + 1, i + 1);
        return 0;
    }
    char list[512];
    const char *cand[33];
    size_t n = fs_csv_nfields(header), len = 0, nc = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++) {
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? ", " : "", fs_csv_field(header, i));
        if (nc < 32)
            cand[nc++] = fs_csv_field(header, i);
    }
    cand[nc] = NULL;
    char dym[80];
    fs_arrivals_did_you_mean(name, cand, dym, sizeof dym);
    return fs_error_set(err, "%s:%ld: missing column '%s' (columns: %s)%s",
                        fs_csv_path(header), fs_csv_line(header), name, list,
                        dym);
}

int fs_trace_bind_names(const fs_csv *header, const fs_trace_names *names,
                        fs_trace_cols *cols, fs_error *err)
{
    const struct { const char *name; int *col; } bind[] = {
        {names->time, &cols->time},
        {names->status, &cols->status},
        {names->service, &cols->service},
        {names->tokens_in, &cols->tokens_in},
        {names->tokens_out, &cols->tokens_out},
    };
    for (size_t i = 0; i < sizeof bind / sizeof bind[0]; i++)
        if (bind[i].name &&
            fs_trace_require_column(header, bind[i].name, bind[i].col, err))
            return -1;
    return 0;
}
