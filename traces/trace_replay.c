/* trace_replay.c -- replaying a trace file as an arrival stream.
 *
 * What every trace format shares (the formats read their own columns,
 * trace_*.c):
 *   - one streaming validation pass at open (field count, the format's own
 *     checks, timestamps that never go back), so that a bad trace fails, or
 *     has its bad rows counted, before anything is simulated;
 *   - replay, with times relative to the first valid row; each arrival
 *     carries what its row recorded (service time, token counts);
 *   - repeat: at the end of the file, start again one lap later, a lap
 *     being the trace's span plus its mean gap;
 *   - rate_scale: keep each row with probability s (s < 1), or emit floor(s)
 *     or floor(s)+1 copies of it, the first at the row's time and the others
 *     at uniform times before the next row (one row of lookahead), so the
 *     stream stays in order;
 *   - the bounds that keep a stream finite (FS_STEPS_MAX) and the count
 *     of what it will emit (fs_arrivals_expected), for the run's estimate.
 * The field parsers are in trace_fields.c, the statuses in trace_rows.c,
 * the registry of formats in arrivals.c. */
#include "traces/arrivals_impl.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_SCALE_MAX 1000.0

typedef struct trace {
    fs_arrivals base;
    const fs_trace_format *fmt;
    fs_trace_cols cols;
    fs_csv *csv;
    char *path;
    char **names;            /* header names, into one block names[0] */
    size_t ncols;
    fs_bad_rows bad_rows;

    int have_prev;           /* monotonicity, within one pass */
    int64_t prev_ns;
    long prev_line;
    int64_t t0_ns;           /* first valid row */
    fs_trace_stats st;
    double mean_gap;         /* span / (valid - 1) */
    double period;           /* repeat: span + mean gap */

    double horizon;
    double scale;
    int repeat;
    gsl_rng *rng;
    long lap;
    long lap_rows;           /* valid rows read in this lap */

    long status_matched[FS_STATUSES_MAX];   /* rows per replayed status */
    fs_skip_count seen[16];  /* the statuses the trace has, first 16 */
    int nseen;

    fs_arrival cur;          /* the row being emitted */
    fs_arrival ahead;        /* the row after it, when read */
    int have_ahead;
    double *copy_t;          /* times of cur's copies, in order */
    size_t ncopy, icopy, copy_cap;
    double last_t;
    int ended;
} trace;

/* Copies a field for a message: at most 40 bytes, control bytes as '?'. */
static void show_value(const char *v, char *buf, size_t len)
{
    size_t n = 0, max = len > 44 ? 40 : len - 4;
    for (; v[n] && n < max; n++)
        buf[n] = (unsigned char)v[n] < 0x20 ? '?' : v[n];
    if (v[n])
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
}

/* "COLUMN: what (value 'xyz')" or "what" for the row as a whole. */
static void describe(const trace *ts, const fs_row_problem *pb, char *buf,
                     size_t len)
{
    if (pb->col < 0) {
        snprintf(buf, len, "%s", pb->what);
        return;
    }
    assert((size_t)pb->col < ts->ncols);
    char v[48];
    show_value(fs_csv_field(ts->csv, (size_t)pb->col), v, sizeof v);
    snprintf(buf, len, "%s: %s (value '%s')", ts->names[pb->col], pb->what, v);
}

/* Reads the current record as a row of the trace. */
static int classify(trace *ts, fs_trace_row *row, fs_row_problem *pb)
{
    size_t nf = fs_csv_nfields(ts->csv);
    pb->col = -1;
    pb->what[0] = '\0';
    if (nf != ts->ncols) {
        snprintf(pb->what, sizeof pb->what, "%zu fields where the header "
                 "has %zu", nf, ts->ncols);
        return FS_ROW_BAD;
    }
    int rc = ts->fmt->parse(&ts->cols, ts->csv, row, pb);
    if (rc != FS_ROW_OK)
        return rc;
    if (ts->have_prev && row->t_ns < ts->prev_ns) {
        pb->col = ts->cols.time;
        snprintf(pb->what, sizeof pb->what, "earlier than the previous row "
                 "(line %ld)", ts->prev_line);
        return FS_ROW_BAD;
    }
    return FS_ROW_OK;
}

/* The validating pass's account of a row: the statuses a trace with a
 * status column has and replays, and the rows skipped by kind. */
