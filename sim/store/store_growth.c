/* store_growth.c -- a run's growth a month, as `forecast` and `commit
 * --horizon` grow it: the rates its workloads drew (the run_growth table,
 * schema version 21), weighted by the requests each brought, since the
 * fleet's demand is their sum.  A workload without growth = counts 0. */
#include "sim/store/store_query.h"

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
