/* llm_perf.c -- an LLM's iteration time on the roofline.
 *
 * An iteration of continuous batching runs the prompt tokens admitted to
 * it (prefill) and one decode step of every running sequence, as one pass
 * over the weights.  Its time is the larger of
 *   compute: (2 x active params x tokens + the attention term, growing with
 *            context) / (peak x mfu), a prefill chunk padded by a few
 *            tokens' worth (small GEMMs do not fill the GPU);
 *   memory:  (the weights at their precision, for an MoE the experts the
 *            batch touches, + the KV cache the batch reads) /
 *            (bandwidth x bw_efficiency);
 * plus fixed overheads (per step, per layer, per prefill) and, with tensor
 * parallelism, two all-reduces per layer over the interconnect.  The
 * efficiencies and overheads are the serving stack's profile for the GPU's
 * generation (models/catalog/engines.csv, calibrated in
 * doc/llm-validation.md), or the configuration's mfu and bw_efficiency. */
#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int generation_index(const fs_gpu *g)
{
    if (strcasecmp(g->generation, "hopper") == 0 ||
        strcasecmp(g->generation, "blackwell") == 0)
        return 3;
    if (strcasecmp(g->generation, "ada") == 0)
        return 2;
    if (strcasecmp(g->generation, "ampere") == 0)
        return 1;
    return 0;
}

void fs_llm_config_default(fs_llm_config *c, const fs_llm_model *m,
                           const fs_llm_engines *engines)
{
    memset(c, 0, sizeof *c);
    c->model = m;
    c->engines = engines;
    c->weights = FS_PREC_BF16;
    c->kv = FS_PREC_BF16;
    c->tp = 1;
    snprintf(c->engine, sizeof c->engine, "%s", fs_llm_engine_default());
}

/* A TP group without NVLink all-reduces over PCIe with NCCL's ring, which
 * reaches this share of the link's one-way datasheet figure: the
 * transfers cross the host's PCIe root complexes (and between sockets),
 * bound by what the CPU and memory deliver, not the GPU's link.  Fitted
 * on TensorRT-LLM v0.9.0's four L40S Llama-2-70B throughput rows at TP 2
 * and 4 (doc/llm-validation.md: 0.39 by least squares). */
#define PCIE_ALLREDUCE_SHARE 0.4

void fs_llm_hw_default(fs_llm_hw *hw, const fs_gpu *g)
{
    hw->gpu = g;
    hw->compute_frac = 1;
    hw->memory_frac = 1;
    if (g->nvlink_gbs > 0 && strcasecmp(g->form, "sxm") == 0) {
        hw->link_gbs = g->nvlink_gbs / 2;
        hw->link_latency_s = 5e-6;
    } else {
        hw->link_gbs = (g->pcie_gbs > 0 ? g->pcie_gbs / 2 : 16) *
                       PCIE_ALLREDUCE_SHARE;
        hw->link_latency_s = 10e-6;
    }
}

/* Dense tensor peak (FLOP/s) a GPU runs these weights at: fp8 on fp8 tensor
 * cores where native; int8 on int8 tensor cores (W8A8) where there are;
 * int4 and the rest as weight-only quantization at fp16/bf16; fp32 as
 * TF32, half the bf16 peak. */
static double compute_peak(const fs_gpu *g, fs_precision p)
{
    switch (p) {
    case FS_PREC_FP8:
        if (g->fp8_native && g->fp8_tflops > 0)
            return g->fp8_tflops * 1e12;
        break;
    case FS_PREC_INT8:
        if (g->int8_tops > 0)
            return g->int8_tops * 1e12;
        break;
    case FS_PREC_FP32:
        return g->bf16_tflops * 0.5e12;
    case FS_PREC_FP16:
        return (g->fp16_tflops > 0 ? g->fp16_tflops : g->bf16_tflops) * 1e12;
    default:
        break;
    }
    return g->bf16_tflops * 1e12;
}

fs_precision fs_llm_kv_default(fs_precision weights)
{
    return fs_precision_bytes(weights) >= 1 ? weights : FS_PREC_FP8;
}