static void count_row(trace *ts, int c, const fs_row_problem *pb, long line)
{
    fs_trace_stats *st = &ts->st;
    int sc = ts->cols.status;
    const char *status = "";
    if (sc >= 0 && fs_csv_nfields(ts->csv) == ts->ncols) {
        status = fs_csv_field(ts->csv, (size_t)sc);
        int i = fs_trace_status_index(&ts->cols, status);
        if (i >= 0)
            ts->status_matched[i]++;
        fs_skip_tally(ts->seen, &ts->nseen, 16, status, 1);
    }
    if (c == FS_ROW_SKIP)
        fs_skip_tally(st->skipped_by, &st->nskipped_by, FS_SKIP_KINDS, status,
                      1);
    if (c == FS_ROW_BAD && ts->bad_rows == FS_BAD_ROWS_SKIP &&
        st->malformed++ == 0) {
        st->first_malformed_line = line;
        describe(ts, pb, st->malformed_reason, sizeof st->malformed_reason);
    }
}


/* Nanoseconds from the first valid row to t (t >= it: rows are in time
 * order).  Unsigned, because two date-times centuries apart differ by more
 * than an int64_t holds; the difference itself always fits. */
static uint64_t since_t0(const trace *ts, int64_t t)
{
    return (uint64_t)t - (uint64_t)ts->t0_ns;
}

/* The next valid row: 1, 0 at end of file, -1 on error.  The validating
 * pass counts rows; replay skips exactly the rows it skipped. */
static int scan_row(trace *ts, fs_trace_row *row, int validating,
                    fs_error *err)
{
    for (;;) {
        int rc = fs_csv_next(ts->csv, err);
        if (rc <= 0)
            return rc;
        fs_row_problem pb;
        int c = classify(ts, row, &pb);
        long line = fs_csv_line(ts->csv);
        if (validating) {
            ts->st.rows++;
            count_row(ts, c, &pb, line);
        }
        if (c == FS_ROW_OK) {
            ts->have_prev = 1;
            ts->prev_ns = row->t_ns;
            ts->prev_line = line;
            return 1;
        }
        if (c == FS_ROW_BAD && ts->bad_rows == FS_BAD_ROWS_FAIL) {
            char d[sizeof err->msg - 64];
            describe(ts, &pb, d, sizeof d);
            return fs_error_set(err, "%s:%ld: %s%s", ts->path, line, d,
                                validating ? "" : " (the file changed "
                                "after it was opened)");
        }
        if (validating && ts->st.skipped++ == 0) {
            ts->st.first_skipped_line = line;
            describe(ts, &pb, ts->st.skip_reason, sizeof ts->st.skip_reason);
        }
    }
}

/* Back to the first data row. */
static int rewind_trace(trace *ts, fs_error *err)
{
    if (fs_csv_rewind(ts->csv, err))
        return -1;
    int rc = fs_csv_next(ts->csv, err);   /* the header */
    if (rc < 0)
        return -1;
    if (rc == 0)
        return fs_error_set(err, "%s: the file changed after it was opened "
                            "(its header is gone)", ts->path);
    ts->have_prev = 0;
    ts->lap_rows = 0;
    return 0;
}

/* Keeps the header's names for messages. */
static int save_names(trace *ts)
{
    size_t n = fs_csv_nfields(ts->csv), total = 0;
    for (size_t i = 0; i < n; i++)
        total += strlen(fs_csv_field(ts->csv, i)) + 1;
    ts->names = malloc(n * sizeof *ts->names);
    char *block = malloc(total ? total : 1);
    if (!ts->names || !block) {
        free(block);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(fs_csv_field(ts->csv, i)) + 1;
        memcpy(block, fs_csv_field(ts->csv, i), l);
        ts->names[i] = block;
        block += l;
    }
    ts->ncols = n;
    return 0;
}

