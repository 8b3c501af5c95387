/* arrivals_impl.h -- what the stream implementations in traces/ share.
 *
 * arrivals.h is the interface the simulator uses; this is the inside of it:
 * the vtable every stream fills in (generators.c, trace_replay.c), the
 * trace-format interface the readers implement (trace_azure.c,
 * trace_lora.c, trace_generic.c; registered in arrivals.c), and the field
 * parsers they share.  Nothing outside traces/ includes it. */
#ifndef FS_ARRIVALS_IMPL_H
#define FS_ARRIVALS_IMPL_H

#include <stdint.h>
#include "traces/arrivals.h"
#include "sim/base/csvin.h"

/* The most steps (arrivals, candidates, state changes, trace rows) one
 * stream may take over the horizon: 2^40, past anything that finishes. */
#define FS_STEPS_MAX 1099511627776.0

/* What every stream implements (stats may be NULL: all zero). */
typedef struct fs_arrivals_ops {
    int (*next)(fs_arrivals *a, fs_arrival *out, fs_error *err);
    void (*free)(fs_arrivals *a);
    double (*mean_rate)(const fs_arrivals *a);
    void (*stats)(const fs_arrivals *a, fs_trace_stats *out);
    double (*expected)(const fs_arrivals *a, double *extra);
} fs_arrivals_ops;

/* Implementations embed this as their first member. */
struct fs_arrivals {
    const fs_arrivals_ops *ops;
};

