/* llm.h -- an LLM on a GPU: its shape, whether it fits, how long it runs.
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
#include "models/catalog.h"

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

/* One model's shape.  Dense models have experts = 0 and active = params. */
typedef struct fs_llm_model {
    char name[48];
    double params;          /* total parameters */
    double active_params;   /* per token (MoE: shared + the routed experts) */
    int layers, hidden, heads, kv_heads, head_dim, ffn;
    int experts, experts_per_token;
    double expert_params;   /* parameters of one expert, all layers (MoE) */
    int vocab;
    long max_context;
    char source[256];
} fs_llm_model;

typedef struct fs_llm_catalog fs_llm_catalog;

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

/* How a model is served: precision, tensor parallelism, serving stack and
 * the efficiencies (0 = the stack's documented default for the GPU's
 * generation). */
typedef struct fs_llm_config {
    const fs_llm_model *model;
    fs_precision weights;   /* weight precision */
    fs_precision kv;        /* KV-cache precision (default: weights', at
                               least fp8) */
    int tp;                 /* GPUs per replica: 1, 2, 4, 8 */
    char engine[16];        /* "vllm" (default), "trt-llm", "sglang" */
    double mfu;             /* prefill compute efficiency, 0..1 */
    double bw_efficiency;   /* decode bandwidth efficiency, 0..1 */
} fs_llm_config;

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

/* A memory breakdown, GB per GPU of the replica. */
typedef struct fs_llm_memory {
    double weights, kv_cache, activations, overhead;   /* inference */
    double gradients, optimizer, master_weights;      /* training */
    double total, capacity;
    int fits;
} fs_llm_memory;

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
} fs_llm_perf;

/* 0, or -1 with why (the model does not fit: the breakdown) when no KV
 * block fits beside the weights. */
int fs_llm_perf_init(fs_llm_perf *p, const fs_llm_config *c,
                     const fs_llm_hw *hw, char *why, size_t len);

/* Seconds of one continuous-batching iteration: prefill of prefill_tokens
 * new tokens whose attention reads attn_ctx_tokens (sum over the prefilled
 * tokens of the context each attends to), plus one decode step of
 * decode_batch sequences holding decode_kv_tokens of KV cache together. */
double fs_llm_iteration_time(const fs_llm_perf *p, long prefill_tokens,
                             double attn_ctx_tokens, int decode_batch,
                             long decode_kv_tokens);

/* Training: tokens/s per GPU = mfu x peak / (6 x active params), 8 x with
 * activation recomputation. */
double fs_llm_training_tokens_per_s(const fs_llm_model *m, const fs_gpu *g,
                                    fs_precision p, double mfu,
                                    int recompute);

#endif
