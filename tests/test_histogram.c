/* test_histogram.c -- streaming percentiles against an exact sort of one
 * million samples, for three shapes of distribution. */
#include "tests/check.h"
#include "sim/base/histogram.h"
#include <gsl/gsl_histogram.h>
#include "sim/base/rng.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>

#define N 1000000

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void check_shape(const char *name, double *x, gsl_rng *r, int shape)
{
    fs_hist h;
    CHECK(fs_hist_init(&h) == 0);
    double sum = 0;
    for (int i = 0; i < N; i++) {
        switch (shape) {
        case 0: x[i] = gsl_ran_exponential(r, 0.25); break;
        case 1: x[i] = gsl_ran_lognormal(r, 0, 2); break;
        default: x[i] = 0.01 + gsl_ran_pareto(r, 1.5, 0.001); break;
        }
        fs_hist_add(&h, x[i]);
        sum += x[i];
    }
    qsort(x, N, sizeof *x, cmp_double);
    static const double qs[] = {0.01, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        double exact = x[(size_t)ceil(qs[k] * N) - 1];
        double est = fs_hist_quantile(&h, qs[k]);
        double rel = fabs(est - exact) / exact;
        if (rel > 0.01)
            printf("  %s q=%g exact %.6g estimate %.6g (%.3f%%)\n", name,
                   qs[k], exact, est, rel * 100);
        CHECK(rel <= 0.01);
    }
    CHECK_NEAR(fs_hist_mean(&h), sum / N, 1e-9 * sum / N);
    CHECK(h.count == N);
    fs_hist_free(&h);
}

/* fs_hist_add finds a sample's bin without calling log (histogram.c);
 * every bin must be the one GSL's own binary search picks: the counts of
 * both agree bin by bin for samples spread over the whole range, and for
 * every bin edge and the doubles either side of it. */
static void check_bins_exact(gsl_rng *r)
{
    fs_hist h;
    CHECK(fs_hist_init(&h) == 0);
    gsl_histogram *g = gsl_histogram_alloc(h.n);
    gsl_histogram_set_ranges(g, h.range, h.n + 1);
    for (int i = 0; i < N; i++) {
        double x = FS_HIST_MIN * pow(FS_HIST_MAX / FS_HIST_MIN,
                                     gsl_rng_uniform_pos(r));
        if (x >= FS_HIST_MAX)
            continue;
        fs_hist_add(&h, x);
        gsl_histogram_increment(g, x);
    }
    for (size_t i = 1; i < h.n; i++) {
        double edge = h.range[i];
        double xs[3] = {nextafter(edge, 0), edge, nextafter(edge, INFINITY)};
        for (int k = 0; k < 3; k++) {
            fs_hist_add(&h, xs[k]);
            gsl_histogram_increment(g, xs[k]);
        }
    }
    size_t differ = 0;
    for (size_t i = 0; i < h.n; i++)
        differ += fs_hist_bin_count(&h, i) != gsl_histogram_get(g, i);
    printf("  bins: %zu of %zu differ from gsl_histogram_increment's\n",
           differ, h.n);
    CHECK(differ == 0);
    gsl_histogram_free(g);
    fs_hist_free(&h);
}

/* An inner bin's tally counts to 2^32 - 1; past it the bin spills, and
 * its count stays exact, also through a merge.  The tally is set by hand
 * (adding 2^32 samples would take a minute): 2^32 - 2 samples of 1.0,
 * then three more read 2^32 + 1; merged into a histogram of one more,
 * 2^32 + 2; the bins around it are empty. */
