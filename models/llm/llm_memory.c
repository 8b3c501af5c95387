/* llm_memory.c -- does an LLM fit: the memory of one GPU of a replica.
 *
 * Inference: the weights at their precision (split over tp; with expert
 * parallelism the routed experts over max(tp, ep): llm_ep.c), the KV cache
 * (layers x the values a token caches a layer x bytes: 2 x KV heads x
 * head dim, KV heads split over tp, or MLA's latent, whole on each GPU:
 * llm_attention.c), and what the serving stack's profile (models/catalog/engines.csv)
 * sets aside as it sizes its cache: the activation peak of its profiling
 * run (and the all-reduce inputs a release keeps to the pass's end), CUDA
 * graphs, runtime, the memory it leaves unused.  Without a
 * profile (or one without those columns): the activations of one prefill
 * chunk (at most 8,192 tokens) and an overhead of 1 GB plus 4% of the
 * GPU's memory.  With a profile the memory is the total the driver
 * reports (gpus.csv reported_gib), as the engines see it; without, and
 * for training, the datasheet's.
 * Training: weights, gradients (16-bit), optimizer states, fp32 master
 * weights, activations for batch x seq (all of every layer, or with
 * activation checkpointing each layer's input plus one layer recomputed),
 * sharded by ZeRO stage over the data-parallel GPUs.  With LoRA (a rank
 * r > 0) the base weights are frozen at their precision (int4 for QLoRA,
 * plus its quantization constants: FS_QLORA_CONST_BITS, 0.127 bits a
 * parameter with double quantization) and have no gradients or optimizer
 * states:
 * those, and the fp32 master copy, are the adapters' alone (16-bit
 * adapter weights), and the activations are the full model's, since the
 * backward pass runs through every frozen layer (Hu et al. 2021, LoRA,
 * arXiv:2106.09685; Dettmers et al. 2023, QLoRA, arXiv:2305.14314).
 * GB = 10^9 bytes. */
#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define GB 1e9
#define PREFILL_CHUNK 8192.0

/* The cache's units (KV heads; MLA's one latent) a GPU of tp holds. */
static int groups_per_gpu(const fs_llm_model *m, int tp)
{
    int h = (fs_llm_kv_groups(m) + tp - 1) / tp;
    return h < 1 ? 1 : h;
}

double fs_llm_kv_bytes_per_token(const fs_llm_config *c)
{
    const fs_llm_model *m = c->model;
    return m->layers * fs_llm_kv_values(m) * fs_precision_bytes(c->kv);
}

double fs_llm_kv_bytes_per_gpu_token(const fs_llm_config *c)
{
    const fs_llm_model *m = c->model;
    int tp = c->tp > 0 ? c->tp : 1;
    return fs_llm_kv_bytes_per_token(c) / fs_llm_kv_groups(m) *
           groups_per_gpu(m, tp);
}

static double capacity_gb(const fs_llm_hw *hw)
{
    return hw->gpu->memory_gb * (hw->memory_frac > 0 ? hw->memory_frac : 1);
}

/* What a serving engine sizes its cache from: the total the driver
 * reports (cudaMemGetInfo, vLLM's total_gpu_memory; gpus.csv
 * reported_gib), not the datasheet's GB: 79.15 GiB = 84.99 GB on an
 * A100 80GB.  A MIG slice or a time-sliced share keeps its datasheet
 * memory: no catalog gives a driver's figure per slice (a 1g.10gb
 * reports its own 9.5 GiB, not a seventh of the card's). */
static double reported_gb(const fs_llm_hw *hw)
{
    if (hw->memory_frac > 0 && hw->memory_frac < 1)
        return capacity_gb(hw);
    return fs_gpu_reported_gb(hw->gpu);
}

static double overhead_gb(double capacity)
{
    return 1.0 + 0.04 * capacity;
}

