/* llm_ep.c -- expert parallelism: a mixture of experts' routed experts
 * spread over GPUs, and what that costs and saves.
 *
 * A replica of llm(..., tp = T, ep = N) is max(T, N) GPUs, as SGLang's
 * `--tp`/`--ep` and vLLM's `--enable-expert-parallel` (EP = TP x DP) lay
 * it out:
 *   - the attention, the dense layers, the shared experts and the
 *     embeddings are split over T GPUs; with N > T there are N / T copies
 *     of them (data-parallel attention, DeepSeek-V3's deployment, arXiv:
 *     2412.19437 section 3.4), each with its own sequences and KV cache,
 *     so the replica's KV capacity is the copies' sum;
 *   - the routed experts are spread evenly over all max(T, N) GPUs: one
 *     GPU holds E / N experts (each split over T / N GPUs when N < T).
 * Memory per GPU: the dense part / T + the routed experts / max(T, N);
 * without EP (N = 1) params / T, as before.
 * Time (fs_llm_parallel_apply, on the roofline of llm_perf.c):
 *   - the peak and the bandwidth are the replica's max(T, N) GPUs';
 *   - a step reads the dense part once per attention copy and each routed
 *     expert the batch touches once, E (1 - (1 - k/E)^B) of them
 *     (fs_llm_moe_route); spread evenly, an EP rank holds E / N of the
 *     experts and reads the 1 / N of the touched ones that are its own
 *     (the expected load: the imbalance between ranks is not modelled);
 *   - each MoE layer dispatches every token's hidden state to the ranks
 *     of its k experts and combines their outputs back (DeepEP's
 *     all-to-all): per token and layer 2 x hidden x 2 bytes (16-bit
 *     activations) x the distinct ranks its k experts are on, ep (1
 *     - C(E - E/ep, k) / C(E, k)) (a rank is missed when all k distinct
 *     picks fall among the other ranks' experts), x (ep - 1) / ep of
 *     them another GPU; the replica's
 *     tokens spread over its GPUs, each sending its share over its own
 *     link (half the GPU's both-ways NVLink figure, gpus.csv), plus a
 *     link latency and the stack's collective overhead per all-to-all;
 *   - with the experts whole on a GPU (N >= T) a MoE layer needs no
 *     all-reduce after its FFN (the combine returns the sum): of TP's two
 *     all-reduces a layer, the MoE layers keep the attention's only; the
 *     attention copies' all-reduces run side by side over their shares.
 * Without EP (and without MLA) nothing here changes a figure. */
#include "models/llm/llm.h"

#include <math.h>

int fs_llm_gpus(const fs_llm_config *c)
{
    int tp = c->tp > 0 ? c->tp : 1, ep = c->ep > 0 ? c->ep : 1;
    return tp > ep ? tp : ep;
}

int fs_llm_attention_copies(const fs_llm_config *c)
{
    return fs_llm_gpus(c) / (c->tp > 0 ? c->tp : 1);
}

int fs_llm_moe_layers(const fs_llm_model *m)
{
    return m->experts > 0 ? m->layers - m->dense_layers : 0;
}

double fs_llm_weight_bytes_per_gpu(const fs_llm_config *c)
{
    const fs_llm_model *m = c->model;
    int tp = c->tp > 0 ? c->tp : 1, g = fs_llm_gpus(c);
    double wb = fs_precision_bytes(c->weights);
    if (g == tp)   /* everything over the same tp GPUs */
        return m->params * wb / tp;
    double routed = m->expert_params * m->experts;
    return (m->params - routed) * wb / tp + routed * wb / g;
}

double fs_llm_ep_ranks_per_token(int experts, int ep, int top_k)
{
    if (ep <= 1 || experts < ep || top_k <= 0)
        return ep >= 1 && top_k > 0 ? 1 : 0;
    /* a rank holds experts / ep; it is missed when all k distinct picks
     * fall among the others: C(E - E/ep, k) / C(E, k) */
    double e = experts, away = e - e / ep, none = 1;
    for (int i = 0; i < top_k && none > 0; i++)
        none *= away - i > 0 ? (away - i) / (e - i) : 0;
    return ep * (1.0 - none);
}

/* An MLA cache is whole on every GPU of a TP group: each reads all of it
 * (fs_llm_kv_groups 1; a GQA model with fewer KV heads than GPUs keeps
 * its one-copy charge). */
static void replicated_cache(fs_llm_perf *p)
{
    int tp = p->cfg.tp > 0 ? p->cfg.tp : 1;
    if (tp > 1 && fs_llm_kv_groups(p->cfg.model) == 1)
        p->kv_bytes_per_token *= tp;   /* one copy a GPU */
}

/* The dispatch and combine of one token over the replica's links. */
static void alltoall(fs_llm_perf *p, const fs_llm_engine *e, int ep, int g)
{
    const fs_llm_model *m = p->cfg.model;
    int moe = fs_llm_moe_layers(m);
    if (ep <= 1 || moe <= 0 || p->hw.link_gbs <= 0)
        return;
    double remote = fs_llm_ep_ranks_per_token(m->experts, ep,
                                              m->experts_per_token) *
                    (ep - 1) / ep;
    double bytes = 2.0 * moe * m->hidden * 2.0 * remote;
    p->alltoall_s = bytes / g / (p->hw.link_gbs * 1e9);
    p->allreduce_s_per_token += p->alltoall_s;
    p->allreduce_fixed_s += 2.0 * moe *
                            (e->allreduce_s + p->hw.link_latency_s);
}

void fs_llm_parallel_apply(fs_llm_perf *p, const fs_llm_engine *e)
{
    const fs_llm_model *m = p->cfg.model;
    int tp = p->cfg.tp > 0 ? p->cfg.tp : 1, ep = p->cfg.ep > 0 ? p->cfg.ep : 1;
    int g = fs_llm_gpus(&p->cfg), copies = g / tp;
    replicated_cache(p);
    if (ep <= 1)
        return;
    double scale = (double)g / tp;
    p->peak_flops *= scale;
    p->decode_flops *= scale;
    p->bandwidth *= scale;
    p->dense_bytes *= copies;
    if (tp > 1) {
        p->allreduce_s_per_token /= copies;
        if (ep >= tp) {   /* experts whole: no all-reduce after them */
            double kept = (2.0 * m->layers - fs_llm_moe_layers(m)) /
                          (2.0 * m->layers);
            p->allreduce_s_per_token *= kept;
            p->allreduce_fixed_s *= kept;
        }
    }
    alltoall(p, e, ep, g);
}
