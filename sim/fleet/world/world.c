/* world.c -- building the world, running it, and collecting results.
 *
 * The world is the scenario's pools (pool.h) and workloads (dispatch.h)
 * around one engine.  Building refuses anything infeasible before the
 * first event; running fails cleanly on the first error any module meets
 * (fs_sim_fail, in sim.c); collecting turns the world into an fs_results
 * (collect.h). */
#include "sim/fleet/world/world.h"
#include "sim/fleet/world/collect.h"
#include "sim/fleet/world/slices.h"
#include "sim/fleet/serve/llm_placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A workload whose pools can never run a server would wait forever. */
static int check_feasible(fs_world *w)
{
    const fs_scenario *sc = w->sim.sc;
    for (size_t i = 0; i < w->nworkloads; i++) {
        const fs_workload *wl = &w->workloads[i];
        long cap = 0;
        for (int k = 0; k < wl->npools; k++)
            cap += wl->pools[k]->cap->max;
        if (cap == 0) {
            const fs_config_entry *e =
                fs_config_find(sc->cfg, wl->conf->section, "pools");
            return fs_error_at(w->sim.err, e->file, e->line,
                               wl->conf->section, "its pools can never hold "
                               "an instance (count or max is 0): its requests "
                               "would never be served");
        }
    }
    return 0;
}

/* Which workloads the recursion may serve (fifo_recursion.h), decided
 * once: the event estimate and fs_world_start both read it. */
static int mark_fifo(fs_world *w)
{
    const fs_scenario *sc = w->sim.sc;
    int *users = calloc(sc->npools ? sc->npools : 1, sizeof *users);
    if (!users)
        return fs_error_set(w->sim.err, "out of memory");
    fs_fifo_pool_users(sc, users);
    for (size_t i = 0; i < w->nworkloads; i++)
        w->workloads[i].fifo_applies =
            fs_fifo_applies(sc, w->workloads[i].conf, users);
    free(users);
    return 0;
}

/* Each pool and workload is counted before its init, so that fs_world_free
 * also frees one that a failed init left half built. */