static void total(fs_llm_memory *m)
{
    m->total = m->weights + m->kv_cache + m->activations + m->overhead +
               m->cuda_graphs + m->reserved + m->allreduce_held +
               m->gradients + m->optimizer +
               m->master_weights + m->adapters + m->quant_consts + m->spec;
    m->fits = m->total <= m->capacity;
}

/* Without a stack's memory columns: one prefill chunk's activations (at
 * most 8,192 tokens), the logits of every token, 1 GB + 4% kept free. */
static void estimate(const fs_llm_config *c, double tokens,
                     fs_llm_memory *out)
{
    const fs_llm_model *m = c->model;
    int tp = c->tp > 0 ? c->tp : 1;
    double chunk = tokens > 0 && tokens < PREFILL_CHUNK ? tokens
                                                        : PREFILL_CHUNK;
    double ffn = fs_llm_ffn_active(m);
    /* residual stream and attention in and out, the FFN's gate and up
     * projections, and the logits, in 16-bit */
    out->activations = chunk * 2.0 *
                       (3.0 * m->hidden + 2.0 * ffn / tp +
                        (double)m->vocab / tp) / GB;
    out->overhead = overhead_gb(out->capacity);
}

/* The all-reduce inputs a release keeps until its forward pass ends
 * (engine allreduce_held a layer; vLLM 0.2.5, whose all-reduce went
 * through torch.distributed with NCCL's record_stream: the caching
 * allocator cannot reuse an input's block while the collective's stream
 * may still read it, so with the CPU ahead of the GPU each stays in use
 * to the pass's end; vllm-project/vllm#2150, #2151): each is the
 * profiling run's tokens' whole hidden state in 16 bits, not split by TP,
 * and what the driver reports in use after that run counts them.  TP 1
 * runs no all-reduce. */
static double allreduce_held_gb(const fs_llm_config *c,
                                const fs_llm_engine *e)
{
    const fs_llm_model *m = c->model;
    if (c->tp < 2)
        return 0;
    return e->allreduce_held * m->layers * e->max_num_batched_tokens *
           m->hidden * 2.0 / GB;
}

/* As the stack sizes its KV cache (vLLM's determine_num_available_blocks:
 * a profiling forward pass of max_num_batched_tokens tokens in
 * max_num_seqs sequences, then gpu_memory_utilization x the GPU's memory
 * less the peak): the activation peak of that pass (4 h + 4 ffn / tp
 * 16-bit values a token: residual stream, attention in and out, the FFN's
 * gate, up, activation and product; 16 bytes a vocabulary entry a
 * sequence: fp32 logits, probabilities and the sampler's sort), the
 * all-reduce inputs a release holds (above), the captured graphs, the
 * runtime (and its communication buffers under TP), the memory it leaves
 * unused, and an input embedding TP does not split. */
static void as_engine(const fs_llm_config *c, const fs_llm_engine *e,
                      fs_llm_memory *out)
{
    const fs_llm_model *m = c->model;
    int tp = c->tp > 0 ? c->tp : 1;
    double ffn = fs_llm_ffn_active(m);
    double tokens = e->max_num_batched_tokens;
    out->activations = (tokens * 2.0 * (4.0 * m->hidden + 4.0 * ffn / tp) +
                        e->max_num_seqs * 16.0 * m->vocab) / GB;
    out->overhead = e->runtime_gb +
                    (fs_llm_gpus(c) > 1 ? e->tp_runtime_gb : 0);
    out->cuda_graphs = e->cuda_graph_gb;
    out->allreduce_held = allreduce_held_gb(c, e);
    /* An engine that takes a share of the memory (vLLM 0.6 on, SGLang)
     * captures its graphs after the cache is allocated, in the share it
     * leaves: they shrink what is kept free, not the cache (vLLM's
     * determine_num_available_blocks / determine_available_memory). */
    double unused = (1.0 - e->memory_utilization) * out->capacity;
    out->reserved = unused > out->cuda_graphs ? unused - out->cuda_graphs
                                              : 0;
    out->kv_share = e->kv_free_fraction;
    if (e->replicated_embedding > 0)
        out->weights += (double)m->vocab * m->hidden *
                        fs_precision_bytes(c->weights) * (1.0 - 1.0 / tp) /
                        GB;
}

