/* arrivals_common.h -- what the arrival-stream tests share
 * (test_arrivals.c, the generators; test_traces.c, the trace readers):
 * opening a stream as a scenario would, and tallying what it produces.
 *
 * Header-only, as check.h: its counters are per translation unit, and a
 * test program is one. */
#ifndef FS_TESTS_ARRIVALS_COMMON_H
#define FS_TESTS_ARRIVALS_COMMON_H

#include "tests/check.h"
#include "traces/arrivals.h"
#include "sim/base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <gsl/gsl_statistics_double.h>

#define SIGMAS 5.0

/* How a stream is opened in these tests. */
typedef struct stream_opts {
    double horizon_s;
    double start_hour;
    double rate_scale;
    int repeat;
    fs_bad_rows bad_rows;
    unsigned long seed;
    const char *statuses;     /* the statuses key, NULL when not set */
} stream_opts;

static const stream_opts DEFAULTS = {1e9, 0, 1, 0, FS_BAD_ROWS_FAIL, 1, NULL};

/* The parsed call must outlive the stream: one per test is enough. */
static fs_call call;
static gsl_rng *rng;

static inline fs_arrivals *open_stream(const char *text, stream_opts o,
                                fs_error *err)
{
    char why[256];
    if (fs_parse_call(text, &call, why, sizeof why)) {
        printf("bad call in test: %s: %s\n", text, why);
        exit(99);
    }
    if (rng)
        gsl_rng_free(rng);
    rng = fs_rng_new(o.seed, 0, "arrivals:test");
    fs_arrivals_spec spec = {
        .call = &call, .file = "test.ini", .line = 7,
        .key = "workload.w.arrivals", .base_dir = check_srcdir(),
        .horizon_s = o.horizon_s, .start_hour = o.start_hour,
        .rate_scale = o.rate_scale, .repeat = o.repeat,
        .bad_rows = o.bad_rows, .rng = rng,
        .statuses = {o.statuses, "test.ini", "workload.w.statuses", 9},
    };
    return fs_arrivals_open(&spec, err);
}

static inline fs_arrivals *open_or_die(const char *text, stream_opts o)
{
    fs_error err;
    fs_arrivals *a = open_stream(text, o, &err);
    if (!a) {
        printf("cannot open %s: %s\n", text, err.msg);
        exit(99);
    }
    return a;
}

/* Expects opening to fail with a message holding both parts. */
static inline void expect_open_error(const char *text, stream_opts o,
                              const char *part1, const char *part2)
{
    fs_error err = {{0}};
    fs_arrivals *a = open_stream(text, o, &err);
    CHECK(a == NULL);
    fs_arrivals_free(a);
    CHECK_CONTAINS(err.msg, part1);
    if (part2)
        CHECK_CONTAINS(err.msg, part2);
}

/* What a stream produced: count, order, and counts per bin. */
typedef struct tally {
    long n;
    int ordered;              /* times never decreased */
    double first, last;
    double *gaps;             /* the first max_gaps gaps */
    size_t ngaps, max_gaps;
    double *bins;             /* counts per bin of bin_s seconds */
    size_t nbins;
    double bin_s;
} tally;

static inline void tally_run(fs_arrivals *a, tally *t)
{
    fs_arrival x;
    fs_error err;
    double prev = -1;
    t->n = 0;
    t->ordered = 1;
    t->ngaps = 0;
    int rc;
    while ((rc = fs_arrivals_next(a, &x, &err)) == 1) {
        if (t->n == 0)
            t->first = x.t;
        else {
            t->ordered &= x.t >= prev;
            if (t->ngaps < t->max_gaps)
                t->gaps[t->ngaps++] = x.t - prev;
        }
        if (t->bins) {
            size_t b = (size_t)(x.t / t->bin_s);
            if (b < t->nbins)
                t->bins[b] += 1;
        }
        prev = t->last = x.t;
        t->n++;
    }
    CHECK(rc == 0);
}

/* Index of dispersion of counts: variance / mean over the bins. */
static inline double dispersion(const double *bins, size_t n)
{
    double m = gsl_stats_mean(bins, 1, n);
    return gsl_stats_variance_m(bins, 1, n, m) / m;
}

/* Data rows of a CSV file (lines after the header). */
static inline long data_lines(const char *rel)
{
    char path[1024];
    FILE *f = fopen(check_path(path, sizeof path, rel), "r");
    if (!f) {
        printf("cannot read %s\n", path);
        exit(99);
    }
    long n = 0;
    int c, last = '\n';
    while ((c = getc(f)) != EOF) {
        n += c == '\n';
        last = c;
    }
    fclose(f);
    return n - 1 + (last != '\n');
}

#endif
