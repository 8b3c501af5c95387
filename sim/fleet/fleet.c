/* fleet.c -- pools and their instances: launch, provisioning, termination,
 * the idle-server stack, time integrals for utilization, and billing.
 *
 * A pool owns a fixed array of instance slots (its maximum size) and of
 * servers (slots x servers per instance); launching takes the lowest free
 * slot from fs_slots, in O(1) or O(log N) rather than a scan of the table.
 * Billing meters move when an instance terminates and at the horizon,
 * never by polling; what they charge is the pool's purchase option's
 * business (models/purchase.h), never a branch here. */
#include "sim/fleet/fleet.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void on_instance_ready(fs_engine *e, void *obj, long arg);

int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf)
{
    memset(p, 0, sizeof *p);
    p->conf = conf;
    p->sim = sim;
    p->servers_per_instance = (int)(conf->gpus_per_instance /
                                    conf->gpus_per_server);
    p->max_instances = (int)conf->max;
    int ipool = (int)(conf - sim->sc->pools);
    p->batch_cap = 1;
    for (size_t w = 0; w < sim->sc->nworkloads; w++) {
        const fs_workload_conf *wc = &sim->sc->workloads[w];
        for (int k = 0; k < wc->npools; k++)
            if (wc->pools[k] == ipool && wc->batch_max > p->batch_cap)
                p->batch_cap = (int)wc->batch_max;
    }
    size_t nserv = (size_t)p->max_instances * (size_t)p->servers_per_instance;
    p->inst = calloc(p->max_instances ? (size_t)p->max_instances : 1,
                     sizeof *p->inst);
    p->servers = calloc(nserv ? nserv : 1, sizeof *p->servers);
    p->idle = calloc(nserv ? nserv : 1, sizeof *p->idle);
    p->batch_store = calloc((nserv ? nserv : 1) * (size_t)p->batch_cap,
                            sizeof *p->batch_store);
    if (conf->scale != FS_SCALE_FIXED) {
        /* One slot per autoscaler tick in the cooldown window. */
        double n = ceil(conf->cooldown / conf->scale_interval);
        p->nwanted = n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
        p->wanted = calloc((size_t)p->nwanted, sizeof *p->wanted);
        if (!p->wanted)
            return -1;
    }
    if (!p->inst || !p->servers || !p->idle || !p->batch_store ||
        fs_slots_init(&p->free_slots, p->max_instances) ||
        fs_meter_init(&p->meter, &sim->cal))
        return -1;
    for (size_t i = 0; i < nserv; i++) {
        fs_server *s = &p->servers[i];
        s->pool = p;
        s->instance = (int)(i / (size_t)p->servers_per_instance);
        s->state = FS_SERVER_OFF;
        s->idle_pos = -1;
        s->batch = &p->batch_store[i * (size_t)p->batch_cap];
    }
    return 0;
}

void fs_pool_free(fs_pool *p)
{
    free(p->inst);
    free(p->servers);
    free(p->idle);
    free(p->batch_store);
    free(p->wanted);
    fs_slots_free(&p->free_slots);
    fs_meter_free(&p->meter);
}

void fs_pool_account(fs_pool *p, double now)
{
    double dt = now - p->last_t;
    if (dt <= 0)
        return;
    double gpi = (double)p->conf->gpus_per_instance;
    p->area_up += p->up * dt;
    p->area_gpus += p->launched * gpi * dt;
    p->area_gpus_up += p->up * gpi * dt;
    p->area_busy += p->busy_servers * (double)p->conf->gpus_per_server * dt;
    p->last_t = now;
}

void fs_pool_idle_push(fs_pool *p, fs_server *s)
{
    assert(s->idle_pos < 0 && s->state == FS_SERVER_IDLE);
    s->idle_pos = p->nidle;
    p->idle[p->nidle++] = (int)(s - p->servers);
}

/* Removes a server from anywhere in the idle stack (swap with the top). */
static void idle_remove(fs_pool *p, fs_server *s)
{
    if (s->idle_pos < 0)
        return;
    int last = p->idle[--p->nidle];
    p->idle[s->idle_pos] = last;
    p->servers[last].idle_pos = s->idle_pos;
    s->idle_pos = -1;
}

fs_server *fs_pool_idle_pop(fs_pool *p)
{
    if (p->nidle == 0)
        return NULL;
    fs_server *s = &p->servers[p->idle[--p->nidle]];
    assert(s->state == FS_SERVER_IDLE);
    s->idle_pos = -1;
    return s;
}

void fs_pool_set_busy(fs_pool *p, fs_server *s, int busy)
{
    int was = s->state == FS_SERVER_BUSY;
    if (was == busy)
        return;
    fs_pool_account(p, fs_engine_now(p->sim->engine));
    p->busy_servers += busy ? 1 : -1;
    assert(p->busy_servers >= 0);
}

static fs_server *instance_servers(fs_pool *p, int idx)
{
    return &p->servers[(size_t)idx * (size_t)p->servers_per_instance];
}

