/* test_engine.c -- event order, ties, cancellation, pool reuse, the
 * injected scheduling failure, lanes against the heap. */
#include "tests/check.h"
#include "sim/engine/engine.h"
#include "sim/base/rng.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

typedef struct trace {
    double t[64];
    long arg[64];
    int n;
} trace;

static void record(fs_engine *e, void *obj, long arg)
{
    trace *tr = obj;
    if (tr->n < 64) {
        tr->t[tr->n] = fs_engine_now(e);
        tr->arg[tr->n++] = arg;
    }
}

/* Reschedules itself: a chain of n events. */
static void chain(fs_engine *e, void *obj, long arg)
{
    long *count = obj;
    (*count)++;
    if (arg > 0)
        fs_engine_at(e, fs_engine_now(e) + 1, chain, obj, arg - 1);
}

/* A lane's source: records, then schedules its next event in its lane
 * every `arg` seconds until 10 s (a workload's arrivals, in small). */
typedef struct lane_src {
    trace *tr;
    int lane;
    long tag;
} lane_src;

static void lane_tick(fs_engine *e, void *obj, long arg)
{
    lane_src *ls = obj;
    record(e, ls->tr, ls->tag);
    double next = fs_engine_now(e) + (double)arg;
    if (next <= 10)
        CHECK(fs_engine_lane_at(e, ls->lane, next, lane_tick, ls, arg));
}

/* Events in lanes and in the heap run in one (time, sequence) order: the
 * same order, tie for tie, as with every event in the heap (lane -1). */
static void test_lanes(void)
{
    trace with = {{0}, {0}, 0}, without = {{0}, {0}, 0};
    for (int use = 1; use >= 0; use--) {
        fs_engine *e = fs_engine_new();
        trace *tr = use ? &with : &without;
        lane_src a = {tr, use ? fs_engine_lane_new(e) : -1, 100};
        lane_src b = {tr, use ? fs_engine_lane_new(e) : -1, 200};
        CHECK(!use || (a.lane == 0 && b.lane == 1));
        /* ticks at 0, 2, 4, ... and 0, 3, 6, ...: ties with each other at
         * 0 and 6, and with heap events scheduled before and after them */
        fs_engine_at(e, 6, record, tr, 1);
        CHECK(fs_engine_lane_at(e, a.lane, 0, lane_tick, &a, 2));
        CHECK(fs_engine_lane_at(e, b.lane, 0, lane_tick, &b, 3));
        fs_engine_at(e, 4, record, tr, 2);
        fs_engine_at(e, 0, record, tr, 3);
        CHECK(fs_engine_next(e) == 0);
        fs_engine_run(e, 5);
        CHECK(fs_engine_next(e) == 6);
        fs_engine_run(e, 100);
        CHECK(fs_engine_next(e) == INFINITY);
        CHECK(e->events == (uint64_t)tr->n);
        fs_engine_free(e);
    }
    CHECK(with.n == 13 && with.n == without.n);   /* 6 + 4 ticks, 3 others */
    int same = 1;
    for (int i = 0; i < with.n; i++)
        same &= with.arg[i] == without.arg[i] && with.t[i] == without.t[i];
    CHECK(same);
    /* the first: a's tick and b's at 0, then the heap's 0 (scheduled after
     * them); at 6, the heap's event (scheduled first), then b's tick
     * (scheduled at 3), then a's (scheduled at 4) */
    CHECK(with.arg[0] == 100 && with.arg[1] == 200 && with.arg[2] == 3);
    int at6 = 0;
    while (at6 < with.n && with.t[at6] < 6)
        at6++;
    CHECK(with.arg[at6] == 1 && with.arg[at6 + 1] == 200 &&
          with.arg[at6 + 2] == 100);

    /* Eight lanes, then -1; a lane counts for fs_engine_fail_after as
     * fs_engine_at does. */
    fs_engine *e = fs_engine_new();
    for (int i = 0; i < FS_ENGINE_LANES; i++)
        CHECK(fs_engine_lane_new(e) == i);
    CHECK(fs_engine_lane_new(e) == -1);
    trace tf = {{0}, {0}, 0};
    fs_engine_fail_after(e, 1);
    CHECK(fs_engine_at(e, 1, record, &tf, 1) != 0);
    CHECK(fs_engine_lane_at(e, 0, 2, record, &tf, 2) == 0);
    CHECK(fs_engine_lane_at(e, 0, 2, record, &tf, 2) != 0);
    CHECK(fs_engine_lane_at(e, -1, 3, record, &tf, 3) != 0);
    fs_engine_run(e, 10);
    CHECK(tf.n == 3 && tf.arg[0] == 1 && tf.arg[1] == 2 && tf.arg[2] == 3);
    fs_engine_free(e);
}

/* A source that runs its own events ahead of the loop while it may: a
 * tick every `arg` seconds to 10 s, recorded with tag 7 when run ahead. */
static void ahead_tick(fs_engine *e, void *obj, long arg)
{
    lane_src *ls = obj;
    double next = fs_engine_now(e);
    do {
        record(e, ls->tr, ls->tag);
        next += (double)arg;
        if (next > 10)
            return;
    } while (fs_engine_run_ahead(e, next) && (ls->tag = 7));
    ls->tag = 1;
    CHECK(fs_engine_lane_at(e, ls->lane, next, ahead_tick, ls, arg));
}

/* Running ahead keeps the loop's order, tie for tie, and its count: a
 * tick that would tie with a pending event (3 s, 6 s) or come after it is
 * scheduled instead; the end of the run bounds it too. */
