/* dispatch.c -- inference serving: arrivals, the work-conserving FIFO
 * queue, dynamic batching and completions.
 *
 * An arriving request goes to the server collecting a batch for its
 * workload, else to an idle server of the first pool in the workload's
 * preference list that has one, else to the back of the workload's queue.
 * A server that falls idle takes the oldest waiting request among the
 * workloads its pool serves.  With batch_max = 1 this is exactly M/G/c.
 *
 * Batching: a server takes up to batch_max waiting requests.  If fewer are
 * waiting it holds them, collecting arrivals, until the batch is full or the
 * oldest request has waited batch_wait (Triton's max_queue_delay).  A batch
 * runs for base + per_item x size under linear(), else for the longest
 * demand in it (requests of a batch run in lockstep).
 *
 * Dispatch hears of instances as a subscriber of each pool's capacity
 * (fs_dispatch_listener, dispatch_capacity.c): an instance up puts its servers to work, one
 * draining takes its idle servers off, one gone takes them all off.  An
 * instance interrupted (spot) loses the batches still on it: they go back
 * to the head of their queues, oldest first, are counted as retried and
 * served again; their latency runs from their first arrival, so it
 * includes the lost attempt.  During a notice the instance takes no new
 * work but its batches run on and finish if they can. */
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/serve/llm_adapter.h"
#include "sim/fleet/run/notes.h"
#include "sim/base/rng.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void on_arrival(fs_engine *e, void *obj, long arg);
static void on_batch_done(fs_engine *e, void *obj, long arg);
static void on_batch_deadline(fs_engine *e, void *obj, long arg);
static const fs_server_discipline batch_discipline;

/* The server disciplines (servers.h), by the name a service model asks
 * for (fs_service_model.server; NULL: "batch"). */
static const fs_server_discipline *const disciplines[] = {
    &batch_discipline,
    &fs_llm_discipline,
    NULL,
};

static const fs_server_discipline *discipline_for(const fs_service_model *m)
{
    const char *name = m->server ? m->server : "batch";
    for (const fs_server_discipline *const *d = disciplines; *d; d++)
        if (strcmp((*d)->name, name) == 0)
            return *d;
    return &batch_discipline;
}

static const fs_server_discipline *disc(const fs_servers *p)
{
    return p->disc ? p->disc : &batch_discipline;
}

/* Server s (taken, its batch filled) starts as its pool's discipline
 * says: the batch discipline's start called by name, so that the
 * flattened handlers (on_arrival) compile it in. */
static void collect_or_start(fs_server *s);
static void start_work(fs_server *s)
{
    const fs_server_discipline *d = disc(s->pool);
    if (d == &batch_discipline)
        collect_or_start(s);
    else
        d->start(s);
}

/* An error at key of w's section: "FILE:LINE: workload.w.KEY: ..." (the
 * scenario's file when the key is a default). */
static int refuse_at(const fs_workload *w, const char *key, fs_error *err,
                     const char *why)
{
    const fs_workload_conf *conf = w->conf;
    const fs_config_entry *e = fs_config_find(w->sim->sc->cfg, conf->section,
                                              key);
    char where[FS_NAME_MAX + 64];
    snprintf(where, sizeof where, "%s.%s", conf->section, key);
    return fs_error_at(err, e ? e->file : conf->arrivals_entry->file,
                       e ? e->line : 0, where, "%s", why);
}

/* Workload w's pool p schedules as w's service model asks; a pool whose
 * workloads ask for different disciplines is refused at the service of
 * the workload that comes second, naming the first. */
static int bind_discipline(fs_workload *w, fs_servers *p, fs_error *err)
{
    const fs_server_discipline *d = discipline_for(w->conf->service.model);
    if (p->disc && p->disc != d) {
        const char *other = "";
        for (int k = 0; k < p->nwls && !other[0]; k++)
            if (p->wls[k] != w && discipline_for(p->wls[k]->conf->service.model) != d)
                other = p->wls[k]->conf->name;
        char why[4 * FS_NAME_MAX + 128];
        snprintf(why, sizeof why, "%s servers, but pool %s serves workload "
                 "%s with %s servers: give each its own pool", d->name,
                 p->conf->name, other, p->disc->name);
        return refuse_at(w, "service", err, why);
    }
    p->disc = d;
    p->done = fs_dispatch_done;
    return 0;
}

