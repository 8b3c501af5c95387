/* llm_spec_perf.c -- a speculative step's time on a replica (llm_spec.h).
 *
 * Why these costs:
 *   - the proposer's passes are decode steps of a small model on the
 *     target's GPUs (the same tp, precision and efficiencies): bound by
 *     reading its weights and its KV cache, so k of them cost k x a small
 *     model's step.  They run inside the target's engine step, so each
 *     pays its layers' launch cost (the profile's layer_s a layer) but not
 *     the step's scheduling and sampling (step_s), paid once;
 *   - the verify pass is the target's decode step with k + 1 tokens per
 *     sequence: its weights are read once however many tokens run, so at
 *     a small batch (bound by memory) it costs about one decode step, and
 *     as the batch grows its compute, (k + 1) x the batch's, binds: the
 *     gain shrinks (fs_llm_iteration_time's roofline decides).
 * Apart from llm_spec.c (the law and the proposer), which the memory fit
 * (llm_memory.c) calls: this file calls the roofline, which calls the fit. */
#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fs_llm_spec_perf_init(fs_llm_spec_perf *sp, const fs_llm_perf *target,
                          char *why, size_t len)
{
    const fs_llm_config *tc = &target->cfg;
    double held;
    sp->k = tc->spec->k;
    sp->acceptance = tc->spec->acceptance;
    fs_llm_spec_proposer(tc, &sp->model, &held);
    sp->perf = calloc(1, sizeof *sp->perf);
    if (!sp->perf) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    fs_llm_config pc = *tc;
    pc.model = &sp->model;
    pc.spec = NULL;
    if (fs_llm_perf_init(sp->perf, &pc, &target->hw, why, len))
        return -1;
    /* the target's GPUs at the target's efficiencies (on a shared or
     * calibrated replica too) */
    fs_llm_perf *p = sp->perf;
    p->peak_flops = target->peak_flops;
    p->decode_flops = target->decode_flops;
    p->bandwidth = target->bandwidth;
    const fs_llm_engine *e = fs_llm_engines_find(tc->engines, tc->engine,
                                                 target->hw.gpu->generation);
    int tp = tc->tp > 0 ? tc->tp : 1;
    double tp_scale = 1.0 + (e ? e->tp_step_growth : 0) *
                                (tp > 1 ? log2((double)tp) : 0);
    p->step_overhead_s = (e ? e->layer_s : 0) * sp->model.layers * tp_scale;
    p->prefill_overhead_s = 0;
    return 0;
}

void fs_llm_spec_perf_free(fs_llm_spec_perf *sp)
{
    free(sp->perf);
    sp->perf = NULL;
}

double fs_llm_spec_step_time(const fs_llm_spec_perf *sp,
                             const fs_llm_perf *target, long prefill_tokens,
                             double attn_ctx_tokens, int decode_batch,
                             long decode_kv_tokens)
{
    int k = sp->k;
    double b = decode_batch, kv = (double)decode_kv_tokens, t = 0;
    /* the proposer: pass j drafts token j + 1 of each sequence, its
     * context j tokens longer; the first also caches the prefill chunk */
    t += fs_llm_iteration_time(sp->perf, prefill_tokens, attn_ctx_tokens,
                               decode_batch, decode_kv_tokens);
    for (int j = 1; decode_batch > 0 && j < k; j++)
        t += fs_llm_iteration_time(sp->perf, 0, 0, decode_batch,
                                   decode_kv_tokens + (long)(j * b));
    /* the verify pass: k + 1 tokens a sequence, drafted token j
     * attending to its context and the j before it */
    double extra = decode_batch > 0 ? k * kv + b * k * (k + 1) / 2.0 : 0;
    t += fs_llm_iteration_time(target, prefill_tokens,
                               attn_ctx_tokens + extra,
                               decode_batch * (k + 1), decode_kv_tokens);
    return t;
}
