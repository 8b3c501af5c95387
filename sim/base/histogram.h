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
 * is bounded (at most 16 bytes for each of 3,273 bins a histogram, made
 * in blocks as samples reach them, and the bin edges and a 24 KB table of
 * cells shared by all) however many samples arrive.  Mean and
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

/* An inner bin (neither end) is 16 bytes, one aligned quarter of a cache
 * line, so an add touches one line of bins: its count, and the exact
 * places of its smallest and largest sample.  A sample's place is the
 * distance of its bits from those of the bin's low edge (positive doubles
 * order like their bits): a bin is less than 2^47 units in the last place
 * wide (fs_hist_init asserts it), so 48 bits hold it, and the edge's bits
 * plus the place give the sample back exactly.  (The bins were an 8-byte
 * tally and a 16-byte span of the exact samples read on a third of adds:
 * many pools missed the cache on both.) */
typedef struct fs_hist_slot {
    uint32_t count;           /* samples, modulo 2^32 (fs_hist.spill holds
                                 the 2^32s of a bin that passed it) */
    uint32_t lo_low, hi_low;  /* the low 32 bits of the places of its */
    uint16_t lo_high, hi_high;/* smallest and largest sample, the high 16
                                 here; FS_HIST_NO_LO and 0 while empty */
} fs_hist_slot;

#define FS_HIST_NO_LO ((UINT64_C(1) << 48) - 1)

/* An end bin (the first, which holds every sample below range[1], the
 * zeros of requests that did not wait among them, and the last): count,
 * smallest and largest in full, in the histogram's header. */
typedef struct fs_hist_bin {
    double count, lo, hi;
} fs_hist_bin;

/* The inner bins are one array from the lowest to the highest block of
 * FS_HIST_BLOCK bins a sample has reached, grown when one falls outside
 * (a workload's latencies span a few decades of the histogram's
 * fourteen: a run with many workloads holds a few KB a histogram instead
 * of 52 KB), and a bin is found by subtraction, without a table of
 * chunks to read first. */
#define FS_HIST_BLOCK 64

/* A bin whose count passed 2^32: the 2^32s it holds beyond its count. */
typedef struct fs_hist_spill {
    size_t bin;
    double n;
} fs_hist_spill;

/* The bin edges (n + 1) and the cell table (FS_HIST_CELLS) are the same
 * in every histogram: one read-only copy per process, made the first time
 * a histogram is (histogram.c), so a run with many pools keeps one in
 * cache instead of one per histogram. */
extern double fs_hist_edges[FS_HIST_BINS + 1];
extern uint16_t fs_hist_cell_bins[FS_HIST_CELLS];   /* each cell's low
                                                       edge's bin */

/* A sample above bin 0 waits in its histogram's header with up to
 * FS_HIST_PENDING - 1 others, and they reach their bins together
 * (fs_hist_flush): each bin is found and fetched first, then counted, so
 * that with many workloads, whose bins are cold, the misses overlap
 * instead of one waiting for the next.  A bin's count, smallest and
 * largest do not depend on the order of its samples, and count and sum
 * are added at once, in order: every figure is the same.  Whatever reads
 * the bins (fs_hist_quantile, fs_hist_bin_count, fs_hist_merge,
 * fs_hist_failed) flushes them first. */
#define FS_HIST_PENDING 16

typedef struct fs_hist {
    /* what every add reads or writes comes first: a zero (bin 0) touches
     * one line, a later sample that line or the next two */
    double count, sum;
    fs_hist_bin first;          /* bin 0 */
    uint32_t npend;
    double pend[FS_HIST_PENDING];   /* samples not yet in their bins */
    fs_hist_slot *bins;         /* inner bin i at bins[i - base], for
                                   base <= i < end; NULL while none */
    uint32_t base, end;
    fs_hist_bin last;           /* bin n - 1 */
    const double *range;        /* fs_hist_edges */
    size_t n;                   /* bins: FS_HIST_BINS once made, else 0 */
    int failed;                 /* memory ran out for bins or a spill: a
                                   sample's bin was lost (fs_hist_failed) */
    size_t nspill;
    fs_hist_spill *spill;
} fs_hist;

int fs_hist_init(fs_hist *h);
/* The samples in bin i (0 <= i < n), as gsl_histogram_get reads one. */
double fs_hist_bin_count(const fs_hist *h, size_t i);
/* Puts h's pending samples in their bins (fs_hist_add, when they fill
 * pend). */
void fs_hist_flush(fs_hist *h);
/* Whether memory ran out for a sample's bin: the figures are then
 * incomplete and the run must say so (out of memory). */
int fs_hist_failed(const fs_hist *h);
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

/* A hint, changing nothing: brings into cache the line of h's header
 * that the next fs_hist_add(h, x) writes, so that a caller with other work to
 * do first overlaps the miss (with many workloads the headers are cold
 * too).  Always inlined: GCC deems a function whose only effect is a
 * prefetch pure, and drops the call. */
static inline __attribute__((always_inline)) void
fs_hist_prefetch(const fs_hist *h)
{
    __builtin_prefetch(&h->pend[h->npend], 1);
}

/* End bin b takes sample x. */
static inline void fs_hist_bin_take(fs_hist_bin *b, double x)
{
    b->count += 1;
    if (x < b->lo)
        b->lo = x;
    if (x > b->hi)
        b->hi = x;
}

static inline void fs_hist_add(fs_hist *h, double x)
{
    assert(x >= 0 && !isnan(x));
    h->count += 1;
    h->sum += x;
    /* bin 0 (a request that did not wait: common) at once, in the
     * header; the rest wait for their bins (above) */
    if (x < fs_hist_edges[1]) {
        fs_hist_bin_take(&h->first, x);
        return;
    }
    h->pend[h->npend++] = x;
    if (h->npend == FS_HIST_PENDING)
        fs_hist_flush(h);
}

#endif
