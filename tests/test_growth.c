/* test_growth.c -- `growth = G%/month`: arrivals compounding from the start.
 *
 * A Poisson process at 0.02/s over 12 months of 730 h with growth 4%/month
 * has month k's expected count proportional to 1.04^k exactly.  Given the
 * arrivals in months 1 and 12 (n of them), those of month 12 are
 * binomial(n, q / (1 + q)) with q = 1.04^11 = 1.5395: the test asserts
 * the count within 5 standard deviations of that (a correct generator
 * fails about once in 1.7 million seeds; the seed is fixed), and every
 * month's count within 5 Poisson sigmas of its integral.  A trace replayed
 * with growth is replicated or thinned to rate_scale * f(t) copies per row
 * on average: checked on a generated hourly trace.  Bounds and messages:
 * growth above 100%/month, or a multiplier above 1000, is refused naming
 * the growth key. */
#include "tests/check.h"
#include "traces/arrivals.h"
#include "sim/base/rng.h"

#include <math.h>
#include <unistd.h>

#define MONTH FS_GROWTH_MONTH_S
#define SIGMAS 5.0

static fs_call call;

static fs_arrivals *open_grown(const char *text, double horizon,
                               double growth, double scale, int repeat,
                               gsl_rng *rng, fs_error *err)
{
    char why[256];
    if (fs_parse_call(text, &call, why, sizeof why)) {
        printf("bad call in test: %s: %s\n", text, why);
        exit(99);
    }
    fs_arrivals_spec spec = {
        .call = &call, .file = "test.ini", .line = 7,
        .key = "workload.w.arrivals", .base_dir = "/",
        .horizon_s = horizon, .rate_scale = scale, .repeat = repeat,
        .rng = rng, .growth = growth,
        .growth_key = {"x", "test.ini", "workload.w.growth", 8},
    };
    return fs_arrivals_open(&spec, err);
}

static void test_poisson_months(void)
{
    gsl_rng *rng = fs_rng_new(7, 0, "arrivals:growth");
    fs_error err;
    fs_arrivals *a = open_grown("poisson(rate=0.02/s)", 12 * MONTH, 0.04, 1,
                                0, rng, &err);
    if (!a) {
        printf("cannot open: %s\n", err.msg);
        exit(99);
    }
    long month[12] = {0};
    fs_arrival x;
    double last = 0;
    int ordered = 1;
    while (fs_arrivals_next(a, &x, &err) == 1) {
        int k = (int)(x.t / MONTH);
        ordered &= x.t >= last;
        last = x.t;
        if (k >= 0 && k < 12)
            month[k]++;
    }
    CHECK(ordered);
    /* expected: rate * M * 1.04^k * 0.04 / ln 1.04 */
    double per = 0.02 * MONTH * 0.04 / log(1.04), total = 0;
    for (int k = 0; k < 12; k++) {
        double mu = per * pow(1.04, k);
        total += mu;
        CHECK(fabs(month[k] - mu) <= SIGMAS * sqrt(mu));
    }
    CHECK_NEAR(fs_arrivals_expected(a, NULL), total, 1e-6 * total);
    double q = pow(1.04, 11), p = q / (1 + q);
    double n = (double)(month[0] + month[11]);
    double sd = sqrt(n * p * (1 - p));
    printf("  poisson 0.02/s, 4%%/month: month 1 %ld, month 12 %ld, ratio "
           "%.4f (1.04^11 = %.4f), %.2f sigma\n", month[0], month[11],
           (double)month[11] / (double)month[0], q,
           (month[11] - n * p) / sd);
    CHECK(fabs(month[11] - n * p) <= SIGMAS * sd);
    fs_arrivals_free(a);

    /* same seed, same stream */
    gsl_rng_set(rng, 1);
    a = open_grown("poisson(rate=0.02/s)", MONTH, 0.04, 1, 0, rng, &err);
    fs_arrival first[5];
    for (int i = 0; i < 5; i++)
        fs_arrivals_next(a, &first[i], &err);
    fs_arrivals_free(a);
    gsl_rng_set(rng, 1);
    a = open_grown("poisson(rate=0.02/s)", MONTH, 0.04, 1, 0, rng, &err);
    int same = 1;
    for (int i = 0; i < 5; i++) {
        fs_arrivals_next(a, &x, &err);
        same &= x.t == first[i].t;
    }
    CHECK(same);
    fs_arrivals_free(a);
    gsl_rng_free(rng);
}

/* An hourly trace over 60 days with growth 100%/month: row at t is
 * replayed f(t) = 2^(t/M) times on average (up to 3.9). */
static void test_trace(void)
{
    char path[] = "/tmp/fs-growth-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        printf("cannot write a temporary trace\n");
        exit(99);
    }
    fprintf(f, "t\n");
    double mu = 0, var = 0;
    for (int h = 0; h < 60 * 24; h++) {
        fprintf(f, "%d\n", h * 3600);
        double s = pow(2, h * 3600.0 / MONTH), fr = s - floor(s);
        mu += s;
        var += fr * (1 - fr);
    }
    fclose(f);
    char text[128];
    snprintf(text, sizeof text, "trace(%s, format=generic, time=t)", path);
    gsl_rng *rng = fs_rng_new(3, 0, "arrivals:growth-trace");
    fs_error err;
    fs_arrivals *a = open_grown(text, 60 * 86400.0, 1.0, 1, 0, rng, &err);
    if (!a) {
        printf("cannot open: %s\n", err.msg);
        exit(99);
    }
    long n = 0;
    fs_arrival x;
    while (fs_arrivals_next(a, &x, &err) == 1)
        n++;
    printf("  hourly trace, 100%%/month over 60 days: %ld arrivals, "
           "expected %.1f +- %.1f\n", n, mu, sqrt(var));
    /* thinning of floor(s*fmax) + 1 copies adds binomial noise too: the
     * bound is the sum of Bernoulli variances, at most n/4 */
    CHECK(fabs(n - mu) <= SIGMAS * sqrt(mu / 4));
    fs_arrivals_free(a);

    /* 100%/month over a year is 4096x: beyond the 1000x a trace takes */
    a = open_grown(text, 365 * 86400.0, 1.0, 1, 1, rng, &err);
    CHECK(!a);
    if (!a)
        CHECK_CONTAINS(err.msg, "test.ini:8: workload.w.growth: ");
    fs_arrivals_free(a);
    unlink(path);
    gsl_rng_free(rng);
}

static void test_bounds(void)
{
    gsl_rng *rng = fs_rng_new(1, 0, "arrivals:growth-bounds");
    fs_error err;
    double bad[] = {-0.01, 1.5, NAN};
    for (int i = 0; i < 3; i++) {
        fs_arrivals *a = open_grown("poisson(rate=1/s)", MONTH, bad[i], 1, 0,
                                    rng, &err);
        CHECK(!a);
        if (!a)
            CHECK_CONTAINS(err.msg, "workload.w.growth: must be from 0");
        fs_arrivals_free(a);
    }
    gsl_rng_free(rng);
}

int main(void)
{
    test_poisson_months();
    test_trace();
    test_bounds();
    return check_report("growth");
}
