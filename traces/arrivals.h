/* arrivals.h -- arrival streams: generators and trace readers behind one
 * pull iterator.
 *
 * A workload asks its stream for the next arrival when the previous one
 * fires, so nothing ever holds a whole trace in memory.  Streams are opened
 * from the `arrivals =` call of a scenario (poisson(...), diurnal(...),
 * mmpp(...), trace(path, format=...)); times are seconds from the scenario
 * start and never decrease. */
#ifndef FS_ARRIVALS_H
#define FS_ARRIVALS_H

#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "sim/base/error.h"
#include "sim/base/grammar.h"

typedef struct fs_arrival {
    double t;          /* arrival time, seconds from scenario start */
    double service_s;  /* service time recorded by the trace, -1 if none */
    int tokens_in;     /* prompt tokens, -1 if unknown */
    int tokens_out;    /* generated tokens, -1 if unknown */
    /* the prompt's prefix-block hashes (format=mooncake), each naming
     * hash_tokens tokens of the prompt and everything before them; valid
     * until the next call; NULL (and 0) when the trace has none */
    const uint32_t *hashes;
    int nhashes;
    int hash_tokens;
} fs_arrival;

typedef enum fs_bad_rows { FS_BAD_ROWS_FAIL = 0, FS_BAD_ROWS_SKIP = 1 } fs_bad_rows;

/* A scenario key's value and where it was set, for messages. */
typedef struct fs_spec_key {
    const char *value;       /* NULL: the key was not set */
    const char *file;
    const char *key;         /* e.g. "workload.chat.statuses" */
    int line;
} fs_spec_key;

/* growth: at most this per month (1 = 100%/month); the month is 730 h;
 * the traffic multiplier over the horizon (times rate_scale) at most
 * FS_GROWTH_SCALE_MAX, the largest rate_scale a trace takes. */
#define FS_GROWTH_MAX 1.0
#define FS_GROWTH_MONTH_S (730 * 3600.0)
#define FS_GROWTH_SCALE_MAX 1000.0

/* One replication's growth rate for `growth = MEAN ± SD`: a normal draw
 * truncated to 0..FS_GROWTH_MAX (traces/growth.c); sd 0: mean. */
double fs_growth_draw(double mean, double sd, gsl_rng *rng);

typedef struct fs_arrivals_spec {
    const fs_call *call;     /* parsed `arrivals =` value */
    const char *file;        /* scenario file and line of the key, for messages */
    int line;
    const char *key;         /* e.g. "workload.chat.arrivals" */
    const char *base_dir;    /* relative trace paths resolve against this */
    double horizon_s;        /* no arrival at or after the horizon */
    double start_hour;       /* hour of day (0..24) at t = 0, for diurnal */
    double rate_scale;       /* traces: thinning (<1) or replication (>1);
                                generators: multiplies the rates; must be
                                > 0, and 1 leaves the stream as it is */
    int repeat;              /* traces: loop the trace until the horizon */
    fs_bad_rows bad_rows;    /* traces: stop on a malformed row, or skip it */
    gsl_rng *rng;            /* owned by the caller, used for every draw */
    double growth;           /* growth = G%/month as a fraction (0.04);
                                0: none (traces/growth.c) */
    fs_spec_key growth_key;  /* where growth was set, for messages */
    fs_spec_key statuses;    /* traces with a status column: the statuses
                                replayed ("SUCCEED, PROCESSING"); unset: the
                                format's default (alibaba-lora: SUCCEED) */
} fs_arrivals_spec;

/* Skipped rows of one kind: a status not replayed, or "malformed". */
typedef struct fs_skip_count {
    char what[32];
    long n;
} fs_skip_count;
#define FS_SKIP_KINDS 8

typedef struct fs_trace_stats {
    long rows;          /* data rows read in the validating pass */
    long valid;         /* rows that became arrivals (before rate_scale) */
    long skipped;       /* rows skipped (bad_rows=skip, or a status not
                           replayed) */
    const char *path;   /* the file as opened (relative paths resolved);
                           valid while the stream is open */
    long first_skipped_line;  /* physical line of the first skipped row, 0 if none */
    char skip_reason[128];    /* why the first one was skipped */
    long malformed;           /* of them, malformed rows (bad_rows = skip) */
    long first_malformed_line;
    char malformed_reason[128];
    fs_skip_count skipped_by[FS_SKIP_KINDS];  /* by status in file order,
                           then "malformed"; the last kind takes the rest */
    int nskipped_by;
    char statuses[128]; /* the statuses replayed, "" without a status column */
    int statuses_default;     /* the format's default (no statuses key) */
    double span_s;      /* time from first to last valid row */
    int has_service;    /* rows carry a service time */
    int has_tokens;     /* rows carry token counts */
    int has_tokens_in, has_tokens_out;   /* which of them */
} fs_trace_stats;

/* Opens a stream.  Trace files are validated completely here, in one
 * streaming pass (malformed or decreasing timestamps, negative or NaN
 * values -> "file:line: column: ..."), so a bad trace fails before any
 * event is simulated.  NULL with a message on error. */
typedef struct fs_arrivals fs_arrivals;
fs_arrivals *fs_arrivals_open(const fs_arrivals_spec *spec, fs_error *err);
void fs_arrivals_free(fs_arrivals *a);

/* 1 with *out filled, 0 when the stream has ended (horizon reached or trace
 * exhausted without repeat), -1 on error (I/O) with a message. */
int fs_arrivals_next(fs_arrivals *a, fs_arrival *out, fs_error *err);

/* Mean arrival rate per second over the horizon, when known in closed form
 * (generators) or from the validating pass (traces); used for summaries and
 * feasibility messages. */
double fs_arrivals_mean_rate(const fs_arrivals *a);

/* The expected number of arrivals before the horizon (rate_scale and
 * repeat included): the generator's mean rate times the horizon, or the
 * trace's rows that fall before it, lap after lap.  With extra, also the
 * other steps the stream takes meanwhile (candidates thinned away, MMPP
 * state changes, trace rows read but not emitted), which cost time too.
 * An estimate, for refusing runs too large to finish. */
double fs_arrivals_expected(const fs_arrivals *a, double *extra);

/* Trace statistics; all zero for generators. */
void fs_arrivals_stats(const fs_arrivals *a, fs_trace_stats *out);

/* "trace rows skipped: 398 FAILED, 30 PENDING (statuses = SUCCEED)", for
 * the run summary; "" when no row was skipped. */
void fs_trace_skipped_note(const fs_trace_stats *st, char *buf, size_t len);

#endif
