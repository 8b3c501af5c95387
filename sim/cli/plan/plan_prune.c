/* plan_prune.c -- candidates `fleetsim plan` excludes before simulating:
 * those on which one request alone already misses a TTFT or TPOT bound.
 *
 * Every request's TTFT is at least its prompt's prefill alone on the
 * replica (fs_llm_prefill_time, with the profile's fixed time per step
 * and per prefill: queueing, batching beside others, chunks only add),
 * plus what llm_server_retire.c adds to every request: the profile's time
 * off the GPU before the first token (request_s) and, where the engine
 * hands a step's tokens out only after the next step (output_lag, vLLM's)
 * and the request has more than one output token, its own time per
 * output token, at least one decode step at batch 1 holding its prompt's
 * KV cache.  Every TPOT is at least one decode step at batch 1 (a
 * speculative step over the k + 1 tokens it may emit at most).  So a
 * percentile of TTFT over the finished requests is at least the same
 * rank's bound among the requests a run may finish: with up to
 * --max-unfinished of them left out (a run leaving more fails anyway),
 * the finished set's rank-K request is at least the rank-K bound of all
 * (a subset's order statistics are not below the whole's).  When that
 * bound is over the SLO by more than the latency histogram's error
 * (FS_PLAN_PRUNE_MARGIN), no count can pass: the simulations that would
 * prove it (doubling until the metrics stop moving) are not run, and the
 * plan is the same.
 *
 * The requests must be known before the run: a trace's rows (rate_scale
 * a whole number: each row that many times; their output tokens unless
 * the workload draws them), or tokens_in = const(N) (the output lag
 * counted when tokens_out = draws at least 2).  The TTFT bound is not
 * used (the candidate is searched as before) with a prefix cache (a
 * cached prefix is not prefilled), sessions or a shared prefix, several
 * pools (another pool's GPU serves some requests), a prefill or decode
 * role, a warm-up, replications, growth, or drawn prompt lengths;
 * `--no-prune` turns it off. */
#include "sim/cli/plan/plan.h"
#include "sim/scenario/scenario.h"
#include "traces/arrivals.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Over the histogram's relative error (FS_HIST_RATIO - 1 < 1%), so that
 * a percentile read from it cannot fall under the bound. */
#define FS_PLAN_PRUNE_MARGIN 0.02

/* The fewest output tokens a key's draws give (rounded, as the service
 * draws them, at least 1); 1 without the key. */
static double least_out(const fs_llm_service *l)
{
    double m = l->has_tokens_out ? floor(fs_dist_min(&l->tokens_out) + 0.5)
                                 : 1;
    return m < 1 ? 1 : m;
}

/* Appends a request to p->prompt: 0, or -1 out of memory. */
static int prompt_add(fs_plan *p, size_t *cap, int tokens, int lagged)
{
    if ((size_t)p->nprompt == *cap) {
        size_t n = *cap ? 2 * *cap : 4096;
        fs_plan_prompt *g = realloc(p->prompt, n * sizeof *g);
        if (!g)
            return -1;
        p->prompt = g;
        *cap = n;
    }
    p->prompt[p->nprompt++] = (fs_plan_prompt){tokens, lagged};
    return 0;
}

/* The trace's requests (rate_scale 1: the rows before the horizon), into
 * p->prompt: 0, or -1 when a row has no prompt length or it cannot be
 * read (the runs will say why).  A row's output tokens count only where
 * the workload does not draw them (tokens_out =). */
