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
 * is bounded (at most 24 bytes for each of 3,273 bins a histogram, made
 * in chunks as samples reach them, and the bin edges and a 24 KB table of
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

/* An inner bin (neither end) is kept in two parts.  What every add reads
 * is its tally, 8 bytes: the count, and the places of the bin's smallest
 * and largest sample within the bin, rounded down to a 65,536th of its
 * width.  A sample whose place lies strictly between those two is neither
 * a new smallest nor a new largest, and the add is done: the bin's exact
 * smallest and largest sample (its span, 16 bytes beside the chunk's
 * tallies) are read only when it may be either, which the bin's first
 * samples are and later ones seldom.  Many pools' histograms then keep a
 * third of the memory hot that 24-byte bins did (the adds missing the
 * cache were most of a 64-pool run), and the figures read from them are
 * the same: count, smallest and largest are exact. */
typedef struct fs_hist_tally {
    uint32_t count;           /* samples, modulo 2^32 (fs_hist.spill holds
                                 the 2^32s of a bin that passed it) */
    uint16_t lo_q, hi_q;      /* fs_hist_place of its smallest and largest
                                 sample; 0xffff and 0 while empty */
} fs_hist_tally;

typedef struct fs_hist_span {
    double lo, hi;            /* its smallest and largest sample */
} fs_hist_span;

/* An end bin (the first, which holds every sample below range[1], the
 * zeros of requests that did not wait among them, and the last): count,
 * smallest and largest in full, in the histogram's header. */
typedef struct fs_hist_bin {
    double count, lo, hi;
} fs_hist_bin;

/* The bins are held in chunks of FS_HIST_CHUNK, each made the first time
 * a sample falls in it (the tallies, then the spans): a workload's
 * latencies span a few decades of the histogram's fourteen, so a run
 * with many workloads holds a few KB a histogram instead of 78 KB. */
#define FS_HIST_CHUNK_BITS 6
#define FS_HIST_CHUNK (1 << FS_HIST_CHUNK_BITS)
#define FS_HIST_CHUNKS ((FS_HIST_BINS + FS_HIST_CHUNK - 1) / FS_HIST_CHUNK)

/* A sample's place in inner bin i: the distance of its bits from those of
 * the bin's low edge (positive doubles order like their bits), shifted
 * so that a bin's width (< 2^47 units in the last place, fs_hist_init
 * asserts it) fits 16 bits. */
#define FS_HIST_PLACE_SHIFT 31

/* A bin whose count passed 2^32: the 2^32s it holds beyond its tally. */
typedef struct fs_hist_spill {
    size_t bin;
    double n;
} fs_hist_spill;

typedef struct fs_hist {
    /* The bin edges (n + 1) and the cell table (FS_HIST_CELLS) are the
     * same in every histogram: one read-only copy per process, made the
     * first time a histogram is (histogram.c), so a run with many pools
     * keeps one in cache instead of one per histogram. */
    const double *range;
    const uint16_t *cell_bin;   /* each cell's low edge's bin */
    /* what every add reads or writes sits in the first cache line, beside
     * the two pointers: a zero (bin 0) touches no other line */
    double count, sum;
    fs_hist_bin first;          /* bin 0 */
    size_t n;                   /* bins: FS_HIST_BINS once made, else 0 */
    fs_hist_bin last;           /* bin n - 1 */
    int failed;                 /* memory ran out for a chunk or a spill:
                                   a sample's bin was lost
                                   (fs_hist_failed) */
    size_t nspill;
    fs_hist_spill *spill;
    fs_hist_tally *chunk[FS_HIST_CHUNKS];   /* NULL: no sample there yet */
} fs_hist;

int fs_hist_init(fs_hist *h);
/* The samples in bin i (0 <= i < n), as gsl_histogram_get reads one. */
double fs_hist_bin_count(const fs_hist *h, size_t i);
/* Makes chunk k of h's bins (fs_hist_add, on the first sample there). */
fs_hist_tally *fs_hist_chunk_new(fs_hist *h, size_t k);
/* fs_hist_add's rare part for inner bin i, whose tally t was just
 * counted: x may be the bin's new smallest or largest sample, or the
 * count passed 2^32. */
void fs_hist_note(fs_hist *h, fs_hist_tally *t, size_t i, double x);
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

/* The spans of a chunk's bins, after its tallies. */
static inline fs_hist_span *fs_hist_spans(fs_hist_tally *chunk)
{
    return (fs_hist_span *)(chunk + FS_HIST_CHUNK);
}

/* Sample x's place in the inner bin whose low edge is edge (x >= edge). */
static inline uint32_t fs_hist_place(double x, double edge)
{
    uint64_t bx, be;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&be, &edge, sizeof be);
    return (uint32_t)((bx - be) >> FS_HIST_PLACE_SHIFT);
}

/* A hint, changing nothing: brings into cache the tally (and span) that
 * fs_hist_add(h, x) will touch, so that a caller with other work to do
 * first overlaps the misses.  With many workloads the bins are cold (a
 * 64-pool run spent a third of its time waiting on them).  Always
 * inlined: GCC deems a function whose only effect is a prefetch pure, and
 * drops the call. */
static inline __attribute__((always_inline)) void
fs_hist_prefetch(const fs_hist *h, double x)
{
    size_t i = h->cell_bin[fs_hist_cell(x)];
    fs_hist_tally *c = h->chunk[i >> FS_HIST_CHUNK_BITS];
    if (c) {
        __builtin_prefetch(&c[i & (FS_HIST_CHUNK - 1)], 1);
        __builtin_prefetch(&fs_hist_spans(c)[i & (FS_HIST_CHUNK - 1)], 1);
    }
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
    if (i == 0 || i + 1 == n) {
        fs_hist_bin *b = i == 0 ? &h->first : &h->last;
        b->count += 1;
        if (x < b->lo)
            b->lo = x;
        if (x > b->hi)
            b->hi = x;
        return;
    }
    fs_hist_tally *c = h->chunk[i >> FS_HIST_CHUNK_BITS];
    if (!c && !(c = fs_hist_chunk_new(h, i >> FS_HIST_CHUNK_BITS)))
        return;   /* h->failed says so */
    fs_hist_tally *t = &c[i & (FS_HIST_CHUNK - 1)];
    uint32_t q = fs_hist_place(x, range[i]);
    if (++t->count == 0 || !(t->lo_q < q && q < t->hi_q))
        fs_hist_note(h, t, i, x);
}

#endif
