/* autoscale.c -- target-tracking autoscaling of on-demand pools.
 *
 * Every autoscale_interval the pool computes the instances it wants:
 *   utilization(target=T): ceil(demand / T), demand in instances being
 *     instances up x busy fraction over the interval just ended, plus the
 *     growth (less the shrinking) over it of the work queued for the pool;
 *   queue(target=N): ceil(requests waiting or in service / N).
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
 * it gives back provisioning, then idle, then busy (draining) instances. */
#include "sim/fleet/fleet.h"

#include <math.h>

static void on_autoscale(fs_engine *e, void *obj, long arg);

/* Schedules the pool's next decision; a run that cannot is failed, not
 * left with a pool that silently stops scaling. */
static void schedule_tick(fs_pool *p, double t)
{
    if (fs_engine_at(p->sim->engine, t, on_autoscale, p, 0))
        return;
    fs_error_set(p->sim->err, "out of memory scheduling the autoscaler of "
                 "pool %s", p->conf->name);
    fs_sim_fail(p->sim);
}

static long waiting_or_served(const fs_pool *p)
{
    long n = p->busy_servers;
    for (int k = 0; k < p->nwls; k++)
        n += (long)p->wls[k]->queue.len;
    return n;
}

/* GPU-seconds of work waiting for the pool: its share of each of its
 * workloads' queues, at its GPUs' speed. */
static double queued_gpu_seconds(const fs_pool *p)
{
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
    return gs * (double)p->conf->gpus_per_server;
}

static long desired_instances(fs_pool *p)
{
    const fs_pool_conf *c = p->conf;
    double want;
    if (c->scale == FS_SCALE_QUEUE) {
        want = ceil((double)waiting_or_served(p) / c->scale_target);
    } else {
        double busy = p->area_busy - p->scale_busy;
        double up = p->area_gpus_up - p->scale_gpus_up;
        double util = up > 0 ? busy / up : 0;
        double avg_up = up / (double)c->gpus_per_instance / c->scale_interval;
        double queued = queued_gpu_seconds(p);
        double backlog = (queued - p->scale_queued) /
                         (double)c->gpus_per_instance / c->scale_interval;
        p->scale_queued = queued;
        want = ceil((avg_up * util + backlog) / c->scale_target - 1e-9);
        if (want < 1 && waiting_or_served(p) > 0)
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
    fs_pool *p = obj;
    double now = fs_engine_now(e);
    fs_pool_account(p, now);
    long want = desired_instances(p);
    long have = p->launched - p->draining;
    p->wanted[p->wanted_pos] = want;
    p->wanted_pos = (p->wanted_pos + 1) % p->nwanted;
    long floor = 0;   /* the most wanted within the window */
    for (int i = 0; i < p->nwanted; i++)
        if (p->wanted[i] > floor)
            floor = p->wanted[i];
    if (want > have) {
        for (long i = have; i < want && !p->sim->failed; i++)
            if (fs_pool_launch(p))
                break;
        p->last_scale_in = now;   /* a scale-out also restarts the cooldown */
    } else if (floor < have && now - p->last_scale_in >= p->conf->cooldown) {
        fs_pool_shrink(p, (int)(have - floor));
        p->last_scale_in = now;
    }
    p->scale_busy = p->area_busy;
    p->scale_gpus_up = p->area_gpus_up;
    schedule_tick(p, now + p->conf->scale_interval);
}

void fs_autoscale_start(fs_pool *p)
{
    if (p->conf->scale == FS_SCALE_FIXED)
        return;
    p->last_scale_in = -INFINITY;
    for (int i = 0; i < p->nwanted; i++)
        p->wanted[i] = p->conf->count;   /* the start size */
    schedule_tick(p, p->conf->scale_interval);
}
