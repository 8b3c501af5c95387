/* plan_prune.c -- candidates `fleetsim plan` excludes before simulating:
 * those on which one request alone already misses a TTFT or TPOT bound.
 *
 * Every request's TTFT is at least its prompt's prefill alone on the
 * replica (fs_llm_prefill_time: queueing, batching beside others, chunks
 * and the API server's time only add), and every TPOT at least one
 * decode step at batch 1 (a speculative step over the k + 1 tokens it
 * may emit at most).  So a percentile of TTFT over the finished requests
 * is at least the same rank's prefill among the prompts a run may
 * finish: with up to --max-unfinished of them left out (a run leaving
 * more fails anyway), the finished set's rank-K request is at least the
 * rank-K prompt of all (a subset's order statistics are not below the
 * whole's).  When that bound is over the SLO by more than the latency
 * histogram's error (FS_PLAN_PRUNE_MARGIN), no count can pass: the
 * simulations that would prove it (doubling until the metrics stop
 * moving) are not run, and the plan is the same.
 *
 * The prompts must be known before the run: a trace's rows (rate_scale a
 * whole number: each row that many times), or tokens_in = const(N).  The
 * bound is not used (the candidate is searched as before) with a prefix
 * cache (a cached prefix is not prefilled), sessions or a shared prefix,
 * several pools (another pool's GPU serves some requests), a prefill or
 * decode role, a warm-up, replications, growth, or drawn prompt lengths;
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

static int by_tokens(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The trace's prompts (rate_scale 1: the rows before the horizon), into
 * p->prompt: 0, or -1 when a row has no prompt length or it cannot be
 * read (the runs will say why). */
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
    fs_arrival r;
    size_t cap = 0;
    int rc;
    while ((rc = fs_arrivals_next(a, &r, &err)) == 1 && r.tokens_in >= 0) {
        if ((size_t)p->nprompt == cap) {
            long *g = realloc(p->prompt, (cap = cap ? 2 * cap : 4096) *
                                             sizeof *g);
            if (!g)
                break;
            p->prompt = g;
        }
        p->prompt[p->nprompt++] = r.tokens_in;
    }
    fs_arrivals_free(a);
    if (rc != 0 || p->nprompt == 0)
        return -1;
    qsort(p->prompt, (size_t)p->nprompt, sizeof *p->prompt, by_tokens);
    return 0;
}

/* What the runs' prompts are (p->prompt_state 1: p->prompt sorted, each
 * p->prompt_scale times; 2: every prompt p->prompt[0]; -1: unknown), read once from the first
 * candidate's scenario: the prompts do not depend on the candidate. */
static void read_prompts(fs_plan *p, const fs_scenario *sc,
                         const fs_workload_conf *wc)
{
    const fs_llm_service *l = &wc->service.llm;
    double s = wc->rate_scale;
    p->prompt_state = -1;
    if (sc->replications > 1 || sc->warmup_s > 0 || wc->session_turns > 0 ||
        wc->prefix_tokens > 0 || wc->growth != 0)
        return;
    int trace = strcmp(wc->arrivals.name, "trace") == 0;
    if (l->has_tokens_in && !trace && l->tokens_in.kind == FS_DIST_CONST) {
        p->prompt = malloc(sizeof *p->prompt);
        if (!p->prompt)
            return;
        p->prompt[0] = (long)fs_dist_mean(&l->tokens_in);
        p->nprompt = p->prompt_scale = 1;
        p->prompt_state = 2;   /* every request's */
        return;
    }
    if (!trace || l->has_tokens_in || s < 1 || s != floor(s) || s > 1000)
        return;
    p->prompt_scale = (int)s;
    if (trace_prompts(p, sc, wc) == 0)
        p->prompt_state = 1;
}

/* The prefill alone of the prompt of rank k (1-based) among the prompts,
 * each p->prompt_scale times. */
static double rank_prefill(const fs_plan *p, const fs_llm_perf *perf,
                           double k, long *tokens)
{
    long i = (long)ceil(k / p->prompt_scale);
    if (i < 1)
        i = 1;
    if (i > p->nprompt)
        i = p->nprompt;
    *tokens = p->prompt[i - 1];
    return fs_llm_prefill_time(perf, *tokens < 1 ? 1 : *tokens);
}

/* The fewest requests a passing run finishes: the rows, scale times,
 * less the copies of one row cut by the horizon, less --max-unfinished. */
