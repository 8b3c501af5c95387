/* trace_mooncake.c -- the Mooncake trace format (mooncake): JSON lines.
 *
 * One request per line, e.g.
 *   {"timestamp": 27482, "input_length": 6955, "output_length": 52,
 *    "hash_ids": [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 2353]}
 * (Mooncake, Qin et al., FAST 2025: timestamps in milliseconds, and each
 * 512-token block of the prompt named by a hash of it and everything
 * before it, so equal ids mean an equal prefix).  The arrival carries the
 * ids: sim/fleet/llm_prefix.c replays the prefix cache from them.
 *
 * The file is JSON lines, not CSV, so this format opens its own stream
 * (fs_trace_format.open) instead of trace_replay.c's CSV rows: the same
 * streaming contract (one validating pass at open, then replay reading one
 * line at a time; nothing holds the whole file), lines parsed with
 * jansson.  A malformed line or a timestamp earlier than the line before
 * fails as "FILE:LINE: ..." (bad_rows = skip counts and skips it).  The
 * replay is the trace once, as recorded: repeat and rate_scale are
 * refused, since copying a request would copy its prefix too. */
#include "traces/arrivals_impl.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_TOKENS 512          /* tokens per hash id (the trace's block) */
#define LINE_MAX_BYTES (1 << 24) /* a longer line is refused, not read */
#define HASHES_MAX (1 << 20)     /* ids per request: 512 Mtokens */

static const char *const keys[] = {"format", NULL};

typedef struct mooncake {
    fs_arrivals base;
    FILE *f;
    char *path;
    char *line;
    size_t line_cap;
    long lineno;
    fs_bad_rows bad_rows;
    double horizon;
    int64_t t0_ms, prev_ms;
    long prev_line;
    int have_prev;
    uint32_t *hashes;            /* the current line's ids */
    size_t nhashes, hash_cap;
    fs_trace_stats st;
} mooncake;

/* One parsed line. */
typedef struct mc_row {
    int64_t t_ms;
    int in, out;
} mc_row;

static int int_field(json_t *o, const char *key, long long lo, long long hi,
                     long long *v, char *why, size_t len)
{
    json_t *x = json_object_get(o, key);
    if (!x)
        return snprintf(why, len, "missing \"%s\"", key), -1;
    if (!json_is_integer(x) || json_integer_value(x) < lo ||
        json_integer_value(x) > hi)
        return snprintf(why, len, "\"%s\": expected an integer from %lld to "
                        "%lld", key, lo, hi), -1;
    *v = json_integer_value(x);
    return 0;
}

/* The ids into m->hashes: one per started 512-token block of the prompt. */
static int read_hashes(mooncake *m, json_t *o, int in, char *why, size_t len)
{
    json_t *a = json_object_get(o, "hash_ids");
    if (!json_is_array(a))
        return snprintf(why, len, "\"hash_ids\": expected an array of "
                        "integers"), -1;
    size_t n = json_array_size(a), want = ((size_t)in + HASH_TOKENS - 1) /
                                          HASH_TOKENS;
    if (n != want)
        return snprintf(why, len, "\"hash_ids\": %zu ids for %d prompt "
                        "tokens (one per %d tokens: %zu)", n, in,
                        HASH_TOKENS, want), -1;
    if (n > m->hash_cap) {
        uint32_t *h = realloc(m->hashes, n * sizeof *h);
        if (!h)
            return snprintf(why, len, "out of memory"), -1;
        m->hashes = h;
        m->hash_cap = n;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(a, i);
        if (!json_is_integer(x) || json_integer_value(x) < 0 ||
            json_integer_value(x) > (json_int_t)UINT32_MAX)
            return snprintf(why, len, "\"hash_ids\"[%zu]: expected an "
                            "integer from 0 to %u", i, UINT32_MAX), -1;
        m->hashes[i] = (uint32_t)json_integer_value(x);
    }
    m->nhashes = n;
    return 0;
}

/* Parses the line in m->line: 0, or -1 with why. */
static int parse_line(mooncake *m, size_t n, mc_row *row, char *why,
                      size_t len)
{
    json_error_t je;
    json_t *o = json_loadb(m->line, n, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return snprintf(why, len, "not JSON: %.120s", je.text), -1;
    long long t, in, out;
    int rc = -1;
    if (!json_is_object(o))
        snprintf(why, len, "expected a JSON object");
    else if (!int_field(o, "timestamp", 0, INT64_MAX / 1000000, &t, why,
                        len) &&
             !int_field(o, "input_length", 1, HASHES_MAX * 512LL - 1, &in,
                        why, len) &&
             !int_field(o, "output_length", 1, 1 << 30, &out, why, len) &&
             !read_hashes(m, o, (int)in, why, len)) {
        row->t_ms = t;
        row->in = (int)in;
        row->out = (int)out;
        rc = 0;
    }
    json_decref(o);
    if (rc == 0 && m->have_prev && row->t_ms < m->prev_ms) {
        snprintf(why, len, "\"timestamp\": %lld is earlier than the "
                 "previous line's (line %ld)", (long long)row->t_ms,
                 m->prev_line);
        rc = -1;
    }
    return rc;
}

/* The next valid line: 1, 0 at the end of the file, -1 on error.  Blank
 * lines are skipped; the validating pass counts what it skips. */
static int next_row(mooncake *m, mc_row *row, int validating, fs_error *err)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&m->line, &m->line_cap, m->f);
        if (n < 0)
            return errno && !feof(m->f)
                ? fs_error_set(err, "%s: %s", m->path, strerror(errno)) : 0;
        m->lineno++;
        while (n > 0 && (m->line[n - 1] == '\n' || m->line[n - 1] == '\r'))
            m->line[--n] = '\0';
        if (n == 0)
            continue;
        char why[160];
        int bad = n > LINE_MAX_BYTES
            ? snprintf(why, sizeof why, "line longer than %d bytes",
                       LINE_MAX_BYTES), -1
            : parse_line(m, (size_t)n, row, why, sizeof why);
        if (validating)
            m->st.rows++;
        if (!bad) {
            m->have_prev = 1;
            m->prev_ms = row->t_ms;
            m->prev_line = m->lineno;
            return 1;
        }
        if (m->bad_rows == FS_BAD_ROWS_FAIL)
            return fs_error_set(err, "%s:%ld: %s%s", m->path, m->lineno, why,
                                validating ? "" : " (the file changed after "
                                "it was opened)");
        if (validating && m->st.skipped++ == 0) {
            m->st.first_skipped_line = m->st.first_malformed_line = m->lineno;
            /* The first skipped row's reason, cut to the field's size. */
            snprintf(m->st.skip_reason, sizeof m->st.skip_reason, "%.*s",
                     (int)sizeof m->st.skip_reason - 1, why);
            snprintf(m->st.malformed_reason, sizeof m->st.malformed_reason,
                     "%.*s", (int)sizeof m->st.malformed_reason - 1, why);
        }
        if (validating) {
            m->st.malformed++;
            fs_skip_tally(m->st.skipped_by, &m->st.nskipped_by,
                          FS_SKIP_KINDS, "malformed", 1);
        }
    }
}

