/* histogram.c -- log-binned latency histogram on gsl_histogram, each
 * bin's smallest and largest sample beside it (histogram.h says why). */
#include "sim/base/histogram.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The bin of each cell's low edge: the last range at or below it (0 below
 * the first), found by walking both in order. */
static void fill_cells(fs_hist *h)
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
        while (i + 1 < h->n && edge >= h->range[i + 1])
            i++;
        h->cell_bin[c] = (uint16_t)i;
    }
}

int fs_hist_init(fs_hist *h)
{
    size_t n = (size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                            log(FS_HIST_RATIO));
    h->bmin = h->bmax = NULL;
    h->range = h->bin = NULL;
    h->cell_bin = NULL;
    h->n = 0;
    assert(n <= 65536);
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
    h->range = h->h->range;
    h->bin = h->h->bin;
    h->n = n;
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
    if (!(h->cell_bin = malloc(FS_HIST_CELLS * sizeof *h->cell_bin))) {
        fs_hist_free(h);
        return -1;
    }
    fill_cells(h);
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
    free(h->cell_bin);
    h->cell_bin = NULL;
    h->bmin = h->bmax = NULL;
    h->range = h->bin = NULL;
    h->n = 0;
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
