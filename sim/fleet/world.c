/* sim.c -- building the world, running it, and collecting results. */
#include "sim/fleet/world.h"
#include "sim/fleet/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fs_sim_fail(fs_sim *sim)
{
    sim->failed = 1;
    fs_engine_stop(sim->engine);
}

/* Appends one utilization row per pool for the interval that ends now. */
static int sample_pools(fs_sim *sim, double now)
{
    for (size_t i = 0; i < sim->npools; i++) {
        fs_pool *p = &sim->pools[i];
        fs_pool_account(p, now);
        double dt = now - p->sample_t;
        if (dt <= 0)
            continue;
        fs_util_row *row = fs_results_add_util(sim->out);
        if (!row)
            return fs_error_set(sim->err, "out of memory");
        row->pool = p->conf->name;
        row->t_s = now;
        row->instances_up = (p->area_up - p->sample_up) / dt;
        row->gpus_provisioned = (p->area_gpus - p->sample_gpus) / dt;
        row->gpus_busy = (p->area_busy - p->sample_busy) / dt;
        long q = 0;
        for (int k = 0; k < p->nwls; k++)
            q += (long)p->wls[k]->queue.len;
        row->queue_len = (double)q;
        p->sample_up = p->area_up;
        p->sample_gpus = p->area_gpus;
        p->sample_busy = p->area_busy;
        p->sample_t = now;
    }
    return 0;
}

static void on_sample(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_sim *sim = obj;
    double now = fs_engine_now(e);
    if (sample_pools(sim, now)) {
        fs_sim_fail(sim);
        return;
    }
    fs_engine_at(e, now + sim->sc->metrics_interval, on_sample, sim, 0);
}

static int build(fs_sim *sim, unsigned replication)
{
    const fs_scenario *sc = sim->sc;
    if (fs_calendar_init(&sim->cal, sc->start, sc->horizon_s))
        return fs_error_set(sim->err, "out of memory");
    sim->pools = calloc(sc->npools ? sc->npools : 1, sizeof *sim->pools);
    sim->workloads = calloc(sc->nworkloads, sizeof *sim->workloads);
    if (!sim->pools || !sim->workloads)
        return fs_error_set(sim->err, "out of memory");
    /* Each pool and workload is counted before its init, so that
     * teardown also frees one that a failed init left half built. */
    for (size_t i = 0; i < sc->npools; i++) {
        sim->npools++;
        if (fs_pool_init(&sim->pools[i], sim, &sc->pools[i]))
            return fs_error_set(sim->err, "out of memory building pool %s",
                                sc->pools[i].name);
    }
    for (size_t i = 0; i < sc->nworkloads; i++) {
        sim->nworkloads++;
        if (fs_workload_init(&sim->workloads[i], sim, &sc->workloads[i],
                             replication, sim->err))
            return -1;
    }
    /* A workload whose pools can never run a server would wait forever. */
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload *w = &sim->workloads[i];
        long cap = 0;
        for (int k = 0; k < w->npools; k++)
            cap += w->pools[k]->max_instances;
        if (cap == 0) {
            const fs_config_entry *e =
                fs_config_find(sc->cfg, w->conf->section, "pools");
            return fs_error_at(sim->err, e->file, e->line, w->conf->section,
                               "its pools can never hold an instance (count "
                               "or max is 0): its requests would never be "
                               "served");
        }
    }
    return 0;
}

static void teardown(fs_sim *sim)
{
    for (size_t i = 0; i < sim->nworkloads; i++)
        fs_workload_free(&sim->workloads[i]);
    for (size_t i = 0; i < sim->npools; i++)
        fs_pool_free(&sim->pools[i]);
    free(sim->workloads);
    free(sim->pools);
    fs_calendar_free(&sim->cal);
    fs_engine_free(sim->engine);
}

static int collect_costs(fs_sim *sim)
{
    for (size_t m = 0; m < sim->cal.nmonths; m++)
        for (size_t i = 0; i < sim->npools; i++) {
            const fs_pool *p = &sim->pools[i];
            if (p->meter.usd[m] == 0 && p->meter.gpu_hours[m] == 0)
                continue;
            fs_cost_row *row = fs_results_add_cost(sim->out);
            if (!row)
                return fs_error_set(sim->err, "out of memory");
            snprintf(row->month, sizeof row->month, "%s", sim->cal.label[m]);
            snprintf(row->pool, sizeof row->pool, "%s", p->conf->name);
            snprintf(row->pricing, sizeof row->pricing, "%s",
                     p->conf->purchase->name);
            row->cost_usd = fs_round_cents(p->meter.usd[m]);
            row->gpu_hours = p->meter.gpu_hours[m];
        }
    for (size_t i = 0; i < sim->npools; i++) {
        const fs_pool *p = &sim->pools[i];
        fs_pool_row *row = fs_results_add_pool(sim->out);
        if (!row)
            return fs_error_set(sim->err, "out of memory");
        snprintf(row->pool, sizeof row->pool, "%s", p->conf->name);
        snprintf(row->gpu, sizeof row->gpu, "%s", p->conf->gpu.name);
        snprintf(row->pricing, sizeof row->pricing, "%s",
                 p->conf->purchase->name);
        snprintf(row->instance, sizeof row->instance, "%s",
                 p->conf->terms.price_source);
        row->price_usd_h = p->conf->terms.price;
        row->gpu_hours_provisioned = p->area_gpus / 3600;
        row->gpu_hours_busy = p->area_busy / 3600;
        row->launches = p->launches;
    }
    return 0;
}