static void fill_timing(fs_llm_perf *p, const fs_llm_config *c,
                        const fs_llm_hw *hw, const fs_llm_engine *e)
{
    const fs_llm_model *m = c->model;
    double mfu = e->mfu, bw = e->bw_efficiency;
    if (c->mfu > 0)
        mfu = c->mfu;
    if (c->bw_efficiency > 0)
        bw = c->bw_efficiency;
    int tp = c->tp > 0 ? c->tp : 1;
    double wb = fs_precision_bytes(c->weights);
    p->weight_bytes = m->params * wb;
    p->peak_flops = compute_peak(hw->gpu, c->weights) * tp *
                    hw->compute_frac * mfu;
    p->decode_flops = p->peak_flops * e->decode_fraction;
    p->bandwidth = hw->gpu->memory_bw_gbs * 1e9 * tp * hw->memory_frac * bw;
    p->flops_per_token = 2.0 * m->active_params;
    p->attn_flops_per_ctx = m->layers * fs_llm_attention_flops(m);
    /* a GPU of a TP group runs 1/tp of each GEMM: narrower, less work
     * a wave, so a small chunk wastes more */
    p->prefill_pad_tokens = e->pad_tokens *
                            (1.0 + e->tp_pad_growth * log2((double)tp));
    /* A stack's per-step cost grows with the ranks it coordinates. */
    double tp_scale = 1.0 + e->tp_step_growth *
                                (tp > 1 ? log2((double)tp) : 0);
    p->step_overhead_s = (e->step_s + e->layer_s * m->layers) * tp_scale;
    p->prefill_overhead_s = e->prefill_s;
    p->experts = m->experts;
    p->experts_per_token = m->experts_per_token;
    p->shared_experts = m->shared_experts;
    p->expert_params = m->expert_params;
    p->expert_bytes = m->expert_params * wb;
    p->expert_gemm_scale = e->moe_efficiency > 0 ? 1.0 / e->moe_efficiency
                                                 : 1.0;
    p->dense_bytes = p->weight_bytes - p->expert_bytes * m->experts;
    p->allreduce_s_per_token = 0;
    p->allreduce_fixed_s = 0;
    if (tp > 1 && hw->link_gbs > 0) {
        /* Ring all-reduce of a token's hidden state in 16-bit: each GPU
         * sends and receives 2 (tp-1)/tp of it; two per layer. */
        double bytes = 2.0 * m->hidden * 2.0 * (tp - 1) / tp;
        p->allreduce_s_per_token = 2.0 * m->layers * bytes /
                                   (hw->link_gbs * 1e9);
        p->allreduce_fixed_s = 2.0 * m->layers *
                               (e->allreduce_s + hw->link_latency_s *
                                                     log2((double)tp));
    }
}

int fs_llm_perf_init(fs_llm_perf *p, const fs_llm_config *c,
                     const fs_llm_hw *hw, char *why, size_t len)
{
    const fs_llm_engine *e = fs_llm_engines_find(c->engines, c->engine,
                                                 hw->gpu->generation);
    if (!e) {
        memset(p, 0, sizeof *p);
        if (why)
            snprintf(why, len, "no engine profile '%s'", c->engine);
        return -1;
    }
    return fs_llm_perf_init_row(p, c, hw, e, why, len);
}

