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

/* The columns the call names (time: "time" unless named). */
static int generic_bind(const fs_arrivals_spec *spec, const fs_csv *header,
                fs_trace_cols *cols, fs_error *err)
{
    const char *time = fs_call_get(spec->call, "time");
    fs_trace_names names = {
        .time = time ? time : "time",
        .service = fs_call_get(spec->call, "service"),
        .tokens_in = fs_call_get(spec->call, "tokens_in"),
        .tokens_out = fs_call_get(spec->call, "tokens_out"),
    };
    return fs_trace_bind_names(header, &names, cols, err);
}

const fs_trace_format fs_trace_generic = {
    "generic", keys, generic_setup, generic_bind,
    fs_trace_parse_fields, NULL, NULL, NULL,
};
