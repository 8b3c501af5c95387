/* test_arrivals.c -- arrival streams: the generators against their laws,
 * and the trace readers against the files they read.
 *
 * Generators: Poisson counts and gaps (mean, coefficient of variation,
 * index of dispersion), the diurnal profile hour by hour against the
 * integral of its rate, the MMPP long-run rate and its burstiness;
 * rate_scale; determinism per seed.  Tolerances are stated in standard
 * errors of each estimate (5 sigma: a correct generator fails about once in
 * two million runs, and the seeds are fixed, so the results reproduce).
 * Traces: every valid row of the real traces is counted; exact times from
 * date-times and millisecond epochs; bad rows named by file, line and
 * column, or skipped and counted; rate_scale thinning and replication;
 * repeat lap after lap. */
#include "tests/check.h"
#include "traces/arrivals.h"
#include "sim/base/rng.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
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

static fs_arrivals *open_stream(const char *text, stream_opts o,
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

static fs_arrivals *open_or_die(const char *text, stream_opts o)
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
static void expect_open_error(const char *text, stream_opts o,
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

static void tally_run(fs_arrivals *a, tally *t)
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
static double dispersion(const double *bins, size_t n)
{
    double m = gsl_stats_mean(bins, 1, n);
    return gsl_stats_variance_m(bins, 1, n, m) / m;
}

static void test_poisson(void)
{
    stream_opts o = DEFAULTS;
    o.horizon_s = 200000;
    enum { NGAPS = 200000, NBINS = 20000 };
    static double gaps[NGAPS], bins[NBINS];
    tally t = {.gaps = gaps, .max_gaps = NGAPS, .bins = bins,
               .nbins = NBINS, .bin_s = 10};
    fs_arrivals *a = open_or_die("poisson(rate=5/s)", o);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 5, 1e-12);
    tally_run(a, &t);
    fs_arrivals_free(a);
    double want = 5 * o.horizon_s;
    printf("  poisson: %ld arrivals (expected %.0f), ", t.n, want);
    CHECK(t.ordered);
    CHECK(t.last < o.horizon_s);
    CHECK_NEAR((double)t.n, want, SIGMAS * sqrt(want));
    /* Exponential gaps: mean 1/rate, coefficient of variation 1. */
    double mean = gsl_stats_mean(gaps, 1, t.ngaps);
    double cv = gsl_stats_sd_m(gaps, 1, t.ngaps, mean) / mean;
    printf("gap mean %.5f, cv %.4f, ", mean, cv);
    CHECK_NEAR(mean, 0.2, SIGMAS * 0.2 / sqrt((double)t.ngaps));
    CHECK_NEAR(cv, 1, 0.02);
    /* Counts in 10 s windows are Poisson: variance = mean (the sample
     * variance ratio has standard error sqrt(2 / bins) = 1%). */
    double idc = dispersion(bins, NBINS);
    printf("dispersion %.4f\n", idc);
    CHECK_NEAR(idc, 1, SIGMAS * sqrt(2.0 / NBINS));

    /* rate_scale multiplies the rate. */
    memset(bins, 0, sizeof bins);
    o.rate_scale = 3;
    a = open_or_die("poisson(rate=5/s)", o);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 15, 1e-12);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK_NEAR((double)t.n, 3 * want, SIGMAS * sqrt(3 * want));

    /* Units: 300/m is 5/s. */
    a = open_or_die("poisson(rate=300/m)", DEFAULTS);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 5, 1e-12);
    fs_arrivals_free(a);
}

/* The expected arrivals of a diurnal stream in hour h of the day. */
static double diurnal_hour_mean(double peak, double trough, double peak_hour,
                                int h)
{
    const double w = 2 * M_PI / 24;
    double integral = 1 + (sin(w * (h + 1 - peak_hour)) -
                           sin(w * (h - peak_hour))) / w;
    return 3600 * (trough + (peak - trough) / 2 * integral);
}