int fs_llm_perf_init_row(fs_llm_perf *p, const fs_llm_config *c,
                         const fs_llm_hw *hw, const fs_llm_engine *e,
                         char *why, size_t len)
{
    memset(p, 0, sizeof *p);
    p->cfg = *c;
    p->hw = *hw;
    if (p->cfg.tp < 1)
        p->cfg.tp = 1;
    /* A release without FP8 MoE runs an MoE asked for in fp8 in 16 bits
     * (engines.csv moe_fp8; doc/llm-validation.md). */
    if (e->moe_fp8 == 0 && c->model->experts > 0 &&
        p->cfg.weights == FS_PREC_FP8) {
        p->cfg.weights = FS_PREC_BF16;
        if (p->cfg.kv == FS_PREC_FP8)
            p->cfg.kv = FS_PREC_BF16;
    }
    fill_timing(p, &p->cfg, hw, e);
    p->block_size = e->block_size >= 16 ? (int)e->block_size : 16;
    p->prefix_cache = e->prefix_cache > 0;
    p->request_s = e->request_s;
    p->output_lag = (int)e->output_lag;
    p->kv_bytes_per_token = fs_llm_kv_bytes_per_token(&p->cfg);
    fs_llm_parallel_apply(p, e);   /* EP, MLA: llm_ep.c */
    fs_llm_memory mem;
    fs_llm_fit_inference(&p->cfg, hw, 0, 0, &mem);
    double free_gb = (mem.capacity - mem.total) * mem.kv_share;
    /* per GPU: a token's KV cache is split over the tp GPUs */
    double per_gpu = fs_llm_kv_bytes_per_gpu_token(&p->cfg) +
                     fs_llm_spec_kv_bytes_gpu_token(&p->cfg);
    long tokens = free_gb > 0 ? (long)(free_gb * 1e9 / per_gpu) : 0;
    tokens *= fs_llm_attention_copies(&p->cfg);   /* ep > tp: each copy's */
    p->kv_capacity_tokens = tokens / 16 * 16;
    if (p->kv_capacity_tokens < 16) {
        if (why)
            fs_llm_memory_format(&mem, why, len);
        return -1;
    }
    return 0;
}

double fs_llm_iteration_time(const fs_llm_perf *p, long prefill_tokens,
                             double attn_ctx_tokens, int decode_batch,
                             long decode_kv_tokens)
{
    double pre = (double)prefill_tokens, dec = (double)decode_batch;
    double tokens = pre + dec;
    if (tokens <= 0)
        return 0;
    /* The GEMMs: every token through the weights, read once.  With a
     * prompt in the batch they run as prefill GEMMs (padded); a decode
     * step alone runs skinny GEMMs at the decode efficiency. */
    double gemm_c = pre > 0 ? fs_llm_gemm_flops(p, tokens,
                                                p->prefill_pad_tokens) /
                                  p->peak_flops
                            : fs_llm_decode_gemm_flops(p, dec) /
                                  p->decode_flops;
    double gemm_m = fs_llm_weight_bytes_read(p, tokens) / p->bandwidth;
    /* Attention: each token against its context, the cache read once
     * (and the prompt's written); its kernels run after the GEMMs'. */
    double ctx = attn_ctx_tokens + (double)decode_kv_tokens;
    double attn_c = p->attn_flops_per_ctx * ctx / p->peak_flops;
    double attn_m = p->kv_bytes_per_token *
                    ((double)decode_kv_tokens + pre) / p->bandwidth;
    double t = (gemm_c > gemm_m ? gemm_c : gemm_m) +
               (attn_c > attn_m ? attn_c : attn_m);
    t += p->step_overhead_s + p->allreduce_fixed_s +
         p->allreduce_s_per_token * tokens;
    if (prefill_tokens > 0)
        t += p->prefill_overhead_s;
    return t;
}

double fs_llm_prefill_time(const fs_llm_perf *p, long tokens)
{
    double n = (double)tokens;
    return fs_llm_iteration_time(p, tokens, n * (n + 1) / 2, 0, 0);
}

double fs_llm_training_mfu(const fs_gpu *g)
{
    /* bf16 training with a tuned stack: about 0.40 of the dense peak on
     * Ampere and Hopper (Megatron-LM and Llama 2 reports), a little less
     * on older or smaller parts. */
    static const double by_gen[4] = {0.30, 0.40, 0.35, 0.40};
    return by_gen[generation_index(g)];
}

double fs_llm_training_tokens_per_s(const fs_llm_model *m, const fs_gpu *g,
                                    fs_precision p, double mfu,
                                    int recompute, long lora_rank)
{
    if (mfu <= 0)
        mfu = fs_llm_training_mfu(g);
    /* weights held in int8 or int4 (QLoRA's base, dequantized per matmul)
     * still compute in bf16 */
    fs_precision cp = p == FS_PREC_FP8 ? p : FS_PREC_BF16;
    return mfu * compute_peak(g, cp) /
           fs_llm_training_flops_per_token(m, lora_rank, recompute);
}
