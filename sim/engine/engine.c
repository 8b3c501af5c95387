/* engine.c -- the event loop and its record pool; see engine.h. */
#include "sim/engine/engine.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#define NO_FREE UINT32_MAX

fs_engine *fs_engine_new(void)
{
    fs_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    fs_heap_init(&e->heap);
    e->free_head = NO_FREE;
    e->progress_mask = (1u << 16) - 1;
    e->fail_countdown = -1;
    e->until = -INFINITY;
    return e;
}

void fs_engine_free(fs_engine *e)
{
    if (!e)
        return;
    fs_heap_free(&e->heap);
    free(e->ev);
    free(e);
}

/* Takes a record from the free list, growing the pool when it is empty. */
static uint32_t event_alloc(fs_engine *e)
{
    if (e->free_head != NO_FREE) {
        uint32_t id = e->free_head;
        e->free_head = e->ev[id].next_free;
        return id;
    }
    if (e->nev == e->cap) {
        uint32_t cap = e->cap ? e->cap * 2 : 256;
        fs_event *ev = realloc(e->ev, (size_t)cap * sizeof *ev);
        if (!ev)
            return NO_FREE;
        e->ev = ev;
        e->cap = cap;
    }
    e->ev[e->nev].gen = 0;
    return e->nev++;
}

static void event_release(fs_engine *e, uint32_t id)
{
    e->ev[id].live = 0;
    e->ev[id].gen++;
    e->ev[id].next_free = e->free_head;
    e->free_head = id;
}

fs_event_handle fs_engine_at(fs_engine *e, double t, fs_handler fn, void *obj,
                             long arg)
{
    assert(t >= e->now);
    assert(fn != NULL);
    if (e->fail_countdown >= 0 && e->fail_countdown-- == 0)
        return 0;   /* injected: fs_engine_fail_after */
    uint32_t id = event_alloc(e);
    if (id == NO_FREE)
        return 0;
    fs_event *ev = &e->ev[id];
    e->ahead_valid = 0;
    ev->fn = fn;
    ev->obj = obj;
    ev->arg = arg;
    ev->live = 1;
    if (fs_heap_push(&e->heap, t, id)) {
        event_release(e, id);
        return 0;
    }
    return ((uint64_t)ev->gen << 32 | id) + 1;
}

/* Lane a's event comes before lane b's: by time, then sequence (each
 * lane event's ticket is unique, so the order is total). */
static int lane_earlier(const fs_lane *a, const fs_lane *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void lane_swap(fs_engine *e, int i, int j)
{
    int k = e->lane_heap[i];
    e->lane_heap[i] = e->lane_heap[j];
    e->lane_heap[j] = k;
}

/* Lane `lane`, now pending, joins the heap of pending lanes. */
static void lane_push(fs_engine *e, int lane)
{
    assert(e->npending < FS_ENGINE_LANES);
    int i = e->npending++;
    e->lane_heap[i] = lane;
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!lane_earlier(&e->lane[e->lane_heap[i]],
                          &e->lane[e->lane_heap[up]]))
            break;
        lane_swap(e, i, up);
        i = up;
    }
}

/* The first pending lane leaves the heap (it is about to run). */
static void lane_pop(fs_engine *e)
{
    assert(e->npending > 0);
    e->lane_heap[0] = e->lane_heap[--e->npending];
    int i = 0;
    for (;;) {
        int best = i, l = 2 * i + 1, r = l + 1;
        if (l < e->npending && lane_earlier(&e->lane[e->lane_heap[l]],
                                            &e->lane[e->lane_heap[best]]))
            best = l;
        if (r < e->npending && lane_earlier(&e->lane[e->lane_heap[r]],
                                            &e->lane[e->lane_heap[best]]))
            best = r;
        if (best == i)
            break;
        lane_swap(e, i, best);
        i = best;
    }
}

int fs_engine_lane_new(fs_engine *e)
{
    return e->nlanes < FS_ENGINE_LANES ? e->nlanes++ : -1;
}

