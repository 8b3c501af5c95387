/* histogram.c -- log-binned latency histogram, each bin's smallest and
 * largest sample beside its count (histogram.h says why).
 *
 * The bin edges and the cell table are computed once per process, on the
 * first fs_hist_init (pthread_once, as rng.c's ziggurat table), and only
 * read after: every histogram points at the same copy. */
#include "sim/base/histogram.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double fs_hist_edges[FS_HIST_BINS + 1];
uint16_t fs_hist_cell_bins[FS_HIST_CELLS];
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

/* The bin of each cell's low edge: the last range at or below it (0 below
 * the first), found by walking both in order. */
static void fill_cells(void)
{
    _Static_assert(FS_HIST_CELLS > 0 && FS_HIST_CELLS <= 65536,
                   "a cell's bin is a uint16_t");
    size_t i = 0;
    for (size_t c = 0; c < FS_HIST_CELLS; c++) {
        uint64_t bits = ((uint64_t)(1023 + FS_HIST_OCT_MIN) <<
                         (52)) + ((uint64_t)c << (52 - FS_HIST_CELL_BITS));
        double edge;
        memcpy(&edge, &bits, sizeof edge);
        assert(fs_hist_cell(edge) == c);
        while (i + 1 < FS_HIST_BINS && edge >= fs_hist_edges[i + 1])
            i++;
        fs_hist_cell_bins[c] = (uint16_t)i;
    }
}

/* Every inner bin's width in units in the last place fits a place
 * (place_of) of 48 bits. */
static int places_fit(void)
{
    for (size_t i = 1; i + 1 < FS_HIST_BINS; i++) {
        uint64_t a, b;
        memcpy(&a, &fs_hist_edges[i], sizeof a);
        memcpy(&b, &fs_hist_edges[i + 1], sizeof b);
        if (b - a > FS_HIST_NO_LO)
            return 0;
    }
    return 1;
}

static void fill_shared(void)
{
    assert((size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                        log(FS_HIST_RATIO)) == FS_HIST_BINS);
    for (size_t i = 0; i <= FS_HIST_BINS; i++)
        fs_hist_edges[i] = FS_HIST_MIN * pow(FS_HIST_RATIO, (double)i);
    fill_cells();
    assert(places_fit());
}

static const fs_hist_bin empty_bin = {0, INFINITY, -INFINITY};

int fs_hist_init(fs_hist *h)
{
    pthread_once(&shared_once, fill_shared);
    h->bins = NULL;
    h->base = h->end = 0;
    h->npend = 0;
    h->range = fs_hist_edges;
    h->n = FS_HIST_BINS;
    h->failed = 0;
    h->count = h->sum = 0;
    h->first = h->last = empty_bin;
    h->nspill = 0;
    h->spill = NULL;
    return 0;
}

void fs_hist_free(fs_hist *h)
{
    free(h->bins);
    h->bins = NULL;
    h->base = h->end = 0;
    free(h->spill);
    h->spill = NULL;
    h->nspill = 0;
    h->n = 0;
}

/* Sample x's place in the inner bin whose low edge is edge (x >= edge). */
static uint64_t place_of(double x, double edge)
{
    uint64_t bx, be;
    memcpy(&bx, &x, sizeof bx);
    memcpy(&be, &edge, sizeof be);
    return bx - be;
}

static uint64_t slot_lo(const fs_hist_slot *b)
{
    return (uint64_t)b->lo_high << 32 | b->lo_low;
}

static uint64_t slot_hi(const fs_hist_slot *b)
{
    return (uint64_t)b->hi_high << 32 | b->hi_low;
}

/* Bin b takes in the places lo and hi: its smallest and largest sample. */
static void slot_widen(fs_hist_slot *b, uint64_t lo, uint64_t hi)
{
    if (lo < slot_lo(b)) {
        b->lo_low = (uint32_t)lo;
        b->lo_high = (uint16_t)(lo >> 32);
    }
    if (hi > slot_hi(b)) {
        b->hi_low = (uint32_t)hi;
        b->hi_high = (uint16_t)(hi >> 32);
    }
}

static const fs_hist_slot empty_slot = {0, (uint32_t)FS_HIST_NO_LO, 0,
                                        (uint16_t)(FS_HIST_NO_LO >> 32), 0};