/* The validating pass: counts, span, mean gap. */
static int validate(trace *ts, const fs_arrivals_spec *spec, fs_error *err)
{
    fs_trace_row row;
    int64_t last = 0;
    long valid = 0;
    int rc;
    while ((rc = scan_row(ts, &row, 1, err)) == 1) {
        if (valid++ == 0)
            ts->t0_ns = row.t_ns;
        last = row.t_ns;
    }
    if (rc < 0)
        return -1;
    ts->st.valid = valid;
    if (fs_trace_check_statuses(spec, &ts->cols, ts->status_matched, ts->seen,
                                ts->nseen, ts->path, err))
        return -1;
    if (valid == 0 && ts->st.rows == 0)
        return fs_arrivals_error(spec, err, "trace '%s' has a header but no "
                                 "rows", ts->path);
    if (valid == 0)
        return fs_arrivals_error(spec, err, "trace '%s' has no valid rows: "
                                 "all %ld skipped, the first on line %ld: %s",
                                 ts->path, ts->st.rows,
                                 ts->st.first_skipped_line,
                                 ts->st.skip_reason);
    ts->st.span_s = (double)since_t0(ts, last) / 1e9;
    ts->mean_gap = valid > 1 ? ts->st.span_s / (double)(valid - 1) : 0;
    ts->period = ts->st.span_s + ts->mean_gap;
    if (ts->repeat && !(ts->period > 0))
        return fs_arrivals_error(spec, err, "cannot repeat trace '%s': its "
                                 "%ld valid row%s span no time", ts->path,
                                 valid, valid == 1 ? "" : "s");
    return 0;
}

/* The next row of the trace, laps included: 1, 0 at the end, -1. */
static int lap_next(trace *ts, fs_arrival *out, fs_error *err)
{
    for (;;) {
        fs_trace_row row;
        int rc = scan_row(ts, &row, 0, err);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            ts->lap_rows++;
            out->t = (double)ts->lap * ts->period +
                     (double)since_t0(ts, row.t_ns) / 1e9;
            out->service_s = row.service_s;
            out->tokens_in = row.tokens_in;
            out->tokens_out = row.tokens_out;
            out->hashes = NULL;
            out->nhashes = out->hash_tokens = 0;
            return 1;
        }
        if (!ts->repeat)
            return 0;
        if (ts->lap_rows == 0)
            return fs_error_set(err, "%s: the file changed after it was "
                                "opened (no valid rows left)", ts->path);
        if (rewind_trace(ts, err))
            return -1;
        ts->lap++;
    }
}

/* Sorts the few copy times (insertion sort). */
static void sort_times(double *t, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        double x = t[i];
        size_t j = i;
        for (; j > 0 && t[j - 1] > x; j--)
            t[j] = t[j - 1];
        t[j] = x;
    }
}

/* Takes the next row and decides its copies (rate_scale). */
static int scale_step(trace *ts, fs_error *err)
{
    if (ts->have_ahead) {
        ts->cur = ts->ahead;
        ts->have_ahead = 0;
    } else {
        int rc = lap_next(ts, &ts->cur, err);
        if (rc <= 0) {
            ts->ended = 1;
            return rc;
        }
    }
    ts->icopy = ts->ncopy = 0;
    if (!(ts->cur.t < ts->horizon)) {
        ts->ended = 1;
        return 0;
    }
    double s = ts->scale;
    if (s <= 1) {
        if (s == 1 || gsl_rng_uniform(ts->rng) < s)
            ts->copy_t[ts->ncopy++] = ts->cur.t;
        return 0;
    }
    double whole = floor(s);
    size_t k = (size_t)whole;
    if (s > whole && gsl_rng_uniform(ts->rng) < s - whole)
        k++;
    assert(k <= ts->copy_cap);
    ts->copy_t[0] = ts->cur.t;
    if (k > 1) {
        int rc = lap_next(ts, &ts->ahead, err);
        if (rc < 0)
            return -1;
        ts->have_ahead = rc;
        double gap = (rc ? ts->ahead.t : ts->cur.t + ts->mean_gap) - ts->cur.t;
        for (size_t j = 1; j < k; j++)
            ts->copy_t[j] = ts->cur.t + gsl_rng_uniform(ts->rng) * gap;
        sort_times(ts->copy_t + 1, k - 1);
    }
    ts->ncopy = k;
    return 0;
}

static int trace_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    trace *ts = (trace *)a;
    while (!ts->ended) {
        if (ts->icopy < ts->ncopy) {
            double t = ts->copy_t[ts->icopy++];
            if (t < ts->last_t)
                t = ts->last_t;   /* lap offsets: guard the last ulp */
            if (!(t < ts->horizon))
                break;
            *out = ts->cur;
            out->t = ts->last_t = t;
            return 1;
        }
        if (scale_step(ts, err) < 0)
            return -1;
    }
    ts->ended = 1;
    return 0;
}