/* The replication's growth rate: `growth = G ± S` draws it from its own
 * stream ("growth:NAME"), so the other streams, and every run without a
 * spread, are as before.  -1 out of memory. */
static int draw_growth(fs_workload *w, fs_sim *sim, const fs_workload_conf *c,
                       unsigned replication)
{
    w->growth = c->growth;
    if (!(c->growth_spread > 0))
        return 0;
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "growth:%s", c->name);
    gsl_rng *r = fs_rng_new(sim->sc->seed, replication, source);
    if (!r)
        return -1;
    w->growth = fs_growth_draw(c->growth, c->growth_spread, r);
    gsl_rng_free(r);
    return 0;
}

int fs_workload_init(fs_workload *w, fs_sim *sim, const fs_workload_conf *c,
                     fs_servers *const *pools, unsigned replication,
                     fs_error *err)
{
    memset(w, 0, sizeof *w);
    w->conf = c;
    w->mig_profile = c->mig_profile[0] ? c->mig_profile : "";
    w->slo_s = c->slo_s;
    w->batch_max = c->batch_max;
    w->queue_max = c->queue_max;
    w->sim = sim;
    w->lane = fs_engine_lane_new(sim->engine);
    w->on_arrive = on_arrival;
    fs_queue_init(&w->queue);
    fs_queue_init(&w->kv_queue);
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "arrivals:%s", c->name);
    w->arrival_rng = fs_rng_new(sim->sc->seed, replication, source);
    snprintf(source, sizeof source, "service:%s", c->name);
    w->service_rng = fs_rng_new(sim->sc->seed, replication, source);
    if (!w->arrival_rng || !w->service_rng || fs_hist_init(&w->latency) ||
        fs_hist_init(&w->wait))
        return fs_error_set(err, "out of memory");
    for (int k = 0; k < c->npools; k++) {
        fs_servers *p = pools[c->pools[k]];
        w->pools[k] = p;
        /* Demand is stated for the reference GPU; a faster GPU takes
         * proportionally less time (dense bf16 throughput). */
        w->speed[k] = c->reference_gpu.bf16_tflops / p->conf->gpu.bf16_tflops;
        if (p->nwls == (int)(sizeof p->wls / sizeof p->wls[0])) {
            char why[FS_NAME_MAX + 64];
            snprintf(why, sizeof why, "pool %s serves too many workloads "
                     "(%d at most)", p->conf->name,
                     FS_MAX_WORKLOADS_PER_POOL);
            return refuse_at(w, "pools", err, why);
        }
        p->wls[p->nwls++] = w;
        if (bind_discipline(w, p, err))
            return -1;
    }
    w->npools = c->npools;
    if (c->service.model->server &&
        fs_llm_workload_init(w, replication, err))
        return -1;

    const fs_config_entry *e = c->arrivals_entry;
    const fs_config_entry *se = fs_config_find(sim->sc->cfg, c->section,
                                               "statuses");
    char key[FS_NAME_MAX + 24], skey[FS_NAME_MAX + 24];
    snprintf(key, sizeof key, "%s.arrivals", c->section);
    snprintf(skey, sizeof skey, "%s.statuses", c->section);
    char gkey[FS_NAME_MAX + 24];
    snprintf(gkey, sizeof gkey, "%s.growth", c->section);
    if (draw_growth(w, sim, c, replication))
        return fs_error_set(err, "out of memory");
    fs_arrivals_spec spec = {
        .call = &c->arrivals, .file = e->file, .line = e->line, .key = key,
        .base_dir = fs_config_entry_dir(e, sim->sc->dir), .horizon_s = sim->sc->horizon_s,
        .start_hour = sim->sc->start_hour, .rate_scale = c->rate_scale,
        .repeat = c->repeat, .bad_rows = c->bad_rows, .rng = w->arrival_rng,
        .growth = w->growth,
        .growth_key = {c->growth_entry ? c->growth_entry->value : NULL,
                       c->growth_entry ? c->growth_entry->file : NULL, gkey,
                       c->growth_entry ? c->growth_entry->line : 0},
        .statuses = {se ? se->value : NULL, se ? se->file : NULL, skey,
                     se ? se->line : 0},
    };
    w->arrivals = fs_arrivals_open(&spec, err);
    if (!w->arrivals)
        return -1;
    fs_workload_note_skipped(w->arrivals, c->name, key, sim->out);
    fs_trace_stats st;
    fs_arrivals_stats(w->arrivals, &st);
    if (c->service_from_trace) {
        if (!st.has_service)
            return fs_error_at(err, e->file, e->line, key,
                               "service = trace needs a trace that records "
                               "service times (alibaba-lora, or generic with "
                               "service=COLUMN); this one does not");
    }
    if (c->service.model->server && fs_llm_check_tokens(w, &st, err))
        return -1;
    return 0;
}

