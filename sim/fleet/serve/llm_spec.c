/* llm_spec.c -- speculative decoding on an llm workload's replicas
 * (llm_spec.h).
 *
 * The step's time is the model's (models/llm/llm_spec.c: the proposer's
 * k passes and the target's verify pass of k + 1 tokens a request); the
 * tokens each decoding request gets are drawn per request per step from
 * the truncated geometric law of llm_spec.h, on the workload's own
 * stream of the run's seed ("spec:NAME"), so a run is deterministic and
 * the other streams (arrivals, tokens, prefixes) draw as they did
 * without spec.  The draws are counted as the verifier emits them,
 * before a request's last step keeps only the tokens it still wanted:
 * their mean is the law's, (1 - a^(k+1)) / (1 - a). */
#include "sim/fleet/serve/llm_spec.h"
#include "sim/base/rng.h"

#include <stdio.h>
#include <stdlib.h>

struct fs_spec_run {
    gsl_rng *rng;
    int k;
    double acceptance;
    int npools;
    fs_llm_spec_perf perf[FS_MAX_POOLS_PER_WORKLOAD];
};

int fs_spec_workload_init(fs_workload *w, unsigned replication,
                          fs_error *err)
{
    const fs_llm_spec *s = &w->conf->service.llm.spec;
    if (s->kind == FS_SPEC_OFF)
        return 0;
    fs_spec_run *r = calloc(1, sizeof *r);
    if (!r)
        return fs_error_set(err, "out of memory");
    w->spec = r;
    char source[FS_NAME_MAX + 16], why[512];
    snprintf(source, sizeof source, "spec:%s", w->conf->name);
    r->rng = fs_rng_new(w->sim->sc->seed, replication, source);
    if (!r->rng)
        return fs_error_set(err, "out of memory");
    r->k = s->k;
    r->acceptance = s->acceptance;
    for (int k = 0; k < w->npools; k++, r->npools++)
        if (fs_llm_spec_perf_init(&r->perf[k], &w->perf[k], why, sizeof why))
            return fs_error_set(err, "workload %s: spec: %s", w->conf->name,
                                why);
    return 0;
}

void fs_spec_workload_free(fs_workload *w)
{
    fs_spec_run *r = w->spec;
    if (!r)
        return;
    for (int k = 0; k < FS_MAX_POOLS_PER_WORKLOAD; k++)
        fs_llm_spec_perf_free(&r->perf[k]);
    if (r->rng)
        gsl_rng_free(r->rng);
    free(r);
    w->spec = NULL;
}

double fs_spec_iteration_time(const fs_workload *w, const fs_llm_perf *perf,
                              long prefill_tokens, double attn_ctx_tokens,
                              int decode_batch, long decode_kv_tokens)
{
    if (!w->spec)
        return fs_llm_iteration_time(perf, prefill_tokens, attn_ctx_tokens,
                                     decode_batch, decode_kv_tokens);
    long k = perf - w->perf;
    return fs_llm_spec_step_time(&w->spec->perf[k], perf, prefill_tokens,
                                 attn_ctx_tokens, decode_batch,
                                 decode_kv_tokens);
}

int fs_spec_tokens(fs_workload *w)
{
    fs_spec_run *r = w->spec;
    if (!r)
        return 1;
    int n = fs_llm_spec_draw(r->acceptance, r->k, r->rng);
    w->llm.spec_steps++;
    w->llm.spec_tokens += n;
    return n;
}

int fs_spec_plain(const fs_workload *w)
{
    return !w->spec;
}

int fs_spec_lookahead(const fs_workload *w, long left)
{
    long k = w->spec ? w->spec->k : 0;
    return (int)(left < k ? (left > 0 ? left : 0) : k);
}
