/* llm_bench.h -- published LLM measurements and how the model reproduces
 * them: the calibration and validation points of doc/llm-validation.md.
 *
 * Each point names the model, GPU, precision, tensor parallelism, input and
 * output lengths, the batch (or concurrency), the metric and its source.
 * fs_llm_bench_eval computes the model's figure the way the benchmark ran:
 *   TTFT_MS       one prompt alone (batch 1): fs_llm_prefill_time;
 *   STATIC_TPUT   static batching (TensorRT-LLM <= 0.9 gptSessionBenchmark):
 *                 the batch's prompts in one prefill, then out - 1 decode
 *                 steps of the whole batch, its context growing; output
 *                 tokens/s per GPU;
 *   INFLIGHT_TPUT in-flight batching at an unbounded request rate
 *                 (trtllm-bench throughput): a steady state of N sequences,
 *                 N = the KV cache's room for in + out tokens each (at most
 *                 the batch), each iteration decoding N and prefilling the
 *                 N / out prompts that replace those that finished; output
 *                 tokens/s of the whole replica;
 *   TPOT_MS       the same steady state at a fixed concurrency (batch): the
 *                 mean time between output tokens (NIM's ITL);
 *   LATENCY_MS    end-to-end latency of one static batch (vLLM's `benchmark
 *                 latency`): the batch's prefill, then out - 1 decode steps;
 *   OFFLINE_TPUT  an offline run (MLPerf Offline, `bench_serving` with every
 *                 request sent at once): the in-flight steady state of
 *                 N = min(KV room, batch = the stack's cap on running
 *                 sequences); output tokens/s per GPU;
 *   TTFT_CONC_MS  TTFT at a fixed concurrency (batch) of closed-loop
 *                 clients: the iteration that prefills the prompt beside the
 *                 other N - 1 decodes, plus the wait for a prefill of another
 *                 client's prompt already running (probability = its share
 *                 of the time) or else for the decode step under way. */
#ifndef FS_LLM_BENCH_H
#define FS_LLM_BENCH_H

#include "models/llm/llm.h"

typedef enum fs_llm_bench_metric {
    FS_BENCH_TTFT_MS,
    FS_BENCH_STATIC_TPUT,
    FS_BENCH_INFLIGHT_TPUT,
    FS_BENCH_TPOT_MS,
    FS_BENCH_LATENCY_MS,
    FS_BENCH_OFFLINE_TPUT,
    FS_BENCH_TTFT_CONC_MS
} fs_llm_bench_metric;

typedef struct fs_llm_bench_point {
    const char *model, *gpu, *precision;
    int tp;
    const char *engine;
    long in, out;
    int batch;
    fs_llm_bench_metric metric;
    double measured;
    int calibration;        /* 1: calibrated on (25%), 0: held out (30%),
                               -1: held out, a known weakness (the doc
                               says why; within a factor of 3) */
    const char *source;
} fs_llm_bench_point;

const fs_llm_bench_point *fs_llm_bench_points(size_t *n);
const char *fs_llm_bench_metric_name(fs_llm_bench_metric m);

/* The model's figure for a point; 0, or -1 with why (unknown name, does
 * not fit). */
int fs_llm_bench_eval(const fs_llm_bench_point *pt, const fs_catalog *cat,
                      const fs_llm_catalog *models,
                      const fs_llm_engines *engines, double *out, char *why,
                      size_t len);

/* The steady state of n sequences of in + out tokens under in-flight
 * batching: seconds per iteration. */
double fs_llm_steady_iteration(const fs_llm_perf *p, int n, long in,
                               long out);

/* n closed-loop clients, each sending a prompt of `in` tokens and reading
 * `out` back, then the next: seconds between one client's output tokens
 * (the others' prompts prefilled between them; TPOT_MS) and to its first
 * token (TTFT_CONC_MS).  Used by the benchmarks and by calibration
 * (models/llm/llm_predict.c).  The first `cached` tokens of each prompt
 * come from the server's prefix cache: not prefilled (0: none). */
double fs_llm_tpot_at_concurrency(const fs_llm_perf *p, int n, long in,
                                  long cached, long out);
double fs_llm_ttft_at_concurrency(const fs_llm_perf *p, int n, long in,
                                  long cached, long out);

#endif
