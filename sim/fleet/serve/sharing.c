/* sharing.c -- processor sharing of a GPU's replicas; see sharing.h. */
#include "sim/fleet/serve/sharing.h"

#include <assert.h>
#include <stdlib.h>

/* One slot per server index.  A GPU's replicas are the servers
 * g * n .. g * n + n - 1, so there are never more GPUs than servers and
 * slot g also holds GPU g's count: one allocation with the sharing. */
typedef struct share_slot {
    int busy;               /* as GPU g: busy replicas */
    double since;           /* as GPU g: last start or stop */
    double left;            /* as server i: work left, seconds alone */
    char running;           /* as server i: holds a share */
    char fluid;             /* as server i: joined (an LLM replica that
                               times its own iterations): no completion
                               to reschedule */
} share_slot;

struct fs_sharing {
    fs_servers *p;
    int n;                  /* replicas per GPU */
    fs_handler done;        /* completions call it (dispatch's) */
    share_slot slot[];      /* nservers of them (at least one) */
};

double fs_sharing_rate(fs_sharing_kind kind, double efficiency, double cap,
                       int k)
{
    if (k <= 0)
        return 0;
    if (kind == FS_SHARING_MPS)
        return cap < 1.0 / k ? cap : 1.0 / k;
    return k == 1 ? 1 : efficiency / k;
}

fs_sharing *fs_sharing_new(fs_servers *p)
{
    size_t n = p->nservers ? p->nservers : 1;
    fs_sharing *sh = calloc(1, sizeof *sh + n * sizeof sh->slot[0]);
    if (sh) {
        sh->p = p;
        sh->n = p->nshapes;
    }
    return sh;
}

void fs_sharing_free(fs_sharing *sh)
{
    free(sh);
}

static double rate(const fs_sharing *sh, int k)
{
    const fs_pool_conf *c = sh->p->conf;
    return fs_sharing_rate(c->sharing, c->sharing_efficiency, c->sharing_cap,
                           k);
}

/* The GPU's busy share while k replicas run. */
static double level(const fs_sharing *sh, int k)
{
    if (k <= 0)
        return 0;
    if (sh->p->conf->sharing == FS_SHARING_MPS) {
        double l = k * sh->p->conf->sharing_cap;
        return l < 1 ? l : 1;
    }
    return 1;
}

/* GPU g's replicas' work and accounts brought up to now, at the rate of
 * its busy count so far. */
static void advance(fs_sharing *sh, size_t g, double now)
{
    fs_servers *p = sh->p;
    int k = sh->slot[g].busy;
    double dt = now - sh->slot[g].since;
    sh->slot[g].since = now;
    if (k == 0 || dt <= 0)
        return;
    double r = rate(sh, k), share = level(sh, k) / k;
    for (size_t i = g * (size_t)sh->n; i < (g + 1) * (size_t)sh->n; i++)
        if (sh->slot[i].running) {
            sh->slot[i].left -= dt * r;
            if (sh->slot[i].left < 0)
                sh->slot[i].left = 0;
            fs_servers_account(p, p->servers[i].busy_k, now - dt, now,
                               share);
        }
}

/* The GPU's busy share moves from k0 to k1 replicas (usage). */
static void set_level(fs_sharing *sh, double now, int k0, int k1)
{
    fs_server_shape was = {.gpus = 1, .compute = level(sh, k0)};
    fs_server_shape is = {.gpus = 1, .compute = level(sh, k1)};
    if (k0 > 0)
        fs_usage_busy(sh->p->usage, now, &was, 0);
    if (k1 > 0)
        fs_usage_busy(sh->p->usage, now, &is, 1);
}

/* Every running replica of GPU g but skip: its completion at the new
 * rate.  0, or -1 when out of memory. */
static int reschedule(fs_sharing *sh, size_t g, const fs_server *skip,
                      double now)
{
    fs_servers *p = sh->p;
    fs_engine *e = p->sim->engine;
    double r = rate(sh, sh->slot[g].busy);
    for (size_t i = g * (size_t)sh->n; i < (g + 1) * (size_t)sh->n; i++) {
        fs_server *s = &p->servers[i];
        if (!sh->slot[i].running || sh->slot[i].fluid || s == skip)
            continue;
        fs_engine_cancel(e, s->timer);
        s->timer = fs_engine_at(e, now + sh->slot[i].left / r, sh->done, s,
                                0);
        if (!s->timer)
            return -1;
    }
    return 0;
}

fs_event_handle fs_sharing_start(fs_sharing *sh, fs_server *s, double t,
                                 fs_handler done)
{
    fs_servers *p = sh->p;
    size_t i = (size_t)(s - p->servers), g = i / (size_t)sh->n;
    double now = fs_engine_now(p->sim->engine);
    assert(!sh->slot[i].running);
    sh->done = done;
    advance(sh, g, now);
    set_level(sh, now, sh->slot[g].busy, sh->slot[g].busy + 1);
    sh->slot[g].busy++;
    sh->slot[i].running = 1;
    sh->slot[i].left = t;
    if (reschedule(sh, g, s, now))
        return 0;
    return fs_engine_at(p->sim->engine,
                        now + t / rate(sh, sh->slot[g].busy), done, s, 0);
}

void fs_sharing_stop(fs_sharing *sh, fs_server *s, double now)
{
    fs_servers *p = sh->p;
    size_t i = (size_t)(s - p->servers), g = i / (size_t)sh->n;
    if (!sh->slot[i].running)
        return;
    advance(sh, g, now);
    set_level(sh, now, sh->slot[g].busy, sh->slot[g].busy - 1);
    sh->slot[g].busy--;
    sh->slot[i].running = 0;
    sh->slot[i].fluid = 0;
    if (sh->slot[g].busy && reschedule(sh, g, s, now)) {
        fs_error_set(p->sim->err, "out of memory scheduling completions");
        fs_sim_fail(p->sim);
    }
}

void fs_sharing_join(fs_sharing *sh, fs_server *s, double now)
{
    fs_servers *p = sh->p;
    size_t i = (size_t)(s - p->servers), g = i / (size_t)sh->n;
    if (sh->slot[i].running)
        return;
    advance(sh, g, now);
    set_level(sh, now, sh->slot[g].busy, sh->slot[g].busy + 1);
    sh->slot[g].busy++;
    sh->slot[i].running = 1;
    sh->slot[i].fluid = 1;
    sh->slot[i].left = 0;
    if (reschedule(sh, g, s, now)) {
        fs_error_set(p->sim->err, "out of memory scheduling completions");
        fs_sim_fail(p->sim);
    }
}

double fs_sharing_speed(const fs_sharing *sh, const fs_server *s)
{
    size_t i = (size_t)(s - sh->p->servers), g = i / (size_t)sh->n;
    return rate(sh, sh->slot[g].busy > 0 ? sh->slot[g].busy : 1);
}

void fs_sharing_finish(fs_sharing *sh, double horizon)
{
    size_t ngpus = sh->p->nservers / (size_t)sh->n;
    for (size_t g = 0; g < ngpus; g++)
        advance(sh, g, horizon);
}
