/* capacity.c -- instances of one pool: launch, provisioning, drain and
 * termination, told to the subscribers; see capacity.h. */
#include "sim/fleet/capacity/capacity.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void on_ready(fs_engine *e, void *obj, long arg);
static void on_notice_end(fs_engine *e, void *obj, long arg);

int fs_capacity_init(fs_capacity *cap, fs_engine *engine, int max,
                     double provision_delay)
{
    memset(cap, 0, sizeof *cap);
    cap->engine = engine;
    cap->provision_delay = provision_delay;
    cap->max = max;
    cap->inst = calloc(max > 0 ? (size_t)max : 1, sizeof *cap->inst);
    if (!cap->inst || fs_slots_init(&cap->free_slots, max) ||
        fs_slotset_init(&cap->provisioning, max) ||
        fs_slotset_init(&cap->upset, max) || fs_slotset_init(&cap->idle, max))
        return -1;
    return 0;
}

/* Files slot idx under its kind after its state or holds changed. */
static void index_slot(fs_capacity *cap, int idx)
{
    const fs_instance *in = &cap->inst[idx];
    int up = in->state == FS_INSTANCE_UP;
    fs_slotset_put(&cap->provisioning, idx,
                   in->state == FS_INSTANCE_PROVISIONING);
    fs_slotset_put(&cap->upset, idx, up);
    fs_slotset_put(&cap->idle, idx, up && in->holds == 0);
}

/* Files slot idx as idle or not after only its holds changed: its state,
 * and so its place in the other two sets, is as before (a hold is taken
 * and let go with every request served, so this is the hot path). */
static void index_holds(fs_capacity *cap, int idx)
{
    const fs_instance *in = &cap->inst[idx];
    fs_slotset_put(&cap->idle, idx,
                   in->state == FS_INSTANCE_UP && in->holds == 0);
}

void fs_capacity_free(fs_capacity *cap)
{
    free(cap->inst);
    cap->inst = NULL;
    fs_slots_free(&cap->free_slots);
    fs_slotset_free(&cap->provisioning);
    fs_slotset_free(&cap->upset);
    fs_slotset_free(&cap->idle);
}

int fs_capacity_subscribe(fs_capacity *cap, const fs_capacity_listener *l,
                          void *ctx)
{
    if (cap->nsubs == FS_CAPACITY_MAX_LISTENERS)
        return -1;
    cap->subs[cap->nsubs].l = l;
    cap->subs[cap->nsubs].ctx = ctx;
    cap->nsubs++;
    return 0;
}

/* Tells every subscriber, in subscription order. */
static void notify(fs_capacity *cap, fs_capacity_event ev, int idx)
{
    for (int i = 0; i < cap->nsubs; i++) {
        fs_capacity_fn fn = cap->subs[i].l->on[ev];
        if (fn)
            fn(cap->subs[i].ctx, cap, idx);
    }
}

static void instance_up(fs_capacity *cap, int idx)
{
    fs_instance *in = &cap->inst[idx];
    in->state = FS_INSTANCE_UP;
    in->ready = 0;
    index_slot(cap, idx);
    cap->up++;
    notify(cap, FS_CAPACITY_UP, idx);
}

/* The load of launched instance idx, provisioning until t: from the end
 * of its provisioning, at most load_delay; counted once it has begun, and
 * told (LOADED: what each cold start pulls is priced by a subscriber). */
static void count_load(fs_capacity *cap, int idx, double t)
{
    double spent = t - (cap->inst[idx].launched + cap->provision_delay);
    if (cap->load_delay <= 0 || !(spent > 0))
        return;
    cap->cold_starts++;
    cap->load_s += spent < cap->load_delay ? spent : cap->load_delay;
    notify(cap, FS_CAPACITY_LOADED, idx);
}

static void on_ready(fs_engine *e, void *obj, long arg)
{
    fs_capacity *cap = obj;
    count_load(cap, (int)arg, fs_engine_now(e));
    instance_up(cap, (int)arg);
}

void fs_capacity_count_loading(fs_capacity *cap, double t)
{
    for (int i = 0; i < cap->max; i++)
        if (cap->inst[i].state == FS_INSTANCE_PROVISIONING)
            count_load(cap, i, t);
}

/* Takes the lowest free slot and launches an instance in it: up at once
 * when immediately is set, else after the provisioning delay.  0, 1 when
 * the table is full, -1 when the delay cannot be scheduled. */
static int instance_launch(fs_capacity *cap, int immediately)
{
    int idx = fs_slots_take(&cap->free_slots);
    if (idx < 0)
        return 1;
    double now = fs_capacity_now(cap);
    double delay = cap->provision_delay + cap->load_delay;
    int delayed = !immediately && delay > 0;
    fs_event_handle ready = 0;
    if (delayed) {
        ready = fs_engine_at(cap->engine, now + delay, on_ready, cap, idx);
        if (!ready) {
            fs_slots_give(&cap->free_slots, idx);
            return -1;
        }
    }
    fs_instance *in = &cap->inst[idx];
    in->state = FS_INSTANCE_PROVISIONING;
    in->launched = now;
    in->holds = 0;
    in->ready = ready;
    in->interrupt_at = INFINITY;
    index_slot(cap, idx);
    cap->launched++;
    cap->launches++;
    notify(cap, FS_CAPACITY_PROVISIONING, idx);
    if (!delayed)
        instance_up(cap, idx);
    return 0;
}

