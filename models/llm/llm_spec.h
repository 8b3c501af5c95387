/* llm_spec.h -- speculative decoding: a proposer drafts k tokens, the
 * target verifies k + 1 in one pass.
 *
 * Two proposers, as vLLM, SGLang and TensorRT-LLM run them:
 *   - draft(model=M, k=K, acceptance=A): a smaller model of the same
 *     vocabulary (llama-3.2-1b for a Llama 3 target) runs k decode passes
 *     of its own, its weights and KV cache held beside the target's;
 *   - mtp(k=K, acceptance=A): multi-token prediction, the model's own
 *     extra head (DeepSeek-V3's MTP module, EAGLE-style heads): one
 *     transformer block of the target's shape and a 2h x h projection,
 *     reading the target's LM head, run k times.
 * Each step the target verifies the k drafted tokens and one of its own
 * in one pass of k + 1 tokens per sequence.  With each drafted token
 * accepted with probability a, independently (Leviathan et al. 2023,
 * arXiv:2211.17192, section 3.1), the tokens a step emits are the drafted
 * tokens accepted before the first rejection plus the target's own: N =
 * min(G, k + 1), G geometric with success 1 - a, so
 *     P(N = n) = a^(n-1) (1 - a) for n <= k, P(N = k + 1) = a^k,
 *     E[N] = (1 - a^(k+1)) / (1 - a)           (fs_llm_spec_expected).
 * The fleet draws N per sequence per step (fs_llm_spec_draw: GSL's
 * geometric variate on the run's seeded stream) and times the step with
 * fs_llm_spec_step_time. */
#ifndef FS_LLM_SPEC_H
#define FS_LLM_SPEC_H

#include <stddef.h>
#include <gsl/gsl_rng.h>
#include "models/llm/llm.h"

typedef enum fs_spec_kind {
    FS_SPEC_OFF = 0,
    FS_SPEC_DRAFT,
    FS_SPEC_MTP,
} fs_spec_kind;

#define FS_SPEC_K_MAX 16

struct fs_llm_spec {
    fs_spec_kind kind;
    int k;                       /* drafted tokens per step, 1..16 */
    double acceptance;           /* per drafted token, in (0, 1) */
    const fs_llm_model *draft;   /* FS_SPEC_DRAFT: resolved by the scenario */
};

/* "draft" or "mtp" ("off" for none). */
const char *fs_llm_spec_kind_name(fs_spec_kind k);

/* (1 - a^(k+1)) / (1 - a): the tokens a step emits, on average. */
double fs_llm_spec_expected(double a, int k);
/* One step's tokens for one sequence, 1..k+1, drawn from rng. */
int fs_llm_spec_draw(double a, int k, gsl_rng *rng);

/* Whether draft can propose for target: 0, or -1 with why (a draft no
 * smaller than the target gains nothing; a different vocabulary cannot
 * be verified token for token, and vLLM refuses it). */
int fs_llm_spec_check_draft(const fs_llm_model *target,
                            const fs_llm_model *draft, char *why,
                            size_t len);

/* The proposer as a model of its own: the draft, or the MTP module (one
 * layer: a block of the target's, its 2h x h projection and the target's
 * LM head read each pass).  *held: the parameters it adds to the
 * replica's memory (the draft's all; the MTP module's block and
 * projection, the head being the target's). */
void fs_llm_spec_proposer(const fs_llm_config *c, fs_llm_model *out,
                          double *held);
/* Per GPU of the replica (0 without spec): the proposer's weights, in
 * bytes, and its KV cache per token (the draft's layers, or the MTP
 * block's one). */
double fs_llm_spec_weight_bytes_gpu(const fs_llm_config *c);
double fs_llm_spec_kv_bytes_gpu_token(const fs_llm_config *c);

/* The proposer's timing on the target's replica, filled once. */
typedef struct fs_llm_spec_perf {
    int k;
    double acceptance;
    fs_llm_model model;          /* the proposer (perf.cfg.model is it:
                                    keep this struct where it is made) */
    fs_llm_perf *perf;           /* owned */
} fs_llm_spec_perf;

/* 0, or -1 with why (out of memory, no engine profile). */
int fs_llm_spec_perf_init(fs_llm_spec_perf *sp, const fs_llm_perf *target,
                          char *why, size_t len);
void fs_llm_spec_perf_free(fs_llm_spec_perf *sp);

/* Seconds of one speculative iteration: the proposer's k passes over the
 * decode batch (the first with the iteration's prefill chunk, which the
 * proposer caches too), then the target's pass verifying k + 1 tokens of
 * each decoding sequence beside the prefill (fs_llm_iteration_time with
 * (k + 1) x batch decode tokens: the weights are read once, so the verify
 * pass is nearly free while the step is bound by memory, and costs
 * (k + 1) x the compute once it is not). */
double fs_llm_spec_step_time(const fs_llm_spec_perf *sp,
                             const fs_llm_perf *target, long prefill_tokens,
                             double attn_ctx_tokens, int decode_batch,
                             long decode_kv_tokens);

#endif
