/* capacity.h -- the one owner of a pool's instance life cycle.
 *
 * The family sim/fleet/capacity/ (lowest, beside run/): instances and
 * their life cycle, and the slots they take (slots.h, slotset.h).
 *
 *   requested -> provisioning -> up -> draining -> terminated
 *                                  \-> notice -> interrupted      (spot)
 *
 * The autoscaler (and later spot interruptions and windows) acts through
 * this API: start n, launch n, release n.  Whatever uses instances
 * subscribes to their events instead of being called by name: dispatch
 * (its servers take work when an instance is up and go off when it goes),
 * the usage integrals and the billing meter.  Capacity knows none of them,
 * only a table of functions per subscriber, called in subscription order.
 *
 * A subscriber that has work running on an instance holds it; an instance
 * given back while held drains: it takes no new work (the notice event)
 * and terminates when the last hold is released.
 *
 * Instance slots are taken lowest first (slots.h): the slot decides which
 * servers an instance owns, and so the order in which idle servers are
 * handed work; results stay bit-identical to earlier versions.  The table
 * is sized at init: launching and terminating never allocate. */
#ifndef FS_CAPACITY_H
#define FS_CAPACITY_H

#include "sim/engine/engine.h"
#include "sim/fleet/capacity/slots.h"
#include "sim/fleet/capacity/slotset.h"

typedef enum fs_instance_state {
    FS_INSTANCE_FREE,          /* slot not in use: never launched, or gone */
    FS_INSTANCE_REQUESTED,     /* asked for, not granted yet (spot waiting
                                  for capacity; unused so far) */
    FS_INSTANCE_PROVISIONING,  /* launched, billed, not ready */
    FS_INSTANCE_UP,
    FS_INSTANCE_DRAINING,      /* given back: finishing held work */
    FS_INSTANCE_NOTICE,        /* spot: interruption announced; takes no
                                  new work, goes at interrupt_at */
} fs_instance_state;

/* What subscribers hear.  NOTICE: the instance takes no new work (drain or
 * spot notice); DOWN: it is terminated; INTERRUPTED: it is taken away,
 * held work and all (spot); LOADED: a launched instance's cold start is
 * counted (cold_starts), once, when its load ends, or it goes, or at the
 * horizon, whichever comes first, while it is still provisioning. */
typedef enum fs_capacity_event {
    FS_CAPACITY_PROVISIONING,
    FS_CAPACITY_UP,
    FS_CAPACITY_NOTICE,
    FS_CAPACITY_DOWN,
    FS_CAPACITY_INTERRUPTED,
    FS_CAPACITY_LOADED,
    FS_CAPACITY_NEVENTS
} fs_capacity_event;

typedef struct fs_capacity fs_capacity;

/* A subscriber's handler for one event of instance inst: called after the
 * instance has changed state, except DOWN and INTERRUPTED, which are
 * called while it still shows the state it had (provisioning, up,
 * draining), before its slot is freed. */
typedef void (*fs_capacity_fn)(void *ctx, fs_capacity *cap, int inst);

/* One handler per event kind; NULL for events it ignores.  Declared once
 * per subscriber kind (static const), so a listener is a table, not code. */
typedef struct fs_capacity_listener {
    const char *name;                     /* for messages and tests */
    fs_capacity_fn on[FS_CAPACITY_NEVENTS];
} fs_capacity_listener;

typedef struct fs_instance {
    fs_instance_state state;
    double launched;           /* when it was launched (billing starts) */
    int holds;                 /* subscribers' work still running on it */
    fs_event_handle ready;     /* end of provisioning, or of the notice */
    double interrupt_at;       /* NOTICE: when it is taken away */
} fs_instance;

#define FS_CAPACITY_MAX_LISTENERS 8