static int trace_prompts(fs_plan *p, const fs_scenario *sc,
                         const fs_workload_conf *wc)
{
    const fs_config_entry *e = wc->arrivals_entry;
    const fs_config_entry *se = fs_config_find(sc->cfg, wc->section,
                                               "statuses");
    fs_arrivals_spec spec = {
        .call = &wc->arrivals, .file = e->file, .line = e->line,
        .key = "arrivals", .base_dir = fs_config_entry_dir(e, sc->dir),
        .horizon_s = sc->horizon_s, .start_hour = sc->start_hour,
        .rate_scale = 1, .repeat = wc->repeat, .bad_rows = wc->bad_rows,
        .statuses = {se ? se->value : NULL, se ? se->file : NULL,
                     "statuses", se ? se->line : 0},
    };
    fs_error err;
    fs_arrivals *a = fs_arrivals_open(&spec, &err);
    if (!a)
        return -1;
    int own_out = !wc->service.llm.has_tokens_out;
    fs_arrival r;
    size_t cap = 0;
    int rc;
    while ((rc = fs_arrivals_next(a, &r, &err)) == 1 && r.tokens_in >= 0)
        if (prompt_add(p, &cap, r.tokens_in, own_out && r.tokens_out > 1))
            break;
    fs_arrivals_free(a);
    return rc != 0 || p->nprompt == 0 ? -1 : 0;
}

/* What the runs' requests are (p->prompt_state 1: p->prompt, each
 * p->prompt_scale times; 2: every request p->prompt[0]; -1: unknown),
 * read once from the first candidate's scenario: the requests do not
 * depend on the candidate. */
static void read_prompts(fs_plan *p, const fs_scenario *sc,
                         const fs_workload_conf *wc)
{
    const fs_llm_service *l = &wc->service.llm;
    double s = wc->rate_scale;
    size_t cap = 0;
    p->prompt_state = -1;
    if (sc->replications > 1 || sc->warmup_s > 0 || wc->session_turns > 0 ||
        wc->prefix_tokens > 0 || wc->growth != 0)
        return;
    int trace = strcmp(wc->arrivals.name, "trace") == 0;
    if (l->has_tokens_in && !trace && l->tokens_in.kind == FS_DIST_CONST) {
        if (prompt_add(p, &cap, (int)fs_dist_mean(&l->tokens_in),
                       least_out(l) > 1))
            return;
        p->prompt_scale = 1;
        p->prompt_state = 2;   /* every request's */
        return;
    }
    if (!trace || l->has_tokens_in || s < 1 || s != floor(s) || s > 1000)
        return;
    p->prompt_scale = (int)s;
    if (trace_prompts(p, sc, wc) == 0)
        p->prompt_state = 1;
}

/* What bounds a lone request on one candidate's replica. */
typedef struct lone {
    fs_llm_perf perf;
    fs_llm_spec_perf sp;
    int spec;                /* 1: sp ready; -1: spec, not known */
} lone;

/* A request's least TTFT on the replica, the prompt it had. */
typedef struct lone_req {
    double ttft;
    int tokens, lagged;
} lone_req;

static int by_ttft(const void *a, const void *b)
{
    double x = ((const lone_req *)a)->ttft, y = ((const lone_req *)b)->ttft;
    return (x > y) - (x < y);
}

/* The least time per output token of a request holding kv tokens of KV
 * cache (its prompt: every decode step of its own holds at least those):
 * one decode step at batch 1 (a speculative step over the k + 1 tokens it
 * may emit); NaN when the speculative step is not known. */
static double tpot_least(const lone *l, long kv)
{
    const fs_llm_spec *s = l->perf.cfg.spec;
    if (!s)
        return fs_llm_iteration_time(&l->perf, 0, 0, 1, kv);
    return l->spec > 0 ? fs_llm_spec_step_time(&l->sp, &l->perf, 0, 0, 1,
                                               kv) / (s->k + 1)
                       : NAN;
}

/* A request's least TTFT: its prefill alone, the engine's time off the
 * GPU before the first token (request_s) and, where the engine hands a
 * token out a step late (output_lag) and the request has a time per
 * output token, that time at its least (llm_server_retire.c adds the
 * request's own). */
