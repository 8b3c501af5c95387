/* llm_engine.h -- serving-stack profiles: what a stack of a given release
 * reaches of a GPU of a given generation (models/catalog/engines.csv, or a
 * user's file of the same columns, e.g. one `fleetsim calibrate` wrote).
 *
 * A profile is named as a scenario writes it: `vllm` (the stack's current
 * release, the rows marked current) or `vllm@0.2` (the rows of a release
 * whose version is 0.2 or starts with "0.2.").  Each profile has one row per
 * GPU generation; a GPU of a generation the profile lacks takes the
 * profile's first row.  The columns are documented in
 * models/catalog/SOURCES.md; a row's figures are the roofline model's
 * efficiencies and fixed costs (models/llm/llm_perf.c). */
#ifndef FS_LLM_ENGINE_H
#define FS_LLM_ENGINE_H

#include <stddef.h>
#include <stdio.h>
#include "sim/base/error.h"

#define FS_LLM_ENGINE_NAME_MAX 24

/* One row: a stack's release on one GPU generation.  Times in seconds. */
typedef struct fs_llm_engine {
    char engine[FS_LLM_ENGINE_NAME_MAX];   /* "vllm" */
    char version[FS_LLM_ENGINE_NAME_MAX];  /* "0.6.0" */
    int current;                /* `engine = vllm` picks these rows */
    char generation[16];        /* "hopper" */
    double mfu;                 /* prefill GEMMs: share of the dense peak */
    double decode_fraction;     /* decode GEMMs' efficiency, x mfu */
    double bw_efficiency;       /* share of the memory bandwidth */
    double step_s;              /* fixed, every iteration */
    double layer_s;             /* fixed, every iteration and layer */
    double prefill_s;           /* fixed, an iteration with a prompt */
    double pad_tokens;          /* a prefill chunk runs as this many more */
    double tp_step_growth;      /* step and layer costs grow by this share
                                   per doubling of TP */
    double tp_pad_growth;       /* pad_tokens grow by this share per
                                   doubling of TP */
    double allreduce_s;         /* fixed latency of one all-reduce (the
                                   collective's launch and sync), beside
                                   the link's per-step latency */
    /* KV-cache capacity as the stack computes it (llm_memory.c); a file
     * without these columns keeps fleetsim's older estimate */
    double memory_utilization;  /* share of the GPU's memory the stack
                                   takes (vLLM gpu_memory_utilization);
                                   0: the older estimate */
    double kv_free_fraction;    /* share of what is left after weights,
                                   activations, graphs and runtime that
                                   becomes KV cache (TensorRT-LLM
                                   kv_cache_free_gpu_mem_fraction) */
    double runtime_gb;          /* CUDA context, library workspaces */
    double tp_runtime_gb;       /* communication buffers, when tp > 1 */
    double cuda_graph_gb;       /* captured decode graphs */
    double max_num_batched_tokens;  /* the profiling run's tokens: the
                                       activation peak */
    double max_num_seqs;        /* its sequences (their logits) */
    double replicated_embedding;   /* 1: the input embedding is on every
                                      GPU of a TP group, not split */
    /* the scheduler's defaults: max_num_seqs is llm(max_batch=)'s;
     * chunked_prefill llm(chunked_prefill=)'s, 0 = whole prompts */
    double chunked_prefill;
    /* prefix caching: the KV block's tokens (a multiple of 16, the
     * memory's block), and whether the stack caches prefixes unless told
     * (1) or not (0) */
    double block_size;
    double prefix_cache;
    /* a request's time off the GPU before its first token (the API
     * server's parsing and tokenization, the first token's streaming):
     * added to its TTFT and end-to-end latency, never to the GPU's time
     * (vLLM's API server runs beside the engine) */
    double request_s;
    /* the steps a token waits after the step that computed it before it
     * reaches the client: 1 where the engine hands out a step's tokens
     * only when the next step has run (vLLM >= 0.6's asynchronous output
     * processing), 0 where it streams them at once (optional, 0) */
    double output_lag;
    /* seconds from the weights in GPU memory to the first request served
     * (engine init, profiling run, CUDA-graph capture): a launching
     * replica's cold start beside its weights' load (optional, 0) */
    double startup_s;
    /* mixtures of experts as the release runs them (optional, 1 and 1):
     * moe_fp8 0 = the release cannot run an MoE in FP8 (TensorRT-LLM
     * before 0.10.0), so one asked for fp8 runs in 16 bits, weights, KV
     * cache and compute; moe_efficiency = the routed experts' GEMMs'
     * efficiency relative to the dense GEMMs' (mfu), < 1 where the
     * release's grouped MoE GEMM is slower than its dense one */
    double moe_fp8;
    double moe_efficiency;
    /* all-reduce inputs a TP forward pass keeps to its end, a layer
     * (optional, 0): 2 where the release frees none of them before the
     * pass ends (vLLM 0.2.5: NCCL's record_stream, fixed in 0.2.6), so
     * the memory its profiling run leaves in use, which that release
     * sizes its cache against, holds them (llm_memory.c) */
    double allreduce_held;
    char source[512];
} fs_llm_engine;

typedef struct fs_llm_engines fs_llm_engines;

/* The profile a scenario or command gets without engine = or --engine:
 * "vllm", the serving stack the catalog's figures are measured with. */
const char *fs_llm_engine_default(void);

/* engines.csv or a user's file; "path:line: column: ..." on a bad row. */
fs_llm_engines *fs_llm_engines_load(const char *csv, fs_error *err);
/* The catalog's: fs_catalog_default_dir()/engines.csv. */
fs_llm_engines *fs_llm_engines_load_default(fs_error *err);
void fs_llm_engines_free(fs_llm_engines *t);

/* The row of profile `name` ("vllm", "vllm@0.2") for a GPU generation;
 * NULL when the file has no such profile. */
const fs_llm_engine *fs_llm_engines_find(const fs_llm_engines *t,
                                         const char *name,
                                         const char *generation);
/* The first profile's name, as find takes it ("vllm@0.6.0"), into buf. */
void fs_llm_engines_first(const fs_llm_engines *t, char *buf, size_t len);
/* "(known: vllm, vllm@0.2, trt-llm ...)" or "did you mean" into buf. */
void fs_llm_engines_suggest(const fs_llm_engines *t, const char *name,
                            char *buf, size_t len);
size_t fs_llm_engines_count(const fs_llm_engines *t);
const fs_llm_engine *fs_llm_engines_at(const fs_llm_engines *t, size_t i);

/* A row's named field by its column name ("mfu", "step_s", ...): 0, or
 * -1 with why when the name is unknown or the value out of range. */
int fs_llm_engine_set(fs_llm_engine *e, const char *column,
                      const char *value, char *why, size_t len);
/* Writes the header line (with_header) and the row, as the loader reads
 * them back to the same doubles; -1 on a write error. */
int fs_llm_engine_write(FILE *f, const fs_llm_engine *e, int with_header);

#endif