/* Sets "FILE:LINE: KEY: ..." for the spec's `arrivals =` key; returns -1. */
int fs_arrivals_error(const fs_arrivals_spec *spec, fs_error *err,
                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "a, b or c" from a NULL-ended list of names (arrivals.c). */
void fs_arrivals_list_names(const char *const *names, char *buf, size_t len);
/* " (did you mean 'X'?)" or "": the nearest candidate by edit distance,
 * or one that name is the start of (arrivals.c). */
void fs_arrivals_did_you_mean(const char *name,
                              const char *const *candidates, char *buf,
                              size_t len);

/* A trace's valid rows a second over its span, 0 for a span of none (a
 * single row): its mean arrival rate before rate_scale (arrivals.c). */
double fs_trace_rate(const fs_trace_stats *st);

/* Generators (generators.c); spec->call->name selects them. */
fs_arrivals *fs_poisson_open(const fs_arrivals_spec *spec, fs_error *err);
fs_arrivals *fs_diurnal_open(const fs_arrivals_spec *spec, fs_error *err);
fs_arrivals *fs_mmpp_open(const fs_arrivals_spec *spec, fs_error *err);

/* growth > 0 (growth.c): open through the stream's opener, rates scaled
 * to the horizon's growth, and thin by the growth at each arrival. */
fs_arrivals *fs_growth_open(const fs_arrivals_spec *spec,
                            fs_arrivals *(*open)(const fs_arrivals_spec *,
                                                 fs_error *),
                            fs_error *err);

/* The most statuses a `statuses =` key may name. */
#define FS_STATUSES_MAX 8

/* Where a trace format finds its values: field indexes, -1 if absent. */
typedef struct fs_trace_cols {
    int time, service, tokens_in, tokens_out, status;
    int64_t time_unit_ns;    /* numeric times: ns per unit; 0: date-times */
    char statuses[FS_STATUSES_MAX][32];   /* the statuses replayed */
    int nstatuses;
} fs_trace_cols;

/* One data row as a format reads it. */
typedef struct fs_trace_row {
    int64_t t_ns;            /* absolute time, ns from any fixed origin */
    double service_s;        /* -1 if the format has none */
    int tokens_in, tokens_out;   /* -1 if unknown */
} fs_trace_row;

/* What is wrong with a row: the column (-1: the row as a whole) and why. */
typedef struct fs_row_problem {
    int col;
    char what[96];
} fs_row_problem;

enum { FS_ROW_BAD = -1, FS_ROW_OK = 0, FS_ROW_SKIP = 1 /* not a request */ };

/* The header names of a format's columns, NULL where it has none. */
typedef struct fs_trace_names {
    const char *time, *status, *service, *tokens_in, *tokens_out;
} fs_trace_names;

/* A trace format: traces/trace_NAME.c defines one, and one line in the
 * table of arrivals.c registers it. */
typedef struct fs_trace_format {
    const char *name;
    const char *const *keys;   /* keyed arguments of trace(), with "format" */
    /* Reads the format's arguments, before the file is opened. */
    int (*setup)(const fs_arrivals_spec *spec, fs_trace_cols *cols,
                 fs_error *err);
    /* Finds the columns in the header record; NULL: the format's fixed
     * columns (below) are bound by name. */
    int (*bind)(const fs_arrivals_spec *spec, const fs_csv *header,
                fs_trace_cols *cols, fs_error *err);
    /* FS_ROW_OK with *out filled, FS_ROW_SKIP or FS_ROW_BAD with *why. */
    int (*parse)(const fs_trace_cols *cols, const fs_csv *row,
                 fs_trace_row *out, fs_row_problem *why);
    /* Formats with a status column: the statuses replayed by default
     * ("SUCCEED"); NULL when the format has none. */
    const char *statuses;
    /* A format that is not CSV (mooncake's JSON lines) opens its own
     * stream from the resolved path, and leaves bind and parse NULL;
     * NULL for the CSV formats, which trace_replay.c reads. */
    fs_arrivals *(*open)(const fs_arrivals_spec *spec, const char *path,
                         fs_error *err);
    /* A fixed layout's header names (bind NULL); NULL for a format that
     * binds its own. */
    const fs_trace_names *columns;
} fs_trace_format;

/* The format named by the call's format= argument, from the registry in
 * arrivals.c; NULL with a message (and the nearest name) if none. */
const fs_trace_format *fs_trace_format_find(const fs_arrivals_spec *spec,
                                            fs_error *err);

/* A trace replayed as a stream (trace_replay.c): trace(path, format=...). */
fs_arrivals *fs_trace_open(const fs_arrivals_spec *spec, fs_error *err);

/* Rows by status (trace_rows.c). */
/* Reads spec->statuses (or the format's default) into cols; the list as
 * shown to the user into shown. */
int fs_trace_statuses_setup(const fs_arrivals_spec *spec,
                            const fs_trace_format *fmt, fs_trace_cols *cols,
                            char *shown, size_t len, fs_error *err);
/* The index of status in cols->statuses (case-insensitive), or -1. */
int fs_trace_status_index(const fs_trace_cols *cols, const char *status);
/* Adds n to what's count in a table of at most max kinds (the last one
 * takes every kind that does not fit, as "other"). */
void fs_skip_tally(fs_skip_count *tab, int *ntab, int max, const char *what,
                   long n);
/* After the validating pass: every status named in the statuses key
 * matched a row (matched[i] rows for cols->statuses[i]), else a message
 * listing the statuses the trace has (seen). */
int fs_trace_check_statuses(const fs_arrivals_spec *spec,
                            const fs_trace_cols *cols, const long *matched,
                            const fs_skip_count *seen, int nseen,
                            const char *path, fs_error *err);

/* The index of column name in header (fs_csv_column: case-insensitive),
 * failing with "PATH:LINE: missing column 'X' (columns: ...)", or when the
 * header names the column twice. */
int fs_trace_require_column(const fs_csv *header, const char *name,
                            int *col, fs_error *err);

/* Binds every named column with fs_trace_require_column, in the order of
 * the struct (the first one missing is the one reported); unnamed columns
 * stay -1. */
int fs_trace_bind_names(const fs_csv *header, const fs_trace_names *names,
                        fs_trace_cols *cols, fs_error *err);

/* Field parsers for the hot path: 0, or -1 with a static reason in *what.
 * A date-time is "YYYY-MM-DD HH:MM:SS[.fraction]" ('T' also separates
 * date and time, a final 'Z' is allowed), read exactly to the nanosecond
 * as UTC; a decimal time is a plain number of units of unit_ns each. */
int fs_field_datetime_ns(const char *s, int64_t *ns, const char **what);
int fs_field_decimal_ns(const char *s, int64_t unit_ns, int64_t *ns,
                        const char **what);
int fs_field_seconds(const char *s, double *out, const char **what);
int fs_field_count(const char *s, int *out, const char **what);

/* Reads a row's time (as cols->time_unit_ns says) and each of service,
 * tokens_in and tokens_out whose column is bound (else -1): FS_ROW_OK, or
 * FS_ROW_BAD with the first bad field in *why.  The status column is the
 * format's own concern. */
int fs_trace_parse_fields(const fs_trace_cols *cols, const fs_csv *row,
                          fs_trace_row *out, fs_row_problem *why);

#endif
