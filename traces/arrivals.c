/* arrivals.c -- opening arrival streams: the process and the trace format
 * a scenario names, and the calls every stream answers.
 *
 * fs_arrivals_open picks the implementation from the call's name (the
 * table `processes`): the generators live in generators.c, the trace
 * stream in trace_replay.c, which asks fs_trace_format_find for the
 * reader of the format named by format= (the table `formats`: the readers
 * are in trace_*.c).  The rest of the interface goes through each
 * stream's table of functions (arrivals_impl.h). */
#include "traces/arrivals_impl.h"

#include <assert.h>
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

/* ---- Trace formats ---------------------------------------------------- */

static const fs_trace_format *const formats[] = {
    &fs_trace_azure_llm, &fs_trace_alibaba_lora, &fs_trace_generic,
};
static const char *const format_names[] = {
    "azure-llm", "alibaba-lora", "generic", NULL,
};

const fs_trace_format *fs_trace_format_find(const fs_arrivals_spec *spec,
                                            fs_error *err)
{
    const char *name = fs_call_get(spec->call, "format");
    if (!name) {
        fs_arrivals_error(spec, err, "trace: missing format=: one of "
                          "azure-llm, alibaba-lora or generic, e.g. "
                          "trace(%s, format=azure-llm)",
                          fs_call_positional(spec->call, 0));
        return NULL;
    }
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcasecmp(name, formats[i]->name) == 0)
            return formats[i];
    char dym[80];
    fs_arrivals_did_you_mean(name, format_names, dym, sizeof dym);
    fs_arrivals_error(spec, err, "trace: unknown format '%s': expected "
                      "azure-llm, alibaba-lora or generic%s", name, dym);
    return NULL;
}

/* ---- Dispatch ---------------------------------------------------------- */

static const struct {
    const char *name;
    fs_arrivals *(*open)(const fs_arrivals_spec *, fs_error *);
} processes[] = {
    {"poisson", fs_poisson_open},
    {"diurnal", fs_diurnal_open},
    {"mmpp", fs_mmpp_open},
    {"trace", fs_trace_open},
};
static const char *const process_names[] = {
    "poisson", "diurnal", "mmpp", "trace", NULL,
};

fs_arrivals *fs_arrivals_open(const fs_arrivals_spec *spec, fs_error *err)
{
    assert(spec && spec->call);
    assert(spec->horizon_s >= 0);   /* also rejects NaN */
    const char *name = spec->call->name;
    if (spec->statuses.value && strcmp(name, "trace") != 0) {
        const fs_spec_key *k = &spec->statuses;
        return fs_error_at(err, k->file, k->line, k->key, "only traces have "
                           "statuses (these arrivals are %s(...)): remove "
                           "statuses", name), NULL;
    }
    for (size_t i = 0; i < sizeof processes / sizeof processes[0]; i++)
        if (strcmp(name, processes[i].name) == 0)
            return processes[i].open(spec, err);
    char dym[80];
    fs_arrivals_did_you_mean(name, process_names, dym, sizeof dym);
    fs_arrivals_error(spec, err, "unknown arrival process '%s': expected "
                      "poisson, diurnal, mmpp or trace%s", name, dym);
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

void fs_arrivals_stats(const fs_arrivals *a, fs_trace_stats *out)
{
    memset(out, 0, sizeof *out);
    if (a->ops->stats)
        a->ops->stats(a, out);
}