void fs_workload_free(fs_workload *w)
{
    fs_arrivals_free(w->arrivals);
    if (w->arrival_rng)
        gsl_rng_free(w->arrival_rng);
    if (w->service_rng)
        gsl_rng_free(w->service_rng);
    if (w->prefix_rng)
        gsl_rng_free(w->prefix_rng);
    if (w->session_rng)
        gsl_rng_free(w->session_rng);
    fs_prefix_store_free(w->prefix);
    fs_session_set_free(w->sessions);
    fs_queue_free(&w->queue);
    fs_queue_free(&w->kv_queue);
    fs_fifo_free(&w->fifo);
    fs_hist_free(&w->latency);
    fs_hist_free(&w->wait);
    fs_llm_workload_free(w);
}

int fs_workload_pull(fs_workload *w)
{
    int rc = fs_arrivals_next(w->arrivals, &w->next, w->sim->err);
    if (rc < 0)
        fs_sim_fail(w->sim);
    assert(rc <= 0 || w->next.t >= fs_engine_now(w->sim->engine));
    return rc;
}

void fs_workload_schedule(fs_workload *w)
{
    fs_sim *sim = w->sim;
    if (!fs_engine_lane_at(sim->engine, w->lane, w->next.t, w->on_arrive, w,
                           0)) {
        fs_error_set(sim->err, "out of memory scheduling arrivals");
        fs_sim_fail(sim);
    }
}

void fs_workload_schedule_next(fs_workload *w)
{
    if (fs_workload_pull(w) > 0)
        fs_workload_schedule(w);
}

int fs_workload_start(fs_workload *w)
{
    fs_workload_schedule_next(w);
    return w->sim->failed ? -1 : 0;
}

static double pool_speed(const fs_workload *w, const fs_servers *p)
{
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k] == p)
            return w->speed[k];
    assert(!"pool does not serve workload");
    return 1;
}

static void start_batch(fs_server *s)
{
    fs_workload *w = s->wl;
    fs_engine *e = w->sim->engine;
    double now = fs_engine_now(e);
    assert(s->nbatch > 0);
    if (s->state == FS_SERVER_COLLECTING) {
        fs_engine_cancel(e, s->timer);
        s->timer = 0;
        if (w->collecting == s)
            w->collecting = NULL;
    }
    /* A MIG slice runs at its share of the GPU's SMs (shape.h). */
    double t = fs_service_batch_time(&w->conf->service, s->batch, s->nbatch,
                                     pool_speed(w, s->pool)) / s->shape->speed;
    double warmup = w->sim->sc->warmup_s;
    for (int i = 0; i < s->nbatch; i++)
        if (s->batch[i].arrival >= warmup) {
            w->wait_sum += now - s->batch[i].arrival;
            w->measured_started++;
        }
    fs_servers_set_busy(s->pool, s, 1);
    s->state = FS_SERVER_BUSY;
    s->timer = fs_servers_run(s->pool, s, t, on_batch_done);
    if (!s->timer) {
        fs_error_set(w->sim->err, "out of memory scheduling completions");
        fs_sim_fail(w->sim);
    }
}

/* The server holds its partial batch until it fills or the oldest request
 * has waited batch_wait. */