int fs_capacity_start(fs_capacity *cap, long n)
{
    int started = 0;
    for (long i = 0; i < n && instance_launch(cap, 1) == 0; i++)
        started++;
    return started;
}

int fs_capacity_launch(fs_capacity *cap, long n)
{
    int launched = 0;
    for (long i = 0; i < n; i++) {
        int rc = instance_launch(cap, 0);
        if (rc < 0)
            return -1;
        if (rc > 0)
            break;
        launched++;
    }
    return launched;
}

static void instance_terminate(fs_capacity *cap, int idx)
{
    fs_instance *in = &cap->inst[idx];
    assert(in->state != FS_INSTANCE_FREE && in->holds == 0);
    if (in->state == FS_INSTANCE_PROVISIONING) {
        fs_engine_cancel(cap->engine, in->ready);
        count_load(cap, idx, fs_capacity_now(cap));
    } else
        cap->up--;
    if (in->state == FS_INSTANCE_DRAINING)
        cap->draining--;
    if (in->state == FS_INSTANCE_NOTICE)
        cap->noticed--;
    cap->launched--;
    notify(cap, FS_CAPACITY_DOWN, idx);   /* still in its last state */
    in->state = FS_INSTANCE_FREE;
    in->ready = 0;
    index_slot(cap, idx);
    fs_slots_give(&cap->free_slots, idx);
}

static void instance_drain(fs_capacity *cap, int idx)
{
    cap->inst[idx].state = FS_INSTANCE_DRAINING;
    index_slot(cap, idx);
    cap->draining++;
    notify(cap, FS_CAPACITY_NOTICE, idx);
}

/* Each kind newest slot first, as a scan from the top would: the next
 * slot is the highest member below the last one taken, looked up again
 * after each change, so subscribers' reactions are seen as a scan saw
 * them. */
int fs_capacity_release(fs_capacity *cap, long n)
{
    long left = n;
    for (int i = cap->max; left > 0 &&
         (i = fs_slotset_prev(&cap->provisioning, i)) >= 0; left--)
        instance_terminate(cap, i);
    for (int i = cap->max; left > 0 &&
         (i = fs_slotset_prev(&cap->idle, i)) >= 0; left--)
        instance_terminate(cap, i);
    for (int i = cap->max; left > 0 &&
         (i = fs_slotset_prev(&cap->upset, i)) >= 0; left--)
        instance_drain(cap, i);
    return (int)(n - left);
}

void fs_capacity_hold(fs_capacity *cap, int idx)
{
    assert(cap->inst[idx].state == FS_INSTANCE_UP);
    if (cap->inst[idx].holds++ == 0)
        index_holds(cap, idx);
}

void fs_capacity_unhold(fs_capacity *cap, int idx)
{
    fs_instance *in = &cap->inst[idx];
    assert(in->holds > 0);
    if (--in->holds == 0 && in->state == FS_INSTANCE_DRAINING)
        instance_terminate(cap, idx);
    else if (in->holds == 0)
        index_holds(cap, idx);
}

/* The provider takes the instance: subscribers drop their work on it,
 * then it terminates like any other. */
static void instance_interrupted(fs_capacity *cap, int idx)
{
    fs_instance *in = &cap->inst[idx];
    assert(in->state == FS_INSTANCE_NOTICE);
    in->ready = 0;
    cap->interruptions++;
    notify(cap, FS_CAPACITY_INTERRUPTED, idx);
    in->holds = 0;
    index_slot(cap, idx);
    instance_terminate(cap, idx);
}

static void on_notice_end(fs_engine *e, void *obj, long arg)
{
    (void)e;
    instance_interrupted(obj, (int)arg);
}

int fs_capacity_interrupt(fs_capacity *cap, int idx, double notice_s)
{
    fs_instance *in = &cap->inst[idx];
    assert(in->state == FS_INSTANCE_UP || in->state == FS_INSTANCE_DRAINING);
    assert(notice_s >= 0);
    double now = fs_capacity_now(cap);
    fs_event_handle end = 0;
    if (notice_s > 0) {
        end = fs_engine_at(cap->engine, now + notice_s, on_notice_end, cap,
                           idx);
        if (!end)
            return -1;
    }
    if (in->state == FS_INSTANCE_DRAINING)
        cap->draining--;
    in->state = FS_INSTANCE_NOTICE;
    index_slot(cap, idx);
    in->interrupt_at = now + notice_s;
    in->ready = end;
    cap->noticed++;
    notify(cap, FS_CAPACITY_NOTICE, idx);
    if (notice_s == 0)
        instance_interrupted(cap, idx);
    return 0;
}

double fs_capacity_notice_left(const fs_capacity *cap, int idx)
{
    const fs_instance *in = &cap->inst[idx];
    if (in->state != FS_INSTANCE_NOTICE)
        return INFINITY;
    return in->interrupt_at - fs_capacity_now(cap);
}
