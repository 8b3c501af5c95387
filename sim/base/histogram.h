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

#include <gsl/gsl_histogram.h>

#define FS_HIST_MIN 1e-6
#define FS_HIST_MAX 1e8
#define FS_HIST_RATIO 1.0099

/* A sample's bin is found from its float's exponent and a table of log2
 * over FS_HIST_SEGS segments of the mantissa (histogram.c). */
#define FS_HIST_SEGS 64

typedef struct fs_hist {
    gsl_histogram *h;
    double *bmin, *bmax;    /* each bin's smallest and largest sample */
    double bins_per_log2, log2_min;   /* bin = (log2 x - log2_min) * ... */
    double log2_seg[FS_HIST_SEGS + 1];   /* log2(1 + k / FS_HIST_SEGS) */
    double count, sum;
} fs_hist;

int fs_hist_init(fs_hist *h);
void fs_hist_free(fs_hist *h);
void fs_hist_add(fs_hist *h, double x);
/* Adds every sample of src to dst (same binning). */
void fs_hist_merge(fs_hist *dst, const fs_hist *src);
/* The q-quantile (0 < q <= 1): the smallest sample x with at least q of
 * the samples <= x, to within 1%.  NaN when empty. */
double fs_hist_quantile(const fs_hist *h, double q);
double fs_hist_mean(const fs_hist *h);

#endif
