/* estimate.c -- the number of events of a run, before it runs; see
 * estimate.h. */
#include "sim/fleet/world/estimate.h"
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/world/world.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fs_format_count(double n, char *buf, size_t len)
{
    if (n < 1e9)
        snprintf(buf, len, "%.0f", n);
    else
        snprintf(buf, len, "%.3g", n);
}

/* Adds one part; the largest part names the key to change. */
static void add_part(fs_estimate *est, double n, const fs_scenario *sc,
                     const char *section, const char *key, const char *what)
{
    est->events += n;
    if (!(n > est->part) && est->key[0])
        return;
    const fs_config_entry *e = fs_config_find(sc->cfg, section, key);
    est->part = n;
    est->file = e ? e->file : sc->path;   /* a default: the scenario */
    est->line = e ? e->line : 0;
    snprintf(est->key, sizeof est->key, "%s.%s", section, key);
    snprintf(est->what, sizeof est->what, "%s", what);
}

/* A spot pool: a notice, an interruption, a relaunch and its provisioning
 * per lifetime drawn; a trace's rows up to the horizon. */
static void add_spot(fs_estimate *est, const fs_scenario *sc,
                     const fs_pool *pool)
{
    const fs_pool_conf *p = pool->conf;
    const fs_interruption *it = &p->spot.interruption;
    char what[160], n1[32];
    double n;
    if (it->kind == FS_INTERRUPT_DIST || it->kind == FS_INTERRUPT_EMPIRICAL) {
        double life = fs_interruption_mean(it) +
                      fs_dist_mean(&p->spot.replace_delay) +
                      p->provision_delay;
        n = life > 0 ? (double)p->spot.target * sc->horizon_s / life : 0;
        fs_format_count(n, n1, sizeof n1);
        snprintf(what, sizeof what, "%s interruptions", n1);
        add_part(est, 4 * n, sc, p->section, "interruption", what);
    } else if (it->kind == FS_INTERRUPT_TRACE && pool->spot.trace) {
        /* with repeat, one lap (last time + a step; 1 s for one row) per
         * lap length of the horizon */
        const fs_spot_trace *t = pool->spot.trace;
        double lap = fs_spot_trace_lap(t);
        n = (double)fs_spot_trace_rows(t);
        if (it->repeat && lap > 0 && fs_spot_trace_end(t) < sc->horizon_s)
            n *= ceil(sc->horizon_s / lap);
        fs_format_count(n, n1, sizeof n1);
        snprintf(what, sizeof what, "%s spot trace rows", n1);
        add_part(est, n, sc, p->section, "interruption", what);
    }
}

/* A pool that follows a window: an opening and a closing per period
 * (office hours: at most one a day). */
static void add_window(fs_estimate *est, const fs_scenario *sc,
                       const fs_pool_conf *p)
{
    if (p->schedule < 0)
        return;
    const fs_window_conf *win = &sc->windows[p->schedule];
    double every = win->days ? 86400 : win->every;
    double opens = every > 0 ? ceil(sc->horizon_s / every) : 0;
    char what[160], n1[32];
    fs_format_count(opens, n1, sizeof n1);
    snprintf(what, sizeof what, "%s window openings", n1);
    add_part(est, 2 * opens, sc, win->section, win->days ? "days" : "every",
             what);
}

/* A pool whose GPUs are shared (timeslice or mps, N replicas): each start
 * and each finish of a request on one of its GPUs reschedules the
 * completions of up to N - 1 others (processor sharing, sharing.c), so
 * 2 (N - 1) events per request of each workload it serves (all of a
 * workload's requests when it has other pools too: a bound). */
static void add_sharing(fs_estimate *est, const fs_scenario *sc,
                        const fs_pool *pool)
{
    const fs_pool_conf *p = pool->conf;
    if (!p->sharing || p->sharing_n < 2)
        return;
    double n = 0, extra;
    for (int k = 0; k < pool->servers.nwls; k++)
        n += fs_arrivals_expected(pool->servers.wls[k]->arrivals, &extra);
    char what[160], n1[32];
    fs_format_count(2 * (p->sharing_n - 1) * n, n1, sizeof n1);
    snprintf(what, sizeof what, "%s completions rescheduled by sharing",
             n1);
    add_part(est, 2 * (p->sharing_n - 1) * n, sc, p->section, "sharing",
             what);
}

/* Requests a second w's pools serve at most: each server a batch of
 * batch_max per mean service time, at its speed (a bound: a pool shared
 * with other workloads counts whole for each).  INFINITY where the mean
 * is not known before the run (llm, linear or a trace's service times). */
static double capacity_rate(const fs_workload *w)
{
    const fs_workload_conf *c = w->conf;
    if (!c->service.model || !c->service.model->lone_is_draw)
        return INFINITY;
    double mean = fs_dist_mean(&c->service.dist);
    if (!(mean > 0) || !isfinite(mean))
        return INFINITY;
    double rate = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_servers *p = w->pools[k];
        double speed = p->shape.speed > 0 ? p->shape.speed : 1;
        rate += (double)p->nservers * (double)c->batch_max * speed /
                (mean * w->speed[k]);
    }
    return rate;
}