static void test_run_ahead(void)
{
    trace tr = {{0}, {0}, 0};
    fs_engine *e = fs_engine_new();
    CHECK(fs_engine_run_ahead(e, 0) == 0);   /* not while no run runs */
    lane_src a = {&tr, fs_engine_lane_new(e), 1};
    CHECK(fs_engine_lane_at(e, a.lane, 1, ahead_tick, &a, 1));
    fs_engine_at(e, 3, record, &tr, 2);
    fs_engine_at(e, 6.5, record, &tr, 3);
    fs_engine_run(e, 8.5);
    /* ticks at 1..8: 1 by the loop, 2 ahead, 3 by the loop after the heap's
     * 3 (it ties: scheduled earlier), 4-6 ahead, then the heap's 6.5, 7 by
     * the loop, 8 ahead; 9 is past the run's end */
    const double want_t[] = {1, 2, 3, 3, 4, 5, 6, 6.5, 7, 8};
    const long want_arg[] = {1, 7, 2, 1, 7, 7, 7, 3, 1, 7};
    CHECK(tr.n == 10);
    for (int i = 0; i < tr.n && i < 10; i++)
        CHECK(tr.t[i] == want_t[i] && tr.arg[i] == want_arg[i]);
    CHECK(e->events == 10);
    CHECK(fs_engine_now(e) == 8.5);
    CHECK(fs_engine_run_ahead(e, 9) == 0);   /* the run is over */
    fs_engine_free(e);
}

int main(void)
{
    test_lanes();
    test_run_ahead();
    fs_engine *e = fs_engine_new();
    trace tr = {{0}, {0}, 0};
    fs_engine_at(e, 5, record, &tr, 1);
    fs_engine_at(e, 1, record, &tr, 2);
    fs_engine_at(e, 5, record, &tr, 3);   /* same time: after arg 1 */
    fs_event_handle h = fs_engine_at(e, 3, record, &tr, 4);
    fs_engine_at(e, 3, record, &tr, 5);
    fs_engine_at(e, 100, record, &tr, 6);  /* beyond the horizon */
    fs_engine_cancel(e, h);
    fs_engine_run(e, 50);
    CHECK(tr.n == 4);
    CHECK(tr.arg[0] == 2 && tr.t[0] == 1);
    CHECK(tr.arg[1] == 5 && tr.t[1] == 3);
    CHECK(tr.arg[2] == 1 && tr.t[2] == 5);
    CHECK(tr.arg[3] == 3 && tr.t[3] == 5);
    CHECK(fs_engine_now(e) == 50);
    /* A stale handle (its record recycled) must not cancel anything. */
    fs_engine_cancel(e, h);
    fs_engine_run(e, 200);
    CHECK(tr.n == 5 && tr.arg[4] == 6);
    fs_engine_free(e);

    /* A long chain reuses one record: the pool never grows past its first
     * block however many events run. */
    e = fs_engine_new();
    long count = 0;
    fs_engine_at(e, 0, chain, &count, 1000000);
    fs_engine_run(e, 1e9);
    CHECK(count == 1000001);
    CHECK(e->cap <= 256);
    CHECK(e->events == 1000001);
    fs_engine_free(e);

    /* fs_engine_fail_after(e, 2): two schedules succeed, the third fails
     * and leaves nothing behind, later ones succeed again. */
    e = fs_engine_new();
    trace tf = {{0}, {0}, 0};
    fs_engine_fail_after(e, 2);
    CHECK(fs_engine_at(e, 1, record, &tf, 1) != 0);
    CHECK(fs_engine_at(e, 2, record, &tf, 2) != 0);
    CHECK(fs_engine_at(e, 3, record, &tf, 3) == 0);
    CHECK(fs_engine_at(e, 4, record, &tf, 4) != 0);
    fs_engine_fail_after(e, 0);
    fs_engine_fail_after(e, -1);                  /* off again */
    CHECK(fs_engine_at(e, 5, record, &tf, 5) != 0);
    fs_engine_run(e, 10);
    CHECK(tf.n == 4 && tf.arg[2] == 4 && tf.arg[3] == 5);
    fs_engine_free(e);

    /* Heap order under random times. */
    fs_heap hp;
    fs_heap_init(&hp);
    gsl_rng *r = fs_rng_new(1, 0, "heap");
    for (uint32_t i = 0; i < 100000; i++)
        fs_heap_push(&hp, floor(gsl_rng_uniform(r) * 1000), i);
    fs_heap_entry prev = {-1, 0}, cur;
    int ordered = 1;
    while (fs_heap_pop(&hp, &cur)) {
        if (cur.t < prev.t || (cur.t == prev.t && fs_heap_entry_seq(&cur) < fs_heap_entry_seq(&prev)))
            ordered = 0;
        prev = cur;
    }
    CHECK(ordered);
    fs_heap_free(&hp);
    gsl_rng_free(r);

    /* Streams: reproducible, and distinct per source and replication. */
    gsl_rng *a = fs_rng_new(7, 0, "arrivals:chat");
    gsl_rng *b = fs_rng_new(7, 0, "arrivals:chat");
    gsl_rng *c = fs_rng_new(7, 1, "arrivals:chat");
    gsl_rng *d = fs_rng_new(7, 0, "service:chat");
    unsigned long xa = gsl_rng_get(a), xb = gsl_rng_get(b);
    CHECK(xa == xb);
    CHECK(gsl_rng_get(c) != xa);
    CHECK(gsl_rng_get(d) != xa);
    CHECK(fs_rng_seed(1, 0, "x") != fs_rng_seed(2, 0, "x"));
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
    gsl_rng_free(d);
    return check_report("engine");
}