void fs_llm_fit_inference(const fs_llm_config *c, const fs_llm_hw *hw,
                          long context, int batch, fs_llm_memory *out)
{
    memset(out, 0, sizeof *out);
    const fs_llm_engine *e = fs_llm_engines_find(c->engines, c->engine,
                                                 hw->gpu->generation);
    int engine = e && e->memory_utilization > 0;
    out->capacity = engine ? reported_gb(hw) : capacity_gb(hw);
    out->kv_share = 1;
    out->weights = fs_llm_weight_bytes_per_gpu(c) / GB;
    double tokens = (double)context * (batch > 0 ? batch : 0);
    /* speculative decoding: the proposer's weights, and its KV cache
     * beside the target's for every token (llm_spec.c); ep > tp: the
     * sequences spread over the attention copies */
    out->spec = fs_llm_spec_weight_bytes_gpu(c) / GB;
    out->kv_cache = (fs_llm_kv_bytes_per_gpu_token(c) +
                     fs_llm_spec_kv_bytes_gpu_token(c)) * tokens /
                    fs_llm_attention_copies(c) / GB;
    if (engine)
        as_engine(c, e, out);
    else
        estimate(c, tokens, out);
    total(out);
}

static const char *const optimizers[FS_OPT_COUNT] = {"adam", "adam8bit",
                                                     "sgd"};

int fs_optimizer_parse(const char *s, fs_optimizer *out)
{
    for (int i = 0; i < FS_OPT_COUNT; i++)
        if (strcasecmp(s, optimizers[i]) == 0) {
            *out = (fs_optimizer)i;
            return 0;
        }
    return -1;
}

const char *fs_optimizer_name(fs_optimizer o)
{
    return o < FS_OPT_COUNT ? optimizers[o] : "?";
}

/* Bytes of 16-bit activations one token keeps for one layer's backward
 * pass (flash attention: no score matrix): the attention block's inputs,
 * Q, K, V and output (7 h + 2 kv), the FFN's input, gate, up, activation
 * and product (4 x ffn per routed expert). */
static double act_bytes_layer_token(const fs_llm_model *m)
{
    double ffn = fs_llm_ffn_active(m);
    return 2.0 * (7.0 * m->hidden + 4.0 * ffn +
                  2.0 * m->kv_heads * m->head_dim);
}

/* LoRA parameters at rank r with `experts` experts' FFNs adapted. */
static double lora_params(const fs_llm_model *m, long r, double experts)
{
    double h = m->hidden, q = (double)m->heads * m->head_dim;
    double kv = (double)m->kv_heads * m->head_dim, f = m->ffn;
    double attention = (h + q) + 2 * (h + kv) + (q + h);
    double ffn = 3 * (h + f) * experts;
    return (double)r * m->layers * (attention + ffn);
}

double fs_llm_lora_params(const fs_llm_model *m, long r)
{
    return lora_params(m, r, m->experts > 0 ? m->experts : 1);
}

double fs_llm_training_flops_per_token(const fs_llm_model *m, long lora_rank,
                                       int recompute)
{
    double extra = recompute ? 2.0 : 0.0;   /* the recomputed forward */
    if (lora_rank <= 0)
        return (6.0 + extra) * m->active_params;
    /* a token runs through its routed experts' adapters only */
    double adapters = lora_params(m, lora_rank,
                                  m->experts > 0 ? m->experts_per_token : 1);
    return (4.0 + extra) * m->active_params + (6.0 + extra) * adapters;
}

