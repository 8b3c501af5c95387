/* pool.c -- a pool's concerns, built and wired together, and its bill.
 *
 * Billing meters move when an instance terminates (on-demand) or once for
 * the whole horizon (reserved), never by polling: the meter is the last
 * subscriber of the pool's capacity. */
#include "sim/fleet/pool/pool.h"
#include "sim/fleet/pool/coldstart.h"
#include "sim/fleet/pool/block.h"
#include "sim/fleet/serve/dispatch.h"

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

/* The pool's bill, as its purchase option says (models/purchase/purchase.h). */
static fs_purchase_bill pool_bill(fs_pool *p)
{
    return (fs_purchase_bill){&p->meter, &p->sim->cal,
                              (int)p->conf->gpus_per_instance,
                              p->purchase_state, &p->unused,
                              &p->after_term, p->lines, p->conf->gpu.tdp_w,
                              p->conf->gpu.idle_w, 0, 0};
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

/* ---- The pool's concerns, registered in one place ------------------------
 *
 * Each concern is one entry of parts[]: how the pool builds it, which
 * capacity listener it follows the instances with (and its context), how
 * it starts, finishes at the horizon and goes.  NULL: nothing to do then.
 * The pool runs each phase down the table, and frees up it; the capacity
 * calls its subscribers in table order (dispatch first: an instance up
 * puts its servers to work at once; billing after usage; training last).
 * A new concern is its functions here and one line in parts[]. */
typedef struct pool_part {
    const char *name;
    int (*init)(fs_pool *p);
    const fs_capacity_listener *listener;
    void *(*ctx)(fs_pool *p);
    int (*start)(fs_pool *p);
    void (*finish)(fs_pool *p);
    void (*free)(fs_pool *p);
} pool_part;

/* A scheduled pool is up inside its window's openings only: the window
 * (or its capacity blocks, block.h) starts it; otherwise the fleet exists at the scenario start (no
 * provisioning delay), spot and the autoscaler start beside it. */
static int scheduled(const fs_pool *p)
{
    return p->conf->schedule >= 0 || fs_block_applies(p->conf);
}

static int capacity_init(fs_pool *p)
{
    return fs_capacity_init(&p->cap, p->sim->engine, (int)p->conf->max,
                            p->conf->provision_delay);
}

static int capacity_start(fs_pool *p)
{
    if (!scheduled(p))
        fs_capacity_start(&p->cap, fs_spot_initial(&p->spot, p->conf->count));
    return 0;
}

static void capacity_free(fs_pool *p)
{
    fs_capacity_free(&p->cap);
}

/* A launched LLM replica loads its weights before it serves: known once
 * the workloads have built their replicas, before the first launch. */
static int coldstart_start(fs_pool *p)
{
    p->cap.load_delay = fs_coldstart_seconds(&p->servers);
    return 0;
}

/* The loads still under way at the horizon count up to it. */
static void coldstart_finish(fs_pool *p)
{
    fs_capacity_count_loading(&p->cap, p->sim->cal.horizon_s);
}

/* The model weights' storage and every cold start's pull (weights.h):
 * after coldstart, whose finish counts the loads still under way. */
static int weights_init(fs_pool *p)
{
    return fs_weights_init(&p->weights, &p->sim->cal, p->conf);
}

static void *weights_ctx(fs_pool *p)
{
    return &p->weights;
}

static void weights_finish(fs_pool *p)
{
    if (fs_weights_rows(&p->weights, &p->servers, p->sim->out, p->sim->err))
        fs_sim_fail(p->sim);
}

static void weights_free(fs_pool *p)
{
    fs_weights_free(&p->weights);
}

static int servers_init(fs_pool *p)
{
    return fs_servers_init(&p->servers, p->sim, p->conf, &p->cap, &p->usage,
                           batch_cap(p->sim, p->conf));
}

static void *servers_ctx(fs_pool *p)
{
    return &p->servers;
}

static void servers_finish(fs_pool *p)
{
    fs_servers_finish(&p->servers, p->sim->cal.horizon_s);
}

static void servers_free(fs_pool *p)
{
    fs_servers_free(&p->servers);
}

static int usage_init(fs_pool *p)
{
    fs_usage_init(&p->usage, p->conf->gpus_per_instance);
    return 0;
}

static void *usage_ctx(fs_pool *p)
{
    return &p->usage;
}

static void usage_finish(fs_pool *p)
{
    fs_usage_advance(&p->usage, p->sim->cal.horizon_s);
}

static int spot_start(fs_pool *p)
{
    return scheduled(p) ? 0 : fs_spot_start(&p->spot);
}

static void spot_finish(fs_pool *p)
{
    fs_spot_finish(&p->spot);
}

/* The spot part is built by the world (fs_spot_init, world.c), after
 * every pool: a fallback is another pool. */
static void spot_free(fs_pool *p)
{
    fs_spot_free(&p->spot);
}

static int billing_init(fs_pool *p)
{
    const fs_pool_conf *conf = p->conf;
    if (fs_meter_init(&p->meter, &p->sim->cal) ||
        fs_meter_init(&p->unused, &p->sim->cal) ||
        fs_meter_init(&p->after_term, &p->sim->cal))
        return -1;
    for (int k = 0; k < FS_PURCHASE_LINES && conf->purchase->lines[k]; k++)
        if (fs_meter_init(&p->lines[k], &p->sim->cal))
            return -1;
    if (conf->purchase->open &&
        !(p->purchase_state = conf->purchase->open(&conf->terms,
                                                   &p->sim->cal)))
        return -1;
    return 0;
}

static void *billing_ctx(fs_pool *p)
{
    return p;
}

/* Instances still up: the horizon cuts their bill (no minimum); then what
 * the pool owes as such (its option sees every life first). */
static void billing_finish(fs_pool *p)
{
    const fs_purchase_option *o = p->conf->purchase;
    fs_purchase_bill bill = pool_bill(p);
    /* the run's GPU-hours, for an option billed by its energy (usage's
     * integrals run to the horizon: its part finishes first) */
    bill.gpu_hours = p->usage.area_gpus / 3600;
    bill.busy_gpu_hours = p->usage.area_busy / 3600;
    for (int i = 0; i < p->cap.max; i++)
        if (p->cap.inst[i].state != FS_INSTANCE_FREE)
            fs_purchase_cut(o, &p->conf->terms, &bill,
                            p->cap.inst[i].launched);
    fs_purchase_finish(o, &p->conf->terms, &bill, p->conf->count);
}

static void billing_free(fs_pool *p)
{
    fs_meter_free(&p->meter);
    fs_meter_free(&p->unused);
    fs_meter_free(&p->after_term);
    for (int k = 0; k < FS_PURCHASE_LINES; k++)
        fs_meter_free(&p->lines[k]);
    if (p->conf && p->conf->purchase->close)
        p->conf->purchase->close(p->purchase_state);
    p->purchase_state = NULL;
}

static int training_init(fs_pool *p)
{
    fs_train_pool_init(&p->train, p->conf, &p->cap, &p->usage);
    return 0;
}

static void *training_ctx(fs_pool *p)
{
    return &p->train;
}

static void training_free(fs_pool *p)
{
    fs_train_pool_free(&p->train);
}

static int autoscaler_init(fs_pool *p)
{
    return fs_autoscaler_init(&p->scale, p->sim, p->conf, &p->cap,
                              &p->servers, &p->usage);
}

static int autoscaler_start(fs_pool *p)
{
    return scheduled(p) ? 0 : fs_autoscaler_start(&p->scale);
}

static void autoscaler_free(fs_pool *p)
{
    fs_autoscaler_free(&p->scale);
}

static int window_start(fs_pool *p)
{
    if (!scheduled(p))
        return 0;
    return fs_window_start(&p->window, p->sim, p->conf, &p->cap,
                           &p->servers);
}

static int block_start(fs_pool *p)
{
    return fs_block_start(&p->block, p->sim, p->conf, &p->cap, &p->usage);
}

static void block_finish(fs_pool *p)
{
    fs_block_finish(&p->block);
}

static const pool_part parts[] = {
    {"capacity", capacity_init, NULL, NULL, capacity_start, NULL,
     capacity_free},
    {"coldstart", NULL, NULL, NULL, coldstart_start, coldstart_finish, NULL},
    {"weights", weights_init, &fs_weights_listener, weights_ctx, NULL,
     weights_finish, weights_free},
    {"servers", servers_init, &fs_dispatch_listener, servers_ctx, NULL,
     servers_finish, servers_free},
    {"usage", usage_init, &fs_usage_listener, usage_ctx, NULL, usage_finish,
     NULL},
    {"spot", NULL, NULL, NULL, spot_start, spot_finish, spot_free},
    {"billing", billing_init, &billing_listener, billing_ctx, NULL,
     billing_finish, billing_free},
    {"training", training_init, &fs_training_listener, training_ctx, NULL,
     NULL, training_free},
    {"autoscaler", autoscaler_init, NULL, NULL, autoscaler_start, NULL,
     autoscaler_free},
    {"window", NULL, NULL, NULL, window_start, NULL, NULL},
    {"block", NULL, NULL, NULL, block_start, block_finish, NULL},
};

#define NPARTS (sizeof parts / sizeof parts[0])

int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf)
{
    memset(p, 0, sizeof *p);
    p->conf = conf;
    p->sim = sim;
    for (size_t i = 0; i < NPARTS; i++)
        if (parts[i].init && parts[i].init(p))
            return -1;
    for (size_t i = 0; i < NPARTS; i++)
        if (parts[i].listener &&
            fs_capacity_subscribe(&p->cap, parts[i].listener,
                                  parts[i].ctx(p)))
            return -1;
    return 0;
}

void fs_pool_free(fs_pool *p)
{
    for (size_t i = NPARTS; i-- > 0;)
        if (parts[i].free)
            parts[i].free(p);
}

int fs_pool_start(fs_pool *p)
{
    for (size_t i = 0; i < NPARTS; i++)
        if (parts[i].start && parts[i].start(p))
            return -1;
    return 0;
}

void fs_pool_finish(fs_pool *p)
{
    for (size_t i = 0; i < NPARTS; i++)
        if (parts[i].finish)
            parts[i].finish(p);
}