int fs_engine_lane_at(fs_engine *e, int lane, double t, fs_handler fn,
                      void *obj, long arg)
{
    if (lane < 0)
        return fs_engine_at(e, t, fn, obj, arg) != 0;
    assert(lane < e->nlanes);
    assert(t >= e->now);
    assert(fn != NULL);
    fs_lane *l = &e->lane[lane];
    assert(!l->pending);
    if (e->fail_countdown >= 0 && e->fail_countdown-- == 0)
        return 0;   /* injected: fs_engine_fail_after */
    e->ahead_valid = 0;
    l->t = t + 0.0;   /* -0.0 becomes +0.0, as in the heap */
    l->seq = fs_heap_ticket(&e->heap);
    l->fn = fn;
    l->obj = obj;
    l->arg = arg;
    l->pending = 1;
    lane_push(e, lane);
    return 1;
}

void fs_engine_fail_after(fs_engine *e, long n)
{
    e->fail_countdown = n < 0 ? -1 : n;
}

void fs_engine_cancel(fs_engine *e, fs_event_handle h)
{
    if (h == 0)
        return;
    h -= 1;
    uint32_t id = (uint32_t)h, gen = (uint32_t)(h >> 32);
    if (id < e->nev && e->ev[id].gen == gen)
        e->ev[id].live = 0;   /* freed when it surfaces */
}

void fs_engine_stop(fs_engine *e) { e->stopped = 1; }

void fs_engine_set_progress(fs_engine *e, fs_progress_fn fn, void *ctx)
{
    e->progress = fn;
    e->progress_ctx = ctx;
}

/* The pending lane whose event comes first, or NULL. */
static fs_lane *first_lane(fs_engine *e)
{
    return e->npending ? &e->lane[e->lane_heap[0]] : NULL;
}

static int lane_before(const fs_lane *l, const fs_heap_entry *top)
{
    return !top || l->t < top->t ||
           (l->t == top->t && l->seq < fs_heap_entry_seq(top));
}

double fs_engine_next(fs_engine *e)
{
    fs_heap_settle(&e->heap);
    const fs_heap_entry *top = fs_heap_top(&e->heap);
    const fs_lane *l = first_lane(e);
    double t = top ? top->t : INFINITY;
    return l && l->t < t ? l->t : t;
}

static void count_event(fs_engine *e)
{
    if ((++e->events & e->progress_mask) == 0 && e->progress)
        e->progress(e->progress_ctx, e->now, e->events);
}

int fs_engine_run_ahead(fs_engine *e, double t)
{
    assert(t >= e->now);
    if (!e->ahead_valid) {
        double next = fs_engine_next(e);
        e->ahead = next < e->until ? next : e->until;
        e->ahead_valid = 1;
    }
    if (!(t < e->ahead) || e->stopped)
        return 0;
    e->now = t;
    e->ran_ahead++;
    count_event(e);
    return 1;
}

/* Runs a lane's event; the handler may schedule the lane's next one. */
static void run_lane(fs_engine *e, fs_lane *l)
{
    assert(l->t >= e->now);
    assert(l == first_lane(e));
    e->now = l->t;
    l->pending = 0;
    lane_pop(e);
    e->ahead_valid = 0;
    l->fn(e, l->obj, l->arg);
    count_event(e);
}

/* The top event is taken out leaving a hole at the heap's root, so the
 * handler's first schedule fills it with one sift-down (heap.h).  A lane's
 * event runs instead when it comes first in (time, sequence) order. */
void fs_engine_run(fs_engine *e, double until)
{
    fs_heap_entry top;
    e->stopped = 0;
    e->until = until;
    e->ahead_valid = 0;
    while (!e->stopped) {
        fs_heap_settle(&e->heap);
        const fs_heap_entry *peek = fs_heap_top(&e->heap);
        fs_lane *l = first_lane(e);
        if (l && lane_before(l, peek)) {
            if (l->t >= until)
                break;
            run_lane(e, l);
            continue;
        }
        if (!peek || peek->t >= until)
            break;
        if (!fs_heap_take(&e->heap, &top))
            break;   /* not reached: peek said it is there */
        assert(top.t >= e->now);
        e->now = top.t;
        uint32_t id = fs_heap_entry_id(&top);
        fs_event ev = e->ev[id];
        event_release(e, id);
        if (!ev.live)
            continue;
        e->ahead_valid = 0;
        ev.fn(e, ev.obj, ev.arg);
        count_event(e);
    }
    fs_heap_settle(&e->heap);
    e->until = -INFINITY;   /* no running ahead outside fs_engine_run */
    e->ahead_valid = 0;
    if (!e->stopped && e->now < until)
        e->now = until;
}
