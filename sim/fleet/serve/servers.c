/* servers.c -- a pool's servers and its idle stack; see servers.h. */
#include "sim/fleet/serve/servers.h"
#include "sim/fleet/serve/sharing.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int fs_servers_init(fs_servers *p, fs_sim *sim, const fs_pool_conf *conf,
                    fs_capacity *cap, fs_usage *usage, int batch_cap)
{
    memset(p, 0, sizeof *p);
    p->conf = conf;
    p->role = conf->role;
    p->sim = sim;
    p->cap = cap;
    p->usage = usage;
    p->shape = fs_shape_of_pool(conf);
    p->nshapes = fs_shape_of_gpu(conf, p->shapes);
    p->per_instance = p->nshapes
        ? (int)conf->gpus_per_instance * p->nshapes
        : fs_shape_per_instance(&p->shape, conf->gpus_per_instance);
    p->batch_cap = batch_cap;
    p->nservers = (size_t)cap->max * (size_t)p->per_instance;
    size_t n = p->nservers ? p->nservers : 1;
    p->servers = calloc(n, sizeof *p->servers);
    p->idle = calloc(n, sizeof *p->idle);
    p->batch_store = calloc(n * (size_t)batch_cap, sizeof *p->batch_store);
    p->nmonths = sim->cal.nmonths;
    p->wl_busy = calloc((size_t)(FS_MAX_WORKLOADS_PER_POOL +
                                 FS_SHAPES_PER_GPU) * p->nmonths + 1,
                        sizeof *p->wl_busy);
    if (!p->servers || !p->idle || !p->batch_store || !p->wl_busy ||
        (conf->sharing && !(p->sharing = fs_sharing_new(p))))
        return -1;
    for (size_t i = 0; i < p->nservers; i++) {
        fs_server *s = &p->servers[i];
        s->pool = p;
        s->instance = (int)(i / (size_t)p->per_instance);
        s->shape = p->nshapes ? &p->shapes[i % (size_t)p->nshapes]
                              : &p->shape;
        s->state = FS_SERVER_OFF;
        s->idle_pos = -1;
        s->batch = &p->batch_store[i * (size_t)batch_cap];
    }
    return 0;
}

void fs_servers_free(fs_servers *p)
{
    if (p->disc && p->disc->free_servers)
        p->disc->free_servers(p);
    fs_sharing_free(p->sharing);
    p->sharing = NULL;
    free(p->servers);
    free(p->idle);
    free(p->batch_store);
    free(p->wl_busy);
    p->wl_busy = NULL;
    p->servers = NULL;
    p->idle = NULL;
    p->batch_store = NULL;
}

/* Swaps with the top: O(1), and the stack's order is what it always was. */
void fs_servers_idle_remove(fs_servers *p, fs_server *s)
{
    if (s->idle_pos < 0)
        return;
    int last = p->idle[--p->nidle];
    p->idle[s->idle_pos] = last;
    p->servers[last].idle_pos = s->idle_pos;
    s->idle_pos = -1;
}

int fs_server_takes(const fs_server *s, const char *profile,
                    const void *model)
{
    if (s->hosts && s->hosts != model)
        return 0;
    return !profile[0] ||
           (s->shape->profile && strcmp(s->shape->profile, profile) == 0);
}

fs_server *fs_servers_idle_find(fs_servers *p, const char *profile,
                                const void *model)
{
    for (int i = p->nidle - 1; i >= 0; i--) {
        fs_server *s = &p->servers[p->idle[i]];
        if (fs_server_takes(s, profile, model)) {
            fs_servers_idle_remove(p, s);
            return s;
        }
    }
    return NULL;
}

fs_event_handle fs_servers_run(fs_servers *p, fs_server *s, double t,
                               fs_handler done)
{
    if (p->sharing)
        return fs_sharing_start(p->sharing, s, t, done);
    return fs_engine_at(p->sim->engine, fs_engine_now(p->sim->engine) + t,
                        done, s, 0);
}

/* s's busy GPU-seconds from busy_since to t go to its batch's workload,
 * and its seconds to its slot (per MIG profile). */
static void account_busy(fs_servers *p, const fs_server *s, double t)
{
    if (p->nshapes && t > s->busy_since) {
        p->slot_busy_s[s->shape->slot] += t - s->busy_since;
        fs_servers_account(p, FS_MAX_WORKLOADS_PER_POOL + s->shape->slot,
                           s->busy_since, t, fs_shape_busy_gpus(s->shape));
    }
    if (!p->sharing)
        fs_servers_account(p, s->busy_k, s->busy_since, t,
                           fs_shape_busy_gpus(s->shape));
}

void fs_servers_set_busy_any(fs_servers *p, fs_server *s, int busy)
{
    int was = s->state == FS_SERVER_BUSY;
    if (was == busy)
        return;
    double now = fs_engine_now(p->sim->engine);
    if (!p->sharing)
        fs_usage_busy(p->usage, now, s->shape, busy);
    else if (!busy)
        fs_sharing_stop(p->sharing, s, now);
    if (busy) {
        fs_servers_busy_from(p, s, now);
        /* an LLM replica on a shared GPU times its own iterations */
        if (p->sharing && s->llm)
            fs_sharing_join(p->sharing, s, now);
    } else {
        account_busy(p, s, now);
    }
}

void fs_servers_finish(fs_servers *p, double horizon)
{
    for (size_t i = 0; i < p->nservers; i++)
        if (p->servers[i].state == FS_SERVER_BUSY)
            account_busy(p, &p->servers[i], horizon);
    if (p->sharing)
        fs_sharing_finish(p->sharing, horizon);
}