static void test_diurnal(void)
{
    enum { DAYS = 20 };
    static double bins[DAYS * 24];
    tally t = {.bins = bins, .nbins = DAYS * 24, .bin_s = 3600};
    stream_opts o = DEFAULTS;
    o.horizon_s = DAYS * 86400.0;
    fs_arrivals *a = open_or_die("diurnal(peak=10/s, trough=2/s, "
                                 "peak_hour=14)", o);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 6, 1e-12);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.ordered);
    /* Per hour of day, over the 20 days: Poisson with the integral of
     * the rate over that hour. */
    int worst = 0;
    double worst_z = 0;
    for (int h = 0; h < 24; h++) {
        double n = 0;
        for (int d = 0; d < DAYS; d++)
            n += bins[d * 24 + h];
        double want = DAYS * diurnal_hour_mean(10, 2, 14, h);
        double z = (n - want) / sqrt(want);
        if (fabs(z) > fabs(worst_z)) {
            worst_z = z;
            worst = h;
        }
        CHECK_NEAR(n, want, SIGMAS * sqrt(want));
    }
    double peak = 0, trough = 0;
    for (int d = 0; d < DAYS; d++) {
        peak += bins[d * 24 + 13] + bins[d * 24 + 14];
        trough += bins[d * 24 + 1] + bins[d * 24 + 2];
    }
    printf("  diurnal: %ld arrivals, peak-hours/trough-hours %.3f, worst "
           "hour %d at %+.2f sigma\n", t.n, peak / trough, worst, worst_z);
    CHECK(peak / trough > 4);

    /* start = 14:00 shifts the day: the first hour is the peak. */
    memset(bins, 0, sizeof bins);
    o.start_hour = 14;
    a = open_or_die("diurnal(peak=10/s, trough=2/s, peak_hour=14)", o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    double first_hour = 0;
    for (int d = 0; d < DAYS; d++)
        first_hour += bins[d * 24];
    double want = DAYS * diurnal_hour_mean(10, 2, 14, 14);
    CHECK_NEAR(first_hour, want, SIGMAS * sqrt(want));
}

static void test_mmpp(void)
{
    /* low 2/s for 60 s on average, high 20/s for 10 s. */
    const double lo = 2, hi = 20, m_lo = 60, m_hi = 10;
    enum { NBINS = 20000 };
    static double bins[NBINS];
    tally t = {.bins = bins, .nbins = NBINS, .bin_s = 60};
    stream_opts o = DEFAULTS;
    o.horizon_s = NBINS * 60.0;
    fs_arrivals *a = open_or_die("mmpp(high=20/s, low=2/s, high_for=10s, "
                                 "low_for=1m)", o);
    double rate = (hi * m_hi + lo * m_lo) / (m_hi + m_lo);
    CHECK_NEAR(fs_arrivals_mean_rate(a), rate, 1e-12);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.ordered);
    /* The count's variance over T is rate T (Poisson) plus (hi - lo)^2
     * times the variance of the time spent high, which for a two-state
     * Markov chain with switching rates a = 1/m_lo, b = 1/m_hi is
     * 2ab/(a+b)^3 per unit time, asymptotically. */
    double a_ = 1 / m_lo, b_ = 1 / m_hi;
    double var_high = 2 * a_ * b_ / pow(a_ + b_, 3) * o.horizon_s;
    double want = rate * o.horizon_s;
    double sd = sqrt(want + (hi - lo) * (hi - lo) * var_high);
    double idc = dispersion(bins, NBINS);
    printf("  mmpp: %ld arrivals (expected %.0f +- %.0f), rate %.4f/s vs "
           "%.4f/s, dispersion of 1-minute counts %.1f\n", t.n, want, sd,
           t.n / o.horizon_s, rate, idc);
    CHECK_NEAR((double)t.n, want, SIGMAS * sd);
    /* Bursty: 1-minute counts are far more variable than Poisson's. */
    CHECK(idc > 10);
}