static void collect_or_start(fs_server *s)
{
    fs_workload *w = s->wl;
    const fs_workload_conf *c = w->conf;
    double deadline = s->batch[0].arrival + c->batch_wait;
    double now = fs_engine_now(w->sim->engine);
    if (s->nbatch >= c->batch_max || c->batch_wait <= 0 || deadline <= now ||
        w->collecting) {
        start_batch(s);
        return;
    }
    s->state = FS_SERVER_COLLECTING;
    w->collecting = s;
    s->timer = fs_engine_at(w->sim->engine, deadline, on_batch_deadline, s, 0);
    if (!s->timer) {
        fs_error_set(w->sim->err, "out of memory scheduling a batch deadline "
                     "of workload %s", c->name);
        fs_sim_fail(w->sim);
    }
}

void fs_dispatch_seek_work(fs_server *s)
{
    fs_servers *p = s->pool;
    assert(s->state == FS_SERVER_IDLE && s->idle_pos < 0);
    fs_workload *best = NULL;
    fs_queue *bq = NULL;
    for (int k = 0; k < p->nwls; k++) {
        fs_queue *q = fs_workload_queue_of(p->wls[k], p);
        const fs_request *head = fs_queue_peek(q);
        if (head && fs_server_takes(s, p->wls[k]->mig_profile,
                                    fs_workload_model(p->wls[k])) &&
            (!best || head->arrival < fs_queue_peek(bq)->arrival)) {
            best = p->wls[k];
            bq = q;
        }
    }
    if (!best) {
        fs_servers_idle_push(p, s);
        return;
    }
    fs_servers_taken(p, s);
    s->wl = best;
    s->nbatch = 0;
    int take = disc(p)->take(s, best);
    while (s->nbatch < take && bq->len)
        s->batch[s->nbatch++] = fs_queue_pop(bq);
    start_work(s);
}

static fs_server *find_idle_server(fs_workload *w)
{
    for (int k = 0; k < w->npools; k++) {
        if (w->pools[k]->role == FS_ROLE_DECODE)
            continue;   /* it takes KV caches, not arrivals */
        fs_server *s = fs_servers_idle_pop_for(w->pools[k],
                                               w->mig_profile,
                                               fs_workload_model(w));
        if (s)
            return s;
    }
    return NULL;
}

/* The request arriving now (w->next, its demand drawn by the service
 * model from w's service stream), counted as arrived. */
static fs_request arrive(fs_workload *w)
{
    const fs_service *sv = &w->conf->service;
    w->arrived++;
    fs_request r = fs_service_request(sv, w->service_rng, w->next.t,
                                      w->next.service_s, w->next.tokens_in,
                                      w->next.tokens_out);
    uint64_t session = 0;
    if (w->sessions && fs_session_turn(w->sessions, &r, &session)) {
        fs_error_set(w->sim->err, "out of memory keeping sessions");
        fs_sim_fail(w->sim);
    }
    if (w->prefix && (r.prefix = fs_prefix_store_add(w->prefix, &w->next,
                                                     session)) < 0) {
        fs_error_set(w->sim->err, "out of memory keeping prefixes");
        fs_sim_fail(w->sim);
    }
    r.adapter = fs_lora_draw(w);
    return r;
}

/* Places the request arriving now: with the batch its workload collects,
 * on an idle server, or at the back of the queue; dropped when the queue
 * is full.  -1 when the run failed. */
static int place(fs_workload *w)
{
    fs_request r = arrive(w);
    fs_server *s = w->collecting;
    if (s) {
        assert(w->queue.len == 0 && s->nbatch < w->batch_max);
        s->batch[s->nbatch++] = r;
        if (s->nbatch == w->batch_max)
            start_batch(s);
    } else if ((s = find_idle_server(w))) {
        fs_servers_taken(s->pool, s);
        s->wl = w;
        s->nbatch = 1;
        s->batch[0] = r;
        start_work(s);
    } else if (w->queue.len >= (size_t)w->queue_max) {
        w->dropped++;   /* the queue is full (queue_max, FS_QUEUE_MAX) */
        w->dropped_full++;
        if (r.prefix >= 0)
            fs_prefix_store_drop(w->prefix, r.prefix);
    } else if (fs_queue_push(&w->queue, r)) {
        fs_error_set(w->sim->err, "out of memory queueing requests");
        fs_sim_fail(w->sim);
        return -1;
    }
    return 0;
}

