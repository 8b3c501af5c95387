/* llm.h -- an LLM on a GPU: its shape, whether it fits, how long it runs.
 *
 * The family models/llm/ (above catalog/, beside purchase/): an LLM on a
 * GPU: shapes, memory, roofline timing, serving engines (llm_engine.h),
 * MIG slices (mig.h), calibration (llm_fit.h) and the benchmark formats it
 * reads (measure.h).
 *
 * Three things a planner asks of a model and a GPU, with no profiling run:
 *   - the model's shape (models/catalog/models.csv, from each model's
 *     published config.json, or the user's own rows);
 *   - its memory: weights, KV cache, activations, runtime overhead (and for
 *     training gradients and optimizer states), and whether they fit;
 *   - its timing on the roofline: prefill is bound by compute, a decode
 *     step by memory bandwidth (weights plus the batch's KV cache read once
 *     per step), tensor parallelism divides the work and adds two
 *     all-reduces per layer over the instance's interconnect.
 * The fleet calls these through fs_llm_perf, filled once per server shape,
 * so an iteration's time is a few multiplications and no allocation.
 *
 * Units: bytes and seconds; GB = 10^9 bytes in everything printed. */
#ifndef FS_LLM_H
#define FS_LLM_H

#include <stddef.h>
#include "sim/base/error.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm_engine.h"

typedef enum fs_precision {
    FS_PREC_FP32,
    FS_PREC_BF16,
    FS_PREC_FP16,
    FS_PREC_FP8,
    FS_PREC_INT8,
    FS_PREC_INT4,
    FS_PREC_COUNT
} fs_precision;

/* "bf16" -> FS_PREC_BF16; 0, or -1 for an unknown name. */
int fs_precision_parse(const char *s, fs_precision *out);
const char *fs_precision_name(fs_precision p);
/* Bytes per parameter or per cached value: 4, 2, 2, 1, 1, 0.5. */
double fs_precision_bytes(fs_precision p);
/* Whether g can run weights (or a KV cache) at p: 1, or 0 with why (may
 * be NULL) naming what runs there instead (llm_precision.c). */
int fs_precision_runs_on(const fs_gpu *g, fs_precision p, char *why,
                         size_t len);

/* How a model's attention caches keys and values (llm_attention.c, one
 * table of kinds): grouped-query attention (MHA, GQA, MQA: a key and a
 * value of head_dim for each KV head), or DeepSeek's multi-head latent
 * attention (one compressed latent of kv_lora_rank values and a shared
 * rotary key of rope_head_dim a token a layer, whatever the heads). */
typedef enum fs_llm_attention {
    FS_ATTN_GQA,
    FS_ATTN_MLA,
    FS_ATTN_COUNT
} fs_llm_attention;

/* One model's shape.  Dense models have experts = 0 and active = params. */
typedef struct fs_llm_model {
    char name[48];
    double params;          /* total parameters */
    double active_params;   /* per token (MoE: shared + the routed experts) */
    int layers, hidden, heads, kv_heads, head_dim, ffn;
    int experts, experts_per_token;
    int shared_experts;     /* experts every token runs besides its k
                               (the same size as a routed one; 0: none) */
    double expert_params;   /* parameters of one expert, all its MoE
                               layers (MoE) */
    int dense_layers;       /* MoE: the leading layers whose FFN is dense
                               (DeepSeek-V3's first_k_dense_replace 3) */
    int dense_ffn;          /* their FFN size (intermediate_size) */
    fs_llm_attention attention;
    int kv_lora_rank;       /* MLA: the cached latent's width */
    int q_lora_rank;        /* MLA: the query's compression (0: none) */
    int rope_head_dim;      /* MLA: the decoupled rotary key's width
                               (head_dim is qk_nope_head_dim, and
                               v_head_dim equal to it) */
    int vocab;
    long max_context;
    char source[256];
} fs_llm_model;

typedef struct fs_llm_catalog fs_llm_catalog;
typedef struct fs_llm_spec fs_llm_spec;   /* llm_spec.h */

/* models.csv (or a user's file of the same columns); "path:line: column:
 * ..." on a malformed row. */
fs_llm_catalog *fs_llm_catalog_load(const char *csv, fs_error *err);
void fs_llm_catalog_free(fs_llm_catalog *c);
/* Case-insensitive; NULL when absent. */
const fs_llm_model *fs_llm_catalog_find(const fs_llm_catalog *c,
                                        const char *name);
