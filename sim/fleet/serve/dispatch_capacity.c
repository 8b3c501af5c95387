/* dispatch_capacity.c -- dispatch as a subscriber of each pool's capacity
 * (fs_dispatch_listener, dispatch.h): an instance up puts its servers to
 * work, one draining takes its idle servers off, one gone takes them all
 * off, and one interrupted (spot) has its servers' discipline give their
 * work back to the queues, which idle servers anywhere then take.  Apart
 * from dispatch.c so that file keeps to the events every request runs;
 * it calls dispatch.c's fs_dispatch_seek_work and nothing calls it. */
#include "sim/fleet/serve/dispatch.h"

#include <assert.h>

/* Capacity events of a pool, ctx = its fs_servers. */

static void on_instance_up(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_servers *p = ctx;
    fs_server *s = fs_servers_of(p, inst);
    for (int k = 0; k < p->per_instance; k++) {
        s[k].state = FS_SERVER_IDLE;
        fs_dispatch_seek_work(&s[k]);
    }
}

/* Idle servers go off; busy ones finish their batch first. */
static void on_instance_notice(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_servers *p = ctx;
    fs_server *s = fs_servers_of(p, inst);
    for (int k = 0; k < p->per_instance; k++)
        if (s[k].state == FS_SERVER_IDLE) {
            fs_servers_idle_remove(p, &s[k]);
            s[k].state = FS_SERVER_OFF;
        }
}

static void on_instance_down(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_servers *p = ctx;
    fs_server *s = fs_servers_of(p, inst);
    for (int k = 0; k < p->per_instance; k++) {
        assert(s[k].state == FS_SERVER_OFF || s[k].state == FS_SERVER_IDLE);
        fs_servers_idle_remove(p, &s[k]);
        s[k].state = FS_SERVER_OFF;
    }
}

/* Idle servers anywhere take the requeued work of workload w, pool by
 * pool in its preference order (a decode pool's from its kv_queue). */
static void wake_idle(fs_workload *w)
{
    fs_server *s;
    for (int k = 0; k < w->npools; k++) {
        fs_servers *p = w->pools[k];
        const fs_queue *q = fs_workload_queue_of(w, p);
        while (q->len && (s = fs_servers_idle_pop_for(
                              p, w->conf->mig_profile, fs_workload_model(w))))
            fs_dispatch_seek_work(s);
    }
}

/* The provider took the instance, held work and all (its holds are
 * forgotten by capacity: no unhold). */
static void on_instance_interrupted(void *ctx, fs_capacity *cap, int inst)
{
    fs_servers *p = ctx;
    fs_server *s = fs_servers_of(p, inst);
    fs_workload *touched[FS_MAX_WORKLOADS_PER_POOL];
    int nt = 0;
    double now = fs_capacity_now(cap);
    p->lost_last = 0;
    for (int k = 0; k < p->per_instance; k++) {
        if (s[k].state == FS_SERVER_BUSY ||
            s[k].state == FS_SERVER_COLLECTING) {
            int seen = 0;
            for (int j = 0; j < nt; j++)
                seen |= touched[j] == s[k].wl;
            if (!seen)
                touched[nt++] = s[k].wl;
            p->disc->lose(&s[k], now);   /* bound: it had work */
        }
        fs_servers_idle_remove(p, &s[k]);
        s[k].state = FS_SERVER_OFF;
    }
    p->lost_s += p->lost_last;
    for (int j = 0; j < nt; j++)
        wake_idle(touched[j]);
}

const fs_capacity_listener fs_dispatch_listener = {
    .name = "dispatch",
    .on = {
        [FS_CAPACITY_UP] = on_instance_up,
        [FS_CAPACITY_NOTICE] = on_instance_notice,
        [FS_CAPACITY_DOWN] = on_instance_down,
        [FS_CAPACITY_INTERRUPTED] = on_instance_interrupted,
    },
};