static void test_determinism(void)
{
    stream_opts o = DEFAULTS;
    o.horizon_s = 3600;
    enum { N = 64 };
    double first[N], again[N];
    const char *calls[] = {
        "poisson(rate=2/s)",
        "diurnal(peak=4/s, trough=1/s)",
        "mmpp(high=9/s, low=1/s, high_for=1m, low_for=5m)",
    };
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        double *runs[] = {first, again};
        int same_as_other_seed = 1;
        for (int r = 0; r < 3; r++) {
            o.seed = r < 2 ? 42 : 43;
            fs_arrivals *a = open_or_die(calls[c], o);
            for (int i = 0; i < N; i++) {
                fs_arrival x;
                fs_error err;
                CHECK(fs_arrivals_next(a, &x, &err) == 1);
                if (r < 2)
                    runs[r][i] = x.t;
                else
                    same_as_other_seed &= x.t == first[i];
            }
            fs_arrivals_free(a);
        }
        CHECK(memcmp(first, again, sizeof first) == 0);
        CHECK(!same_as_other_seed);
    }
    /* Streams of different sources never share a seed. */
    CHECK(fs_rng_seed(1, 0, "arrivals:a") != fs_rng_seed(1, 0, "arrivals:b"));
    CHECK(fs_rng_seed(1, 0, "arrivals:a") != fs_rng_seed(1, 1, "arrivals:a"));
    CHECK(fs_rng_seed(1, 0, "arrivals:a") != fs_rng_seed(2, 0, "arrivals:a"));
}

static void test_generator_errors(void)
{
    stream_opts o = DEFAULTS;
    expect_open_error("poison(rate=1/s)", o, "test.ini:7: workload.w.arrivals",
                      "did you mean 'poisson'");
    expect_open_error("poisson(rate=-1/s)", o, "rate", NULL);
    expect_open_error("poisson(rate=nan/s)", o, "rate", NULL);
    expect_open_error("poisson(3/s)", o, "unnamed argument", NULL);
    expect_open_error("poisson(rat=3/s)", o, "rate", NULL);
    expect_open_error("diurnal(peak=1/s, trough=2/s)", o, "above peak", NULL);
    expect_open_error("diurnal(peak=3/s, trough=2/s, peak_hour=25)", o,
                      "peak_hour", NULL);
    expect_open_error("mmpp(high=3/s, low=1/s, high_for=0s, low_for=1m)", o,
                      "high_for", NULL);
    o.rate_scale = 0;
    expect_open_error("poisson(rate=1/s)", o, "rate_scale", NULL);
}

/* Parameters that would make a generator loop without end, or for longer
 * than anything can simulate, are refused at open: an MMPP whose states
 * last less than the clock can resolve, rates of more than 2^40 arrivals
 * over the horizon.  Zero rates end the stream at once. */
static void test_generator_guards(void)
{
    stream_opts o = DEFAULTS;
    o.horizon_s = 3600;
    expect_open_error("mmpp(high=1/s, low=0/s, high_for=1e-300s, "
                      "low_for=1e-300s)", o, "test.ini:7: workload.w.arrivals: "
                      "mmpp: high_for", "too short");
    expect_open_error("mmpp(high=1/s, low=1/s, high_for=1e-9s, "
                      "low_for=1e-9s)", o, "mmpp: high_for", "3.6e+12");
    /* One short state in a long cycle is no trouble. */
    fs_arrivals *m = open_or_die("mmpp(high=1/s, low=0/s, high_for=1h, "
                                 "low_for=1e-300s)", o);
    tally tm = {0};
    tally_run(m, &tm);
    CHECK(tm.n > 3000 && tm.n < 4200);
    fs_arrivals_free(m);
    expect_open_error("poisson(rate=1e16/s)", o, "test.ini:7: "
                      "workload.w.arrivals: poisson: rate", "3.6e+19");
    expect_open_error("diurnal(peak=1e16/s, trough=0/s)", o, "diurnal: peak",
                      NULL);
    expect_open_error("mmpp(high=1e16/s, low=0/s, high_for=1m, low_for=1m)",
                      o, "mmpp: high", NULL);
    /* Just under the bound opens (and is not run here). */
    fs_arrivals *a = open_or_die("poisson(rate=3e8/s)", o);
    CHECK_NEAR(fs_arrivals_expected(a, NULL), 3e8 * 3600, 1);
    fs_arrivals_free(a);
    /* All rates 0: no request would ever arrive, refused naming the rate. */
    expect_open_error("poisson(rate=0/s)", o, "poisson: rate must be above 0",
                      NULL);
    expect_open_error("diurnal(peak=0/s, trough=0/s)", o,
                      "diurnal: peak must be above 0", NULL);
    expect_open_error("mmpp(high=0/s, low=0/s, high_for=1s, low_for=1s)", o,
                      "mmpp: high or low must be above 0", NULL);
}

