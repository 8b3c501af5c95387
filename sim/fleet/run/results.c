/* results.c -- the growable row arrays of an fs_results; see results.h.
 *
 * Each table is an array that doubles when full, so appending n rows costs
 * O(n) copies in all and a run with 100k utilization samples makes about 13
 * allocations.  A failed allocation leaves the array as it was.  The bytes
 * the arrays hold are counted (atomically: cheap, and safe should runs
 * ever be simulated in threads), so that a test can see how much a run
 * holds at its peak. */
#include "sim/fleet/run/results.h"
#include "sim/base/vec.h"
#include "sim/base/histogram.h"
#include "sim/base/tags.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_size_t bytes_now, bytes_peak;

static void count_bytes(size_t add, size_t sub)
{
    size_t now = atomic_fetch_add(&bytes_now, add) + add;
    atomic_fetch_sub(&bytes_now, sub);
    size_t peak = atomic_load(&bytes_peak);
    while (now > peak && !atomic_compare_exchange_weak(&bytes_peak, &peak,
                                                       now))
        ;
}

size_t fs_results_bytes(void)
{
    return atomic_load(&bytes_now);
}

size_t fs_results_peak_bytes(void)
{
    return atomic_load(&bytes_peak);
}

void fs_results_reset_peak(void)
{
    atomic_store(&bytes_peak, atomic_load(&bytes_now));
}

void fs_results_init(fs_results *r)
{
    memset(r, 0, sizeof *r);
}

/* The row arrays the results own, each by where its pointer and its
 * capacity are and its row's size: what fs_results_free counts and frees,
 * so that a new table is one line here beside its DEFINE_ADD below. */
#define OWNED(arr)                                                           \
    {offsetof(fs_results, arr), offsetof(fs_results, arr##_cap),           \
     sizeof *((fs_results *)0)->arr}
static const struct owned {
    size_t rows, cap, size;
} owned[] = {
    OWNED(costs), OWNED(util),   OWNED(latency), OWNED(pools),
    OWNED(jobs),  OWNED(allocs), OWNED(interrupts), OWNED(slices),
    OWNED(extras), OWNED(budgets),
    OWNED(adapters),
};

/* Frees the rows and scenario_text (which the results own: malloc'd by
 * whoever filled them), and leaves r as fs_results_init left it. */
void fs_results_free(fs_results *r)
{
    if (!r)
        return;
    free(r->scenario_text);
    size_t bytes = 0;
    for (size_t k = 0; k < sizeof owned / sizeof owned[0]; k++) {
        char *base = (char *)r;
        bytes += *(size_t *)(base + owned[k].cap) * owned[k].size;
        free(*(void **)(base + owned[k].rows));
    }
    count_bytes(0, bytes);
    fs_results_init(r);
}

/* Returns rows with room for one more row of size bytes past n (doubling
 * *cap when needed), or NULL with rows untouched when out of memory. */
static void *grow(void *rows, size_t n, size_t *cap, size_t size)
{
    size_t old = *cap;
    void *p = fs_vec_grow(rows, cap, n + 1, size);
    if (p && *cap != old)
        count_bytes(*cap * size, old * size);
    return p;
}

/* One function per table, all the same: grow, take the next row, zero it. */
#define DEFINE_ADD(fn, type, arr, n, cap)                                   \
    type *fn(fs_results *r)                                                 \
    {                                                                       \
        type *rows = grow(r->arr, r->n, &r->cap, sizeof *rows);             \
        if (!rows)                                                          \
            return NULL;                                                    \
        r->arr = rows;                                                      \
        type *row = &rows[r->n++];                                          \
        memset(row, 0, sizeof *row);                                        \
        return row;                                                         \
    }

DEFINE_ADD(fs_results_add_cost, fs_cost_row, costs, ncosts, costs_cap)
DEFINE_ADD(fs_results_add_slice, fs_slice_row, slices, nslices, slices_cap)
DEFINE_ADD(fs_results_add_util, fs_util_row, util, nutil, util_cap)
DEFINE_ADD(fs_results_add_latency, fs_latency_row, latency, nlatency,
           latency_cap)
DEFINE_ADD(fs_results_add_pool, fs_pool_row, pools, npools, pools_cap)
DEFINE_ADD(fs_results_add_job, fs_job_row, jobs, njobs, jobs_cap)
DEFINE_ADD(fs_results_add_alloc, fs_alloc_row, allocs, nallocs, allocs_cap)
DEFINE_ADD(fs_results_add_interrupt, fs_interrupt_row, interrupts,
           ninterrupts, interrupts_cap)
DEFINE_ADD(fs_results_add_extra, fs_extra_row, extras, nextras, extras_cap)
int fs_results_add_extra_line(fs_results *r, const fs_extra_line *l)
{
    fs_extra_row *row = fs_results_add_extra(r);
    if (!row)
        return -1;
    snprintf(row->month, sizeof row->month, "%s", l->month);
    snprintf(row->pool, sizeof row->pool, "%s", l->pool);
    snprintf(row->workload, sizeof row->workload, "%s", l->workload);
    snprintf(row->category, sizeof row->category, "%s",
             l->transfer ? "Networking" : "Storage");
    snprintf(row->item, sizeof row->item, "%s",
             l->transfer ? l->transfer_item : l->storage_item);
    snprintf(row->unit, sizeof row->unit, "%s",
             l->transfer ? "GB" : "GB-Month");
    row->count = l->count;
    row->quantity = l->quantity;
    row->unit_price_usd = l->unit_price_usd;
    row->cost_usd = round(l->quantity * l->unit_price_usd * 100) / 100;
    fs_tags_json(l->pool_tags, l->workload_tags, row->tags, sizeof row->tags);
    return 0;
}

DEFINE_ADD(fs_results_add_budget, fs_budget_row, budgets, nbudgets,
           budgets_cap)
DEFINE_ADD(fs_results_add_adapter, fs_adapter_row, adapters, nadapters,
           adapters_cap)

/* One histogram's p50, p90, p99 and mean into the four places given
 * (NaN without a histogram). */
static void lat_one(const struct fs_hist *h, double *p50, double *p90,
                    double *p99, double *mean)
{
    *p50 = h ? fs_hist_quantile(h, 0.50) : NAN;
    *p90 = h ? fs_hist_quantile(h, 0.90) : NAN;
    *p99 = h ? fs_hist_quantile(h, 0.99) : NAN;
    *mean = h ? fs_hist_mean(h) : NAN;
}

void fs_llm_lat_fill(fs_llm_pool_lat *out, const struct fs_hist *ttft,
                     const struct fs_hist *tpot, const struct fs_hist *e2e)
{
    lat_one(ttft, &out->ttft_p50_s, &out->ttft_p90_s, &out->ttft_p99_s,
            &out->ttft_mean_s);
    lat_one(tpot, &out->tpot_p50_s, &out->tpot_p90_s, &out->tpot_p99_s,
            &out->tpot_mean_s);
    lat_one(e2e, &out->e2e_p50_s, &out->e2e_p90_s, &out->e2e_p99_s,
            &out->e2e_mean_s);
}
