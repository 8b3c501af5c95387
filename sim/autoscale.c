/* autoscale.c -- target-tracking autoscaling of on-demand pools.
 *
 * Every autoscale_interval the pool computes the instances it wants:
 *   utilization(target=T): ceil(instances up x busy fraction / T), the busy
 *     fraction measured over the interval just ended;
 *   queue(target=N): ceil(requests waiting or in service / N).
 * clamped to [min, max].  Instances still provisioning count as capacity,
 * so a pool never launches twice for the same shortfall.  Scale-out acts at
 * once.  Scale-in is stabilized as Kubernetes' HPA does it: the pool
 * shrinks only to the largest count it wanted during the last `cooldown`,
 * and no sooner than `cooldown` after its last scaling action; it gives
 * back provisioning, then idle, then busy (draining) instances. */
#include "fleet.h"

#include <math.h>

static void on_autoscale(fs_engine *e, void *obj, long arg);

static long waiting_or_served(const fs_pool *p)
{
    long n = p->busy_servers;
    for (int k = 0; k < p->nwls; k++)
        n += (long)p->wls[k]->queue.len;
    return n;
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
        want = ceil(avg_up * util / c->scale_target - 1e-9);
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
        for (long i = have; i < want; i++)
            if (fs_pool_launch(p))
                break;
        p->last_scale_in = now;   /* a scale-out also restarts the cooldown */
    } else if (floor < have && now - p->last_scale_in >= p->conf->cooldown) {
        fs_pool_shrink(p, (int)(have - floor));
        p->last_scale_in = now;
    }
    p->scale_busy = p->area_busy;
    p->scale_gpus_up = p->area_gpus_up;
    fs_engine_at(e, now + p->conf->scale_interval, on_autoscale, p, 0);
}

void fs_autoscale_start(fs_pool *p)
{
    if (p->conf->scale == FS_SCALE_FIXED)
        return;
    p->last_scale_in = -INFINITY;
    for (int i = 0; i < p->nwanted; i++)
        p->wanted[i] = p->conf->count;   /* the start size */
    fs_engine_at(p->sim->engine, p->conf->scale_interval, on_autoscale, p, 0);
}