static int collect_latency(fs_sim *sim)
{
    fs_results *out = sim->out;
    fs_hist all;
    if (fs_hist_init(&all))
        return fs_error_set(sim->err, "out of memory");
    double wait_sum = 0;
    long slo_met = 0, slo_n = 0;
    for (size_t i = 0; i < sim->nworkloads; i++) {
        const fs_workload *w = &sim->workloads[i];
        fs_latency_row *row = fs_results_add_latency(out);
        if (!row) {
            fs_hist_free(&all);
            return fs_error_set(sim->err, "out of memory");
        }
        snprintf(row->workload, sizeof row->workload, "%s", w->conf->name);
        row->count = w->completed;
        row->arrivals = w->arrived;
        row->dropped = w->dropped;
        row->unfinished = fs_workload_unfinished(w);
        row->mean_s = fs_hist_mean(&w->latency);
        row->p50_s = fs_hist_quantile(&w->latency, 0.50);
        row->p90_s = fs_hist_quantile(&w->latency, 0.90);
        row->p95_s = fs_hist_quantile(&w->latency, 0.95);
        row->p99_s = fs_hist_quantile(&w->latency, 0.99);
        row->p999_s = fs_hist_quantile(&w->latency, 0.999);
        long started = w->completed + row->unfinished - (long)w->queue.len;
        row->wait_mean_s = started > 0 ? w->wait_sum / (double)started : NAN;
        row->mean_batch_size = w->batches > 0
            ? (double)w->completed / (double)w->batches : NAN;
        row->slo_s = w->conf->slo_s;
        row->slo_attainment = NAN;
        if (!isnan(w->conf->slo_s) && w->completed > 0) {
            row->slo_attainment = (double)w->slo_met / (double)w->completed;
            slo_met += w->slo_met;
            slo_n += w->completed;
        }
        row->ttft_p50_s = row->ttft_p99_s = NAN;
        row->tpot_p50_s = row->tpot_p99_s = NAN;
        fs_hist_merge(&all, &w->latency);
        wait_sum += w->wait_sum;
        out->requests += w->arrived;
        out->requests_dropped += w->dropped;
    }
    long started = 0;
    for (size_t i = 0; i < out->nlatency; i++)
        started += out->latency[i].count + out->latency[i].unfinished;
    for (size_t i = 0; i < sim->nworkloads; i++)
        started -= (long)sim->workloads[i].queue.len;
    out->latency_mean_s = fs_hist_mean(&all);
    out->latency_p50_s = fs_hist_quantile(&all, 0.50);
    out->latency_p99_s = fs_hist_quantile(&all, 0.99);
    out->wait_mean_s = started > 0 ? wait_sum / (double)started : NAN;
    out->slo_attainment = slo_n ? (double)slo_met / (double)slo_n : NAN;
    fs_hist_free(&all);
    return 0;
}

int fs_sim_run(const fs_scenario *sc, unsigned replication,
               fs_progress_fn progress, void *progress_ctx, fs_results *out,
               fs_error *err)
{
    fs_sim_hooks hooks = {progress, NULL, progress_ctx};
    return fs_sim_run_hooked(sc, replication, &hooks, out, err);
}

int fs_sim_run_hooked(const fs_scenario *sc, unsigned replication,
                      const fs_sim_hooks *hooks, fs_results *out,
                      fs_error *err)
{
    fs_sim sim = {.sc = sc, .out = out, .err = err};
    sim.engine = fs_engine_new();
    if (!sim.engine)
        return fs_error_set(err, "out of memory");
    fs_engine_set_progress(sim.engine, hooks->progress, hooks->ctx);
    int rc = build(&sim, replication);
    if (rc == 0 && hooks->start) {   /* the run's size, before it runs */
        fs_estimate est;
        fs_estimate_run(&sim, &est);
        rc = hooks->start(hooks->ctx, &est, err);
    }
    if (rc == 0) {
        for (size_t i = 0; i < sim.npools; i++) {
            fs_pool_start(&sim.pools[i]);
            fs_autoscale_start(&sim.pools[i]);
        }
        for (size_t i = 0; i < sim.nworkloads && rc == 0; i++)
            rc = fs_workload_start(&sim.workloads[i]);
    }
    if (rc == 0) {
        fs_engine_at(sim.engine, sc->metrics_interval, on_sample, &sim, 0);
        fs_engine_run(sim.engine, sc->horizon_s);
        rc = sim.failed ? -1 : 0;
    }
    if (rc == 0) {
        for (size_t i = 0; i < sim.npools; i++)
            fs_pool_finish(&sim.pools[i]);
        out->horizon_s = sc->horizon_s;
        out->months = fs_calendar_months(&sim.cal);
        out->events = (long)sim.engine->events;
        out->seed = sc->seed;
        out->replication = replication;
        snprintf(out->name, sizeof out->name, "%s", sc->name);
        snprintf(out->start_date, sizeof out->start_date, "%s",
                 sc->start_date);
        rc = sample_pools(&sim, sc->horizon_s);
    }
    if (rc == 0)
        rc = collect_costs(&sim);
    if (rc == 0)
        rc = collect_latency(&sim);
    teardown(&sim);
    return rc;
}
