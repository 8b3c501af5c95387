/* collect.c -- a run's results gathered from its world; see collect.h.
 *
 * Utilization rows are time averages of the pools' usage integrals over
 * each metrics interval; costs come from the pools' meters; latency from
 * the workloads' streaming histograms. */
#include "sim/fleet/world/collect.h"
#include "sim/fleet/world/world.h"
#include "sim/fleet/run/notes.h"
#include "sim/fleet/world/slices.h"
#include "sim/base/rng.h"
#include "traces/arrivals.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void on_sample(fs_engine *e, void *obj, long arg);

/* A run that cannot schedule its next sample fails: a utilization table
 * that silently stops would be wrong. */
static int schedule_sample(fs_world *w, double t)
{
    if (fs_engine_at(w->sim.engine, t, on_sample, w, 0))
        return 0;
    fs_error_set(w->sim.err, "out of memory scheduling the metrics sample");
    fs_sim_fail(&w->sim);
    return -1;
}

int fs_collect_start(fs_world *w)
{
    return schedule_sample(w, w->sim.sc->metrics_interval);
}

int fs_collect_sample(fs_world *w, double now)
{
    for (size_t i = 0; i < w->npools; i++) {
        fs_pool *p = &w->pools[i];
        fs_util_row sample = {0};
        if (!fs_usage_sample(&p->usage, now, &sample))
            continue;
        fs_util_row *row = fs_results_add_util(w->sim.out);
        if (!row)
            return fs_error_set(w->sim.err, "out of memory");
        *row = sample;
        row->pool = p->conf->name;
        long q = 0;
        for (int k = 0; k < p->servers.nwls; k++)
            q += fs_workload_waiting(p->servers.wls[k], now);
        row->queue_len = (double)q;
    }
    return 0;
}

static void on_sample(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_world *w = obj;
    double now = fs_engine_now(e);
    if (fs_collect_sample(w, now)) {
        fs_sim_fail(&w->sim);
        return;
    }
    schedule_sample(w, now + w->sim.sc->metrics_interval);
}

/* A cost row of pool p in month m, priced as PRICING then SUFFIX. */
static int add_cost_row(fs_sim *sim, const fs_pool *p, size_t m,
                        const char *pricing, const char *suffix,
                        double cost_usd, double gpu_hours)
{
    fs_cost_row *row = fs_results_add_cost(sim->out);
    if (!row)
        return fs_error_set(sim->err, "out of memory");
    snprintf(row->month, sizeof row->month, "%s", sim->cal.label[m]);
    snprintf(row->pool, sizeof row->pool, "%s", p->conf->name);
    snprintf(row->pricing, sizeof row->pricing, "%s%s", pricing, suffix);
    row->cost_usd = cost_usd;
    row->gpu_hours = gpu_hours;
    return 0;
}

