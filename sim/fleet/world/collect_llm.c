/* collect_llm.c -- what LLM serving adds to a run's results: TTFT and
 * TPOT, their objectives, tokens, tokens per GPU and cost per million
 * tokens, for each llm workload and each pool serving one.
 *
 * A pool's cost is its bill over the horizon (cost_monthly's rows, the
 * unused part of a commitment included) and its GPUs its provisioned
 * GPU-seconds.  A workload's cost and GPUs are its pools', each pool's
 * shared among the workloads it serves by their busy GPU-seconds (evenly
 * when none was busy): idle capacity is paid for by those who keep it.
 * Cost per million tokens divides that cost by the tokens of the requests
 * completed within the horizon. */
#include "sim/fleet/world/collect.h"
#include "sim/fleet/world/world.h"
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/serve/llm_adapter.h"
#include "sim/fleet/serve/llm_placement.h"

#include <math.h>
#include <stdio.h>

static double pool_cost(const fs_pool *p, size_t nmonths)
{
    double usd = 0;
    for (size_t m = 0; m < nmonths; m++) {
        usd += fs_round_cents(p->meter.usd[m]);
        if (p->unused.usd)
            usd += fs_round_cents(p->unused.usd[m]);
        if (p->after_term.usd)
            usd += fs_round_cents(p->after_term.usd[m]);
        usd += fs_pool_lines_usd(p, m, 1);
    }
    return usd;
}

/* Workload k's share of pool p: its busy GPU-seconds over all of them. */
static double busy_share(const fs_servers *p, int k)
{
    double mine = 0, all = 0;
    for (int j = 0; j < p->nwls; j++)
        for (size_t m = 0; m < p->nmonths; m++) {
            double b = fs_servers_wl_busy(p, j, m);
            all += b;
            if (j == k)
                mine += b;
        }
    return all > 0 ? mine / all : 1.0 / p->nwls;
}

/* Prefix caching's figures, when a cache served (caching: the workload
 * or pool had one): what was cached, and the cost of the rest. */
static void fill_cached(fs_llm_row *r, int caching, double cached)
{
    double in = r->tokens_in, left = in - cached + r->tokens_out;
    r->tokens_cached = caching ? cached : NAN;
    r->token_hit_rate = caching && in > 0 ? cached / in : NAN;
    r->cost_per_mtok_uncached = caching && left > 0
        ? r->cost_usd * 1e6 / left : NAN;
}

static void fill_tokens(fs_llm_row *r, double in, double out, double gpu_s,
                        double cost)
{
    r->is_llm = 1;
    r->tokens_in = in;
    r->tokens_out = out;
    r->tokens_in_per_gpu_s = gpu_s > 0 ? in / gpu_s : NAN;
    r->tokens_out_per_gpu_s = gpu_s > 0 ? out / gpu_s : NAN;
    r->cost_usd = cost;
    r->cost_per_mtok_out = out > 0 ? cost * 1e6 / out : NAN;
    r->cost_per_mtok = in + out > 0 ? cost * 1e6 / (in + out) : NAN;
}

static void no_llm(fs_llm_row *r)
{
    r->ttft_mean_s = r->tpot_mean_s = NAN;
    r->ttft_p90_s = r->tpot_p90_s = NAN;
    r->tokens_cached = r->token_hit_rate = r->cost_per_mtok_uncached = NAN;
    r->slo_ttft_s = r->slo_ttft_attainment = NAN;
    r->slo_tpot_s = r->slo_tpot_attainment = NAN;
    r->kv_link_gbps = r->kv_transfers = r->kv_bytes = NAN;
    r->kv_transfer_mean_s = r->kv_wait_mean_s = NAN;
}

/* A disaggregated workload's KV transfers (llm_disagg.c). */
static void fill_disagg(const fs_workload *w, fs_llm_row *r)
{
    fs_llm_disagg_stats d;
    fs_llm_disagg_stats_of(w, &d);
    if (isnan(d.link_gbps))
        return;
    double n = (double)d.transfers;
    r->kv_link_gbps = d.link_gbps;
    r->kv_transfers = n;
    r->kv_bytes = d.bytes;
    r->kv_transfer_mean_s = n > 0 ? d.transfer_s / n : NAN;
    r->kv_wait_mean_s = n > 0 ? d.wait_s / n : NAN;
}

static double attainment(long met, long n, double slo)
{
    return isnan(slo) || n <= 0 ? NAN : (double)met / (double)n;
}

/* Whether a workload on pool s caches prefixes there. */
static int pool_caches(const fs_servers *s)
{
    for (int j = 0; j < s->nwls; j++) {
        const fs_workload *w = s->wls[j];
        for (int k = 0; w->prefix && k < w->npools; k++)
            if (w->pools[k] == s && w->perf[k].prefix_cache)
                return 1;
    }
    return 0;
}