/* The handlers every request runs (this one, on_batch_done) are flattened:
 * the small functions they call directly, each apart for its concern, are
 * compiled into them (3% of the instructions of a lone request). */
__attribute__((flatten)) static void on_arrival(fs_engine *e, void *obj,
                                                long arg)
{
    (void)arg;
    fs_workload_arrivals(e, obj, place);
}

static void on_batch_deadline(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_server *s = obj;
    assert(s->state == FS_SERVER_COLLECTING);
    s->timer = 0;
    start_batch(s);
}

/* A lone request (most batches) is added to the histograms after the
 * server is released, the line of each histogram's header the add writes
 * prefetched before: with many workloads it is cold, and the release's work then overlaps the misses.  Each
 * histogram takes its samples in the same order as before. */
__attribute__((flatten)) static void on_batch_done(fs_engine *e, void *obj,
                                                   long arg)
{
    (void)arg;
    fs_server *s = obj;
    fs_workload *w = s->wl;
    double now = fs_engine_now(e), start = s->busy_since;
    double slo = w->slo_s, warmup = w->sim->sc->warmup_s;
    double lone = s->nbatch == 1 ? s->batch[0].arrival : -1;   /* t >= 0 */
    s->timer = 0;
    for (int i = 0; i < s->nbatch; i++) {
        double a = s->batch[i].arrival, latency = now - a;
        if (a < warmup)
            continue;
        if (lone >= 0) {
            fs_hist_prefetch(&w->latency);
            fs_hist_prefetch(&w->wait);
        } else {
            fs_hist_add(&w->latency, latency);
            fs_hist_add(&w->wait, start - a);
        }
        w->slo_met += latency <= slo;
        w->measured++;
    }
    w->completed += s->nbatch;
    w->batches++;
    fs_dispatch_done(s);
    if (lone >= warmup && lone >= 0) {
        fs_hist_add(&w->latency, now - lone);
        fs_hist_add(&w->wait, start - lone);
    }
}

void fs_dispatch_done(fs_server *s)
{
    s->nbatch = 0;
    s->wl = NULL;
    fs_servers_set_busy(s->pool, s, 0);
    fs_servers_released(s->pool, s);
    if (s->state == FS_SERVER_IDLE)
        fs_dispatch_seek_work(s);
}

/* Server s's batch is lost: its requests go back to the head of their
 * queue, oldest first, and the wait counted when it started is taken
 * back (it will be counted again when it restarts). */
static void requeue_batch(fs_server *s, double now)
{
    fs_servers *p = s->pool;
    fs_workload *w = s->wl;
    fs_engine_cancel(w->sim->engine, s->timer);
    s->timer = 0;
    if (s->state == FS_SERVER_BUSY) {
        double warmup = w->sim->sc->warmup_s;
        for (int i = 0; i < s->nbatch; i++)
            if (s->batch[i].arrival >= warmup) {
                w->wait_sum -= s->busy_since - s->batch[i].arrival;
                w->measured_started--;
            }
        p->lost_last += now - s->busy_since;
        fs_servers_set_busy(p, s, 0);
    } else if (w->collecting == s) {
        w->collecting = NULL;
    }
    for (int i = s->nbatch - 1; i >= 0; i--)
        if (fs_queue_push_front(&w->queue, s->batch[i])) {
            fs_error_set(w->sim->err, "out of memory queueing requests");
            fs_sim_fail(w->sim);
            break;
        }
    w->retried += s->nbatch;
    p->retried += s->nbatch;
    s->nbatch = 0;
    s->wl = NULL;
}

static int batch_take(const fs_server *s, const fs_workload *w)
{
    (void)s;
    return (int)w->batch_max;
}

static const fs_server_discipline batch_discipline = {
    .name = "batch",
    .take = batch_take,
    .start = collect_or_start,
    .lose = requeue_batch,
};