/* ---- Traces ------------------------------------------------------------- */

/* Data rows of a CSV file (lines after the header). */
static long data_lines(const char *rel)
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

static void test_real_traces(void)
{
    static const struct {
        const char *call, *file;
        long valid;              /* -1: every data row */
    } traces[] = {
        {"trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
         "format=azure-llm)", "traces/sample/AzureLLMInferenceTrace_code.csv",
         -1},
        {"trace(traces/sample/AzureLLMInferenceTrace_conv.csv, "
         "format=azure-llm)", "traces/sample/AzureLLMInferenceTrace_conv.csv",
         -1},
        {"trace(traces/sample/lora_request_trace.csv, format=alibaba-lora)",
         "traces/sample/lora_request_trace.csv", 26392},
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        long rows = data_lines(traces[i].file);
        long valid = traces[i].valid < 0 ? rows : traces[i].valid;
        fs_arrivals *a = open_or_die(traces[i].call, DEFAULTS);
        fs_trace_stats st;
        fs_arrivals_stats(a, &st);
        CHECK_CONTAINS(st.path, traces[i].file);   /* valid while open */
        tally t = {0};
        tally_run(a, &t);
        fs_arrivals_free(a);
        printf("  %s: %ld rows, %ld valid, %ld skipped (first on line %ld: "
               "%s), span %.0fs\n", traces[i].file, st.rows, st.valid,
               st.skipped, st.first_skipped_line, st.skip_reason, st.span_s);
        CHECK(st.rows == rows);
        CHECK(st.valid == valid);
        CHECK(st.skipped == rows - valid);
        CHECK(t.n == valid);
        CHECK(t.ordered);
        CHECK(t.first == 0);
        CHECK_NEAR(t.last, st.span_s, 1e-6);
    }
    /* Azure rows carry tokens; the first row of the code trace is
     * 2023-11-16 18:17:03.9799600,4808,10 and the second 0.052 s later. */
    fs_arrivals *a = open_or_die(traces[0].call, DEFAULTS);
    fs_arrival x;
    fs_error err;
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    CHECK(st.has_tokens && !st.has_service);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK(x.t == 0 && x.tokens_in == 4808 && x.tokens_out == 10);
    CHECK(x.service_s == -1);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK_NEAR(x.t, 0.052, 1e-9);
    fs_arrivals_free(a);
    /* LoRA rows carry the measured service time: 32.0 s first. */
    a = open_or_die(traces[2].call, DEFAULTS);
    fs_arrivals_stats(a, &st);
    CHECK(st.has_service && !st.has_tokens);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK(x.t == 0 && x.service_s == 32.0);
    fs_arrivals_free(a);
}

static void test_generic(void)
{
    /* Millisecond epochs read exactly: 1700000000000.5 ms is the origin. */
    fs_arrivals *a = open_or_die(
        "trace(tests/data/generic_ms.csv, format=generic, time=arrival_ms, "
        "time_unit=ms, service=exec_s, tokens_in=prompt, tokens_out=output)",
        DEFAULTS);
    static const double t[] = {0, 0.2495, 0.9995, 0.9995};
    static const double s[] = {0.25, 0.5, 1.25, 0.75};
    static const int in[] = {100, 120, 80, 90}, out[] = {20, 30, 10, 12};
    fs_arrival x;
    fs_error err;
    for (int i = 0; i < 4; i++) {
        CHECK(fs_arrivals_next(a, &x, &err) == 1);
        CHECK_NEAR(x.t, t[i], 1e-12);
        CHECK(x.service_s == s[i]);
        CHECK(x.tokens_in == in[i] && x.tokens_out == out[i]);
    }
    CHECK(fs_arrivals_next(a, &x, &err) == 0);
    fs_arrivals_free(a);

    /* Date-times across a leap day: 2024-02-29 exists. */
    a = open_or_die("trace(tests/data/generic_datetime.csv, format=generic, "
                    "time_unit=datetime, service=service)", DEFAULTS);
    static const double td[] = {0, 0.75, 86400.5};
    for (int i = 0; i < 3; i++) {
        CHECK(fs_arrivals_next(a, &x, &err) == 1);
        CHECK(x.t == td[i]);
        CHECK(x.service_s == i + 1);
        CHECK(x.tokens_in == -1);
    }
    fs_arrivals_free(a);
}