struct fs_capacity {
    fs_engine *engine;
    double provision_delay;
    /* A launched instance's cold start after provisioning: what it loads
     * before it takes work (an LLM replica's weights and engine start-up,
     * set by sim/fleet/pool/coldstart.c; 0: none).  Instances started at
     * once (fs_capacity_start) load nothing. */
    double load_delay;
    int max;                   /* slots: the pool's largest size */
    fs_instance *inst;         /* max slots */
    fs_slots free_slots;
    /* slots by kind, for release (newest first, O(log n)): provisioning,
       up, and up with no holds */
    fs_slotset provisioning, upset, idle;
    int launched;              /* provisioning, up or draining */
    int up;                    /* up or draining */
    int draining;
    int noticed;               /* spot: interruption announced */
    long launches;             /* since the start */
    long interruptions;        /* since the start */
    long cold_starts;          /* launches that began loading */
    double load_s;             /* seconds spent loading, all of them (up
                                  to a release, or the horizon) */
    struct {
        const fs_capacity_listener *l;
        void *ctx;
    } subs[FS_CAPACITY_MAX_LISTENERS];
    int nsubs;
};

/* max slots; instances launched later become ready after provision_delay
 * seconds.  -1 when out of memory (fs_capacity_free is still safe). */
int fs_capacity_init(fs_capacity *cap, fs_engine *engine, int max,
                     double provision_delay);
void fs_capacity_free(fs_capacity *cap);

/* Adds a subscriber; its handlers run after those subscribed before it.
 * -1 when FS_CAPACITY_MAX_LISTENERS are subscribed already. */
int fs_capacity_subscribe(fs_capacity *cap, const fs_capacity_listener *l,
                          void *ctx);

/* n instances up now, with no provisioning delay: the fleet that exists at
 * the scenario start.  Returns the number started (fewer when full). */
int fs_capacity_start(fs_capacity *cap, long n);

/* n more instances, provisioning: each is up after provision_delay plus
 * load_delay.  Returns the number launched (fewer when the table is
 * full), or -1 when the end of a provisioning could not be scheduled (out
 * of memory; the instance is not launched). */
int fs_capacity_launch(fs_capacity *cap, long n);

/* n fewer instances, cheapest to give back first: those provisioning
 * (newest slot first), then up and not held, then held ones, which drain.
 * Returns the number given back (fewer when fewer are launched). */
int fs_capacity_release(fs_capacity *cap, long n);

/* A subscriber starts work on instance inst (which takes work), or ends
 * it.  A draining instance terminates when its last hold is released. */
void fs_capacity_hold(fs_capacity *cap, int inst);
void fs_capacity_unhold(fs_capacity *cap, int inst);

/* Spot: instance inst (up or draining) is taken away notice_s seconds
 * from now.  At once it takes no new work: state NOTICE, event NOTICE (a
 * subscriber tells a spot notice from a drain by
 * fs_capacity_notice_left).  When the notice ends -- at once when notice_s
 * is 0 -- subscribers hear INTERRUPTED while it is still in state NOTICE;
 * each forgets its holds on it then (no unhold follows), and the instance
 * terminates: event DOWN, slot freed.  A noticed instance that runs out of
 * work stays until the notice ends: the provider takes it, not the fleet.
 * 0, or -1 when the end of the notice cannot be scheduled (out of memory;
 * nothing changed). */
int fs_capacity_interrupt(fs_capacity *cap, int inst, double notice_s);

/* Counts the loading of the instances still provisioning at time t (the
 * horizon) into cold_starts and load_s; called once, at the end. */
void fs_capacity_count_loading(fs_capacity *cap, double t);

/* Seconds until instance inst is taken away: INFINITY unless it is in
 * state NOTICE. */
double fs_capacity_notice_left(const fs_capacity *cap, int inst);

/* Whether instance inst takes new work: it is up, not draining or
 * noticed. */
static inline int fs_capacity_takes_work(const fs_capacity *cap, int inst)
{
    return cap->inst[inst].state == FS_INSTANCE_UP;
}

/* Instances that count as capacity: launched, not draining and not
 * about to be interrupted. */
static inline int fs_capacity_active(const fs_capacity *cap)
{
    return cap->launched - cap->draining - cap->noticed;
}

static inline double fs_capacity_now(const fs_capacity *cap)
{
    return fs_engine_now(cap->engine);
}

#endif