static double finished_least(const fs_plan *p)
{
    double s = p->prompt_scale;
    return (1 - p->max_unfinished) * (s * (double)p->nprompt - (s - 1));
}

/* The least TTFT metric m ("ttft_p99", "ttft_mean") a passing run can
 * have, with the prompt that gives it; NaN when none is known. */
static double ttft_least(const fs_plan *p, const fs_llm_perf *perf,
                         const char *m, long *tokens)
{
    double f = finished_least(p);
    if (p->prompt_state == 2) {   /* every prompt the same */
        *tokens = p->prompt[0];
        return fs_llm_prefill_time(perf, *tokens < 1 ? 1 : *tokens);
    }
    if (strcmp(m, "mean") == 0) {   /* the mean of the f shortest */
        double sum = 0, left = floor(f);
        for (long i = 0; left > 0 && i < p->nprompt; i++) {
            double n = left < p->prompt_scale ? left : p->prompt_scale;
            sum += n * fs_llm_prefill_time(perf, p->prompt[i] < 1
                                                     ? 1 : p->prompt[i]);
            left -= n;
        }
        *tokens = -1;
        return f >= 1 ? sum / floor(f) : NAN;
    }
    if (m[0] != 'p' || m[1] < '0' || m[1] > '9')
        return NAN;
    double q = atof(m + 1);
    q = q >= 100 ? q / 1000 : q / 100;
    /* one rank lower: a percentile may be read between two samples */
    double k = ceil(q * f) - 1;
    return k >= 1 ? rank_prefill(p, perf, k, tokens) : NAN;
}

/* The least TPOT of any request: one decode step at batch 1 (a
 * speculative step over the k + 1 tokens it may emit). */
static double tpot_least(const fs_llm_perf *perf)
{
    const fs_llm_spec *s = perf->cfg.spec;
    if (!s)
        return fs_llm_iteration_time(perf, 0, 0, 1, 1);
    fs_llm_spec_perf sp;
    char why[256];
    memset(&sp, 0, sizeof sp);
    double t = fs_llm_spec_perf_init(&sp, perf, why, sizeof why) == 0
        ? fs_llm_spec_step_time(&sp, perf, 0, 0, 1, 1) / (s->k + 1) : NAN;
    fs_llm_spec_perf_free(&sp);
    return t;
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

/* SLO k's least value on perf, and why, into *least and why. */
static double least(const fs_plan *p, const fs_llm_perf *perf, int k,
                    int cached, char *why, size_t len)
{
    const char *m = p->slo[k].metric;
    long tokens = -1;
    double v = NAN;
    if (p->slo[k].ge)
        return NAN;
    if (strncmp(m, "ttft_", 5) == 0 && !cached && p->prompt_state > 0) {
        v = ttft_least(p, perf, m + 5, &tokens);
        if (tokens >= 0)
            snprintf(why, len, "a %ld-token prompt's prefill alone", tokens);
        else
            snprintf(why, len, "the shortest prompts' prefills alone");
    } else if (strncmp(m, "tpot_", 5) == 0) {
        v = tpot_least(perf);
        snprintf(why, len, "one decode step at batch 1%s",
                 perf->cfg.spec ? " over the k + 1 tokens it may emit" : "");
    }
    return v;
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
    fs_llm_perf perf;
    char why[256];
    fs_scenario_llm_config(wc, pc, &cfg);
    fs_llm_hw_default(&hw, &pc->gpu);   /* a MIG slice or sharing: slower */
    if (fs_llm_perf_init(&perf, &cfg, &hw, why, sizeof why))
        return;
    int cached = caches(pc, &perf);
    for (int k = 0; k < p->nslo; k++) {
        double v = least(p, &perf, k, cached, why, sizeof why);
        if (isnan(v) || v <= p->slo[k].value * (1 + FS_PLAN_PRUNE_MARGIN))
            continue;
        char have[48], bound[48];
        fs_plan_value_format(&p->slo[k], v, have, sizeof have);
        fs_plan_value_format(&p->slo[k], p->slo[k].value, bound,
                             sizeof bound);
        c->excluded_bound = 1;
        snprintf(c->reason, sizeof c->reason, "%s at least %s at any count "
                 "(%s on this GPU, the roofline) > %s: excluded before "
                 "simulating", p->slo[k].metric, have, why, bound);
        return;
    }
}

int fs_plan_searched(const fs_plan_candidate *c)
{
    return !c->excluded_memory && !c->excluded_other && !c->excluded_bound;
}