/* The bins [lo, hi) of h, holding its bins so far: a new array, the old
 * one copied in place (rare: a histogram grows a few times). */
static int bins_cover(fs_hist *h, size_t lo, size_t hi)
{
    fs_hist_slot *b = malloc((hi - lo) * sizeof *b);
    if (!b) {
        h->failed = 1;
        return 0;
    }
    for (size_t i = 0; i < hi - lo; i++)
        b[i] = empty_slot;
    if (h->bins)
        memcpy(b + (h->base - lo), h->bins,
               (h->end - h->base) * sizeof *b);
    free(h->bins);
    h->bins = b;
    h->base = (uint32_t)lo;
    h->end = (uint32_t)hi;
    return 1;
}

/* Widens h's bins to hold inner bin i; 0 when memory ran out (h->failed
 * says so). */
static int grow(fs_hist *h, size_t i)
{
    assert(i > 0 && i + 1 < FS_HIST_BINS);
    size_t lo = i & ~(size_t)(FS_HIST_BLOCK - 1);
    size_t hi = (i | (FS_HIST_BLOCK - 1)) + 1;
    if (h->bins) {
        lo = lo < h->base ? lo : h->base;
        hi = hi > h->end ? hi : h->end;
    }
    return bins_cover(h, lo, hi);
}

/* Inner bin i holds another n x 2^32 samples than its count says. */
static void spill_add(fs_hist *h, size_t i, double n)
{
    for (size_t j = 0; j < h->nspill; j++)
        if (h->spill[j].bin == i) {
            h->spill[j].n += n;
            return;
        }
    fs_hist_spill *s = realloc(h->spill, (h->nspill + 1) * sizeof *s);
    if (!s) {
        h->failed = 1;
        return;
    }
    h->spill = s;
    s[h->nspill++] = (fs_hist_spill){i, n};
}

static double spilled(const fs_hist *h, size_t i)
{
    for (size_t j = 0; j < h->nspill; j++)
        if (h->spill[j].bin == i)
            return h->spill[j].n * 4294967296.0;
    return 0;
}

/* The bin of sample x, read from the cell table instead of GSL's binary
 * search over its 3,273 ranges (a fifth of an M/M/c run's time), then
 * nudged so that range[i] <= x < range[i + 1] holds exactly as
 * gsl_histogram_increment would decide it: the bins, and so every figure
 * read from them, are the same as by search.  Out-of-range samples land
 * in the end bins rather than vanish. */
static size_t bin_of(double x)
{
    const double *range = fs_hist_edges;
    size_t n = FS_HIST_BINS, i = fs_hist_cell_bins[fs_hist_cell(x)];
    while (i + 1 < n && x >= range[i + 1])
        i++;
    while (i > 0 && x < range[i])
        i--;
    return i;
}

/* Sample x of inner bin i, whose slot b is (cache fetched). */
static void slot_add(fs_hist *h, fs_hist_slot *b, size_t i, double x)
{
    uint64_t q = place_of(x, fs_hist_edges[i]);
    if (++b->count == 0)
        spill_add(h, i, 1);   /* it just passed a multiple of 2^32 */
    slot_widen(b, q, q);
}

void fs_hist_flush(fs_hist *h)
{
    size_t np = h->npend, at[FS_HIST_PENDING];
    h->npend = 0;
    /* every bin found and fetched (widening the bins first where one
     * falls outside them), then every sample counted */
    for (size_t k = 0; k < np; k++) {
        size_t i = at[k] = bin_of(h->pend[k]);
        if (i == 0 || i + 1 == FS_HIST_BINS)
            continue;
        if (i - h->base >= (size_t)(h->end - h->base) && !grow(h, i))
            at[k] = SIZE_MAX;   /* lost: h->failed says so */
        else
            __builtin_prefetch(&h->bins[i - h->base], 1);
    }
    for (size_t k = 0; k < np; k++) {
        size_t i = at[k];
        if (i == 0 || i + 1 == FS_HIST_BINS)
            fs_hist_bin_take(i == 0 ? &h->first : &h->last, h->pend[k]);
        else if (i != SIZE_MAX)
            slot_add(h, &h->bins[i - h->base], i, h->pend[k]);
    }
}

