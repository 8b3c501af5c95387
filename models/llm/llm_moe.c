/* llm_moe.c -- what an iteration of a mixture of experts computes and
 * reads: which experts its tokens reach, the rows their GEMMs run, the
 * weights they read.
 *
 * Each token's router picks k of the E routed experts (top-k, k distinct),
 * and every token also runs the model's shared experts.  Over a batch of B
 * tokens a given routed expert is missed by one token with probability
 * 1 - k/E, by all B (routing taken independent) with (1 - k/E)^B, so the
 * expected number of distinct routed experts the batch touches is
 *     E (1 - (1 - k/E)^B).
 * That number sets two costs:
 *   - the bytes a step reads: the dense part (attention, embeddings,
 *     norms, the shared experts) and each touched expert's weights once;
 *   - the rows a prefill's expert GEMMs run: the B k routed token-expert
 *     pairs, each touched expert's rows rounded up to a whole tile of the
 *     fused MoE kernel (vLLM's fused_moe aligns each expert's tokens to
 *     BLOCK_SIZE_M, get_default_config: 16 rows when the batch has no
 *     more tokens than experts, else 64), so many experts with few tokens
 *     each cost more than their FLOPs.
 * fs_llm_moe_route is the one place this arithmetic lives, so that a
 * later expert-parallel model (experts spread over GPUs, each GPU reading
 * and computing the experts it holds) builds on the same counts. */
#include "models/llm/llm.h"

#include <math.h>

/* The fused kernel's tile of rows (vLLM fused_moe get_default_config). */
#define MOE_TILE_SMALL 16
#define MOE_TILE_LARGE 64

double fs_llm_moe_touched(int experts, int top_k, double tokens)
{
    if (experts <= 0 || top_k <= 0 || tokens <= 0)
        return 0;
    double e = experts, k = top_k > experts ? experts : top_k;
    return e * (1.0 - pow(1.0 - k / e, tokens));
}

void fs_llm_moe_route(int experts, int top_k, int shared, double tokens,
                      fs_llm_moe_load *out)
{
    out->touched = fs_llm_moe_touched(experts, top_k, tokens);
    out->shared = shared > 0 ? shared : 0;
    out->pairs = tokens > 0 && experts > 0 ? tokens * top_k : 0;
    out->rows = 0;
    if (out->touched <= 0)
        return;
    /* each touched expert's mean rows, rounded up to the kernel's tile */
    double tile = tokens <= experts ? MOE_TILE_SMALL : MOE_TILE_LARGE;
    double per = out->pairs / out->touched;
    out->rows = out->touched * tile * ceil(per / tile - 1e-9);
}

/* Of a token's active parameters, those outside the routed experts. */
static double dense_active(const fs_llm_perf *p)
{
    return p->flops_per_token / 2.0 -
           (double)p->experts_per_token * p->expert_params;
}

/* A routed expert's GEMM FLOP in dense ones (the release's grouped MoE
 * GEMM against its dense GEMM: engines.csv moe_efficiency). */
static double expert_scale(const fs_llm_perf *p)
{
    return p->expert_gemm_scale > 0 ? p->expert_gemm_scale : 1.0;
}

double fs_llm_gemm_flops(const fs_llm_perf *p, double tokens, double pad)
{
    if (p->experts <= 0)
        return p->flops_per_token * (tokens + pad);
    fs_llm_moe_load l;
    fs_llm_moe_route(p->experts, p->experts_per_token, p->shared_experts,
                     tokens, &l);
    /* the dense part runs the padded chunk as one GEMM; the routed
     * experts their tiles, and the chunk's padding for each expert a
     * token runs */
    return 2.0 * (dense_active(p) * (tokens + pad) +
                  p->expert_params * expert_scale(p) *
                      (l.rows + pad * (double)p->experts_per_token));
}

double fs_llm_decode_gemm_flops(const fs_llm_perf *p, double tokens)
{
    if (p->experts <= 0 || expert_scale(p) == 1.0)
        return p->flops_per_token * tokens;
    return 2.0 * tokens *
           (dense_active(p) + (double)p->experts_per_token *
                                  p->expert_params * expert_scale(p));
}

double fs_llm_weight_bytes_read(const fs_llm_perf *p, double tokens)
{
    if (p->experts <= 0)
        return p->weight_bytes;
    double touched = fs_llm_moe_touched(p->experts, p->experts_per_token,
                                        tokens);
    return p->dense_bytes + touched * p->expert_bytes;
}

double fs_llm_ffn_active(const fs_llm_model *m)
{
    if (m->experts <= 0)
        return m->ffn;
    return (double)m->ffn * (m->experts_per_token + m->shared_experts);
}