static int mc_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    mooncake *m = (mooncake *)a;
    mc_row row;
    int rc = next_row(m, &row, 0, err);
    if (rc <= 0)
        return rc;
    double t = (double)(row.t_ms - m->t0_ms) / 1000.0;
    if (!(t < m->horizon))
        return 0;
    *out = (fs_arrival){t, -1, row.in, row.out, m->hashes, (int)m->nhashes,
                        HASH_TOKENS};
    return 1;
}

static void mc_free(fs_arrivals *a)
{
    mooncake *m = (mooncake *)a;
    if (m->f)
        fclose(m->f);
    free(m->line);
    free(m->hashes);
    free(m->path);
    free(m);
}

static double mc_mean_rate(const fs_arrivals *a)
{
    return fs_trace_rate(&((const mooncake *)a)->st);
}

static void mc_stats(const fs_arrivals *a, fs_trace_stats *out)
{
    *out = ((const mooncake *)a)->st;
}

/* The share of the span before the horizon; every line read is a step. */
static double mc_expected(const fs_arrivals *a, double *extra)
{
    const mooncake *m = (const mooncake *)a;
    double share = m->st.span_s > m->horizon ? m->horizon / m->st.span_s : 1;
    double n = share * (double)m->st.valid;
    *extra = share * (double)(m->st.rows - m->st.valid);
    return n;
}

static const fs_arrivals_ops mooncake_ops = {
    mc_next, mc_free, mc_mean_rate, mc_stats, mc_expected,
};

/* The validating pass, then back to the first line. */
static int validate(mooncake *m, const fs_arrivals_spec *spec, fs_error *err)
{
    mc_row row;
    int rc;
    int64_t last = 0;
    while ((rc = next_row(m, &row, 1, err)) == 1) {
        if (m->st.valid++ == 0)
            m->t0_ms = row.t_ms;
        last = row.t_ms;
    }
    if (rc < 0)
        return -1;
    if (m->st.valid == 0)
        return fs_arrivals_error(spec, err, "trace '%s' has no valid lines%s",
                                 m->path, m->st.rows ? " (every one "
                                 "skipped as malformed)" : "");
    m->st.span_s = (double)(last - m->t0_ms) / 1000.0;
    m->have_prev = 0;
    m->lineno = 0;
    if (fseek(m->f, 0, SEEK_SET))
        return fs_error_set(err, "%s: %s", m->path, strerror(errno));
    return 0;
}

/* Copies of requests would copy their prefixes: the trace is replayed
 * once, as recorded. */
static int check_replay(const fs_arrivals_spec *spec, fs_error *err)
{
    if (spec->rate_scale != 1)
        return fs_arrivals_error(spec, err, "format=mooncake replays the "
                                 "trace as recorded: remove rate_scale (got "
                                 "%g)", spec->rate_scale);
    if (spec->repeat)
        return fs_arrivals_error(spec, err, "format=mooncake replays the "
                                 "trace once: remove repeat");
    if (spec->statuses.value) {
        const fs_spec_key *k = &spec->statuses;
        return fs_error_at(err, k->file, k->line, k->key, "format=mooncake "
                           "has no status: remove statuses");
    }
    return 0;
}

static fs_arrivals *mooncake_open(const fs_arrivals_spec *spec, const char *path,
                              fs_error *err)
{
    if (check_replay(spec, err))
        return NULL;
    mooncake *m = calloc(1, sizeof *m);
    if (!m || !(m->path = strdup(path))) {
        free(m);
        fs_arrivals_error(spec, err, "out of memory");
        return NULL;
    }
    m->base.ops = &mooncake_ops;
    m->bad_rows = spec->bad_rows;
    m->horizon = spec->horizon_s;
    m->st.path = m->path;
    m->st.has_tokens = m->st.has_tokens_in = m->st.has_tokens_out = 1;
    m->f = fopen(m->path, "r");
    if (!m->f) {
        fs_arrivals_error(spec, err, "cannot open trace '%s': %s", m->path,
                          strerror(errno));
        goto fail;
    }
    if (validate(m, spec, err))
        goto fail;
    return &m->base;
fail:
    mc_free(&m->base);
    return NULL;
}

const fs_trace_format fs_trace_mooncake = {
    "mooncake", keys, NULL, NULL, NULL, NULL, mooncake_open, NULL,
};