static double ttft_of(const lone *l, const fs_plan_prompt *q)
{
    long n = q->tokens < 1 ? 1 : q->tokens;
    double lag = q->lagged && l->perf.output_lag ? tpot_least(l, n) : 0;
    return fs_llm_prefill_time(&l->perf, n) + l->perf.request_s +
           (isnan(lag) ? 0 : l->perf.output_lag * lag);
}

/* The requests' least TTFTs on l's replica, sorted: malloc'd, or NULL. */
static lone_req *least_ttfts(const fs_plan *p, const lone *l)
{
    lone_req *r = malloc((size_t)p->nprompt * sizeof *r);
    /* the lag is known for every request or none (NaN: a speculative
     * step not known, whatever the KV cache) */
    int lag = l->perf.output_lag && !isnan(tpot_least(l, 1));
    for (long i = 0; r && i < p->nprompt; i++) {
        const fs_plan_prompt *q = &p->prompt[i];
        r[i] = (lone_req){ttft_of(l, q), q->tokens, q->lagged && lag};
    }
    if (r)
        qsort(r, (size_t)p->nprompt, sizeof *r, by_ttft);
    return r;
}

/* The fewest requests a passing run finishes: the rows, scale times,
 * less the copies of one row cut by the horizon, less --max-unfinished. */
static double finished_least(const fs_plan *p)
{
    double s = p->prompt_scale;
    return (1 - p->max_unfinished) * (s * (double)p->nprompt - (s - 1));
}

/* The least TTFT metric m ("p99", "mean") a passing run can have, r the
 * requests' least TTFTs sorted; *at the request that gives it, NULL for
 * a mean; NaN when none is known. */
static double ttft_least(const fs_plan *p, const lone_req *r, const char *m,
                         const lone_req **at)
{
    double f = finished_least(p);
    *at = NULL;
    if (p->prompt_state == 2)   /* every request the same */
        return (*at = &r[0])->ttft;
    if (strcmp(m, "mean") == 0) {   /* the mean of the f least */
        double sum = 0, left = floor(f);
        for (long i = 0; left > 0 && i < p->nprompt; i++) {
            double n = left < p->prompt_scale ? left : p->prompt_scale;
            sum += n * r[i].ttft;
            left -= n;
        }
        return f >= 1 ? sum / floor(f) : NAN;
    }
    if (m[0] != 'p' || m[1] < '0' || m[1] > '9')
        return NAN;
    double q = atof(m + 1);
    q = q >= 100 ? q / 1000 : q / 100;
    /* one rank lower: a percentile may be read between two samples */
    double k = ceil(q * f) - 1;
    if (k < 1)
        return NAN;
    long i = (long)ceil(k / p->prompt_scale);   /* rank k, 1-based */
    i = i < 1 ? 1 : i > p->nprompt ? p->nprompt : i;
    return (*at = &r[i - 1])->ttft;
}

/* Why a request's least TTFT is what it is, into why. */
static void ttft_why(const lone *l, const lone_req *at, char *why,
                     size_t len)
{
    char rq[64] = "", lag[96] = "";
    if (l->perf.request_s > 0)
        snprintf(rq, sizeof rq, ", the engine's %.1fms before the first "
                 "token", 1e3 * l->perf.request_s);
    if (!at) {
        snprintf(why, len, "the shortest prompts' prefills alone%s%s", rq,
                 l->perf.output_lag ? ", each first token handed out a "
                 "decode step late (output_lag)" : "");
        return;
    }
    if (at->lagged)
        snprintf(lag, sizeof lag, ", its first token handed out a %.1fms "
                 "decode step late (output_lag)",
                 1e3 * l->perf.output_lag * tpot_least(l, at->tokens));
    snprintf(why, len, "a %d-token prompt's prefill alone%s%s", at->tokens,
             rq, lag);
}

/* The workload w of sc, served by one colocated pool (its *pool). */
static const fs_workload_conf *alone_on(const fs_plan *p,
                                        const fs_scenario *sc,
                                        const fs_pool_conf **pool)
{
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload_conf *w = &sc->workloads[i];
        if (strcmp(w->name, p->workload) || w->npools != 1 ||
            !w->service.llm.model)
            continue;
        *pool = &sc->pools[w->pools[0]];
        return (*pool)->role == FS_ROLE_COLOCATED ? w : NULL;
    }
    return NULL;
}