void fs_llm_fit_training(const fs_llm_model *m, const fs_llm_training *t,
                         const fs_llm_hw *hw, fs_llm_memory *out)
{
    static const double opt_bytes[FS_OPT_COUNT] = {8, 2, 4};
    int n = t->gpus > 0 ? t->gpus : 1;
    int zero = t->zero;
    memset(out, 0, sizeof *out);
    out->capacity = capacity_gb(hw);
    double p = m->params;
    double wb = fs_precision_bytes(t->weights);
    out->weights = p * wb / GB / (zero >= 3 ? n : 1);
    if (t->lora_rank > 0) {   /* what trains: the adapters, 16-bit */
        p = fs_llm_lora_params(m, t->lora_rank);
        wb = 2;
        out->adapters = p * wb / GB / (zero >= 3 ? n : 1);
        if (t->weights == FS_PREC_INT4)   /* QLoRA: the base's constants */
            out->quant_consts = m->params * FS_QLORA_CONST_BITS / 8 / GB /
                                (zero >= 3 ? n : 1);
    }
    out->gradients = p * (wb > 2 ? wb : 2) / GB / (zero >= 2 ? n : 1);
    out->optimizer = p * opt_bytes[t->optimizer] / GB / (zero >= 1 ? n : 1);
    if (t->master_weights && (t->weights != FS_PREC_FP32 || t->lora_rank))
        out->master_weights = p * 4.0 / GB / (zero >= 1 ? n : 1);
    /* The batch is split over the data-parallel GPUs. */
    double seqs = ceil((double)t->batch / n);
    double tokens = seqs * (double)t->seq;
    double layer = act_bytes_layer_token(m) * tokens;
    double kept = t->checkpointing
                      ? 2.0 * m->hidden * tokens * m->layers + layer
                      : layer * m->layers;
    double logits = 2.0 * m->vocab * tokens;
    out->activations = (kept + logits) / GB;
    out->overhead = overhead_gb(out->capacity);
    total(out);
}

void fs_llm_memory_format(const fs_llm_memory *m, char *buf, size_t len)
{
    static const char *const names[] = {
        "weights", "KV cache", "activations", "overhead", "CUDA graphs",
        "kept free", "all-reduce inputs held", "gradients",
        "optimizer states", "master weights", "adapters",
        "quantization constants", "draft/MTP weights"};
    double v[] = {m->weights, m->kv_cache, m->activations, m->overhead,
                  m->cuda_graphs, m->reserved, m->allreduce_held,
                  m->gradients, m->optimizer,
                  m->master_weights, m->adapters, m->quant_consts, m->spec};
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof v / sizeof v[0] && off < len; i++) {
        if (v[i] <= 0 && i != 0)
            continue;
        off += (size_t)snprintf(buf + off, len - off, "%s%s %.1f GB",
                                off ? " + " : "", names[i], v[i]);
    }
    if (off < len)
        snprintf(buf + off, len - off, " = %.1f GB %s %.1f GB", m->total,
                 m->fits ? "<=" : ">", m->capacity);
}

/* Speculative decoding's share of the replica (llm_spec.h): the
 * proposer's weights and its KV cache a token, per GPU. */
double fs_llm_spec_weight_bytes_gpu(const fs_llm_config *c)
{
    if (!c->spec || c->spec->kind == FS_SPEC_OFF)
        return 0;
    fs_llm_model p;
    double held;
    int tp = c->tp > 0 ? c->tp : 1;
    fs_llm_spec_proposer(c, &p, &held);
    return held * fs_precision_bytes(c->weights) / tp;
}

double fs_llm_spec_kv_bytes_gpu_token(const fs_llm_config *c)
{
    if (!c->spec || c->spec->kind == FS_SPEC_OFF)
        return 0;
    fs_llm_model p;
    double held;
    fs_llm_spec_proposer(c, &p, &held);
    fs_llm_config pc = *c;
    pc.model = &p;
    pc.spec = NULL;
    return fs_llm_kv_bytes_per_gpu_token(&pc);
}