/* "did you mean 'llama-3-8b'?" (or the known names) into buf. */
void fs_llm_catalog_suggest(const fs_llm_catalog *c, const char *name,
                            char *buf, size_t len);
size_t fs_llm_catalog_count(const fs_llm_catalog *c);
const fs_llm_model *fs_llm_catalog_at(const fs_llm_catalog *c, size_t i);
/* The catalog's models.csv: fs_catalog_default_dir()/models.csv. */
fs_llm_catalog *fs_llm_catalog_load_default(fs_error *err);

/* A user's model given key by key (`model = custom(name=..., layers=...)`):
 * fs_llm_model_set takes one column of models.csv by name ("layers",
 * "params_b", ...) and checks its range; fs_llm_model_finish checks the
 * whole (every shape column given, heads a multiple of KV heads...) and
 * derives the rest.  0, or -1 with why. */
int fs_llm_model_set(fs_llm_model *m, const char *key, const char *value,
                     char *why, size_t len);
int fs_llm_model_finish(fs_llm_model *m, char *why, size_t len);
/* The parameters m's shape holds (llm_catalog.c gives the formula);
 * fs_llm_model_finish refuses a params_b not within a factor of 2 of it. */
double fs_llm_shape_params(const fs_llm_model *m);

/* How a model is served: precision, tensor parallelism, serving stack (a
 * profile of engines, "vllm" or "vllm@0.2": models/llm/llm_engine.h) and the
 * efficiencies (0 = the profile's for the GPU's generation). */
typedef struct fs_llm_config {
    const fs_llm_model *model;
    fs_precision weights;   /* weight precision */
    fs_precision kv;        /* KV-cache precision (default: weights', at
                               least fp8) */
    int tp;                 /* GPUs per replica: 1, 2, 4, 8 */
    const fs_llm_engines *engines;   /* the profiles engine is looked up
                                        in (not owned) */
    char engine[2 * FS_LLM_ENGINE_NAME_MAX];   /* "vllm" (default) */
    double mfu;             /* prefill compute efficiency, 0..1 */
    double bw_efficiency;   /* decode bandwidth efficiency, 0..1 */
    int ep;                 /* expert-parallel ranks (MoE): 1 (or 0),
                               2, 4, 8; the replica is max(tp, ep) GPUs
                               (llm_ep.c) */
    const fs_llm_spec *spec;   /* speculative decoding (llm_spec.h): its
                                  proposer's weights and KV cache share
                                  the replica's memory; NULL: none */
} fs_llm_config;

/* The KV cache's default precision for these weights: the weights', at
 * least fp8 (an int4 model keeps an fp8 cache).  fs_llm_config.kv is
 * taken as it is: set it from this when the user names none. */
fs_precision fs_llm_kv_default(fs_precision weights);

/* bf16 weights and KV cache, tp 1, vllm from these profiles, the
 * profile's efficiencies. */
void fs_llm_config_default(fs_llm_config *c, const fs_llm_model *m,
                           const fs_llm_engines *engines);

/* What one replica runs on: tp GPUs of this type, each cut to a share of
 * its compute and memory (1, 1 for whole GPUs; a MIG slice's SM and memory
 * fractions), joined by a link of link_gbs GB/s per GPU and link_latency_s
 * per collective step (NVLink or PCIe, from the instance type). */
typedef struct fs_llm_hw {
    const fs_gpu *gpu;
    double compute_frac;
    double memory_frac;     /* of memory capacity and of bandwidth */
    double link_gbs;
    double link_latency_s;
} fs_llm_hw;

/* Whole GPUs joined as their form factor says: an SXM part with NVLink by
 * NVLink (half its both-ways figure per direction, 5 us a step), others by
 * PCIe (half the both-ways figure, 10 us a step). */
void fs_llm_hw_default(fs_llm_hw *hw, const fs_gpu *g);

/* A memory breakdown, GB per GPU of the replica. */
typedef struct fs_llm_memory {
    double weights, kv_cache, activations, overhead;   /* inference */
    double cuda_graphs, reserved;   /* the stack's graphs; what it leaves
                                       unused (1 - memory_utilization) */
    double allreduce_held;  /* all-reduce inputs the stack's profiling
                               pass keeps to its end (engine
                               allreduce_held) */
    double kv_share;                /* of the rest, the KV cache's share */
    double gradients, optimizer, master_weights;      /* training */
    double adapters;        /* LoRA: the trainable adapters' weights */
    double quant_consts;    /* QLoRA: the 4-bit base's quantization
                               constants (FS_QLORA_CONST_BITS) */
    double spec;            /* speculative decoding: the draft model's or
                               MTP module's weights (llm_spec.h) */
    double total, capacity;
    int fits;
} fs_llm_memory;

