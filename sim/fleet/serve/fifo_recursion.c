/* fifo_recursion.c -- a plain FIFO pool served by the Kiefer-Wolfowitz
 * recursion instead of completion events; see fifo_recursion.h. */
#include "sim/fleet/serve/fifo_recursion.h"
#include "sim/scenario/scenario_limits.h"
#include "sim/base/vec.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define ARITY 4

void fs_fifo_pool_users(const fs_scenario *sc, int *users)
{
    for (size_t k = 0; k < sc->npools; k++)
        users[k] = 0;
    for (size_t k = 0; k < sc->nworkloads; k++)
        for (int j = 0; j < sc->workloads[k].npools; j++)
            users[sc->workloads[k].pools[j]]++;
    for (size_t k = 0; k < sc->npools; k++)
        if (sc->pools[k].spot.fallback >= 0)
            users[sc->pools[k].spot.fallback]++;
}

/* Its instances are all up from the start to the horizon, and each of its
 * servers is a whole one that runs alone. */
static int pool_is_fixed(const fs_pool_conf *p)
{
    return p->scale == FS_SCALE_FIXED && p->schedule < 0 &&
           !p->purchase->windows &&
           p->spot.interruption.kind == FS_INTERRUPT_NONE &&
           p->spot.fallback < 0 && p->spot.extra == 0 && p->mig.n == 0 &&
           p->sharing == FS_SHARING_NONE;
}

int fs_fifo_applies(const fs_scenario *sc, const fs_workload_conf *c,
                    const int *users)
{
    if (c->kind != FS_KIND_INFERENCE || c->npools != 1 || c->batch_max != 1 ||
        c->queue_max != FS_QUEUE_MAX || c->mig_profile[0] ||
        c->service.model->server)
        return 0;
    int i = c->pools[0];
    return pool_is_fixed(&sc->pools[i]) && users[i] == 1;   /* c alone */
}

int fs_fifo_init(fs_fifo *f, size_t servers, double t0)
{
    memset(f, 0, sizeof *f);
    if (servers == 0)
        return 0;
    f->free_at = malloc(servers * sizeof *f->free_at);
    f->cap = 64;
    f->start = malloc(f->cap * sizeof *f->start);
    if (!f->free_at || !f->start) {
        fs_fifo_free(f);
        return -1;
    }
    for (size_t i = 0; i < servers; i++)
        f->free_at[i] = t0;
    f->n = servers;
    return 0;
}

void fs_fifo_free(fs_fifo *f)
{
    free(f->free_at);
    free(f->start);
    memset(f, 0, sizeof *f);
}

/* b when take_b, else a, without a branch: which server frees first is
 * as unpredictable as the service times. */
static inline size_t pick(size_t a, size_t b, int take_b)
{
    return a ^ ((a ^ b) & ((size_t)0 - (size_t)take_b));
}

/* The earliest-free server is now free at t.  Bottom-up (Floyd's
 * replacement): the hole at the root follows the earlier child down to a
 * leaf without comparing t on the way, then t rises to its place.  A new
 * free time is later than most (it is a start plus a service), so it rises
 * a level or two where a top-down sift would test it, and mispredict, at
 * every level.  Only the heap's values matter to the recursion (its
 * minimum and their sum, fs_fifo_busy_to), not which slot holds which, so
 * the results are those of the top-down sift. */
static void replace_top(double *a, size_t n, double t)
{
    size_t i = 0;
    for (;;) {
        size_t c = ARITY * i + 1, best = c;
        if (c >= n)
            break;
        if (c + ARITY <= n) {   /* a full node: the common case */
            size_t b01 = pick(c, c + 1, a[c + 1] < a[c]);
            size_t b23 = pick(c + 2, c + 3, a[c + 3] < a[c + 2]);
            best = pick(b01, b23, a[b23] < a[b01]);
        } else {
            for (size_t k = c + 1; k < n; k++)
                best = pick(best, k, a[k] < a[best]);
        }
        a[i] = a[best];
        i = best;
    }
    while (i > 0 && t < a[(i - 1) / ARITY]) {
        a[i] = a[(i - 1) / ARITY];
        i = (i - 1) / ARITY;
    }
    a[i] = t;
}

/* Doubles the full ring, oldest first.  -1 when out of memory. */
static int ring_grow(fs_fifo *f)
{
    double *b = fs_ring_grow(f->start, &f->head, f->len, &f->cap, 64,
                             sizeof *b);
    if (!b)
        return -1;
    f->start = b;
    return 0;
}

static double ring_at(const fs_fifo *f, size_t i)
{
    return f->start[(f->head + i) & (f->cap - 1)];
}

/* Those that started before arrival wait no more. */
static void started_before(fs_fifo *f, double arrival)
{
    while (f->len && ring_at(f, 0) < arrival) {
        f->head = (f->head + 1) & (f->cap - 1);
        f->len--;
    }
}

int fs_fifo_full(fs_fifo *f, double arrival, size_t max)
{
    started_before(f, arrival);
    return f->len >= max;
}

int fs_fifo_assign(fs_fifo *f, double arrival, double service, double *start,
                   double *end)
{
    assert(f->n > 0 && service >= 0);
    started_before(f, arrival);
    double s = f->free_at[0] > arrival ? f->free_at[0] : arrival;
    double e = s + service;   /* as the event list's now + service */
    /* the start goes into the ring's next slot either way, and counts
     * only if the request waits (no branch on whether it does) */
    if (f->len == f->cap && ring_grow(f))
        return -1;
    f->start[(f->head + f->len) & (f->cap - 1)] = s;
    f->len += s > arrival;
    replace_top(f->free_at, f->n, e);
    f->busy += service;
    *start = s;
    *end = e;
    return 0;
}

size_t fs_fifo_waiting(const fs_fifo *f, double t)
{
    /* the first waiting request that starts at or after t, by bisection
     * of the ascending ring */
    size_t lo = 0, hi = f->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ring_at(f, mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return f->len - lo;
}

double fs_fifo_busy_to(const fs_fifo *f, double t)
{
    double ahead = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->free_at[i] > t)
            ahead += f->free_at[i] - t;
    return f->busy - ahead;
}
