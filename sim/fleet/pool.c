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

/* The pool's bill, as its purchase option says (models/purchase.h). */
static fs_purchase_bill pool_bill(fs_pool *p)
{
    return (fs_purchase_bill){&p->meter, &p->sim->cal,
                              (int)p->conf->gpus_per_instance,
                              p->purchase_state, &p->unused,
                              &p->after_term};
}

/* An instance goes: its purchase option bills its life (on-demand: launch
 * to now, with the minimum; reserved: nothing per instance). */
static void bill_instance_down(void *ctx, fs_capacity *cap, int idx)
{
    fs_pool *p = ctx;
    const fs_instance *in = &cap->inst[idx];
    fs_purchase_bill bill = pool_bill(p);
    p->conf->purchase->terminate(&p->conf->terms, &bill, in->launched,
                                 fs_capacity_now(cap));
}

static const fs_capacity_listener billing_listener = {
    .name = "billing",
    .on = {
        /* An interrupted instance is billed once, at the DOWN that
         * follows its INTERRUPTED (capacity.h). */
        [FS_CAPACITY_DOWN] = bill_instance_down,
    },
};

int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf)
{
    memset(p, 0, sizeof *p);
    p->conf = conf;
    p->sim = sim;
    fs_usage_init(&p->usage, conf->gpus_per_instance);
    fs_train_pool_init(&p->train, conf, &p->cap, &p->usage);
    if (fs_capacity_init(&p->cap, sim->engine, (int)conf->max,
                         conf->provision_delay) ||
        fs_servers_init(&p->servers, sim, conf, &p->cap, &p->usage,
                        batch_cap(sim, conf)) ||
        fs_autoscaler_init(&p->scale, sim, conf, &p->cap, &p->servers,
                           &p->usage) ||
        fs_meter_init(&p->meter, &sim->cal) ||
        fs_meter_init(&p->unused, &sim->cal) ||
        fs_meter_init(&p->after_term, &sim->cal))
        return -1;
    if (conf->purchase->open &&
        !(p->purchase_state = conf->purchase->open(&conf->terms, &sim->cal)))
        return -1;
    /* Dispatch first: an instance up puts its servers to work at once. */
    if (fs_capacity_subscribe(&p->cap, &fs_dispatch_listener, &p->servers) ||
        fs_capacity_subscribe(&p->cap, &fs_usage_listener, &p->usage) ||
        fs_capacity_subscribe(&p->cap, &billing_listener, p) ||
        fs_capacity_subscribe(&p->cap, &fs_training_listener, &p->train))
        return -1;
    return 0;
}

void fs_pool_free(fs_pool *p)
{
    fs_autoscaler_free(&p->scale);
    fs_servers_free(&p->servers);
    fs_capacity_free(&p->cap);
    fs_train_pool_free(&p->train);
    fs_meter_free(&p->meter);
    fs_meter_free(&p->unused);
    fs_meter_free(&p->after_term);
    fs_spot_free(&p->spot);
    if (p->conf && p->conf->purchase->close)
        p->conf->purchase->close(p->purchase_state);
    p->purchase_state = NULL;
}

int fs_pool_start(fs_pool *p)
{
    /* A scheduled pool is up inside its window's openings only. */
    if (p->conf->schedule >= 0)
        return fs_window_start(&p->window, p->sim, p->conf, &p->cap,
                               &p->servers);
    /* The fleet exists at the scenario start: no provisioning delay. */
    fs_capacity_start(&p->cap, fs_spot_initial(&p->spot, p->conf->count));
    if (fs_spot_start(&p->spot))
        return -1;
    return fs_autoscaler_start(&p->scale);
}

void fs_pool_finish(fs_pool *p)
{
    const fs_purchase_option *o = p->conf->purchase;
    fs_purchase_bill bill = pool_bill(p);
    fs_usage_advance(&p->usage, p->sim->cal.horizon_s);
    fs_servers_finish(&p->servers, p->sim->cal.horizon_s);
    fs_spot_finish(&p->spot);
    /* Instances still up: the horizon cuts their bill (no minimum); then
     * what the pool owes as such (its option sees every life first). */
    for (int i = 0; i < p->cap.max; i++)
        if (p->cap.inst[i].state != FS_INSTANCE_FREE)
            o->cut(&p->conf->terms, &bill, p->cap.inst[i].launched);
    o->finish(&p->conf->terms, &bill, p->conf->count);
}
