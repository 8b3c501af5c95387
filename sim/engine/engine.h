/* engine.h -- the discrete-event loop.
 *
 * Events are records in a pool (a growable array with a free list, so the
 * hot loop never calls malloc once the pool has grown to the peak number of
 * pending events) referenced from the heap by index.  An event is a handler,
 * an object and an integer argument.  Cancelling marks the record; the loop
 * discards it when it surfaces (lazy deletion keeps the heap simple). */
#ifndef FS_ENGINE_H
#define FS_ENGINE_H

#include <stdint.h>
#include "sim/base/heap.h"

typedef struct fs_engine fs_engine;
typedef void (*fs_handler)(fs_engine *e, void *obj, long arg);

/* A handle to a scheduled event: index and generation, so a stale handle
 * never cancels a recycled record.  0 is never a valid handle. */
typedef uint64_t fs_event_handle;

typedef struct fs_event {
    fs_handler fn;
    void *obj;
    long arg;
    uint32_t gen;
    uint32_t next_free;   /* free-list link, valid while free */
    int live;             /* scheduled and not cancelled */
} fs_event;

/* A lane holds one pending event outside the heap, for a source that
 * always has exactly one next event and never cancels it (a workload's
 * next arrival).  The heap then holds only the other events, so each
 * arrival saves a sift through it (a third of a busy run's time with 700
 * pending completions).  A lane's event carries the sequence number it
 * would have had in the heap and the loop runs events in (time, sequence)
 * order across both, so results are the same with or without lanes. */
#define FS_ENGINE_LANES 8
typedef struct fs_lane {
    double t;
    uint64_t seq;
    fs_handler fn;
    void *obj;
    long arg;
    int pending;
} fs_lane;

/* Called every `progress_every` events (a power of two) so the command
 * line can draw a progress line; may be NULL. */
typedef void (*fs_progress_fn)(void *ctx, double now, uint64_t events);

struct fs_engine {
    fs_heap heap;
    fs_event *ev;
    uint32_t nev, cap, free_head;
    double now;
    uint64_t events;          /* handlers run */
    uint64_t ran_ahead;       /* of them, run by fs_engine_run_ahead,
                                 never scheduled */
    int stopped;
    fs_progress_fn progress;
    void *progress_ctx;
    uint64_t progress_mask;
    long fail_countdown;      /* fs_engine_fail_after: < 0 when off */
    fs_lane lane[FS_ENGINE_LANES];
    int nlanes;
    int lane_heap[FS_ENGINE_LANES];   /* the pending lanes, a binary heap
                                         by (time, sequence): the first
                                         is read without a scan */
    int npending;
    double until;             /* fs_engine_run's end */
    double ahead;             /* fs_engine_run_ahead's bound, while
                                 ahead_valid: the next pending event's time */
    int ahead_valid;
};

fs_engine *fs_engine_new(void);
void fs_engine_free(fs_engine *e);

/* Schedules fn(e, obj, arg) at time t (t >= now).  Returns 0 when out of
 * memory. */
fs_event_handle fs_engine_at(fs_engine *e, double t, fs_handler fn, void *obj,
                             long arg);
/* A new lane (>= 0), or -1 when all FS_ENGINE_LANES are taken: the caller
 * keeps the number and passes it to fs_engine_lane_at either way. */
int fs_engine_lane_new(fs_engine *e);
/* Schedules fn(e, obj, arg) at time t in lane `lane`, which must hold no
 * pending event; with lane -1, in the heap as fs_engine_at does.  Returns 0
 * when out of memory (or injected by fs_engine_fail_after, which counts
 * these calls with fs_engine_at's), nonzero otherwise.  Not cancellable. */
int fs_engine_lane_at(fs_engine *e, int lane, double t, fs_handler fn,
                      void *obj, long arg);
/* For tests of the callers' error paths: the fs_engine_at call after the
 * next n fails as if out of memory, once (later ones succeed); n < 0 turns
 * it off.  Nothing else sets it: a run never fails this way by itself. */
void fs_engine_fail_after(fs_engine *e, long n);
/* Cancels a pending event; a handle of 0, or one already run, is ignored. */
void fs_engine_cancel(fs_engine *e, fs_event_handle h);

/* Runs events in (time, sequence) order while their time is < until (or
 * until fs_engine_stop); leaves now == until if the heap outlasts it. */
void fs_engine_run(fs_engine *e, double until);
void fs_engine_stop(fs_engine *e);
/* The time of the next pending event (heap or lane), INFINITY if none. */
double fs_engine_next(fs_engine *e);
/* For a handler whose next event would be the only one before every other
 * pending event: when t (>= now) comes strictly before all of them and
 * before the run's end, advances the clock to t, counts an event (as the
 * loop would, progress included) and returns 1, and the caller runs the
 * event at once instead of scheduling it; else 0, and the caller schedules
 * it.  The order of events, and so every result, is the loop's: only the
 * trip through the loop is saved (a plain FIFO workload's arrivals,
 * dispatch_fifo.c).  Only while fs_engine_run runs. */
int fs_engine_run_ahead(fs_engine *e, double t);

static inline double fs_engine_now(const fs_engine *e) { return e->now; }

void fs_engine_set_progress(fs_engine *e, fs_progress_fn fn, void *ctx);

#endif