/* h's pending samples in their bins before its bins are read.  The
 * readers take the histogram as const: what they read is the same before
 * and after, and no histogram is defined const (each is a field of a run's
 * state, or a local being merged into), so the cast is sound. */
static void settle(const fs_hist *h)
{
    if (h->npend)
        fs_hist_flush((fs_hist *)h);
}

int fs_hist_failed(const fs_hist *h)
{
    settle(h);
    return h->failed;
}

/* The sample at place q of inner bin i. */
static double at_place(const fs_hist *h, size_t i, uint64_t q)
{
    uint64_t bits;
    memcpy(&bits, &h->range[i], sizeof bits);
    bits += q;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* Bin i of h: its count, smallest and largest sample; 0 while it lies
 * outside the bins made (it holds no sample). */
static int bin_at(const fs_hist *h, size_t i, fs_hist_bin *out)
{
    if (i == 0 || i + 1 == h->n) {
        *out = i == 0 ? h->first : h->last;
        return 1;
    }
    if (i < h->base || i >= h->end)
        return 0;
    const fs_hist_slot *b = &h->bins[i - h->base];
    out->count = (double)b->count + (h->nspill ? spilled(h, i) : 0);
    out->lo = at_place(h, i, slot_lo(b));
    out->hi = at_place(h, i, slot_hi(b));
    return 1;
}

double fs_hist_bin_count(const fs_hist *h, size_t i)
{
    assert(i < h->n);
    settle(h);
    fs_hist_bin b;
    return bin_at(h, i, &b) ? b.count : 0;
}

static void merge_end(fs_hist_bin *d, const fs_hist_bin *s)
{
    d->count += s->count;
    d->lo = fmin(d->lo, s->lo);
    d->hi = fmax(d->hi, s->hi);
}

/* Adds src's inner bin i (not empty) to dst's, which dst holds. */
static void merge_inner(fs_hist *dst, const fs_hist *src, size_t i)
{
    fs_hist_slot *d = &dst->bins[i - dst->base];
    const fs_hist_slot *s = &src->bins[i - src->base];
    uint32_t was = d->count;
    d->count += s->count;
    if (d->count < was)
        spill_add(dst, i, 1);   /* the sum wrapped past 2^32 */
    double more = src->nspill ? spilled(src, i) / 4294967296.0 : 0;
    if (more > 0)
        spill_add(dst, i, more);
    slot_widen(d, slot_lo(s), slot_hi(s));
}

void fs_hist_merge(fs_hist *dst, const fs_hist *src)
{
    assert(dst->n == src->n);
    settle(src);
    dst->failed |= src->failed;
    merge_end(&dst->first, &src->first);
    merge_end(&dst->last, &src->last);
    if (src->bins && (!dst->bins || src->base < dst->base ||
                      src->end > dst->end)) {
        size_t lo = src->base, hi = src->end;
        if (dst->bins) {
            lo = lo < dst->base ? lo : dst->base;
            hi = hi > dst->end ? hi : dst->end;
        }
        bins_cover(dst, lo, hi);
    }
    if (src->bins && dst->bins)
        for (size_t i = src->base; i < src->end; i++)
            if (i > 0 && i + 1 < src->n &&
                (src->bins[i - src->base].count > 0 ||
                 (src->nspill && spilled(src, i) > 0)))
                merge_inner(dst, src, i);
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
    settle(h);
    double rank = ceil(q * h->count);
    if (rank < 1)
        rank = 1;
    double seen = 0;
    fs_hist_bin b;
    for (size_t i = 0; i < h->n; i++) {
        if (!bin_at(h, i, &b)) {
            /* outside the bins made: on to them, or past them to the
             * last bin, which is kept apart */
            i = i < h->base ? h->base - 1 : h->n - 2;
            continue;
        }
        if (seen + b.count >= rank)
            return in_bin(b.lo, b.hi, rank - seen, b.count);
        seen += b.count;
    }
    return h->range[h->n];
}
double fs_hist_mean(const fs_hist *h)
{
    return h->count > 0 ? h->sum / h->count : NAN;
}
