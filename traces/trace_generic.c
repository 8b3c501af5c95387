/* trace_generic.c -- any CSV with a header, columns named in the call
 * (generic):
 *   trace(path, format=generic, time=arrival_s, service=exec_s,
 *         tokens_in=prompt, tokens_out=output, time_unit=s|ms|us|datetime)
 * Only the time column is required ("time" unless named); the others are
 * read when named.  time_unit (s by default) says what the time column
 * holds: a number of seconds, milliseconds or microseconds (read exactly
 * to the nanosecond, so that large epoch times keep their gaps), or
 * date-times "YYYY-MM-DD HH:MM:SS[.fraction]". */
#include "traces/arrivals_impl.h"

#include <stdio.h>
#include <strings.h>

static const char *const keys[] = {
    "format", "time", "service", "tokens_in", "tokens_out", "time_unit", NULL,
};

static int generic_setup(const fs_arrivals_spec *spec, fs_trace_cols *cols,
                 fs_error *err)
{
    static const struct { const char *name; int64_t ns; } units[] = {
        {"s", 1000000000}, {"ms", 1000000}, {"us", 1000}, {"datetime", 0},
    };
    const char *u = fs_call_get(spec->call, "time_unit");
    if (!u) {
        cols->time_unit_ns = 1000000000;
        return 0;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(u, units[i].name) == 0) {
            cols->time_unit_ns = units[i].ns;
            return 0;
        }
    }
    return fs_arrivals_error(spec, err, "trace: time_unit: expected s, ms, "
                             "us or datetime, got '%s'", u);
}

/* The column named by key=, if the call names one (or def is given). */
static int find(const fs_arrivals_spec *spec, const fs_csv *header,
                const char *key, const char *def, int *col, fs_error *err)
{
    const char *name = fs_call_get(spec->call, key);
    if (!name)
        name = def;
    if (!name) {
        *col = -1;
        return 0;
    }
    return fs_trace_require_column(header, name, col, err);
}

static int generic_bind(const fs_arrivals_spec *spec, const fs_csv *header,
                fs_trace_cols *cols, fs_error *err)
{
    if (find(spec, header, "time", "time", &cols->time, err) ||
        find(spec, header, "service", NULL, &cols->service, err) ||
        find(spec, header, "tokens_in", NULL, &cols->tokens_in, err) ||
        find(spec, header, "tokens_out", NULL, &cols->tokens_out, err))
        return -1;
    return 0;
}

static int generic_parse(const fs_trace_cols *cols, const fs_csv *row,
                 fs_trace_row *out, fs_row_problem *why)
{
    const char *what;
    const char *t = fs_csv_field(row, (size_t)cols->time);
    int rc = cols->time_unit_ns
                 ? fs_field_decimal_ns(t, cols->time_unit_ns, &out->t_ns, &what)
                 : fs_field_datetime_ns(t, &out->t_ns, &what);
    if (rc) {
        why->col = cols->time;
        goto bad;
    }
    out->service_s = -1;
    out->tokens_in = out->tokens_out = -1;
    if (cols->service >= 0 &&
        fs_field_seconds(fs_csv_field(row, (size_t)cols->service),
                         &out->service_s, &what)) {
        why->col = cols->service;
        goto bad;
    }
    if (cols->tokens_in >= 0 &&
        fs_field_count(fs_csv_field(row, (size_t)cols->tokens_in),
                       &out->tokens_in, &what)) {
        why->col = cols->tokens_in;
        goto bad;
    }
    if (cols->tokens_out >= 0 &&
        fs_field_count(fs_csv_field(row, (size_t)cols->tokens_out),
                       &out->tokens_out, &what)) {
        why->col = cols->tokens_out;
        goto bad;
    }
    return FS_ROW_OK;
bad:
    snprintf(why->what, sizeof why->what, "%s", what);
    return FS_ROW_BAD;
}

const fs_trace_format fs_trace_generic = {
    "generic", keys, generic_setup, generic_bind, generic_parse, NULL, NULL,
};
