/* histogram.h -- streaming latency histogram with bounded relative error.
 *
 * Geometrically spaced bins (ratio FS_HIST_RATIO) from
 * 1 microsecond to about 3 years, with the smallest and largest sample of
 * each bin kept beside it.  A percentile is read inside the bin that holds
 * it, interpolated geometrically between that bin's smallest and largest
 * sample by its rank among the bin's samples, so it lies between two
 * samples of the same bin: within ratio - 1 < 1% of the exact sample
 * percentile, exact when the bin holds one distinct value, and not
 * quantized to one value per bin (replications of a run differ as their
 * samples do, so intervals across them are never a false "± 0").  Memory
 * is bounded (at most 3 x 3,273 doubles a histogram, made in chunks as
 * samples reach them, and the bin edges and a 24 KB table of cells shared
 * by all) however many samples arrive.  Mean and
 * count are kept exactly on the side.  The bins are those
 * gsl_histogram_increment picks over the same edges (tests/test_histogram
 * checks it bin by bin). */
#ifndef FS_HISTOGRAM_H
#define FS_HISTOGRAM_H

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define FS_HIST_MIN 1e-6
#define FS_HIST_MAX 1e8
#define FS_HIST_RATIO 1.0099

/* A sample's bin is found from its float's bits: the exponent and the
 * top FS_HIST_CELL_BITS bits of the mantissa name a cell, 1/256 of an
 * octave (0.27% to 0.39% wide, less than a bin's 0.99%), so a table gives
 * the bin of the cell's low edge and one comparison with the next bin's
 * range settles it.  Cells span the octaves from FS_HIST_OCT_MIN to
 * FS_HIST_OCT_MAX, which hold FS_HIST_MIN to FS_HIST_MAX. */
#define FS_HIST_CELL_BITS 8
#define FS_HIST_OCT_MIN (-20)   /* 2^-20 < 1e-6 */
#define FS_HIST_OCT_MAX 27      /* 2^27 > 1e8 */
#define FS_HIST_CELLS ((FS_HIST_OCT_MAX - FS_HIST_OCT_MIN) << FS_HIST_CELL_BITS)

/* The number of bins from FS_HIST_MIN to FS_HIST_MAX at FS_HIST_RATIO:
 * ceil(log(MAX / MIN) / log(RATIO)) (fs_hist_init asserts it). */
#define FS_HIST_BINS 3273

/* A bin's count and its smallest and largest sample, side by side: an
 * add touches one place instead of three arrays. */
typedef struct fs_hist_bin {
    double count, lo, hi;
} fs_hist_bin;

/* The bins are held in chunks of FS_HIST_CHUNK, each made the first time
 * a sample falls in it: a workload's latencies span a few decades of the
 * histogram's fourteen, so a run with many workloads holds a few KB a
 * histogram instead of 78 KB. */
#define FS_HIST_CHUNK_BITS 6
#define FS_HIST_CHUNK (1 << FS_HIST_CHUNK_BITS)
#define FS_HIST_CHUNKS ((FS_HIST_BINS + FS_HIST_CHUNK - 1) / FS_HIST_CHUNK)

typedef struct fs_hist {
    /* The bin edges (n + 1) and the cell table (FS_HIST_CELLS) are the
     * same in every histogram: one read-only copy per process, made the
     * first time a histogram is (histogram.c), so a run with many pools
     * keeps one in cache instead of one per histogram. */
    const double *range;
    const uint16_t *cell_bin;   /* each cell's low edge's bin */
    /* what every add reads or writes sits in the first cache line, beside
     * the two pointers (many pools: one line of the header missed, not
     * three) */
    size_t n;                   /* bins: FS_HIST_BINS once made, else 0 */
    double count, sum;
    int failed;                 /* a chunk could not be made: a sample's
                                   bin was lost (fs_hist_failed) */
    fs_hist_bin *chunk[FS_HIST_CHUNKS];   /* NULL: no sample there yet */
} fs_hist;

int fs_hist_init(fs_hist *h);
/* The samples in bin i (0 <= i < n), as gsl_histogram_get reads one. */
double fs_hist_bin_count(const fs_hist *h, size_t i);
/* Makes chunk k of h's bins (fs_hist_add, on the first sample there). */
fs_hist_bin *fs_hist_chunk_new(fs_hist *h, size_t k);
/* Whether memory ran out for a sample's bin: the figures are then
 * incomplete and the run must say so (out of memory). */
static inline int fs_hist_failed(const fs_hist *h) { return h->failed; }
void fs_hist_free(fs_hist *h);
/* Adds sample x >= 0 (inline: every completed request adds two). */
static inline void fs_hist_add(fs_hist *h, double x);
/* Adds every sample of src to dst (same binning). */
void fs_hist_merge(fs_hist *dst, const fs_hist *src);
/* The q-quantile (0 < q <= 1): the smallest sample x with at least q of
 * the samples <= x, to within 1%.  NaN when empty. */
double fs_hist_quantile(const fs_hist *h, double q);
double fs_hist_mean(const fs_hist *h);

/* The cell of x >= 0: 0 for anything below the first octave (0, a
 * request that did not wait, is common), the last for anything above. */
static inline size_t fs_hist_cell(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int64_t c = (int64_t)(b >> (52 - FS_HIST_CELL_BITS)) -
                ((int64_t)(1023 + FS_HIST_OCT_MIN) << FS_HIST_CELL_BITS);
    c = c < 0 ? 0 : c;
    c = c >= FS_HIST_CELLS ? FS_HIST_CELLS - 1 : c;
    return (size_t)c;
}

static inline void fs_hist_add(fs_hist *h, double x)
{
    assert(x >= 0 && !isnan(x));
    h->count += 1;
    h->sum += x;
    /* The bin is read from the cell table (above) instead of GSL's binary
     * search over its 3,273 ranges (a fifth of an M/M/c run's time), then
     * nudged so that range[i] <= x < range[i + 1] holds exactly as
     * gsl_histogram_increment would decide it: the bins, and so every
     * figure read from them, are the same as by search.  Out-of-range
     * samples land in the end bins rather than vanish. */
    const double *range = h->range;
    size_t n = h->n, i = h->cell_bin[fs_hist_cell(x)];
    while (i + 1 < n && x >= range[i + 1])
        i++;
    while (i > 0 && x < range[i])
        i--;
    /* range[i] <= x < range[i + 1], or x is past an end: the loops'
     * conditions say so */
    fs_hist_bin *c = h->chunk[i >> FS_HIST_CHUNK_BITS];
    if (!c && !(c = fs_hist_chunk_new(h, i >> FS_HIST_CHUNK_BITS)))
        return;   /* h->failed says so */
    fs_hist_bin *b = &c[i & (FS_HIST_CHUNK - 1)];
    b->count += 1;
    if (x < b->lo)
        b->lo = x;
    if (x > b->hi)
        b->hi = x;
}

#endif
