/* histogram.c -- log-binned latency histogram on gsl_histogram. */
#include "histogram.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

int fs_hist_init(fs_hist *h)
{
    size_t n = (size_t)ceil(log(FS_HIST_MAX / FS_HIST_MIN) /
                            log(FS_HIST_RATIO));
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
    h->log_min = log(FS_HIST_MIN);
    h->inv_log_ratio = 1 / log(FS_HIST_RATIO);
    h->count = h->sum = 0;
    return 0;
}

void fs_hist_free(fs_hist *h)
{
    if (h->h)
        gsl_histogram_free(h->h);
    h->h = NULL;
}

void fs_hist_add(fs_hist *h, double x)
{
    assert(x >= 0 && !isnan(x));
    h->count += 1;
    h->sum += x;
    /* Out-of-range samples land in the end bins rather than vanish. */
    const gsl_histogram *g = h->h;
    double lo = g->range[0], hi = g->range[g->n];
    if (x < lo)
        x = lo;
    else if (x >= hi)
        x = g->range[g->n - 1];
    gsl_histogram_increment(h->h, x);
}

void fs_hist_merge(fs_hist *dst, const fs_hist *src)
{
    gsl_histogram_add(dst->h, src->h);
    dst->count += src->count;
    dst->sum += src->sum;
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
        seen += gsl_histogram_get(h->h, i);
        if (seen >= rank) {
            double lo, hi;
            gsl_histogram_get_range(h->h, i, &lo, &hi);
            return sqrt(lo * hi);
        }
    }
    return h->h->range[n];
}

double fs_hist_mean(const fs_hist *h)
{
    return h->count > 0 ? h->sum / h->count : NAN;
}