/* Training: the memory of one GPU of `gpus` training data-parallel with
 * ZeRO stage `zero` (0: everything replicated; 1: optimizer states and
 * master weights sharded; 2: and gradients; 3: and weights). */
typedef enum fs_optimizer {
    FS_OPT_ADAM,       /* fp32 m and v: 8 bytes a parameter */
    FS_OPT_ADAM8BIT,   /* 8-bit m and v: 2 bytes */
    FS_OPT_SGD,        /* fp32 momentum: 4 bytes */
    FS_OPT_COUNT
} fs_optimizer;
int fs_optimizer_parse(const char *s, fs_optimizer *out);
const char *fs_optimizer_name(fs_optimizer o);

typedef struct fs_llm_training {
    fs_precision weights;   /* bf16; int8 for a quantized base */
    int batch;              /* sequences per step, over all gpus */
    long seq;               /* tokens per sequence */
    int checkpointing;      /* activation checkpointing (recompute) */
    fs_optimizer optimizer;
    int master_weights;     /* fp32 master copy (mixed precision) */
    int zero, gpus;         /* ZeRO stage 0-3 over gpus */
    long lora_rank;         /* > 0: LoRA (QLoRA with int4 weights): the
                               base frozen at its precision, only rank-r
                               adapters trained (fs_llm_lora_params) */
} fs_llm_training;

/* LoRA's trainable parameters at rank r: r x (in + out) for every linear
 * layer of every block, attention q, k, v, o and the FFN's gate, up and
 * down (each expert's, for an MoE), as QLoRA adapts them all. */
double fs_llm_lora_params(const fs_llm_model *m, long r);

/* QLoRA's quantization constants per base parameter, in bits, with double
 * quantization (Dettmers et al. 2023, QLoRA, arXiv:2305.14314, section 3):
 * an fp32 absmax per block of 64 weights is 32/64 = 0.5 bits; quantized
 * to 8 bits with an fp32 constant per 256 of them, 8/64 + 32/(64 x 256)
 * = 0.126953125 bits ("0.127 bits per parameter"). */
#define FS_QLORA_CONST_BITS (8.0 / 64 + 32.0 / (64 * 256))

void fs_llm_fit_training(const fs_llm_model *m, const fs_llm_training *t,
                         const fs_llm_hw *hw, fs_llm_memory *out);

/* Inference at `batch` sequences of `context` tokens each. */
void fs_llm_fit_inference(const fs_llm_config *c, const fs_llm_hw *hw,
                          long context, int batch, fs_llm_memory *out);
/* "weights 140.0 GB + KV cache 2.1 GB + ... = 150.3 GB > 80.0 GB" */
void fs_llm_memory_format(const fs_llm_memory *m, char *buf, size_t len);

/* Per replica, filled once: the constants an iteration's time needs. */
typedef struct fs_llm_perf {
    fs_llm_config cfg;
    fs_llm_hw hw;
    double kv_bytes_per_token;   /* all layers, the whole replica */
    long kv_capacity_tokens;     /* KV-cache tokens that fit beside the
                                    weights, activations and overhead,
                                    rounded down to 16-token blocks */
    double weight_bytes;         /* the whole replica */
    double peak_flops;           /* replica, at the weights' precision,
                                    times mfu */
    double bandwidth;            /* replica, bytes/s, times bw_efficiency */
    double step_overhead_s;      /* fixed per iteration (the stack's) */
    double allreduce_s_per_token;/* TP: per token per iteration */
    double allreduce_fixed_s;    /* TP: latency of 2 x layers all-reduces */
    /* Added for the roofline's terms: */
    double flops_per_token;      /* 2 x active params */
    double attn_flops_per_ctx;   /* 4 x layers x heads x head_dim: one
                                    token attending to one cached token */
    double prefill_pad_tokens;   /* a prefill chunk's GEMMs run as if this
                                    many more tokens came (wave and tile
                                    quantization: small chunks are slow) */
    double prefill_overhead_s;   /* fixed, an iteration with prefill */
    double decode_flops;         /* replica FLOP/s of the decode GEMMs */
    double dense_bytes;          /* MoE: weights every token reads */
    double expert_bytes;         /* MoE: one expert, all layers */
    double expert_params;        /* MoE: the same in parameters */
    int experts, experts_per_token, shared_experts;
    double alltoall_s;           /* EP: the dispatch and combine of one
                                    token (inside allreduce_s_per_token,
                                    shown apart) */
    int block_size;              /* the stack's KV block, for prefix
                                    caching (a multiple of 16 tokens) */
    int prefix_cache;            /* the stack caches prefixes by default
                                    (1); the fleet sets what the pool
                                    asks (sim/scenario's
                                    fs_prefix_cache_mode, 0: none) */
    long prefix_cache_tokens;    /* prefix_cache = TOKENS */
    double request_s;            /* the profile's time off the GPU before
                                    a request's first token */
    int output_lag;              /* the iterations a token waits after
                                    its own before it reaches the client
                                    (the profile's output_lag, 0 or 1) */
    double expert_gemm_scale;    /* MoE: 1 / the profile's moe_efficiency:
                                    a routed expert's GEMM FLOP costs this
                                    many dense ones (1: as dense) */
} fs_llm_perf;