/* usd >= 0 as "$1,234.56" into buf, as the summary shows money. */
static const char *money(double usd, char *buf, size_t size)
{
    char digits[64], out[96];
    snprintf(digits, sizeof digits, "%.2f", usd);
    size_t intlen = strcspn(digits, "."), o = 0;
    out[o++] = '$';
    for (size_t i = 0; i < intlen && o + 2 < sizeof out; i++) {
        if (i > 0 && digits[0] != '-' && (intlen - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    snprintf(out + o, sizeof out - o, "%s", digits + intlen);
    snprintf(buf, size, "%s", out);
    return buf;
}

/* The summary's note on a commitment whose term ended inside the
 * horizon and whose instances ran on at the on-demand rate. */
static void note_after_term(fs_sim *sim, const fs_pool *p)
{
    double usd = 0, hours = 0;
    for (size_t m = 0; m < sim->cal.nmonths; m++) {
        usd += fs_meter_cents(p->after_term.usd, m);
        hours += p->after_term.gpu_hours[m];
    }
    if (hours <= 0 && usd == 0)
        return;
    time_t end = sim->cal.start +
                 (time_t)(fs_term_hours(p->conf->terms.term_months) * 3600);
    struct tm tm;
    char date[32], m[64];
    gmtime_r(&end, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
    fs_results_add_note(sim->out, "pool %s: its %d-month %s term expired on "
                        "%s; its instances ran on at the on-demand rate, "
                        "%.1f GPU-hours billed as on-demand rows: %s "
                        "(renew = yes buys the next term)", p->conf->name,
                        p->conf->terms.term_months, p->conf->purchase->name,
                        date, hours, money(usd, m, sizeof m));
}

/* The pool's cost over the horizon as metered, before any rounding: a
 * 5-minute run's $0.305833 scaled to a month is $2,679.10, where the bill's
 * $0.31 would say $2,715.60. */
static double unrounded_cost(const fs_pool *p, size_t nmonths)
{
    double usd = 0;
    for (size_t m = 0; m < nmonths; m++) {
        usd += p->meter.usd[m];
        if (p->after_term.usd)
            usd += p->after_term.usd[m];
        if (p->unused.usd)
            usd += p->unused.usd[m];
        for (int k = 0; k < FS_PURCHASE_LINES && p->lines[k].usd; k++)
            usd += p->lines[k].usd[m];
    }
    return usd;
}

/* The option's own cost lines in month m (an owned pool's power,
 * colocation, maintenance): a row each, priced NAME then its suffix. */
static int add_line_rows(fs_sim *sim, const fs_pool *p, size_t m)
{
    const fs_purchase_option *o = p->conf->purchase;
    for (int k = 0; k < FS_PURCHASE_LINES && o->lines[k]; k++)
        if (p->lines[k].usd && p->lines[k].usd[m] != 0 &&
            add_cost_row(sim, p, m, o->name, o->lines[k],
                         fs_meter_cents(p->lines[k].usd, m), 0))
            return -1;
    return 0;
}

/* The pool's energy at the meter over the run (energy.h): its GPUs'
 * provisioned and busy hours in its option's facility. */
static double pool_energy_kwh(const fs_pool *p)
{
    fs_energy_model e;
    fs_purchase_energy_model(p->conf->purchase, &p->conf->terms,
                             p->conf->gpu.tdp_w, p->conf->gpu.idle_w, &e);
    return fs_energy_kwh(&e, p->usage.area_gpus / 3600,
                         p->usage.area_busy / 3600);
}

/* A pool's growth = G ± S (its demand's over the long view): the rate
 * this replication draws, from its own stream ("pool-growth:NAME", so
 * every other stream is as before), only when a spread is given.  -1
 * out of memory. */
static int pool_growth(const fs_world *w, const fs_pool *p, fs_pool_row *row)
{
    const fs_pool_conf *c = p->conf;
    row->growth_mean = c->growth;
    row->growth_spread = c->growth_spread;
    row->growth = c->growth;
    if (!(c->growth_spread > 0))
        return 0;
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "pool-growth:%s", c->name);
    gsl_rng *r = fs_rng_new(w->sim.sc->seed, w->replication, source);
    if (!r)
        return -1;
    row->growth = fs_growth_draw(c->growth, c->growth_spread, r);
    gsl_rng_free(r);
    return 0;
}

int fs_collect_costs(fs_world *w)
{
    fs_sim *sim = &w->sim;
    sim->out->cost_unrounded_usd = 0;
    for (size_t i = 0; i < w->npools; i++)
        sim->out->cost_unrounded_usd += unrounded_cost(&w->pools[i],
                                                       sim->cal.nmonths);
    for (size_t m = 0; m < sim->cal.nmonths; m++)
        for (size_t i = 0; i < w->npools; i++) {
            const fs_pool *p = &w->pools[i];
            if (p->meter.usd[m] != 0 || p->meter.gpu_hours[m] != 0 ||
                (p->unused.usd && p->unused.usd[m] != 0)) {
                const char *name = p->conf->purchase->name;
                if (add_cost_row(sim, p, m, name, "",
                                 fs_meter_cents(p->meter.usd, m),
                                 p->meter.gpu_hours[m]))
                    return -1;
                /* A commitment's unused part: its own row, NAME-unused. */
                if (p->unused.usd && p->unused.usd[m] != 0 &&
                    add_cost_row(sim, p, m, name, "-unused",
                                 fs_meter_cents(p->unused.usd, m), 0))
                    return -1;
            }
            if (add_line_rows(sim, p, m))
                return -1;
            /* A commitment's instances after its term: on-demand rows. */
            if (p->after_term.gpu_hours[m] > 0 &&
                add_cost_row(sim, p, m,
                             fs_purchase_committing(FS_COMMIT_NONE)->name, "",
                             fs_meter_cents(p->after_term.usd, m),
                             p->after_term.gpu_hours[m]))
                return -1;
        }
    for (size_t i = 0; i < w->npools; i++) {
        const fs_pool *p = &w->pools[i];
        note_after_term(sim, p);
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
        row->gpu_hours_provisioned = p->usage.area_gpus / 3600;
        row->gpu_hours_busy = p->usage.area_busy / 3600;
        row->gpu_hours_busy_sm = fs_slices_busy_sm_hours(p);
        row->energy_kwh = pool_energy_kwh(p);
        row->launches = p->cap.launches;
        row->interruptions = p->cap.interruptions;
        row->cold_starts = p->cap.cold_starts;
        row->load_s = p->cap.load_s;
        row->requests_retried = p->servers.retried;
        row->work_lost_s = p->servers.lost_s;
        row->fallback_hours = fs_spot_fallback_hours(&p->spot);
        row->fallback_cost_usd = row->fallback_hours * p->spot.fallback_price;
        snprintf(row->instance_type, sizeof row->instance_type, "%s",
                 p->conf->instance);
        snprintf(row->tags, sizeof row->tags, "%s", p->conf->tags);
        row->upfront_usd = p->conf->terms.upfront_usd;
        row->term_months = p->conf->terms.term_months;
        snprintf(row->rate_quotes, sizeof row->rate_quotes, "%s",
                 p->conf->rate_quotes);
        row->renew = row->term_months > 0
            ? fs_reserved_renews(&p->conf->terms) : -1;
        row->count = p->conf->count;
        if (pool_growth(w, p, row))
            return fs_error_set(sim->err, "out of memory");
    }
    return 0;
}

/* Requests that found w's queue full: the run's note says why they were
 * dropped (a mistyped rate unit reads as this). */
static void note_full(fs_sim *sim, const fs_workload *w)
{
    if (w->dropped_full > 0)
        fs_results_add_note(sim->out, "%s: %ld of %ld requests dropped: "
                            "they arrived to a full queue (queue_max = %ld "
                            "waiting)", w->conf->name, w->dropped_full,
                            w->arrived, w->conf->queue_max);
}

/* Whether a workload's histogram lost a sample's bin to a failed
 * allocation (histogram.h): its percentiles would be wrong. */
static int latency_lost(const fs_world *world)
{
    for (size_t i = 0; i < world->nworkloads; i++) {
        const fs_workload *w = &world->workloads[i];
        if (fs_hist_failed(&w->latency) || fs_hist_failed(&w->wait) ||
            fs_hist_failed(&w->llm.ttft) || fs_hist_failed(&w->llm.tpot))
            return 1;
    }
    return 0;
}

int fs_collect_latency(fs_world *world)
{
    fs_sim *sim = &world->sim;
    fs_results *out = sim->out;
    fs_hist all;
    if (fs_hist_init(&all))
        return fs_error_set(sim->err, "out of memory");
    double wait_sum = 0;
    long slo_met = 0, slo_n = 0, started_all = 0;
    for (size_t i = 0; i < world->nworkloads; i++) {
        const fs_workload *w = &world->workloads[i];
        fs_latency_row *row = fs_results_add_latency(out);
        if (!row) {
            fs_hist_free(&all);
            return fs_error_set(sim->err, "out of memory");
        }
        snprintf(row->workload, sizeof row->workload, "%s", w->conf->name);
        int warm = sim->sc->warmup_s > 0;
        long counted = warm ? w->measured : w->completed;
        row->count = counted;
        row->arrivals = w->arrived;
        row->growth_mean = w->conf->growth;
        row->growth_spread = w->conf->growth_spread;
        row->growth = w->growth;
        row->dropped = w->dropped;
        row->unfinished = fs_workload_unfinished(w);
        row->mean_s = fs_hist_mean(&w->latency);
        row->p50_s = fs_hist_quantile(&w->latency, 0.50);
        row->p90_s = fs_hist_quantile(&w->latency, 0.90);
        row->p95_s = fs_hist_quantile(&w->latency, 0.95);
        row->p99_s = fs_hist_quantile(&w->latency, 0.99);
        row->p999_s = fs_hist_quantile(&w->latency, 0.999);
        long started = warm ? w->measured_started
                            : w->completed + row->unfinished -
                                  fs_workload_waiting(w, sim->sc->horizon_s);
        row->wait_mean_s = started > 0 ? w->wait_sum / (double)started : NAN;
        row->wait_p50_s = fs_hist_quantile(&w->wait, 0.50);
        row->wait_p90_s = fs_hist_quantile(&w->wait, 0.90);
        row->wait_p99_s = fs_hist_quantile(&w->wait, 0.99);
        started_all += started;
        row->mean_batch_size = w->batches > 0
            ? (double)w->completed / (double)w->batches : NAN;
        row->slo_s = w->conf->slo_s;
        row->slo_attainment = NAN;
        if (!isnan(w->conf->slo_s) && counted > 0) {
            row->slo_attainment = (double)w->slo_met / (double)counted;
            slo_met += w->slo_met;
            slo_n += counted;
        }
        row->ttft_p50_s = row->ttft_p99_s = NAN;
        row->tpot_p50_s = row->tpot_p99_s = NAN;
        fs_hist_merge(&all, &w->latency);
        wait_sum += w->wait_sum;
        out->requests += w->arrived;
        out->requests_dropped += w->dropped;
        note_full(sim, w);
    }
    if (fs_hist_failed(&all) || latency_lost(world)) {
        fs_hist_free(&all);
        return fs_error_set(sim->err, "out of memory");
    }
    long started = started_all;
    out->latency_mean_s = fs_hist_mean(&all);
    out->latency_p50_s = fs_hist_quantile(&all, 0.50);
    out->latency_p99_s = fs_hist_quantile(&all, 0.99);
    out->wait_mean_s = started > 0 ? wait_sum / (double)started : NAN;
    out->slo_attainment = slo_n ? (double)slo_met / (double)slo_n : NAN;
    fs_hist_free(&all);
    return fs_collect_llm(world);
}