static void test_bad_traces(void)
{
    stream_opts o = DEFAULTS;
    expect_open_error("trace(tests/data/nowhere.csv, format=azure-llm)", o,
                      "test.ini:7: workload.w.arrivals", "nowhere.csv");
    expect_open_error("trace(tests/data/header_only.csv, format=azure-llm)",
                      o, "header_only.csv", "no rows");
    expect_open_error("trace(tests/data/missing_column.csv, format=azure-llm)",
                      o, "missing_column.csv:1: missing column "
                      "'GeneratedTokens'", "columns: TIMESTAMP, ContextTokens, "
                      "GenTokens");
    expect_open_error("trace(tests/data/bad_fields.csv, format=azure-llm)", o,
                      "bad_fields.csv:3: 2 fields where the header has 3",
                      NULL);
    expect_open_error("trace(tests/data/bad_timestamp.csv, format=azure-llm)",
                      o, "bad_timestamp.csv:4: TIMESTAMP: no such time of day",
                      "25:17:05");
    expect_open_error("trace(tests/data/nonmonotonic.csv, format=azure-llm)",
                      o, "nonmonotonic.csv:4: TIMESTAMP: earlier than the "
                      "previous row (line 3)", NULL);
    expect_open_error("trace(tests/data/negative_service.csv, "
                      "format=alibaba-lora)", o, "negative_service.csv:3: "
                      "exec_time_seconds: negative", NULL);
    expect_open_error("trace(tests/data/no_valid_rows.csv, "
                      "format=alibaba-lora)", o, "no valid rows",
                      "all 2 skipped");
    expect_open_error("trace(tests/data/unterminated_quote.csv, "
                      "format=azure-llm)", o, "unterminated_quote.csv:3", NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=azure)", o,
                      "unknown format 'azure'", "did you mean 'azure-llm'");
    expect_open_error("trace(format=azure-llm)", o, "missing the file", NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic, "
                      "time=arrival_ms, time_unit=hours)", o, "time_unit",
                      NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic)", o,
                      "missing column 'time'", NULL);

    /* bad_rows = skip: the bad rows are counted, the first one named. */
    o.bad_rows = FS_BAD_ROWS_SKIP;
    fs_arrivals *a = open_or_die("trace(tests/data/bad_fields.csv, "
                                 "format=azure-llm)", o);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    CHECK(st.rows == 7 && st.valid == 2 && st.skipped == 5);
    CHECK(st.first_skipped_line == 3);
    tally t = {0};
    tally_run(a, &t);
    CHECK(t.n == 2);
    CHECK_NEAR(t.last, 5.052, 1e-9);  /* 18:17:09.03196 - 18:17:03.97996 */
    fs_arrivals_free(a);
    a = open_or_die("trace(tests/data/negative_service.csv, "
                    "format=alibaba-lora)", o);
    fs_arrivals_stats(a, &st);
    CHECK(st.valid == 2 && st.skipped == 3 && st.first_skipped_line == 3);
    CHECK_CONTAINS(st.skip_reason, "exec_time_seconds: negative");
    fs_arrivals_free(a);
}

/* A temporary directory for files written by the tests. */
static char tmpdir[256];

static const char *tmp_file(const char *name, const char *bytes, size_t len,
                            char *buf, size_t buflen)
{
    snprintf(buf, buflen, "%s/%s", tmpdir, name);
    FILE *f = fopen(buf, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        printf("cannot write %s\n", buf);
        exit(99);
    }
    return buf;
}

#define TMP_FILE(name, lit) tmp_file(name, lit, sizeof lit - 1, path, sizeof path)

/* Files that are not traces: refused with the scenario's file, line and
 * key and the file's own name (and its line, for what is inside it). */