static void trace_free(fs_arrivals *a)
{
    trace *ts = (trace *)a;
    fs_csv_free(ts->csv);
    if (ts->names)
        free(ts->names[0]);
    free(ts->names);
    free(ts->copy_t);
    free(ts->path);
    free(ts);
}

static double trace_mean_rate(const fs_arrivals *a)
{
    const trace *ts = (const trace *)a;
    return fs_trace_rate(&ts->st) * ts->scale;
}

static void trace_stats(const fs_arrivals *a, fs_trace_stats *out)
{
    *out = ((const trace *)a)->st;
}

/* Rows before the horizon: whole laps with repeat, else the share of the
 * span the horizon covers; each kept with rate_scale.  Every row read
 * (skipped ones too) costs a step. */
static double trace_expected(const fs_arrivals *a, double *extra)
{
    const trace *ts = (const trace *)a;
    double laps;
    if (ts->repeat)
        laps = ts->horizon / ts->period;
    else if (ts->st.span_s > ts->horizon)
        laps = ts->horizon / ts->st.span_s;
    else
        laps = ts->horizon > 0 ? 1 : 0;
    double n = laps * (double)ts->st.valid * ts->scale;
    double read = laps * (double)ts->st.rows;
    *extra = read > n ? read - n : 0;
    return n;
}

static const fs_arrivals_ops trace_ops = {
    trace_next, trace_free, trace_mean_rate, trace_stats, trace_expected,
};

/* The path of the trace file: relative paths against base_dir. */
static char *resolve_path(const char *base_dir, const char *path)
{
    if (path[0] == '/' || !base_dir || !base_dir[0] ||
        strcmp(base_dir, ".") == 0)
        return strdup(path);
    size_t lb = strlen(base_dir), lp = strlen(path);
    char *p = malloc(lb + lp + 2);
    if (p) {
        memcpy(p, base_dir, lb);
        size_t n = lb;
        if (base_dir[lb - 1] != '/')
            p[n++] = '/';
        memcpy(p + n, path, lp + 1);
    }
    return p;
}

/* Checks the call and the spec's trace keys, before any file is read. */
static const fs_trace_format *check_trace_call(const fs_arrivals_spec *spec,
                                               fs_error *err)
{
    const fs_call *c = spec->call;
    if (!fs_call_positional(c, 0)) {
        fs_arrivals_error(spec, err, "trace: missing the file, e.g. "
                          "trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                          "format=azure-llm)");
        return NULL;
    }
    if (fs_call_positional(c, 1)) {
        fs_arrivals_error(spec, err, "trace: unexpected second unnamed "
                          "argument '%s' (only the file comes unnamed)",
                          fs_call_positional(c, 1));
        return NULL;
    }
    const fs_trace_format *fmt = fs_trace_format_find(spec, err);
    if (!fmt)
        return NULL;
    char why[256];
    if (fs_call_check_keys(c, fmt->keys, why, sizeof why)) {
        fs_arrivals_error(spec, err, "%s (format=%s)", why, fmt->name);
        return NULL;
    }
    if (!(spec->rate_scale > 0 && spec->rate_scale <= RATE_SCALE_MAX)) {
        fs_arrivals_error(spec, err, "rate_scale must be above 0 and at most "
                          "%g, got %g", RATE_SCALE_MAX, spec->rate_scale);
        return NULL;
    }
    return fmt;
}

/* A trace replayed lap after lap over a horizon far longer than its span
 * (2 rows 1 ms apart, for a year) is refused like a generator's runaway
 * rate: past FS_STEPS_MAX rows it would not finish. */
static int check_trace_steps(const trace *ts, const fs_arrivals_spec *spec,
                             fs_error *err)
{
    double extra, n = trace_expected(&ts->base, &extra);
    if (!(n + extra > FS_STEPS_MAX))
        return 0;
    char h[32], span[32];
    fs_format_duration(ts->horizon, h, sizeof h);
    fs_format_duration(ts->period, span, sizeof span);
    return fs_arrivals_error(spec, err, "repeating trace '%s' (a lap of %s) "
                             "over %s reads %.3g rows, more than fleetsim can "
                             "simulate (at most 2^40, about 1.1e12)",
                             ts->path, span, h, n + extra);
}

