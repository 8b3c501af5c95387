/* histogram.c -- log-binned latency histogram on gsl_histogram, each
 * bin's smallest and largest sample beside it (histogram.h says why). */
#include "sim/base/histogram.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int fs_hist_init(fs_hist *h)
{
    size_t n = (size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                            log(FS_HIST_RATIO));
    h->bmin = h->bmax = NULL;
    h->h = gsl_histogram_alloc(n);
    if (!h->h)
        return -1;
    double *range = malloc((n + 1) * sizeof *range);
    if (!range) {
        gsl_histogram_free(h->h);
        h->h = NULL;
        return -1;
    }
    for (size_t i = 0; i <= n; i++)
        range[i] = FS_HIST_MIN * pow(FS_HIST_RATIO, (double)i);
    gsl_histogram_set_ranges(h->h, range, n + 1);
    free(range);
    h->bmin = malloc(n * sizeof *h->bmin);
    h->bmax = malloc(n * sizeof *h->bmax);
    if (!h->bmin || !h->bmax) {
        fs_hist_free(h);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        h->bmin[i] = INFINITY;
        h->bmax[i] = -INFINITY;
    }
    h->log2_min = log2(FS_HIST_MIN);
    h->bins_per_log2 = 1 / log2(FS_HIST_RATIO);
    for (int k = 0; k <= FS_HIST_SEGS; k++)
        h->log2_seg[k] = log2(1 + (double)k / FS_HIST_SEGS);
    h->count = h->sum = 0;
    return 0;
}

void fs_hist_free(fs_hist *h)
{
    if (h->h)
        gsl_histogram_free(h->h);
    h->h = NULL;
    free(h->bmin);
    free(h->bmax);
    h->bmin = h->bmax = NULL;
}

/* log2 of a positive normal double, to about 4e-5 (a 300th of a bin):
 * the exponent's bits, plus the mantissa's log2 interpolated linearly in
 * its segment of the table (the error is at most the segment's width
 * squared / 8 times log2's curvature, 1.44). */
_Static_assert(FS_HIST_SEGS == 64, "approx_log2 takes 6 bits of mantissa");

static double approx_log2(const fs_hist *h, double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int e = (int)((b >> 52) & 0x7ff) - 1023;
    uint64_t mant = b & ((UINT64_C(1) << 52) - 1);
    unsigned k = (unsigned)(mant >> 46);   /* 6 bits: FS_HIST_SEGS = 64 */
    double frac = (double)(mant & ((UINT64_C(1) << 46) - 1)) * 0x1p-46;
    const double *seg = h->log2_seg;
    return e + seg[k] + frac * (seg[k + 1] - seg[k]);
}

void fs_hist_add(fs_hist *h, double x)
{
    assert(x >= 0 && !isnan(x));
    h->count += 1;
    h->sum += x;
    /* The bin is computed from the logarithm instead of GSL's binary
     * search over ~1,700 ranges (a fifth of an M/M/c run's time), an
     * approximate one with no call to log (above), then nudged so that
     * range[i] <= x < range[i + 1] holds exactly as
     * gsl_histogram_increment would decide it: the bins, and so every
     * figure read from them, are the same as with the exact log.  Out-of-range samples land
     * in the end bins rather than vanish. */
    gsl_histogram *g = h->h;
    const double *range = g->range;
    size_t i;
    if (!(x > range[0]))
        i = 0;
    else if (x >= range[g->n])
        i = g->n - 1;
    else {
        double f = (approx_log2(h, x) - h->log2_min) * h->bins_per_log2;
        i = f < 0 ? 0 : f >= (double)g->n ? g->n - 1 : (size_t)f;
        while (i > 0 && x < range[i])
            i--;
        while (i + 1 < g->n && x >= range[i + 1])
            i++;
    }
    assert(range[i] <= x || i == 0);
    assert(x < range[i + 1] || i == g->n - 1);
    g->bin[i] += 1;
    if (x < h->bmin[i])
        h->bmin[i] = x;
    if (x > h->bmax[i])
        h->bmax[i] = x;
}

void fs_hist_merge(fs_hist *dst, const fs_hist *src)
{
    gsl_histogram_add(dst->h, src->h);
    for (size_t i = 0; i < dst->h->n; i++) {
        dst->bmin[i] = fmin(dst->bmin[i], src->bmin[i]);
        dst->bmax[i] = fmax(dst->bmax[i], src->bmax[i]);
    }
    dst->count += src->count;
    dst->sum += src->sum;
}

/* The k-th of the c samples of a bin (1 <= k <= c) whose smallest is lo
 * and largest hi: lo for the first, hi for the last, geometrically evenly
 * between (the bins are geometric; a bin of zeros stays 0). */
static double in_bin(double lo, double hi, double k, double c)
{
    if (c <= 1 || !(hi > lo) || !(lo > 0))
        return k >= c ? hi : lo;
    return lo * pow(hi / lo, (k - 1) / (c - 1));
}

double fs_hist_quantile(const fs_hist *h, double q)
{
    if (h->count <= 0)
        return NAN;
    double rank = ceil(q * h->count);
    if (rank < 1)
        rank = 1;
    double seen = 0;
    size_t n = gsl_histogram_bins(h->h);
    for (size_t i = 0; i < n; i++) {
        double c = gsl_histogram_get(h->h, i);
        if (seen + c >= rank)
            return in_bin(h->bmin[i], h->bmax[i], rank - seen, c);
        seen += c;
    }
    return h->h->range[n];
}

double fs_hist_mean(const fs_hist *h)
{
    return h->count > 0 ? h->sum / h->count : NAN;
}