/* 0, or -1 with why: the config's engine profile is not in its engines,
 * or the model does not fit (the breakdown: no KV block fits beside the
 * weights). */
int fs_llm_perf_init(fs_llm_perf *p, const fs_llm_config *c,
                     const fs_llm_hw *hw, char *why, size_t len);
/* The same with a profile row given (a row being fitted,
 * models/llm/llm_fit.h), not looked up by the configuration's engine. */
int fs_llm_perf_init_row(fs_llm_perf *p, const fs_llm_config *c,
                         const fs_llm_hw *hw, const fs_llm_engine *e,
                         char *why, size_t len);

/* Seconds of one continuous-batching iteration: prefill of prefill_tokens
 * new tokens whose attention reads attn_ctx_tokens (sum over the prefilled
 * tokens of the context each attends to), plus one decode step of
 * decode_batch sequences holding decode_kv_tokens of KV cache together. */
double fs_llm_iteration_time(const fs_llm_perf *p, long prefill_tokens,
                             double attn_ctx_tokens, int decode_batch,
                             long decode_kv_tokens);

/* A mixture of experts' iteration (llm_moe.c): of `tokens` tokens each
 * routed to top_k of `experts` experts, the expected distinct routed
 * experts touched, E (1 - (1 - k/E)^B); the shared experts every token
 * runs; the token-expert pairs (B k); and the rows the experts' GEMMs run,
 * each touched expert's rounded up to the fused kernel's tile. */
typedef struct fs_llm_moe_load {
    double touched, pairs, rows;
    int shared;
} fs_llm_moe_load;
double fs_llm_moe_touched(int experts, int top_k, double tokens);
void fs_llm_moe_route(int experts, int top_k, int shared, double tokens,
                      fs_llm_moe_load *out);
/* FLOPs of an iteration's GEMMs over `tokens` tokens run as a prefill
 * padded by `pad` tokens (a dense model: 2 x active x (tokens + pad); an
 * MoE: its dense part so, its routed experts by fs_llm_moe_route's rows
 * plus the padding for each of a token's k, times expert_gemm_scale: the
 * dense GEMMs' FLOPs that take as long). */
double fs_llm_gemm_flops(const fs_llm_perf *p, double tokens, double pad);
/* The same for a decode step of `tokens` sequences (no padding, no tiles):
 * 2 x active x tokens; an MoE's routed part times expert_gemm_scale. */
double fs_llm_decode_gemm_flops(const fs_llm_perf *p, double tokens);
/* Weight bytes an iteration of `tokens` tokens reads: all of a dense
 * model; an MoE's dense part and the routed experts it touches. */
double fs_llm_weight_bytes_read(const fs_llm_perf *p, double tokens);
/* FFN width a token runs: ffn, or an MoE's ffn x (k + shared experts). */
double fs_llm_ffn_active(const fs_llm_model *m);

/* Bytes of KV cache one token holds: the whole replica, and one GPU's
 * share (KV heads split over tp; a head is never split). */
double fs_llm_kv_bytes_per_token(const fs_llm_config *c);
double fs_llm_kv_bytes_per_gpu_token(const fs_llm_config *c);

/* The attention kinds (llm_attention.c): "gqa" or "mla" -> its kind; 0,
 * or -1 for an unknown name. */
int fs_llm_attention_parse(const char *s, fs_llm_attention *out);
const char *fs_llm_attention_name(fs_llm_attention a);
/* One layer's attention weights (q, k, v, o projections and MLA's
 * compressions). */