/* Opens the trace's CSV stream, reads its header line and binds the
 * format's columns: 0, or -1 with err naming the scenario key. */
static int open_header(trace *ts, const fs_arrivals_spec *spec,
                       fs_error *err)
{
    const fs_trace_format *fmt = ts->fmt;
    ts->csv = fs_csv_open(ts->path, err);
    if (!ts->csv) {
        /* err holds "PATH: why"; the message names the scenario key. */
        size_t lp = strlen(ts->path);
        const char *why = strncmp(err->msg, ts->path, lp) == 0 &&
                          strncmp(err->msg + lp, ": ", 2) == 0
                              ? err->msg + lp + 2 : strerror(errno);
        char reason[sizeof err->msg];
        snprintf(reason, sizeof reason, "%s", why);
        fs_arrivals_error(spec, err, "cannot open trace '%s': %s", ts->path,
                          reason);
        return -1;
    }
    int rc = fs_csv_next(ts->csv, err);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        fs_arrivals_error(spec, err, "trace '%s' is empty (a %s trace starts "
                          "with a header line)", ts->path, fmt->name);
        return -1;
    }
    if (save_names(ts)) {
        fs_arrivals_error(spec, err, "out of memory");
        return -1;
    }
    return fmt->bind ? fmt->bind(spec, ts->csv, &ts->cols, err)
                     : fs_trace_bind_names(ts->csv, fmt->columns, &ts->cols,
                                           err);
}

fs_arrivals *fs_trace_open(const fs_arrivals_spec *spec, fs_error *err)
{
    const fs_trace_format *fmt = check_trace_call(spec, err);
    if (!fmt)
        return NULL;
    if (fmt->open) {   /* a format with its own reader (trace_mooncake.c) */
        char *path = resolve_path(spec->base_dir,
                                  fs_call_positional(spec->call, 0));
        fs_arrivals *a = path ? fmt->open(spec, path, err) : NULL;
        if (!path)
            fs_arrivals_error(spec, err, "out of memory");
        free(path);
        return a;
    }
    assert(spec->bad_rows == FS_BAD_ROWS_FAIL ||
           spec->bad_rows == FS_BAD_ROWS_SKIP);
    assert(spec->rate_scale == 1 || spec->rng);
    trace *ts = calloc(1, sizeof *ts);
    if (!ts) {
        fs_arrivals_error(spec, err, "out of memory");
        return NULL;
    }
    ts->base.ops = &trace_ops;
    ts->fmt = fmt;
    ts->bad_rows = spec->bad_rows;
    ts->horizon = spec->horizon_s;
    ts->scale = spec->rate_scale;
    ts->repeat = spec->repeat;
    ts->rng = spec->rng;
    ts->cols = (fs_trace_cols){.time = -1, .service = -1, .tokens_in = -1,
                               .tokens_out = -1, .status = -1};
    ts->copy_cap = (size_t)floor(ts->scale) + 1;
    ts->copy_t = malloc(ts->copy_cap * sizeof *ts->copy_t);
    ts->path = resolve_path(spec->base_dir, fs_call_positional(spec->call, 0));
    if (!ts->copy_t || !ts->path) {
        fs_arrivals_error(spec, err, "out of memory");
        goto fail;
    }
    if ((fmt->setup && fmt->setup(spec, &ts->cols, err)) ||
        fs_trace_statuses_setup(spec, fmt, &ts->cols, ts->st.statuses,
                                sizeof ts->st.statuses, err))
        goto fail;
    ts->st.statuses_default = fmt->statuses && !spec->statuses.value;
    if (open_header(ts, spec, err))
        goto fail;
    ts->st.path = ts->path;
    ts->st.has_service = ts->cols.service >= 0;
    ts->st.has_tokens_in = ts->cols.tokens_in >= 0;
    ts->st.has_tokens_out = ts->cols.tokens_out >= 0;
    ts->st.has_tokens = ts->st.has_tokens_in || ts->st.has_tokens_out;
    if (validate(ts, spec, err) || check_trace_steps(ts, spec, err) ||
        rewind_trace(ts, err))
        goto fail;
    return &ts->base;
fail:
    trace_free(&ts->base);
    return NULL;
}