static void check_spill(void)
{
    fs_hist a, b;
    fs_hist_init(&a);
    fs_hist_init(&b);
    fs_hist_add(&a, 1.0);
    size_t i = 0;
    while (i + 1 < a.n && fs_hist_bin_count(&a, i) == 0)
        i++;
    CHECK(i > 0 && i + 1 < a.n);
    a.bins[i - a.base].count = UINT32_MAX - 1;
    for (int k = 0; k < 3; k++)
        fs_hist_add(&a, 1.0);
    CHECK(fs_hist_bin_count(&a, i) == 4294967297.0);
    CHECK(fs_hist_bin_count(&a, i - 1) == 0 && fs_hist_bin_count(&a, i + 1) == 0);
    fs_hist_add(&b, 1.0);
    fs_hist_merge(&b, &a);
    CHECK(fs_hist_bin_count(&b, i) == 4294967298.0);
    CHECK(!fs_hist_failed(&a) && !fs_hist_failed(&b));
    fs_hist_free(&a);
    fs_hist_free(&b);
    /* The end bins, kept apart: a zero and a sample past FS_HIST_MAX are
     * read back exactly, around one inner sample. */
    fs_hist c;
    fs_hist_init(&c);
    fs_hist_add(&c, 0.0);
    fs_hist_add(&c, 1.0);
    fs_hist_add(&c, 1e9);
    CHECK(fs_hist_quantile(&c, 0.1) == 0.0 && fs_hist_quantile(&c, 0.5) == 1.0 &&
          fs_hist_quantile(&c, 1.0) == 1e9);
    fs_hist_free(&c);
}

int main(void)
{
    double *x = malloc(N * sizeof *x);
    gsl_rng *r = fs_rng_new(42, 0, "histogram");
    check_shape("exponential", x, r, 0);
    check_shape("lognormal", x, r, 1);
    check_shape("pareto", x, r, 2);
    check_bins_exact(r);
    check_spill();

    fs_hist a, b;
    fs_hist_init(&a);
    fs_hist_init(&b);
    fs_hist_add(&a, 1.0);
    fs_hist_add(&b, 3.0);
    fs_hist_merge(&a, &b);
    CHECK(a.count == 2);
    CHECK_NEAR(fs_hist_quantile(&a, 1.0), 3.0, 0.03);
    CHECK_NEAR(fs_hist_quantile(&a, 0.5), 1.0, 0.01);
    fs_hist_free(&a);
    fs_hist_free(&b);

    /* One distinct value in a bin is read back exactly (the bin's smallest
     * and largest sample are kept), not as the bin's middle. */
    fs_hist c;
    fs_hist_init(&c);
    for (int i = 0; i < 1000; i++)
        fs_hist_add(&c, 0.1);
    CHECK(fs_hist_quantile(&c, 0.5) == 0.1 && fs_hist_quantile(&c, 0.99) == 0.1);
    /* Two sample sets whose p99 falls in the same bin (ratio 1.0099: 10.0
     * to 10.05 is inside one) read different p99s, as their samples
     * differ, each between its bin's samples: not quantized to the bin. */
    fs_hist d1, d2;
    fs_hist_init(&d1);
    fs_hist_init(&d2);
    for (int i = 0; i < 990; i++) {
        fs_hist_add(&d1, 1.0);
        fs_hist_add(&d2, 1.0);
    }
    for (int i = 0; i < 10; i++) {
        fs_hist_add(&d1, 10.0 + 0.001 * i);
        fs_hist_add(&d2, 10.02 + 0.003 * i);
    }
    double p1 = fs_hist_quantile(&d1, 0.999), p2 = fs_hist_quantile(&d2, 0.999);
    CHECK(p1 != p2);
    CHECK(p1 >= 10.0 && p1 <= 10.009 && p2 >= 10.02 && p2 <= 10.047);
    fs_hist_merge(&d1, &d2);
    CHECK(fs_hist_quantile(&d1, 1.0) == 10.02 + 0.003 * 9);
    fs_hist_free(&c);
    fs_hist_free(&d1);
    fs_hist_free(&d2);

    fs_hist e;
    fs_hist_init(&e);
    CHECK(isnan(fs_hist_quantile(&e, 0.5)));
    fs_hist_free(&e);
    gsl_rng_free(r);
    free(x);
    return check_report("histogram");
}
