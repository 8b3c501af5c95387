/* pool.c -- a pool's concerns, built and wired together, and its bill.
 *
 * Billing meters move when an instance terminates (on-demand) or once for
 * the whole horizon (reserved), never by polling: the meter is the last
 * subscriber of the pool's capacity. */
#include "sim/fleet/pool.h"
#include "sim/fleet/dispatch.h"

#include <string.h>

/* The largest batch_max among the workloads that run on the pool: the
 * room each server keeps for a batch. */
static int batch_cap(const fs_sim *sim, const fs_pool_conf *conf)
{
    int ipool = (int)(conf - sim->sc->pools), cap = 1;
    for (size_t w = 0; w < sim->sc->nworkloads; w++) {
        const fs_workload_conf *wc = &sim->sc->workloads[w];
        for (int k = 0; k < wc->npools; k++)
            if (wc->pools[k] == ipool && wc->batch_max > cap)
                cap = (int)wc->batch_max;
    }
    return cap;
}

/* An instance goes: on-demand bills its launch to now. */
static void bill_instance_down(void *ctx, fs_capacity *cap, int idx)
{
    fs_pool *p = ctx;
    const fs_instance *in = &cap->inst[idx];
    double now = fs_capacity_now(cap);
    if (p->conf->pricing == FS_PRICING_ON_DEMAND)
        fs_bill_on_demand(&p->meter, &p->sim->cal, in->launched, now,
                          p->conf->price, (int)p->conf->gpus_per_instance,
                          p->conf->min_billed_s);
}

static const fs_capacity_listener billing_listener = {
    .name = "billing",
    .on = {
        [FS_CAPACITY_DOWN] = bill_instance_down,
        [FS_CAPACITY_INTERRUPTED] = bill_instance_down,
    },
};

int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf)
{
    memset(p, 0, sizeof *p);
    p->conf = conf;
    p->sim = sim;
    fs_usage_init(&p->usage, conf->gpus_per_instance);
    if (fs_capacity_init(&p->cap, sim->engine, (int)conf->max,
                         conf->provision_delay) ||
        fs_servers_init(&p->servers, sim, conf, &p->cap, &p->usage,
                        batch_cap(sim, conf)) ||
        fs_autoscaler_init(&p->scale, sim, conf, &p->cap, &p->servers,
                           &p->usage) ||
        fs_meter_init(&p->meter, &sim->cal))
        return -1;
    /* Dispatch first: an instance up puts its servers to work at once. */
    if (fs_capacity_subscribe(&p->cap, &fs_dispatch_listener, &p->servers) ||
        fs_capacity_subscribe(&p->cap, &fs_usage_listener, &p->usage) ||
        fs_capacity_subscribe(&p->cap, &billing_listener, p))
        return -1;
    return 0;
}

void fs_pool_free(fs_pool *p)
{
    fs_autoscaler_free(&p->scale);
    fs_servers_free(&p->servers);
    fs_capacity_free(&p->cap);
    fs_meter_free(&p->meter);
}

int fs_pool_start(fs_pool *p)
{
    /* The fleet exists at the scenario start: no provisioning delay. */
    fs_capacity_start(&p->cap, p->conf->count);
    return fs_autoscaler_start(&p->scale);
}

void fs_pool_finish(fs_pool *p)
{
    const fs_sim *sim = p->sim;
    double end = sim->cal.horizon_s;
    fs_usage_advance(&p->usage, end);
    if (p->conf->pricing == FS_PRICING_RESERVED) {
        fs_bill_reserved(&p->meter, &sim->cal, p->conf->count,
                         p->conf->price, p->conf->upfront_price,
                         p->conf->term_months,
                         (int)p->conf->gpus_per_instance);
        return;
    }
    /* Instances still up are billed to the horizon, which cuts the bill:
     * the per-launch minimum is for terminations, so none applies here. */
    for (int i = 0; i < p->cap.max; i++)
        if (p->cap.inst[i].state != FS_INSTANCE_FREE)
            fs_bill_on_demand(&p->meter, &sim->cal, p->cap.inst[i].launched,
                              end, p->conf->price,
                              (int)p->conf->gpus_per_instance, 0);
}