double fs_llm_attention_params(const fs_llm_model *m);
/* Values a token caches in one layer: 2 x KV heads x head_dim (GQA), or
 * kv_lora_rank + rope_head_dim (MLA). */
double fs_llm_kv_values(const fs_llm_model *m);
/* The units tensor parallelism splits the cache into: the KV heads
 * (GQA), or 1 (MLA: every head reads the one latent, so each GPU of a TP
 * group holds it whole, as vLLM's MLA backends do). */
int fs_llm_kv_groups(const fs_llm_model *m);
/* FLOPs of one token attending to one cached token, one layer. */
double fs_llm_attention_flops(const fs_llm_model *m);
/* The kind's own columns consistent: 0, or -1 with why. */
int fs_llm_attention_check(const fs_llm_model *m, char *why, size_t len);

/* Expert parallelism (llm_ep.c).  A replica is max(tp, ep) GPUs: the
 * attention and the dense layers over tp (ep / tp data-parallel copies
 * of them when ep > tp, each with its own sequences and KV cache), the
 * routed experts over all of them.  fs_llm_gpus: the replica's GPUs;
 * fs_llm_attention_copies: max(tp, ep) / tp. */
int fs_llm_gpus(const fs_llm_config *c);
int fs_llm_attention_copies(const fs_llm_config *c);
/* Weight bytes one GPU holds: params x bytes / tp without EP; with it
 * the dense part (attention, dense layers, shared experts, embeddings)
 * / tp and the routed experts / max(tp, ep). */
double fs_llm_weight_bytes_per_gpu(const fs_llm_config *c);
/* The layers whose FFN is a mixture of experts (all, less the dense). */
int fs_llm_moe_layers(const fs_llm_model *m);
/* Expected distinct EP ranks a token's k distinct experts of E are on
 * (E / ep a rank): ep (1 - C(E - E/ep, k) / C(E, k)). */
double fs_llm_ep_ranks_per_token(int experts, int ep, int top_k);
/* What EP changes in a filled fs_llm_perf (fs_llm_perf_init calls it;
 * nothing without EP or MLA): peak and bandwidth over the replica's
 * GPUs, the dense weights read by each attention copy, the all-to-alls,
 * the TP all-reduces of the MoE layers dropped when experts are whole on
 * a GPU, an MLA cache read by every GPU of a TP group. */
void fs_llm_parallel_apply(fs_llm_perf *p, const fs_llm_engine *e);

/* Seconds of one prefill of `tokens` prompt tokens alone (batch 1, the
 * causal attention of a fresh prompt): TTFT at light load. */
double fs_llm_prefill_time(const fs_llm_perf *p, long tokens);

/* Training FLOPs per token (fs_llm_training_flops_per_token): a full
 * fine-tune 6 x active params (forward 2, backward 4: the gradients of the
 * activations and of the weights, Kaplan et al. 2020, arXiv:2001.08361),
 * 8 x with activation recomputation (one more forward).  LoRA (lora_rank
 * > 0) computes no gradient of a frozen weight: 4 x the base (6 x with
 * recomputation) plus the adapters' own 6 x (8 x) their active
 * parameters (Hu et al. 2021, LoRA, arXiv:2106.09685, section 4.2: "we
 * do not need to calculate the gradient for the vast majority of the
 * parameters", a 25% speedup on GPT-3 175B).  tokens/s per GPU = mfu x
 * peak / those FLOPs. */
double fs_llm_training_flops_per_token(const fs_llm_model *m, long lora_rank,
                                       int recompute);
double fs_llm_training_tokens_per_s(const fs_llm_model *m, const fs_gpu *g,
                                    fs_precision p, double mfu,
                                    int recompute, long lora_rank);
/* The training MFU a GPU's generation reaches by default (bf16). */
double fs_llm_training_mfu(const fs_gpu *g);

/* The configurations nearest c on GPU g that fit (llm_nearest.c): for
 * each precision g runs with no more bytes than c's, the least tp from
 * c's up to max_tp at which fits(ctx, config) says yes (the KV cache at
 * the precision's default when kv_follows).  Into out[0..max); returns
 * how many. */
typedef int (*fs_llm_fits_fn)(void *ctx, const fs_llm_config *c);
int fs_llm_nearest(const fs_llm_config *c, const fs_gpu *g, int max_tp,
                   int kv_follows, fs_llm_fits_fn fits, void *ctx,
                   fs_llm_config *out, int max);

#endif