static const fs_pool *pool_of(const fs_world *world, const fs_servers *s)
{
    for (size_t i = 0; i < world->npools; i++)
        if (&world->pools[i].servers == s)
            return &world->pools[i];
    return NULL;
}

/* Speculative decoding, where the workload drafts (spec =). */
static void fill_spec(fs_llm_row *r, const fs_workload *w)
{
    const fs_llm_spec *s = &w->conf->service.llm.spec;
    if (s->kind == FS_SPEC_OFF)
        return;
    snprintf(r->spec_kind, sizeof r->spec_kind, "%s",
             fs_llm_spec_kind_name(s->kind));
    snprintf(r->spec_draft, sizeof r->spec_draft, "%s",
             s->draft ? s->draft->name : "");
    r->spec_k = s->k;
    r->spec_acceptance = s->acceptance;
    r->spec_steps = w->llm.spec_steps;
    r->spec_accepted_mean = w->llm.spec_steps > 0
        ? w->llm.spec_tokens / (double)w->llm.spec_steps : NAN;
    r->spec_expected = fs_llm_spec_expected(s->acceptance, s->k);
}

/* The workload's TTFT and TPOT percentiles and means, as a pool's are
 * filled (a workload keeps no end-to-end histogram of its own). */
static void fill_latency(fs_latency_row *row, const fs_llm_stats *st)
{
    fs_llm_pool_lat lat;
    fs_llm_lat_fill(&lat, &st->ttft, &st->tpot, NULL);
    row->ttft_p50_s = lat.ttft_p50_s;
    row->ttft_p99_s = lat.ttft_p99_s;
    row->tpot_p50_s = lat.tpot_p50_s;
    row->tpot_p99_s = lat.tpot_p99_s;
    row->llm.ttft_p90_s = lat.ttft_p90_s;
    row->llm.tpot_p90_s = lat.tpot_p90_s;
    row->llm.ttft_mean_s = lat.ttft_mean_s;
    row->llm.tpot_mean_s = lat.tpot_mean_s;
}

static void fill_workload(const fs_world *world, const fs_workload *w,
                          fs_latency_row *row, size_t nmonths)
{
    const fs_llm_stats *st = &w->llm;
    fs_llm_row *r = &row->llm;
    double gpu_s = 0, cost = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_servers *s = w->pools[k];
        const fs_pool *p = pool_of(world, s);
        int me = 0;
        for (int j = 0; j < s->nwls; j++)
            if (s->wls[j] == w)
                me = j;
        double share = busy_share(s, me);
        gpu_s += p->usage.area_gpus * share;
        cost += pool_cost(p, nmonths) * share;
    }
    fill_tokens(r, st->tokens_in, st->tokens_out, gpu_s, cost);
    fill_cached(r, w->prefix != NULL, st->tokens_cached);
    fill_latency(row, st);
    r->slo_ttft_s = w->conf->slo_ttft_s;
    r->slo_tpot_s = w->conf->slo_tpot_s;
    r->slo_ttft_attainment = attainment(st->ttft_met,
                                        (long)st->ttft.count, r->slo_ttft_s);
    r->slo_tpot_attainment = attainment(st->tpot_met, st->tpot_n,
                                        r->slo_tpot_s);
    r->preempted = st->preempted;
    r->too_long = st->too_long;
    r->over_context = st->over_context;
    r->max_context = w->conf->service.llm.model->max_context;
    fill_disagg(w, r);
    row->mean_batch_size = st->iterations > 0
        ? st->running_sum / (double)st->iterations : NAN;
    fill_spec(r, w);
}

int fs_collect_llm(fs_world *world)
{
    fs_results *out = world->sim.out;
    size_t nmonths = world->sim.cal.nmonths;
    size_t l0 = out->nlatency - world->nworkloads;
    size_t p0 = out->npools - world->npools;
    for (size_t i = 0; i < world->npools; i++) {
        const fs_pool *p = &world->pools[i];
        fs_llm_row *r = &out->pools[p0 + i].llm;
        no_llm(r);
        fs_llm_servers_latency(&p->servers, &out->pools[p0 + i].llm_lat);
        if (p->servers.llm_store) {
            fill_tokens(r, p->servers.tokens_in, p->servers.tokens_out,
                        p->usage.area_gpus, pool_cost(p, nmonths));
            fill_cached(r, pool_caches(&p->servers),
                        p->servers.tokens_cached);
        }
    }
    for (size_t i = 0; i < world->nworkloads; i++) {
        const fs_workload *w = &world->workloads[i];
        fs_latency_row *row = &out->latency[l0 + i];
        no_llm(&row->llm);
        if (!w->llm.ttft.n)
            continue;
        fill_workload(world, w, row, nmonths);
        for (int k = 0; k < w->npools; k++)   /* several models a pool */
            row->llm.replicas += fs_llm_placed(w->pools[k],
                                               fs_workload_model(w));
        if (fs_lora_collect(w, row->llm.cost_usd, &row->llm, out))
            return -1;
    }
    return 0;
}
