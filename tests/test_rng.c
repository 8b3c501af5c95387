/* test_rng.c -- fleetsim's generator (xoshiro256++ as a GSL type) and its
 * exponential (the ziggurat): the reference outputs, reproducible and
 * independent streams per source, and the distributions' statistics.
 *
 * Every statistical check is at a stated number of standard errors (or a
 * stated level) for a fixed seed, so the test is deterministic; the
 * figures are printed. */
#include "sim/base/rng.h"
#include "tests/check.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <stdint.h>
#include <stdlib.h>

#define N 1000000
#define SIGMAS 5.0

/* The reference implementation's first outputs from the state {1,2,3,4}
 * (prng.di.unimi.it's xoshiro256plusplus.c, computed by hand:
 * rotl(1 + 4, 23) + 1 = 41943041 for the first). */
static void test_reference(void)
{
    fs_xoshiro_state st = {{1, 2, 3, 4}};
    CHECK(fs_xoshiro_next(&st) == 41943041ULL);
    CHECK(fs_xoshiro_next(&st) == 58720359ULL);
    CHECK(fs_xoshiro_next(&st) == 3588806011781223ULL);
}

/* Same (seed, replication, source): the same stream; a different one of
 * the three: a different stream, uncorrelated with the first. */
static double correlation(gsl_rng *a, gsl_rng *b)
{
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (int i = 0; i < N; i++) {
        double x = gsl_rng_uniform(a), y = gsl_rng_uniform(b);
        sa += x;
        sb += y;
        saa += x * x;
        sbb += y * y;
        sab += x * y;
    }
    double cov = sab / N - sa / N * sb / N;
    return cov / sqrt((saa / N - sa / N * sa / N) *
                      (sbb / N - sb / N * sb / N));
}

static void test_streams(void)
{
    gsl_rng *a = fs_rng_new(7, 0, "arrivals:chat");
    gsl_rng *b = fs_rng_new(7, 0, "arrivals:chat");
    int same = 1;
    for (int i = 0; i < 1000; i++)
        same &= gsl_rng_get(a) == gsl_rng_get(b);
    CHECK(same);
    CHECK(strcmp(gsl_rng_name(a), "xoshiro256++") == 0);
    gsl_rng_free(b);

    const struct { uint64_t seed; unsigned rep; const char *src; } other[] = {
        {7, 1, "arrivals:chat"},    /* next replication */
        {7, 0, "service:chat"},     /* another source, same workload */
        {7, 0, "arrivals:chaT"},    /* a name one bit apart */
        {8, 0, "arrivals:chat"},    /* the next seed */
    };
    for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
        gsl_rng_free(a);
        a = fs_rng_new(7, 0, "arrivals:chat");
        gsl_rng *o = fs_rng_new(other[k].seed, other[k].rep, other[k].src);
        double r = correlation(a, o);
        printf("  streams: (7, 0, arrivals:chat) vs (%llu, %u, %s): "
               "correlation %+.5f\n", (unsigned long long)other[k].seed,
               other[k].rep, other[k].src, r);
        CHECK_NEAR(r, 0, SIGMAS / sqrt(N));
        gsl_rng_free(o);
    }
    gsl_rng_free(a);

    /* gsl_rng_set seeds the type like fs_rng_new's 64-bit seeding. */
    gsl_rng *g = gsl_rng_alloc(fs_rng_xoshiro256pp);
    gsl_rng_set(g, 12345);
    fs_xoshiro_state st;
    fs_xoshiro_seed(&st, 12345);
    CHECK(gsl_rng_get(g) == (unsigned long)(fs_xoshiro_next(&st) >> 32));
    gsl_rng_free(g);
}

/* Uniforms: mean and a chi-square over 100 bins (99 degrees of freedom,
 * rejected above the 0.1% point); uniform_pos never 0 and at most 1. */
