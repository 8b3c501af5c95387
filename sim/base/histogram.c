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

static double shared_range[FS_HIST_BINS + 1];
static uint16_t shared_cells[FS_HIST_CELLS];
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
        while (i + 1 < FS_HIST_BINS && edge >= shared_range[i + 1])
            i++;
        shared_cells[c] = (uint16_t)i;
    }
}

/* Every inner bin's width in units in the last place fits a place
 * (fs_hist_place): 16 bits after FS_HIST_PLACE_SHIFT. */
static int places_fit(void)
{
    for (size_t i = 1; i + 1 < FS_HIST_BINS; i++) {
        uint64_t a, b;
        memcpy(&a, &shared_range[i], sizeof a);
        memcpy(&b, &shared_range[i + 1], sizeof b);
        if (b - a > (UINT64_C(1) << (FS_HIST_PLACE_SHIFT + 16)))
            return 0;
    }
    return 1;
}

static void fill_shared(void)
{
    assert((size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                        log(FS_HIST_RATIO)) == FS_HIST_BINS);
    for (size_t i = 0; i <= FS_HIST_BINS; i++)
        shared_range[i] = FS_HIST_MIN * pow(FS_HIST_RATIO, (double)i);
    fill_cells();
    assert(places_fit());
}

static const fs_hist_bin empty_bin = {0, INFINITY, -INFINITY};

int fs_hist_init(fs_hist *h)
{
    pthread_once(&shared_once, fill_shared);
    h->range = shared_range;
    h->cell_bin = shared_cells;
    h->n = FS_HIST_BINS;
    h->failed = 0;
    h->count = h->sum = 0;
    h->first = h->last = empty_bin;
    h->nspill = 0;
    h->spill = NULL;
    for (size_t k = 0; k < FS_HIST_CHUNKS; k++)
        h->chunk[k] = NULL;
    return 0;
}

void fs_hist_free(fs_hist *h)
{
    for (size_t k = 0; k < FS_HIST_CHUNKS; k++) {
        free(h->chunk[k]);
        h->chunk[k] = NULL;
    }
    free(h->spill);
    h->spill = NULL;
    h->nspill = 0;
    h->n = 0;
}

fs_hist_tally *fs_hist_chunk_new(fs_hist *h, size_t k)
{
    assert(k < FS_HIST_CHUNKS && !h->chunk[k]);
    fs_hist_tally *c = malloc(FS_HIST_CHUNK * (sizeof *c +
                                               sizeof(fs_hist_span)));
    if (!c) {
        h->failed = 1;
        return NULL;
    }
    fs_hist_span *s = fs_hist_spans(c);
    for (size_t i = 0; i < FS_HIST_CHUNK; i++) {
        c[i] = (fs_hist_tally){0, 0xffff, 0};
        s[i] = (fs_hist_span){INFINITY, -INFINITY};
    }
    h->chunk[k] = c;
    return c;
}

/* Inner bin i holds another n x 2^32 samples than its tally says. */
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

/* Inner bin i's span takes in [lo, hi], and its tally their places. */
static void span_widen(fs_hist *h, fs_hist_tally *t, size_t i, double lo,
                       double hi)
{
    fs_hist_span *s = &fs_hist_spans(h->chunk[i >> FS_HIST_CHUNK_BITS])
                          [i & (FS_HIST_CHUNK - 1)];
    if (lo < s->lo) {
        s->lo = lo;
        t->lo_q = (uint16_t)fs_hist_place(lo, h->range[i]);
    }
    if (hi > s->hi) {
        s->hi = hi;
        t->hi_q = (uint16_t)fs_hist_place(hi, h->range[i]);
    }
}

void fs_hist_note(fs_hist *h, fs_hist_tally *t, size_t i, double x)
{
    if (t->count == 0)
        spill_add(h, i, 1);   /* it just passed a multiple of 2^32 */
    span_widen(h, t, i, x, x);
}

/* Bin i of h: its count, smallest and largest sample; 0 while its chunk
 * holds no sample. */
static int bin_at(const fs_hist *h, size_t i, fs_hist_bin *out)
{
    if (i == 0 || i + 1 == h->n) {
        *out = i == 0 ? h->first : h->last;
        return 1;
    }
    fs_hist_tally *c = h->chunk[i >> FS_HIST_CHUNK_BITS];
    if (!c)
        return 0;
    size_t j = i & (FS_HIST_CHUNK - 1);
    const fs_hist_span *s = &fs_hist_spans(c)[j];
    out->count = (double)c[j].count + (h->nspill ? spilled(h, i) : 0);
    out->lo = s->lo;
    out->hi = s->hi;
    return 1;
}

double fs_hist_bin_count(const fs_hist *h, size_t i)
{
    assert(i < h->n);
    fs_hist_bin b;
    return bin_at(h, i, &b) ? b.count : 0;
}

static void merge_end(fs_hist_bin *d, const fs_hist_bin *s)
{
    d->count += s->count;
    d->lo = fmin(d->lo, s->lo);
    d->hi = fmax(d->hi, s->hi);
}

/* Adds src's inner bin i (of chunk s, not empty) to dst's. */
static void merge_inner(fs_hist *dst, const fs_hist *src, size_t i)
{
    fs_hist_tally *d = &dst->chunk[i >> FS_HIST_CHUNK_BITS]
                           [i & (FS_HIST_CHUNK - 1)];
    fs_hist_tally *s = &src->chunk[i >> FS_HIST_CHUNK_BITS]
                           [i & (FS_HIST_CHUNK - 1)];
    const fs_hist_span *ss = &fs_hist_spans(src->chunk[i >> FS_HIST_CHUNK_BITS])
                                 [i & (FS_HIST_CHUNK - 1)];
    uint32_t was = d->count;
    d->count += s->count;
    if (d->count < was)
        spill_add(dst, i, 1);   /* the sum wrapped past 2^32 */
    double more = src->nspill ? spilled(src, i) / 4294967296.0 : 0;
    if (more > 0)
        spill_add(dst, i, more);
    span_widen(dst, d, i, ss->lo, ss->hi);
}

void fs_hist_merge(fs_hist *dst, const fs_hist *src)
{
    assert(dst->n == src->n);
    dst->failed |= src->failed;
    merge_end(&dst->first, &src->first);
    merge_end(&dst->last, &src->last);
    for (size_t k = 0; k < FS_HIST_CHUNKS; k++) {
        const fs_hist_tally *s = src->chunk[k];
        if (!s || (!dst->chunk[k] && !fs_hist_chunk_new(dst, k)))
            continue;
        for (size_t j = 0; j < FS_HIST_CHUNK; j++) {
            size_t i = k * FS_HIST_CHUNK + j;
            if (i > 0 && i + 1 < src->n &&
                (s[j].count > 0 || (src->nspill && spilled(src, i) > 0)))
                merge_inner(dst, src, i);
        }
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
    fs_hist_bin b;
    for (size_t i = 0; i < h->n; i++) {
        if (!bin_at(h, i, &b)) {
            /* the chunk is empty: on to the next, or to the last bin,
             * which is kept apart (it may sit in an empty chunk) */
            i |= FS_HIST_CHUNK - 1;
            if (i > h->n - 2)
                i = h->n - 2;
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