static void instance_terminate(fs_pool *p, int idx)
{
    fs_instance *in = &p->inst[idx];
    double now = fs_engine_now(p->sim->engine);
    assert(in->state != FS_INSTANCE_FREE && in->busy == 0);
    fs_pool_account(p, now);
    if (in->state == FS_INSTANCE_PROVISIONING)
        fs_engine_cancel(p->sim->engine, in->ready);
    else
        p->up--;
    if (in->state == FS_INSTANCE_DRAINING)
        p->draining--;
    p->launched--;
    fs_server *s = instance_servers(p, idx);
    for (int k = 0; k < p->servers_per_instance; k++) {
        idle_remove(p, &s[k]);
        s[k].state = FS_SERVER_OFF;
    }
    fs_purchase_bill bill = {&p->meter, &p->sim->cal,
                             (int)p->conf->gpus_per_instance};
    p->conf->purchase->terminate(&p->conf->terms, &bill, in->launched, now);
    in->state = FS_INSTANCE_FREE;
    fs_slots_give(&p->free_slots, idx);
}

/* An instance comes up: its servers look for work. */
static void instance_up(fs_pool *p, int idx)
{
    fs_instance *in = &p->inst[idx];
    fs_pool_account(p, fs_engine_now(p->sim->engine));
    in->state = FS_INSTANCE_UP;
    in->ready = 0;
    p->up++;
    fs_server *s = instance_servers(p, idx);
    for (int k = 0; k < p->servers_per_instance; k++) {
        s[k].state = FS_SERVER_IDLE;
        fs_server_seek_work(&s[k]);
    }
}

static void on_instance_ready(fs_engine *e, void *obj, long arg)
{
    (void)e;
    instance_up(obj, (int)arg);
}

/* Takes a free slot and starts an instance in it (up at once when
 * immediately is set, else after the provisioning delay). */
static int instance_start(fs_pool *p, int immediately)
{
    int idx = fs_slots_take(&p->free_slots);
    if (idx < 0)
        return -1;
    double now = fs_engine_now(p->sim->engine);
    fs_pool_account(p, now);
    fs_instance *in = &p->inst[idx];
    in->state = FS_INSTANCE_PROVISIONING;
    in->launched = now;
    in->busy = 0;
    p->launched++;
    p->launches++;
    if (immediately || p->conf->provision_delay <= 0) {
        instance_up(p, idx);
        return 0;
    }
    in->ready = fs_engine_at(p->sim->engine, now + p->conf->provision_delay,
                             on_instance_ready, p, idx);
    if (in->ready)
        return 0;
    fs_error_set(p->sim->err, "out of memory scheduling an instance of pool "
                 "%s", p->conf->name);
    fs_sim_fail(p->sim);
    return -1;
}

void fs_pool_start(fs_pool *p)
{
    /* The fleet exists at the scenario start: no provisioning delay. */
    for (long i = 0; i < p->conf->count; i++)
        instance_start(p, 1);
}

int fs_pool_launch(fs_pool *p)
{
    return instance_start(p, 0);
}

void fs_pool_shrink(fs_pool *p, int n)
{
    /* Cheapest to give back first: instances still provisioning (newest
     * first), then idle ones, then busy ones, which drain. */
    for (int i = p->max_instances - 1; i >= 0 && n > 0; i--)
        if (p->inst[i].state == FS_INSTANCE_PROVISIONING) {
            instance_terminate(p, i);
            n--;
        }
    for (int i = p->max_instances - 1; i >= 0 && n > 0; i--)
        if (p->inst[i].state == FS_INSTANCE_UP && p->inst[i].busy == 0) {
            instance_terminate(p, i);
            n--;
        }
    for (int i = p->max_instances - 1; i >= 0 && n > 0; i--)
        if (p->inst[i].state == FS_INSTANCE_UP) {
            fs_pool_account(p, fs_engine_now(p->sim->engine));
            p->inst[i].state = FS_INSTANCE_DRAINING;
            p->draining++;
            fs_server *s = instance_servers(p, i);
            for (int k = 0; k < p->servers_per_instance; k++)
                if (s[k].state == FS_SERVER_IDLE) {
                    idle_remove(p, &s[k]);
                    s[k].state = FS_SERVER_OFF;
                }
            n--;
        }
}

void fs_pool_server_taken(fs_pool *p, fs_server *s)
{
    assert(s->state == FS_SERVER_IDLE && s->idle_pos < 0);
    p->inst[s->instance].busy++;
}

void fs_pool_server_released(fs_pool *p, fs_server *s)
{
    fs_instance *in = &p->inst[s->instance];
    assert(in->busy > 0);
    in->busy--;
    if (in->state != FS_INSTANCE_DRAINING) {
        s->state = FS_SERVER_IDLE;
        return;
    }
    s->state = FS_SERVER_OFF;
    if (in->busy == 0)
        instance_terminate(p, s->instance);
}

void fs_pool_finish(fs_pool *p)
{
    const fs_sim *sim = p->sim;
    const fs_purchase_option *o = p->conf->purchase;
    fs_purchase_bill bill = {&p->meter, &sim->cal,
                             (int)p->conf->gpus_per_instance};
    fs_pool_account(p, sim->cal.horizon_s);
    o->finish(&p->conf->terms, &bill, p->conf->count);
    /* Instances still up: the horizon cuts their bill. */
    for (int i = 0; i < p->max_instances; i++)
        if (p->inst[i].state != FS_INSTANCE_FREE)
            o->cut(&p->conf->terms, &bill, p->inst[i].launched);
}