/* Does a prefix cache serve the pool (a cached prefix is not prefilled)? */
static int caches(const fs_pool_conf *pc, const fs_llm_perf *perf)
{
    return pc->prefix_cache == FS_PREFIX_CACHE_ENGINE ? perf->prefix_cache
                                                      : pc->prefix_cache !=
                                                            FS_PREFIX_CACHE_NO;
}

/* SLO k's least value on l's replica, r the requests' least TTFTs (NULL:
 * not known), and why, into why; NaN when none is known. */
static double least(const fs_plan *p, const lone *l, const lone_req *r,
                    int k, char *why, size_t len)
{
    const char *m = p->slo[k].metric;
    double v = NAN;
    if (p->slo[k].ge)
        return NAN;
    if (strncmp(m, "ttft_", 5) == 0 && r) {
        const lone_req *at;
        v = ttft_least(p, r, m + 5, &at);
        ttft_why(l, at, why, len);
    } else if (strncmp(m, "tpot_", 5) == 0) {
        v = tpot_least(l, 1);
        snprintf(why, len, "one decode step at batch 1%s",
                 l->perf.cfg.spec ? " over the k + 1 tokens it may emit"
                                  : "");
    }
    return v;
}

/* Marks c excluded when an SLO's least value on l's replica is over its
 * bound by more than the histogram's error. */
static void judge(const fs_plan *p, fs_plan_candidate *c, const lone *l,
                  const lone_req *r)
{
    char why[256];
    for (int k = 0; k < p->nslo; k++) {
        double v = least(p, l, r, k, why, sizeof why);
        if (isnan(v) || v <= p->slo[k].value * (1 + FS_PLAN_PRUNE_MARGIN))
            continue;
        char have[48], bound[48];
        fs_plan_value_format(&p->slo[k], v, have, sizeof have);
        fs_plan_value_format(&p->slo[k], p->slo[k].value, bound,
                             sizeof bound);
        c->excluded_bound = 1;
        snprintf(c->reason, sizeof c->reason, "%s at least %s at any count "
                 "(this GPU's roofline: %s) > %s: excluded before "
                 "simulating", p->slo[k].metric, have, why, bound);
        return;
    }
}

void fs_plan_prune(fs_plan *p, fs_plan_candidate *c, const fs_scenario *sc)
{
    const fs_pool_conf *pc = NULL;
    const fs_workload_conf *wc;
    if (p->no_prune || !p->llm || !(wc = alone_on(p, sc, &pc)))
        return;
    if (p->prompt_state == 0)
        read_prompts(p, sc, wc);
    fs_llm_config cfg;
    fs_llm_hw hw;
    lone l;
    char why[256];
    fs_scenario_llm_config(wc, pc, &cfg);
    fs_llm_hw_default(&hw, &pc->gpu);   /* a MIG slice or sharing: slower */
    if (fs_llm_perf_init(&l.perf, &cfg, &hw, why, sizeof why))
        return;
    memset(&l.sp, 0, sizeof l.sp);
    l.spec = !cfg.spec ? 0
             : fs_llm_spec_perf_init(&l.sp, &l.perf, why, sizeof why) == 0
                 ? 1 : -1;
    /* a prefix cache's prefix is not prefilled: no TTFT bound */
    lone_req *r = p->prompt_state > 0 && !caches(pc, &l.perf)
                      ? least_ttfts(p, &l) : NULL;
    judge(p, c, &l, r);
    free(r);
    fs_llm_spec_perf_free(&l.sp);
}

int fs_plan_searched(const fs_plan_candidate *c)
{
    return !c->excluded_memory && !c->excluded_other && !c->excluded_bound;
}
