/* autoscale.c -- target-tracking autoscaling of on-demand pools.
 *
 * Every autoscale_interval the pool computes the instances it wants:
 *   utilization(target=T): ceil(demand / T), demand in instances being
 *     instances up x busy fraction over the interval just ended, plus the
 *     growth (less the shrinking) over it of the work queued for the pool;
 *   queue(target=N): ceil(requests waiting or in service / N) (a batch
 *     in service counts once; an LLM server's running requests each).
 * clamped to [min, max].  Instances still provisioning count as capacity,
 * so a pool never launches twice for the same shortfall.
 *
 * Why the queue counts: busy time alone cannot tell demand from backlog.
 * While a pool grows, saturated instances read 100% busy however much work
 * waits, so it grows slowly and builds a backlog; once it is big enough,
 * draining that backlog keeps every instance 100% busy, and it overshoots
 * (bursts needing 12 instances at 70% went to 16).  Work queued over the
 * interval is demand the busy time has not seen yet; work drained from the
 * queue is busy time that is not demand.  A workload's queue is shared
 * evenly by the autoscaled pools that serve it (fixed pools cannot grow).
 * Queued work is the requests' service time alone on this pool's GPU:
 * exact without batching, an upper bound with it.  A request leaves the
 * queue at once but is busy time as it runs, so right after many start
 * the pool may want one instance more than the need, never the backlog's
 * worth.
 *
 * Scale-out acts at once.  Scale-in is stabilized as Kubernetes' HPA does
 * it: the pool shrinks only to the largest count it wanted during the last
 * `cooldown`, and no sooner than `cooldown` after its last scaling action;
 * it gives back provisioning, then idle, then busy (draining) instances.
 *
 * It acts on the pool only through its capacity (capacity.h), and reads
 * the usage integrals (usage.h) and its workloads' queues. */
#include "sim/fleet/pool/autoscale.h"
#include "sim/fleet/serve/dispatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void on_autoscale(fs_engine *e, void *obj, long arg);

int fs_autoscaler_init(fs_autoscaler *a, fs_sim *sim,
                       const fs_pool_conf *conf, fs_capacity *cap,
                       fs_servers *servers, fs_usage *usage)
{
    memset(a, 0, sizeof *a);
    a->conf = conf;
    a->sim = sim;
    a->cap = cap;
    a->servers = servers;
    a->usage = usage;
    if (conf->scale == FS_SCALE_FIXED)
        return 0;
    /* One slot per tick in the cooldown window. */
    double n = ceil(conf->cooldown / conf->scale_interval);
    a->nwanted = n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
    a->wanted = calloc((size_t)a->nwanted, sizeof *a->wanted);
    return a->wanted ? 0 : -1;
}

void fs_autoscaler_free(fs_autoscaler *a)
{
    free(a->wanted);
    a->wanted = NULL;
}

/* Schedules the pool's next decision; a run that cannot is failed, not
 * left with a pool that silently stops scaling. */
static void schedule_tick(fs_autoscaler *a, double t)
{
    if (fs_engine_at(a->sim->engine, t, on_autoscale, a, 0))
        return;
    fs_error_set(a->sim->err, "out of memory scheduling the autoscaler of "
                 "pool %s", a->conf->name);
    fs_sim_fail(a->sim);
}

/* Requests waiting for the pool, and in service on it: a busy server's
 * batch counts once, a continuous-batching server's running requests
 * each (its discipline says, servers.h). */
static long waiting_or_served(const fs_autoscaler *a)
{
    const fs_servers *p = a->servers;
    long n = a->usage->busy_servers;
    if (p->disc && p->disc->in_service) {
        n = 0;
        for (size_t i = 0; i < p->nservers; i++)
            if (p->servers[i].state == FS_SERVER_BUSY)
                n += p->disc->in_service(&p->servers[i]);
    }
    for (int k = 0; k < p->nwls; k++)
        n += (long)fs_workload_queue_of(p->wls[k], p)->len;
    return n;
}

/* GPU-seconds of work waiting for the pool: its share of each of its
 * workloads' queues, at its GPUs' speed. */
static double queued_gpu_seconds(const fs_autoscaler *a)
{
    const fs_servers *p = a->servers;
    double gs = 0;
    for (int k = 0; k < p->nwls; k++) {
        const fs_workload *w = p->wls[k];
        double speed = 0;
        int scaled = 0;
        for (int j = 0; j < w->npools; j++) {
            if (w->pools[j] == p)
                speed = w->speed[j];
            scaled += w->pools[j]->conf->scale != FS_SCALE_FIXED;
        }
        if (w->queue.len && scaled)
            gs += w->queue.work * speed / scaled;
    }
    return gs * fs_shape_busy_gpus(&p->shape);
}

static long desired_instances(fs_autoscaler *a)
{
    const fs_pool_conf *c = a->conf;
    const fs_usage *u = a->usage;
    double want;
    if (c->scale == FS_SCALE_QUEUE) {
        want = ceil((double)waiting_or_served(a) / c->scale_target);
    } else {
        double busy = u->area_busy - a->scale_busy;
        double up = u->area_gpus_up - a->scale_gpus_up;
        double util = up > 0 ? busy / up : 0;
        double avg_up = up / (double)c->gpus_per_instance / c->scale_interval;
        double queued = queued_gpu_seconds(a);
        double backlog = (queued - a->scale_queued) /
                         (double)c->gpus_per_instance / c->scale_interval;
        a->scale_queued = queued;
        want = ceil((avg_up * util + backlog) / c->scale_target - 1e-9);
        if (want < 1 && waiting_or_served(a) > 0)
            want = 1;   /* work is waiting and nothing is up */
    }
    if (want < (double)c->min)
        want = (double)c->min;
    if (want > (double)c->max)
        want = (double)c->max;
    return (long)want;
}

static void on_autoscale(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_autoscaler *a = obj;
    double now = fs_engine_now(e);
    fs_usage_advance(a->usage, now);
    long want = desired_instances(a);
    long have = fs_capacity_active(a->cap);
    a->wanted[a->wanted_pos] = want;
    a->wanted_pos = (a->wanted_pos + 1) % a->nwanted;
    long floor = 0;   /* the most wanted within the window */
    for (int i = 0; i < a->nwanted; i++)
        if (a->wanted[i] > floor)
            floor = a->wanted[i];
    if (want > have) {
        if (fs_capacity_launch(a->cap, want - have) < 0) {
            fs_error_set(a->sim->err, "out of memory scheduling an instance "
                         "of pool %s", a->conf->name);
            fs_sim_fail(a->sim);
            return;
        }
        a->last_scale_in = now;   /* a scale-out also restarts the cooldown */
    } else if (floor < have && now - a->last_scale_in >= a->conf->cooldown) {
        fs_capacity_release(a->cap, have - floor);
        a->last_scale_in = now;
    }
    a->scale_busy = a->usage->area_busy;
    a->scale_gpus_up = a->usage->area_gpus_up;
    schedule_tick(a, now + a->conf->scale_interval);
}

int fs_autoscaler_start(fs_autoscaler *a)
{
    if (a->conf->scale == FS_SCALE_FIXED)
        return 0;
    a->last_scale_in = -INFINITY;
    for (int i = 0; i < a->nwanted; i++)
        a->wanted[i] = a->conf->count;   /* the start size */
    schedule_tick(a, a->conf->scale_interval);
    return a->sim->failed ? -1 : 0;
}
