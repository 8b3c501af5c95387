/* test_engine.c -- event order, ties, cancellation, pool reuse, the
 * injected scheduling failure. */
#include "tests/check.h"
#include "sim/engine/engine.h"
#include "sim/base/rng.h"

#include <gsl/gsl_rng.h>
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

int main(void)
{
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
