/* histogram.h -- streaming latency histogram with bounded relative error.
 *
 * A gsl_histogram over geometrically spaced bins (ratio FS_HIST_RATIO) from
 * 1 microsecond to about 3 years, with the smallest and largest sample of
 * each bin kept beside it.  A percentile is read inside the bin that holds
 * it, interpolated geometrically between that bin's smallest and largest
 * sample by its rank among the bin's samples, so it lies between two
 * samples of the same bin: within ratio - 1 < 1% of the exact sample
 * percentile, exact when the bin holds one distinct value, and not
 * quantized to one value per bin (replications of a run differ as their
 * samples do, so intervals across them are never a false "± 0").  Memory
 * is fixed (about 3 x 3,400 doubles) however many samples arrive.  Mean
 * and count are kept exactly on the side. */
#ifndef FS_HISTOGRAM_H
#define FS_HISTOGRAM_H

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <gsl/gsl_histogram.h>

#define FS_HIST_MIN 1e-6
#define FS_HIST_MAX 1e8
#define FS_HIST_RATIO 1.0099

/* A sample's bin is found from its float's exponent and a table of log2
 * over FS_HIST_SEGS segments of the mantissa (histogram.c). */
#define FS_HIST_SEGS 64

typedef struct fs_hist {
    gsl_histogram *h;
    /* h's ranges, bins and count, held here so that an add reaches them
     * without going through h (an add is on every request's path) */
    const double *range;
    double *bin;
    size_t n;
    double *bmin, *bmax;    /* each bin's smallest and largest sample */
    double bins_per_log2, log2_min;   /* bin = (log2 x - log2_min) * ... */
    double log2_seg[FS_HIST_SEGS + 1];   /* log2(1 + k / FS_HIST_SEGS) */
    double count, sum;
} fs_hist;

int fs_hist_init(fs_hist *h);
void fs_hist_free(fs_hist *h);
/* Adds sample x >= 0 (inline: every completed request adds two). */
static inline void fs_hist_add(fs_hist *h, double x);
/* Adds every sample of src to dst (same binning). */
void fs_hist_merge(fs_hist *dst, const fs_hist *src);
/* The q-quantile (0 < q <= 1): the smallest sample x with at least q of
 * the samples <= x, to within 1%.  NaN when empty. */
double fs_hist_quantile(const fs_hist *h, double q);
double fs_hist_mean(const fs_hist *h);

/* log2 of a positive normal double, to about 4e-5 (a 300th of a bin):
 * the exponent's bits, plus the mantissa's log2 interpolated linearly in
 * its segment of the table (the error is at most the segment's width
 * squared / 8 times log2's curvature, 1.44). */
_Static_assert(FS_HIST_SEGS == 64, "fs_hist_log2 takes 6 bits of mantissa");

static inline double fs_hist_log2(const fs_hist *h, double x)
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

static inline void fs_hist_add(fs_hist *h, double x)
{
    assert(x >= 0 && !isnan(x));
    h->count += 1;
    h->sum += x;
    /* The bin is computed from the logarithm instead of GSL's binary
     * search over ~1,700 ranges (a fifth of an M/M/c run's time), an
     * approximate one with no call to log (above), then nudged so that
     * range[i] <= x < range[i + 1] holds exactly as
     * gsl_histogram_increment would decide it: the bins, and so every
     * figure read from them, are the same as with the exact log.
     * Out-of-range samples land in the end bins rather than vanish. */
    const double *range = h->range;
    size_t n = h->n;
    /* 0 (a request that did not wait: often) and anything below the
     * first range come out of the logarithm as a negative index, anything
     * above the last as one past the end: clamped, with no branch on
     * which it is */
    double f = (fs_hist_log2(h, x) - h->log2_min) * h->bins_per_log2;
    f = f < 0 ? 0 : f;
    f = f > (double)(n - 1) ? (double)(n - 1) : f;
    size_t i = (size_t)f;
    while (i > 0 && x < range[i])
        i--;
    while (i + 1 < n && x >= range[i + 1])
        i++;
    /* range[i] <= x < range[i + 1], or x is past an end: the loops'
     * conditions say so */
    h->bin[i] += 1;
    if (x < h->bmin[i])
        h->bmin[i] = x;
    if (x > h->bmax[i])
        h->bmax[i] = x;
}

#endif