static void test_uniform(void)
{
    gsl_rng *r = fs_rng_new(1, 0, "test:uniform");
    static long bins[100];
    double sum = 0;
    int in_range = 1;
    for (int i = 0; i < N; i++) {
        double u = gsl_rng_uniform(r), p = fs_rng_uniform_pos(r);
        in_range &= u >= 0 && u < 1 && p > 0 && p <= 1;
        sum += u;
        bins[(int)(u * 100)]++;
    }
    CHECK(in_range);
    CHECK_NEAR(sum / N, 0.5, SIGMAS * sqrt(1 / 12.0 / N));
    double chi2 = 0, want = N / 100.0;
    for (int b = 0; b < 100; b++)
        chi2 += (bins[b] - want) * (bins[b] - want) / want;
    double limit = gsl_cdf_chisq_Qinv(0.001, 99);
    printf("  uniform: mean %.5f, chi-square %.1f (99 df, 0.1%% point "
           "%.1f)\n", sum / N, chi2, limit);
    CHECK(chi2 < limit);
    /* uniform_int (GSL's, through get and max) stays fair. */
    long c[6] = {0};
    for (int i = 0; i < 600000; i++)
        c[gsl_rng_uniform_int(r, 6)]++;
    for (int k = 0; k < 6; k++)
        CHECK_NEAR(c[k], 100000, SIGMAS * sqrt(100000 * 5 / 6.0));
    gsl_rng_free(r);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The ziggurat's exponential: mean, variance, the Kolmogorov-Smirnov
 * distance to 1 - exp(-x) (rejected above the 0.1% point, 1.949 /
 * sqrt(n)), and the tail past the base layer's edge (7.697) and past 10,
 * where the slow path draws. */
static void test_exponential(void)
{
    gsl_rng *r = fs_rng_new(1, 0, "test:exponential");
    double *x = malloc(N * sizeof *x);
    double sum = 0, sum2 = 0;
    long past_r = 0, past_10 = 0;
    for (int i = 0; i < N; i++) {
        x[i] = fs_rng_exponential(r, 1);
        sum += x[i];
        sum2 += x[i] * x[i];
        past_r += x[i] > 7.69711747013104972;
        past_10 += x[i] > 10;
    }
    double mean = sum / N, var = sum2 / N - mean * mean;
    CHECK_NEAR(mean, 1, SIGMAS / sqrt(N));
    CHECK_NEAR(var, 1, SIGMAS * sqrt(8.0 / N));   /* var of x^2 is 20 - 4 */
    qsort(x, N, sizeof *x, cmp_double);
    double d = 0;
    for (int i = 0; i < N; i++) {
        double f = 1 - exp(-x[i]);
        d = fmax(d, fmax(f - (double)i / N, (double)(i + 1) / N - f));
    }
    CHECK(x[0] >= 0);
    double want_r = N * exp(-7.69711747013104972), want_10 = N * exp(-10.0);
    printf("  exponential: mean %.5f, variance %.5f, KS distance %.6f "
           "(0.1%% point %.6f), past 7.697: %ld (expected %.0f), past 10: "
           "%ld (expected %.0f)\n", mean, var, d, 1.949 / sqrt(N), past_r,
           want_r, past_10, want_10);
    CHECK(d < 1.949 / sqrt(N));
    CHECK_NEAR(past_r, want_r, SIGMAS * sqrt(want_r));
    CHECK_NEAR(past_10, want_10, SIGMAS * sqrt(want_10));
    /* The mean scales it. */
    double s = 0;
    for (int i = 0; i < N; i++)
        s += fs_rng_exponential(r, 2.5);
    CHECK_NEAR(s / N, 2.5, SIGMAS * 2.5 / sqrt(N));
    free(x);

    /* Another GSL generator takes the inversion path. */
    gsl_rng *mt = gsl_rng_alloc(gsl_rng_mt19937);
    s = 0;
    for (int i = 0; i < N; i++)
        s += fs_rng_exponential(mt, 1);
    CHECK_NEAR(s / N, 1, SIGMAS / sqrt(N));
    gsl_rng_free(mt);
    gsl_rng_free(r);
}

/* GSL's own distributions take the generator: a Gaussian's moments. */
static void test_gsl_distributions(void)
{
    gsl_rng *r = fs_rng_new(3, 0, "test:gaussian");
    double sum = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        double g = gsl_ran_gaussian(r, 2);
        sum += g;
        sum2 += g * g;
    }
    CHECK_NEAR(sum / N, 0, SIGMAS * 2 / sqrt(N));
    CHECK_NEAR(sum2 / N, 4, SIGMAS * 4 * sqrt(2.0 / N));
    gsl_rng_free(r);
}

int main(void)
{
    test_reference();
    test_streams();
    test_uniform();
    test_exponential();
    test_gsl_distributions();
    return check_report("rng");
}