/* The n arrivals expected of w beyond what its pools serve over the
 * horizon, less what its queue holds: dropped when the queue is full.
 * The largest such workload is said (est->overload). */
static void add_overload(fs_estimate *est, const fs_scenario *sc,
                         const fs_workload *w, double n)
{
    double rate = capacity_rate(w);
    double served = rate * sc->horizon_s;
    double dropped = n - served - (double)w->conf->queue_max;
    if (!isfinite(rate) || !(dropped > est->beyond))
        return;
    const fs_config_entry *e = fs_config_find(sc->cfg, w->conf->section,
                                              "arrivals");
    char key[FS_NAME_MAX + 32], n1[32], n2[32], n3[32], over[32];
    snprintf(key, sizeof key, "%s.arrivals", w->conf->section);
    fs_format_count(n, n1, sizeof n1);
    fs_format_count(served, n2, sizeof n2);
    fs_format_count(dropped, n3, sizeof n3);
    fs_format_duration(sc->horizon_s, over, sizeof over);
    fs_error msg;
    fs_error_at(&msg, e ? e->file : sc->path, e ? e->line : 0, key,
                "about %s requests arrive over %s, and its pools serve at "
                "most about %s (%.3g a second): about %s would be dropped "
                "when its queue is full (queue_max = %ld waiting; is the "
                "rate's unit right?)", n1, over, n2, rate, n3,
                w->conf->queue_max);
    est->beyond = dropped;
    snprintf(est->overload, sizeof est->overload, "%s", msg.msg);
}

void fs_estimate_run(const fs_world *world, fs_estimate *est)
{
    const fs_scenario *sc = world->sim.sc;
    char what[160], n1[32], n2[32];
    memset(est, 0, sizeof *est);
    for (size_t i = 0; i < world->nworkloads; i++) {
        const fs_workload *w = &world->workloads[i];
        double extra, n = fs_arrivals_expected(w->arrivals, &extra);
        fs_format_count(n, n1, sizeof n1);
        fs_format_count(extra, n2, sizeof n2);
        if (extra > 0)
            snprintf(what, sizeof what, "%s requests, %s other arrival "
                     "steps", n1, n2);
        else
            snprintf(what, sizeof what, "%s requests", n1);
        /* an arrival and a completion each; the arrival alone where the
         * recursion serves the workload (fifo_recursion.h) */
        double per = !world->events_only && w->fifo_applies ? 1 : 2;
        add_part(est, per * n + extra, sc, w->conf->section, "arrivals",
                 what);
        add_overload(est, sc, w, n);
        if (!w->llm.ttft.n)
            continue;
        double it = fs_llm_estimate_iterations(w, n);
        fs_format_count(it, n1, sizeof n1);
        snprintf(what, sizeof what, "%s LLM server iterations", n1);
        add_part(est, it, sc, w->conf->section, "service", what);
    }
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload_conf *c = &sc->workloads[i];
        if (c->kind != FS_KIND_TRAINING)
            continue;
        /* per job: its submission, a pass, each segment and checkpoint */
        double n = 0, ci = c->training.checkpoint_interval;
        for (size_t j = 0; j < c->training.jobs.n; j++) {
            const fs_job_spec *job = &c->training.jobs.jobs[j];
            double d = fmin(job->duration_s, sc->horizon_s - job->submit_s);
            if (d >= 0)
                n += 3 + (ci > 0 ? 2 * ceil(d / ci) : 1);
        }
        fs_format_count(n, n1, sizeof n1);
        snprintf(what, sizeof what, "%s training job steps", n1);
        add_part(est, n, sc, c->section, "checkpoint_interval", what);
    }
    double samples = floor(sc->horizon_s / sc->metrics_interval);
    fs_format_count(samples, n1, sizeof n1);
    snprintf(what, sizeof what, "%s metrics samples", n1);
    add_part(est, samples, sc, "scenario", "metrics_interval", what);
    for (size_t i = 0; i < world->npools; i++) {
        add_spot(est, sc, &world->pools[i]);
        add_window(est, sc, world->pools[i].conf);
        add_sharing(est, sc, &world->pools[i]);
    }
    for (size_t i = 0; i < world->npools; i++) {
        const fs_pool_conf *p = world->pools[i].conf;
        if (p->scale == FS_SCALE_FIXED)
            continue;
        double ticks = floor(sc->horizon_s / p->scale_interval);
        fs_format_count(ticks, n1, sizeof n1);
        snprintf(what, sizeof what, "%s autoscaling decisions", n1);
        add_part(est, ticks, sc, p->section, "autoscale_interval",
                 what);
    }
}

int fs_estimate_check(const fs_estimate *est, double max_events,
                      fs_error *err)
{
    if (max_events <= 0 || !(est->events > max_events))
        return 0;
    char n[32], max[32];
    fs_format_count(est->events, n, sizeof n);
    fs_format_count(max_events, max, sizeof max);
    return fs_error_at(err, est->file, est->line, est->key, "this run would "
                       "take about %s events (this key: %s), more than the "
                       "limit of %s: shorten the horizon or lower the rate, "
                       "or raise the limit with --max-events N (0: no limit)",
                       n, est->what, max);
}