static void test_trace_files(void)
{
    stream_opts o = DEFAULTS;
    char call_text[600], path[512], want[600];
    expect_open_error("trace(/dev/zero, format=generic)", o,
                      "test.ini:7: workload.w.arrivals: cannot open trace "
                      "'/dev/zero': not a regular file (a character device)",
                      NULL);
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", tmpdir);
    snprintf(want, sizeof want, "test.ini:7: workload.w.arrivals: cannot "
             "open trace '%s': a directory, not a file", tmpdir);
    expect_open_error(call_text, o, want, NULL);

    /* A column named twice (case does not matter, as in lookups). */
    TMP_FILE("dup.csv", "time,x,TIME\n1,2,3\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:1: column 'time' appears twice in the "
             "header (fields 1 and 3)", path);
    expect_open_error(call_text, o, want, NULL);
    TMP_FILE("dup_lora.csv", "gmt_create,predict_status,exec_time_seconds,"
             "predict_status\n2024-11-15 16:57:50,SUCCEED,1,x\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=alibaba-lora)",
             path);
    snprintf(want, sizeof want, "%s:1: column 'predict_status' appears twice",
             path);
    expect_open_error(call_text, o, want, NULL);
    /* A column the format does not read may repeat (an unnamed index...). */
    TMP_FILE("dup_unused.csv", "time,x,x\n1,2,3\n2,3,4\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    fs_arrivals *a = open_or_die(call_text, o);
    fs_arrivals_free(a);

    /* A NUL byte in a row: its field would be cut short. */
    TMP_FILE("nul.csv", "time,x\n1,2\n2,a\0b\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:3: field 2: a NUL byte", path);
    expect_open_error(call_text, o, want, NULL);
    TMP_FILE("nul_time.csv", "time,x\n1,2\n2\0junk,3\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:3: field 1: a NUL byte", path);
    expect_open_error(call_text, o, want, NULL);
}

/* statuses: which rows of a trace with a status column are replayed, and
 * the skipped ones counted by status. */
static void test_statuses(void)
{
    const char *lora = "trace(traces/sample/lora_request_trace.csv, "
                       "format=alibaba-lora)";
    stream_opts o = DEFAULTS;
    fs_arrivals *a = open_or_die(lora, o);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26392 && st.skipped == 431 && st.malformed == 0);
    CHECK(st.nskipped_by == 3);
    CHECK(strcmp(st.skipped_by[0].what, "FAILED") == 0 &&
          st.skipped_by[0].n == 398);
    CHECK(strcmp(st.skipped_by[1].what, "PENDING") == 0 &&
          st.skipped_by[1].n == 30);
    CHECK(strcmp(st.skipped_by[2].what, "PROCESSING") == 0 &&
          st.skipped_by[2].n == 3);
    CHECK(strcmp(st.statuses, "SUCCEED") == 0 && st.statuses_default);
    char note[512];
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 398 FAILED, 30 PENDING, "
                 "3 PROCESSING (statuses = SUCCEED, the default)") == 0);

    o.statuses = "SUCCEED";
    a = open_or_die(lora, o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26392 && !st.statuses_default);
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 398 FAILED, 30 PENDING, "
                 "3 PROCESSING (statuses = SUCCEED)") == 0);

    /* More statuses replay more rows; case does not matter. */
    o.statuses = "succeed, Processing";
    a = open_or_die(lora, o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26395 && st.skipped == 428);
    CHECK(strcmp(st.statuses, "succeed, Processing") == 0);

    /* A status no row has is a typo until shown otherwise. */
    o.statuses = "SUCCESS";
    expect_open_error(lora, o, "test.ini:9: workload.w.statuses: no row of",
                      "has status 'SUCCESS' (its statuses: SUCCEED, FAILED, "
                      "PENDING, PROCESSING)");
    o.statuses = " , ";
    expect_open_error(lora, o, "test.ini:9: workload.w.statuses: ",
                      "empty");
    /* Formats without a status column. */
    o.statuses = "SUCCEED";
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic, "
                      "time=arrival_ms)", o, "test.ini:9: workload.w.statuses: ",
                      "alibaba-lora");
    expect_open_error("poisson(rate=1/s)", o, "test.ini:9: "
                      "workload.w.statuses: ", "traces");

    /* Skipped malformed rows (bad_rows = skip) are counted apart. */
    o = DEFAULTS;
    o.bad_rows = FS_BAD_ROWS_SKIP;
    a = open_or_die("trace(tests/data/negative_service.csv, "
                    "format=alibaba-lora)", o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.malformed == 2 && st.first_malformed_line == 3);
    CHECK_CONTAINS(st.malformed_reason, "exec_time_seconds: negative");
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 1 FAILED, 2 malformed (statuses "
                 "= SUCCEED, the default; bad_rows = skip)") == 0);
    a = open_or_die("trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                    "format=azure-llm)", DEFAULTS);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(note[0] == '\0');
}

