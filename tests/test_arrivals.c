/* test_arrivals.c -- arrival streams: the generators against their laws.
 *
 * Poisson counts and gaps (mean, coefficient of variation, index of
 * dispersion), the diurnal profile hour by hour against the integral of
 * its rate, the MMPP long-run rate and its burstiness; rate_scale;
 * determinism per seed; the guards against generators that would never
 * end; the expected count the event estimate uses; the registries.
 * Tolerances are stated in standard errors of each estimate (5 sigma: a
 * correct generator fails about once in two million runs, and the seeds
 * are fixed, so the results reproduce).  The trace readers are tested in
 * test_traces.c. */
#include "tests/arrivals_common.h"


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

/* The processes and trace formats are tables (arrivals.c); the messages
 * that list them are made from the tables, word for word as before. */
static void test_registries(void)
{
    stream_opts o = DEFAULTS;
    expect_open_error("trace(x.csv)", o, "test.ini:7: workload.w.arrivals: "
                      "trace: missing format=: one of azure-llm, "
                      "alibaba-lora, generic or mooncake, e.g. "
                      "trace(x.csv, format=azure-llm)", NULL);
    expect_open_error("trace(x.csv, format=yaml)", o, "test.ini:7: "
                      "workload.w.arrivals: trace: unknown format 'yaml': "
                      "expected azure-llm, alibaba-lora, generic or "
                      "mooncake", NULL);
    expect_open_error("trace(x.csv, format=generc)", o, "trace: unknown "
                      "format 'generc': expected azure-llm, alibaba-lora, "
                      "generic or mooncake (did you mean 'generic'?)", NULL);
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
    test_poisson();
    test_diurnal();
    test_mmpp();
    test_determinism();
    test_generator_errors();
    test_generator_guards();
    test_expected();
    test_registries();
    if (rng)
        gsl_rng_free(rng);
    return check_report("arrivals");
}
