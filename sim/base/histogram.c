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

static void fill_shared(void)
{
    assert((size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                        log(FS_HIST_RATIO)) == FS_HIST_BINS);
    for (size_t i = 0; i <= FS_HIST_BINS; i++)
        shared_range[i] = FS_HIST_MIN * pow(FS_HIST_RATIO, (double)i);
    fill_cells();
}

int fs_hist_init(fs_hist *h)
{
    pthread_once(&shared_once, fill_shared);
    h->range = shared_range;
    h->cell_bin = shared_cells;
    h->n = FS_HIST_BINS;
    h->failed = 0;
    h->count = h->sum = 0;
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
    h->n = 0;
}

fs_hist_bin *fs_hist_chunk_new(fs_hist *h, size_t k)
{
    assert(k < FS_HIST_CHUNKS && !h->chunk[k]);
    fs_hist_bin *c = malloc(FS_HIST_CHUNK * sizeof *c);
    if (!c) {
        h->failed = 1;
        return NULL;
    }
    for (size_t i = 0; i < FS_HIST_CHUNK; i++)
        c[i] = (fs_hist_bin){0, INFINITY, -INFINITY};
    h->chunk[k] = c;
    return c;
}

/* Bin i of h, or NULL while its chunk holds no sample. */
static const fs_hist_bin *bin_at(const fs_hist *h, size_t i)
{
    const fs_hist_bin *c = h->chunk[i >> FS_HIST_CHUNK_BITS];
    return c ? &c[i & (FS_HIST_CHUNK - 1)] : NULL;
}

double fs_hist_bin_count(const fs_hist *h, size_t i)
{
    assert(i < h->n);
    const fs_hist_bin *b = bin_at(h, i);
    return b ? b->count : 0;
}

void fs_hist_merge(fs_hist *dst, const fs_hist *src)
{
    assert(dst->n == src->n);
    dst->failed |= src->failed;
    for (size_t k = 0; k < FS_HIST_CHUNKS; k++) {
        const fs_hist_bin *s = src->chunk[k];
        fs_hist_bin *d = dst->chunk[k];
        if (!s || (!d && !(d = fs_hist_chunk_new(dst, k))))
            continue;
        for (size_t i = 0; i < FS_HIST_CHUNK; i++) {
            d[i].count += s[i].count;
            d[i].lo = fmin(d[i].lo, s[i].lo);
            d[i].hi = fmax(d[i].hi, s[i].hi);
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
    for (size_t k = 0; k < FS_HIST_CHUNKS; k++) {
        const fs_hist_bin *c = h->chunk[k];
        for (size_t i = 0; c && i < FS_HIST_CHUNK; i++) {
            if (seen + c[i].count >= rank)
                return in_bin(c[i].lo, c[i].hi, rank - seen, c[i].count);
            seen += c[i].count;
        }
    }
    return h->range[h->n];
}

double fs_hist_mean(const fs_hist *h)
{
    return h->count > 0 ? h->sum / h->count : NAN;
}