/* The expected number of arrivals before the horizon (what the event
 * estimate of a run is made of), and the extra steps a stream takes
 * besides them (thinned candidates, MMPP state changes, rows read). */
static void test_expected(void)
{
    stream_opts o = DEFAULTS;
    o.horizon_s = 1000;
    double extra;
    fs_arrivals *a = open_or_die("poisson(rate=2/s)", o);
    CHECK(fs_arrivals_expected(a, &extra) == 2000);
    CHECK(extra == 0);
    fs_arrivals_free(a);
    o.rate_scale = 3;
    a = open_or_die("diurnal(peak=4/s, trough=2/s)", o);
    CHECK(fs_arrivals_expected(a, &extra) == 9000);
    /* candidates at each minute's largest rate, thinned: that bound is
     * above the curve by half a minute of its slope, (peak - trough) /
     * 1440 on average over the day (6/s / 1440 here, rate_scale 3), and a
     * draw is dropped at each of the 1000 s / 60 s minute ends */
    CHECK_NEAR(extra, 1000.0 / 60 + 1000 * 6 / 1440.0, 0.2);
    fs_arrivals_free(a);
    o.rate_scale = 1;
    a = open_or_die("mmpp(high=3/s, low=1/s, high_for=100s, low_for=300s)", o);
    CHECK(fs_arrivals_expected(a, &extra) == 1500);
    CHECK(extra == 5);      /* 1000 s of 200 s mean sojourns */
    fs_arrivals_free(a);

    /* Traces: the rows before the horizon, or laps of them with repeat. */
    const char *code = "trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                       "format=azure-llm)";
    long rows = data_lines("traces/sample/AzureLLMInferenceTrace_code.csv");
    a = open_or_die(code, DEFAULTS);
    CHECK(fs_arrivals_expected(a, &extra) == rows);
    CHECK(extra == 0);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    double period = st.span_s + st.span_s / (double)(rows - 1);
    o.horizon_s = 10 * period;
    o.repeat = 1;
    o.rate_scale = 0.5;
    a = open_or_die(code, o);
    CHECK_NEAR(fs_arrivals_expected(a, &extra), 5.0 * rows, 1e-6 * rows);
    CHECK_NEAR(extra, 5.0 * rows, 1e-6 * rows);   /* rows read, dropped */
    fs_arrivals_free(a);
    o.repeat = 0;
    o.rate_scale = 1;
    o.horizon_s = st.span_s / 2;
    a = open_or_die(code, o);
    CHECK_NEAR(fs_arrivals_expected(a, NULL), rows / 2.0, 1);
    fs_arrivals_free(a);
}