static int build(fs_world *w, unsigned replication)
{
    fs_sim *sim = &w->sim;
    const fs_scenario *sc = sim->sc;
    if (fs_calendar_init(&sim->cal, sc->start, sc->horizon_s))
        return fs_error_set(sim->err, "out of memory");
    w->pools = calloc(sc->npools ? sc->npools : 1, sizeof *w->pools);
    w->workloads = calloc(sc->nworkloads ? sc->nworkloads : 1,
                          sizeof *w->workloads);
    fs_servers **servers = calloc(sc->npools ? sc->npools : 1,
                                  sizeof *servers);
    fs_train_pool **train = calloc(sc->npools ? sc->npools : 1,
                                   sizeof *train);
    if (!w->pools || !w->workloads || !servers || !train) {
        free(servers);
        free(train);
        return fs_error_set(sim->err, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; i < sc->npools && rc == 0; i++) {
        w->npools++;
        servers[i] = &w->pools[i].servers;
        train[i] = &w->pools[i].train;
        if (fs_pool_init(&w->pools[i], sim, &sc->pools[i]))
            rc = fs_error_set(sim->err, "out of memory building pool %s",
                              sc->pools[i].name);
    }
    for (size_t i = 0; i < sc->npools && rc == 0; i++) {
        const fs_pool_conf *c = &sc->pools[i];
        fs_pool *fb = c->spot.fallback >= 0 ? &w->pools[c->spot.fallback]
                                            : NULL;
        rc = fs_spot_init(&w->pools[i].spot, sim, c, &w->pools[i].cap,
                          &w->pools[i].servers, fb ? &fb->cap : NULL,
                          fb ? fb->conf->terms.price : 0, replication,
                          sim->err);
    }
    for (size_t i = 0; i < sc->nworkloads && rc == 0; i++) {
        if (sc->workloads[i].kind == FS_KIND_TRAINING)
            continue;
        rc = fs_workload_init(&w->workloads[w->nworkloads++], sim,
                              &sc->workloads[i], servers, replication,
                              sim->err);
    }
    for (size_t i = 0; i < sc->npools && rc == 0; i++)   /* several models */
        rc = fs_llm_place(&w->pools[i].servers, sim->err);
    if (rc == 0 && !(w->training = fs_training_new(sim, train)))
        rc = -1;
    if (rc == 0)
        rc = mark_fifo(w);
    free(servers);
    free(train);
    return rc ? rc : check_feasible(w);
}

int fs_world_init(fs_world *w, const fs_scenario *sc, unsigned replication,
                  fs_results *out, fs_error *err)
{
    memset(w, 0, sizeof *w);
    w->sim.sc = sc;
    w->sim.out = out;
    w->sim.err = err;
    w->replication = replication;
    w->sim.engine = fs_engine_new();
    if (!w->sim.engine)
        return fs_error_set(err, "out of memory");
    return build(w, replication);
}

void fs_world_free(fs_world *w)
{
    for (size_t i = 0; i < w->nworkloads; i++)
        fs_workload_free(&w->workloads[i]);
    fs_training_free(w->training);
    for (size_t i = 0; i < w->npools; i++)
        fs_pool_free(&w->pools[i]);
    free(w->workloads);
    free(w->pools);
    fs_calendar_free(&w->sim.cal);
    fs_engine_free(w->sim.engine);
    memset(w, 0, sizeof *w);
}

int fs_world_start(fs_world *w)
{
    for (size_t i = 0; i < w->npools; i++)
        if (fs_pool_start(&w->pools[i]))
            return -1;
    for (size_t i = 0; i < w->nworkloads && !w->events_only; i++)
        if (fs_workload_use_fifo(&w->workloads[i]))
            return -1;
    for (size_t i = 0; i < w->nworkloads; i++)
        if (fs_workload_start(&w->workloads[i]))
            return -1;
    if (fs_training_start(w->training))
        return -1;
    return fs_collect_start(w);
}

int fs_sim_run(const fs_scenario *sc, unsigned replication,
               fs_progress_fn progress, void *progress_ctx, fs_results *out,
               fs_error *err)
{
    fs_sim_hooks hooks = {progress, NULL, progress_ctx, 0};
    return fs_sim_run_hooked(sc, replication, &hooks, out, err);
}

/* The run is done: the bills to the horizon, the run's identity, the last
 * samples, costs and latency. */
static int finish(fs_world *w)
{
    const fs_scenario *sc = w->sim.sc;
    fs_results *out = w->sim.out;
    for (size_t i = 0; i < w->npools; i++)
        fs_pool_finish(&w->pools[i]);
    out->horizon_s = sc->horizon_s;
    out->months = fs_calendar_months(&w->sim.cal);
    out->events = (long)w->sim.engine->events;
    out->seed = sc->seed;
    out->replication = w->replication;
    snprintf(out->name, sizeof out->name, "%s", sc->name);
    snprintf(out->start_date, sizeof out->start_date, "%s", sc->start_date);
    if (fs_training_collect(w->training, sc->horizon_s) ||
        fs_collect_sample(w, sc->horizon_s) || fs_collect_costs(w) ||
        fs_collect_allocation(w) || fs_collect_slices(w) ||
        fs_collect_latency(w))
        return -1;
    return 0;
}

int fs_world_run(fs_world *w)
{
    fs_engine_run(w->sim.engine, w->sim.sc->horizon_s);
    if (w->sim.failed)
        return -1;
    return finish(w);
}

int fs_sim_run_hooked(const fs_scenario *sc, unsigned replication,
                      const fs_sim_hooks *hooks, fs_results *out,
                      fs_error *err)
{
    fs_world w;
    int rc = fs_world_init(&w, sc, replication, out, err);
    if (rc == 0)
        fs_engine_set_progress(w.sim.engine, hooks->progress, hooks->ctx);
    w.events_only = hooks->events_only;
    if (rc == 0 && hooks->start) {   /* the run's size, before it runs */
        fs_estimate est;
        fs_estimate_run(&w, &est);
        rc = hooks->start(hooks->ctx, &est, err);
    }
    if (rc == 0)
        rc = fs_world_start(&w);
    if (rc == 0)
        rc = fs_world_run(&w);
    fs_world_free(&w);
    return rc;
}
