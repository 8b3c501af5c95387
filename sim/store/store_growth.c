/* store_growth.c -- a run's growth a month, as `forecast` and `commit
 * --horizon` grow it: the rates its workloads drew (the run_growth table,
 * schema version 21), weighted by the requests each brought, since the
 * fleet's demand is their sum.  A workload without growth = counts 0.
 * A pool's own growth = (schema 24) overrides them for its demand. */
#include "sim/store/store_query.h"

#include <stdlib.h>

typedef struct growth_sum {
    double w, rate, mean, spread, n;
    double plain_rate, plain_mean, plain_spread;
} growth_sum;

static int add_workload(const fs_row *r, void *ctx, fs_error *err)
{
    (void)err;
    growth_sum *g = ctx;
    double a = fs_row_double(r, 4);
    g->w += a;
    g->mean += a * fs_row_double(r, 1);
    g->spread += a * fs_row_double(r, 2);
    g->rate += a * fs_row_double(r, 3);
    g->plain_mean += fs_row_double(r, 1);
    g->plain_spread += fs_row_double(r, 2);
    g->plain_rate += fs_row_double(r, 3);
    g->n++;
    return 0;
}

int fs_store_run_growth(fs_store *s, long id, fs_run_growth *out,
                        fs_error *err)
{
    growth_sum g = {0};
    fs_query_arg a = {.run = id};
    *out = (fs_run_growth){0, 0, 0};
    if (fs_store_each(s, FS_Q_GROWTH, &a, add_workload, &g, err))
        return -1;
    if (g.w > 0)
        *out = (fs_run_growth){g.rate / g.w, g.mean / g.w, g.spread / g.w};
    else if (g.n > 0)
        *out = (fs_run_growth){g.plain_rate / g.n, g.plain_mean / g.n,
                               g.plain_spread / g.n};
    return 0;
}

static int take_rate(const fs_row *r, void *ctx, fs_error *err)
{
    (void)err;
    *(double *)ctx = fs_row_double(r, 1);
    return 0;
}

int fs_store_pool_growth(fs_store *s, long id, const char *pool,
                         double fallback, double *rate, fs_error *err)
{
    fs_query_arg a = {.run = id, .text = pool};
    *rate = fallback;
    return fs_store_each(s, FS_Q_POOL_GROWTH, &a, take_rate, rate, err);
}

typedef struct pool_bills {
    double *bill, *rate;
    size_t n, cap;
} pool_bills;

static int add_pool_bill(const fs_row *r, void *ctx, fs_error *err)
{
    pool_bills *b = ctx;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4;
        double *bill = realloc(b->bill, cap * sizeof *bill);
        if (bill)
            b->bill = bill;
        double *rate = bill ? realloc(b->rate, cap * sizeof *rate) : NULL;
        if (!rate)
            return fs_error_set(err, "out of memory");
        b->rate = rate;
        b->cap = cap;
    }
    b->rate[b->n] = fs_row_double(r, 1);
    b->bill[b->n++] = fs_row_double(r, 2);
    return 0;
}

int fs_store_pool_growth_bills(fs_store *s, long id, double **bill,
                               double **rate, size_t *n, fs_error *err)
{
    pool_bills b = {0};
    fs_query_arg a = {.run = id};
    int rc = fs_store_each(s, FS_Q_POOL_GROWTH_BILLS, &a, add_pool_bill, &b,
                           err);
    if (rc) {
        free(b.bill);
        free(b.rate);
        b = (pool_bills){0};
    }
    *bill = b.bill;
    *rate = b.rate;
    *n = b.n;
    return rc;
}