static void test_trace_scaling(void)
{
    const char *code = "trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                       "format=azure-llm)";
    long rows = data_lines("traces/sample/AzureLLMInferenceTrace_code.csv");
    fs_arrivals *a = open_or_die(code, DEFAULTS);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    double period = st.span_s + st.span_s / (double)(rows - 1);

    /* repeat: exactly three laps fit in three periods, each lap shifted by
     * one period; without repeat the trace ends after one. */
    stream_opts o = DEFAULTS;
    o.horizon_s = 3 * period;
    o.repeat = 1;
    a = open_or_die(code, o);
    tally t = {0};
    tally_run(a, &t);
    fs_arrivals_free(a);
    printf("  repeat: %ld arrivals in 3 laps of %.3fs (%ld rows)\n", t.n,
           period, rows);
    CHECK(t.n == 3 * rows);
    CHECK(t.ordered);
    CHECK_NEAR(t.last, 2 * period + st.span_s, 1e-6);
    o.repeat = 0;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.n == rows);

    /* rate_scale < 1 keeps each row with probability s: binomial. */
    o = DEFAULTS;
    o.horizon_s = 20 * period;
    o.repeat = 1;
    o.rate_scale = 0.3;
    a = open_or_die(code, o);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 0.3 * rows / st.span_s, 1e-9);
    tally_run(a, &t);
    fs_arrivals_free(a);
    double n = 20.0 * rows;
    printf("  rate_scale 0.3: %ld of %.0f rows kept, ", t.n, n);
    CHECK_NEAR((double)t.n, 0.3 * n, SIGMAS * sqrt(n * 0.3 * 0.7));
    CHECK(t.ordered);

    /* rate_scale > 1: 2 or 3 copies of each row (3 with probability 0.5),
     * in order, every copy before the next row. */
    o.rate_scale = 2.5;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    printf("rate_scale 2.5: %ld from %.0f rows\n", t.n, n);
    CHECK_NEAR((double)t.n, 2.5 * n, SIGMAS * sqrt(n * 0.25));
    CHECK(t.ordered);
    CHECK(t.last < o.horizon_s);

    /* A whole scale is exact: 3 copies of every row. */
    o.rate_scale = 3;
    o.horizon_s = 2 * period;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.n == 3 * 2 * rows);
    o.rate_scale = 5000;
    expect_open_error(code, o, "rate_scale", NULL);
}

/* The processes and trace formats are tables (arrivals.c); the messages
 * that list them are made from the tables, word for word as before. */
static void test_registries(void)
{
    stream_opts o = DEFAULTS;
    expect_open_error("trace(x.csv)", o, "test.ini:7: workload.w.arrivals: "
                      "trace: missing format=: one of azure-llm, "
                      "alibaba-lora or generic, e.g. trace(x.csv, "
                      "format=azure-llm)", NULL);
    expect_open_error("trace(x.csv, format=yaml)", o, "test.ini:7: "
                      "workload.w.arrivals: trace: unknown format 'yaml': "
                      "expected azure-llm, alibaba-lora or generic", NULL);
    expect_open_error("trace(x.csv, format=generc)", o, "trace: unknown "
                      "format 'generc': expected azure-llm, alibaba-lora or "
                      "generic (did you mean 'generic'?)", NULL);
    expect_open_error("poison(rate=1/s)", o, "test.ini:7: "
                      "workload.w.arrivals: unknown arrival process 'poison': "
                      "expected poisson, diurnal, mmpp or trace (did you mean "
                      "'poisson'?)", NULL);
    expect_open_error("uniform(rate=1/s)", o, "unknown arrival process "
                      "'uniform': expected poisson, diurnal, mmpp or trace",
                      NULL);
    /* Every format and process is found by its name (formats in any
     * case): the first row of generic_ms.csv, and a Poisson stream. */
    fs_arrivals *a = open_or_die("trace(tests/data/generic_ms.csv, "
                                 "format=GENERIC, time=arrival_ms, "
                                 "time_unit=ms, tokens_in=prompt)", o);
    fs_arrival x;
    fs_error err;
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK(x.t == 0 && x.tokens_in == 100 && x.tokens_out == -1);
    fs_arrivals_free(a);
    static const char *const procs[] = {"poisson(rate=2/s)",
        "diurnal(peak=10/s, trough=2/s, peak_hour=14)",
        "mmpp(high=20/s, low=2/s, high_for=5m, low_for=30m)"};
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        fs_error e2;
        a = open_stream(procs[i], o, &e2);
        CHECK(a != NULL);
        if (!a)
            printf("     %s: %s\n", procs[i], e2.msg);
        fs_arrivals_free(a);
    }
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_arrivals.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 99;
    }
    test_poisson();
    test_diurnal();
    test_mmpp();
    test_determinism();
    test_generator_errors();
    test_real_traces();
    test_generic();
    test_bad_traces();
    test_trace_scaling();
    test_generator_guards();
    test_expected();
    test_trace_files();
    test_statuses();
    test_registries();
    static const char *const files[] = {"dup.csv", "dup_lora.csv",
        "dup_unused.csv", "nul.csv", "nul_time.csv", NULL};
    char path[600];
    for (const char *const *f = files; *f; f++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, *f);
        unlink(path);
    }
    rmdir(tmpdir);
    if (rng)
        gsl_rng_free(rng);
    return check_report("arrivals");
}
