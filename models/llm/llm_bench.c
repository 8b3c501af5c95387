/* llm_bench.c -- the published measurements the LLM model is calibrated
 * and validated on, and how each is reproduced (see llm_bench.h). */
#include "models/llm/llm_bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define V090 "TensorRT-LLM v0.9.0 docs/source/performance.md"
#define CUR "TensorRT-LLM docs/source/performance/perf-overview.md " \
            "(commit 00f37686)"

#define MUSGRAVE "johnmusgrave.com/p/vllm-throughput-latency-sweep-on " \
                 "(vLLM 0.23, C=1: about 75 tokens/s)"
#define YOBITEL "yobitelcomm.github.io/bench/recipes/concurrency-sweep " \
                "(vLLM 0.21, conc 1, tpot_p50; short chat prompts)"

#define NIM "docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance " \
            "(NIM 1.8.0, Llama-3.3-70B-Instruct, 2 x H100 80G, fp8 TP2)"
#define MLPERF_H100 "mlcommons/inference_results_v4.1 (commit a2f5d66d) " \
                    "closed/NVIDIA/results/DGX-H100_H100-SXM-80GBx8_TRT/" \
                    "llama2-70b-99.9/Offline: 24,524.9 tok/s / 8 GPUs"
#define MLPERF_H200 "mlcommons/inference_results_v4.1 (commit a2f5d66d) " \
                    "closed/NVIDIA/results/H200-SXM-141GBx8_TRT/" \
                    "llama2-70b-99/Offline: 31,302.7 tok/s / 8 GPUs"
#define VLLM_CI "buildkite.com/vllm/performance-benchmark/builds/9515 " \
                "(vLLM's own latency tests: 32 in, 128 out, batch 8)"
#define RKOOO "github.com/rkooo567/llm_benchmark README (vLLM of mid-2023, " \
              "Llama-2-70B, 8 x A100-40GB, TP 8: end-to-end seconds)"
#define SGL060 "sgl-project/sglang benchmark/benchmark_vllm_060/README.md " \
               "(commit 120affb9; SGLang 0.3.0, vLLM 0.6.0, ShareGPT)"

/* MLPerf's OpenOrca set: the logs give 290 output tokens a sample (tokens/s
 * over samples/s); its mean prompt is taken as 300 (doc/llm-validation.md
 * gives the sensitivity).  ShareGPT under bench_serving: 194 output tokens a
 * request (the table's tokens/s over requests/s), 227 input (453,502 over
 * 2,000 prompts in sgl-project/sglang issue 1639, the same tool). */
#define OO_IN 300
#define SG_IN 227
#define SG_OUT 194

static const fs_llm_bench_point points[] = {
    /* calibration: v0.9.0, batch 1 TTFT (gptSessionBenchmark) */
    {"llama-2-7b", "A100-80GB", "fp16", 1, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 16.2, 1, V090},
    {"llama-2-7b", "A100-80GB", "fp16", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 132.4, 1, V090},
    {"llama-2-7b", "H100-80GB", "fp8", 1, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 6.3, 1, V090},
    {"llama-2-7b", "H100-80GB", "fp8", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 30.8, 1, V090},
    /* calibration: v0.9.0, 128/128 throughput, out tok/s/GPU */
    {"llama-2-7b", "A100-80GB", "fp16", 1, "trt-llm", 128, 128, 256,
     FS_BENCH_STATIC_TPUT, 5390, 1, V090},
    {"llama-2-7b", "H100-80GB", "fp8", 1, "trt-llm", 128, 128, 896,
     FS_BENCH_STATIC_TPUT, 19854, 1, V090},
    {"mistral-7b", "A100-80GB", "fp16", 1, "trt-llm", 128, 128, 896,
     FS_BENCH_STATIC_TPUT, 6251, 1, V090},
    {"mistral-7b", "H100-80GB", "fp8", 1, "trt-llm", 128, 128, 896,
     FS_BENCH_STATIC_TPUT, 20404, 1, V090},
    /* calibration: v0.9.0, Llama-2-70B TP4 on A100 */
    {"llama-2-70b", "A100-80GB", "fp16", 4, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 45.6, 1, V090},
    {"llama-2-70b", "A100-80GB", "fp16", 4, "trt-llm", 128, 128, 1024,
     FS_BENCH_STATIC_TPUT, 686, 1, V090},
    /* calibration: current table, 1000/1000, total output tok/s */
    {"llama-3.1-8b", "H100-80GB", "fp8", 1, "trt-llm", 1000, 1000, 2048,
     FS_BENCH_INFLIGHT_TPUT, 15220, 1, CUR},
    {"llama-3.1-8b", "H200", "fp8", 1, "trt-llm", 1000, 1000, 2048,
     FS_BENCH_INFLIGHT_TPUT, 17744, 1, CUR},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 1000, 1000, 2048,
     FS_BENCH_INFLIGHT_TPUT, 4205, 1, CUR},
    {"llama-3.3-70b", "H200", "fp8", 1, "trt-llm", 1000, 1000, 2048,
     FS_BENCH_INFLIGHT_TPUT, 2909, 1, CUR},
    /* calibration, vllm: single-request decode, published runs of vLLM */
    {"llama-3.1-8b", "A100-40GB", "bf16", 1, "vllm", 1024, 128, 1,
     FS_BENCH_TPOT_MS, 1000.0 / 75, 1, MUSGRAVE},
    {"llama-3.1-8b", "H100-80GB", "bf16", 1, "vllm", 256, 256, 1,
     FS_BENCH_TPOT_MS, 6.48, 1, YOBITEL},
    /* held out: other rows of the same tables */
    {"mistral-7b", "A100-80GB", "fp16", 1, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 16.3, 0, V090},
    {"mistral-7b", "A100-80GB", "fp16", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 139.6, 0, V090},
    {"mistral-7b", "H100-80GB", "fp8", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 32.4, 0, V090},
    {"llama-2-7b", "H200", "fp8", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 30.2, 0, V090},
    {"llama-2-7b", "L40S", "fp8", 1, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 80.1, 0, V090},
    {"llama-2-70b", "A100-80GB", "fp16", 8, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 249.2, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 4, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 19.6, 0, V090},
    {"mixtral-8x7b", "A100-80GB", "fp16", 2, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 160.9, 0, V090},
    {"llama-2-7b", "A100-80GB", "fp16", 1, "trt-llm", 128, 2048, 32,
     FS_BENCH_STATIC_TPUT, 1484, 0, V090},
    {"llama-2-7b", "A100-80GB", "fp16", 1, "trt-llm", 2048, 128, 32,
     FS_BENCH_STATIC_TPUT, 533, 0, V090},
    {"llama-2-7b", "H100-80GB", "fp8", 1, "trt-llm", 128, 2048, 120,
     FS_BENCH_STATIC_TPUT, 6944, 0, V090},
    {"llama-2-7b", "L40S", "fp8", 1, "trt-llm", 128, 128, 256,
     FS_BENCH_STATIC_TPUT, 5885, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 2, "trt-llm", 128, 128, 1024,
     FS_BENCH_STATIC_TPUT, 3214, 0, V090},
    {"mixtral-8x7b", "H100-80GB", "fp8", 2, "trt-llm", 128, 128, 512,
     FS_BENCH_STATIC_TPUT, 5255, 0, V090},
    {"mixtral-8x7b", "A100-80GB", "fp16", 2, "trt-llm", 128, 128, 512,
     FS_BENCH_STATIC_TPUT, 2842, 0, V090},
    {"llama-3.1-8b", "H100-80GB", "fp8", 1, "trt-llm", 128, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 22714, 0, CUR},
    {"llama-3.1-8b", "H100-80GB", "fp8", 1, "trt-llm", 2048, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 9305, 0, CUR},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 3082, 0, CUR},
    /* calibration, vllm@0.6: vLLM's own latency tests and an offline run
     * of 0.6.0, simulated with the profile they set (0.6.0's) */
    {"llama-3.1-8b", "H200", "bf16", 1, "vllm@0.6", 32, 128, 8,
     FS_BENCH_LATENCY_MS, 833.4, 1, VLLM_CI},
    {"llama-3-70b", "H200", "bf16", 4, "vllm@0.6", 32, 128, 8,
     FS_BENCH_LATENCY_MS, 2077.5, 1, VLLM_CI},
    {"llama-3.1-8b", "A100-80GB", "bf16", 1, "vllm@0.6", SG_IN, SG_OUT, 256,
     FS_BENCH_OFFLINE_TPUT, 4132.37, 1, SGL060},
    {"llama-3.1-70b", "H100-80GB", "bf16", 4, "vllm@0.6", SG_IN, SG_OUT, 256,
     FS_BENCH_OFFLINE_TPUT, 3700.64 / 4, 1, SGL060},
    /* calibration, vllm@0.1: its per-layer and all-reduce costs */
    {"llama-2-70b", "A100-40GB", "fp16", 8, "vllm@0.1", 1, 2048, 32,
     FS_BENCH_LATENCY_MS, 133700, 1, RKOOO},
    {"llama-2-70b", "A100-40GB", "fp16", 8, "vllm@0.1", 1024, 1024, 24,
     FS_BENCH_LATENCY_MS, 76120, 1, RKOOO},
    /* calibration, trt-llm's mixture of experts (engines.csv moe_fp8 and
     * moe_efficiency): the Mixtral rows of the same v0.9.0 tables not held
     * out, less the 128-token TTFTs (set by the prefill padding, not the
     * experts' kernels) and the 2048/2048 runs on A100 and H100 (faster
     * than their weights' read allows: doc/llm-validation.md) */
    {"mixtral-8x7b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 89.5, 1, V090},
    {"mixtral-8x7b", "H200", "fp8", 2, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 87.7, 1, V090},
    {"mixtral-8x7b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 128, 64,
     FS_BENCH_STATIC_TPUT, 588, 1, V090},
    {"mixtral-8x7b", "H200", "fp8", 2, "trt-llm", 2048, 128, 64,
     FS_BENCH_STATIC_TPUT, 605, 1, V090},
    {"mixtral-8x7b", "H200", "fp8", 2, "trt-llm", 128, 2048, 256,
     FS_BENCH_STATIC_TPUT, 4973, 1, V090},
    {"mixtral-8x7b", "H200", "fp8", 2, "trt-llm", 2048, 2048, 64,
     FS_BENCH_STATIC_TPUT, 1821, 1, V090},
    {"mixtral-8x7b", "A100-80GB", "fp16", 2, "trt-llm", 2048, 128, 64,
     FS_BENCH_STATIC_TPUT, 319, 1, V090},
    /* calibration, the all-reduce over PCIe (llm_perf.c
     * PCIE_ALLREDUCE_SHARE): the L40S Llama-2-70B throughput rows */
    {"llama-2-70b", "L40S", "fp8", 2, "trt-llm", 128, 128, 256,
     FS_BENCH_STATIC_TPUT, 562, 1, V090},
    {"llama-2-70b", "L40S", "fp8", 4, "trt-llm", 128, 2048, 256,
     FS_BENCH_STATIC_TPUT, 478, 1, V090},
    {"llama-2-70b", "L40S", "fp8", 2, "trt-llm", 2048, 128, 16,
     FS_BENCH_STATIC_TPUT, 49, 1, V090},
    {"llama-2-70b", "L40S", "fp8", 4, "trt-llm", 2048, 2048, 64,
     FS_BENCH_STATIC_TPUT, 185, 1, V090},
    /* calibration, sglang: the same offline runs */
    {"llama-3.1-8b", "A100-80GB", "bf16", 1, "sglang", SG_IN, SG_OUT, 256,
     FS_BENCH_OFFLINE_TPUT, 4281.51, 1, SGL060},
    {"llama-3.1-70b", "H100-80GB", "bf16", 4, "sglang", SG_IN, SG_OUT, 256,
     FS_BENCH_OFFLINE_TPUT, 3856.01 / 4, 1, SGL060},
    /* held out: Llama-2-70B prefill (batch-1 TTFT) at TP 4 and 8 */
    {"llama-2-70b", "H200", "fp8", 4, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 17.8, 0, V090},
    {"llama-2-70b", "H200", "fp8", 4, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 103.0, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 8, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 85.1, 0, V090},
    {"llama-2-70b", "L40S", "fp8", 8, "trt-llm", 128, 1, 1,
     FS_BENCH_TTFT_MS, 70.4, 0, V090},
    {"llama-2-70b", "L40S", "fp8", 4, "trt-llm", 2048, 1, 1,
     FS_BENCH_TTFT_MS, 673.3, 0, V090},
    /* held out: Llama-2-70B decode-bound runs at TP 1, 2, 4 and 8 */
    {"llama-2-70b", "H200", "fp8", 1, "trt-llm", 128, 128, 1024,
     FS_BENCH_STATIC_TPUT, 3989, 0, V090},
    {"llama-2-70b", "H200", "fp8", 2, "trt-llm", 128, 2048, 512,
     FS_BENCH_STATIC_TPUT, 3963, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 4, "trt-llm", 128, 2048, 512,
     FS_BENCH_STATIC_TPUT, 2725, 0, V090},
    {"llama-2-70b", "A100-80GB", "fp16", 8, "trt-llm", 128, 2048, 512,
     FS_BENCH_STATIC_TPUT, 684, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 2048, 64,
     FS_BENCH_STATIC_TPUT, 1011, 0, V090},
    {"llama-2-70b", "A100-80GB", "fp16", 4, "trt-llm", 2048, 2048, 64,
     FS_BENCH_STATIC_TPUT, 289, 0, V090},
    {"llama-2-70b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 128, 96,
     FS_BENCH_STATIC_TPUT, 346, 0, V090},
    {"llama-2-70b", "A100-80GB", "fp16", 4, "trt-llm", 2048, 128, 96,
     FS_BENCH_STATIC_TPUT, 80, 0, V090},
    /* held out: NIM TTFT and ITL at fixed concurrency */
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 1,
     FS_BENCH_TTFT_CONC_MS, 406.77, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 1,
     FS_BENCH_TPOT_MS, 18.58, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 5,
     FS_BENCH_TTFT_CONC_MS, 546.7, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 5,
     FS_BENCH_TPOT_MS, 21.83, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 25,
     FS_BENCH_TTFT_CONC_MS, 688.69, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 25,
     FS_BENCH_TPOT_MS, 38.75, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 50,
     FS_BENCH_TTFT_CONC_MS, 834.51, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 5000, 500, 50,
     FS_BENCH_TPOT_MS, 59.73, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 500, 2000, 1,
     FS_BENCH_TTFT_CONC_MS, 47.77, 0, NIM},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 500, 2000, 1,
     FS_BENCH_TPOT_MS, 18.91, 0, NIM},
    /* held out: MLPerf Inference v4.1 Llama-2-70B Offline, per GPU (NVIDIA's
     * configs: H100 TP2 x 4 at batch 896, H200 TP1 x 8 at batch 806) */
    {"llama-2-70b", "H100-80GB", "fp8", 2, "trt-llm", OO_IN, 290, 896,
     FS_BENCH_OFFLINE_TPUT, 24524.9 / 8, 0, MLPERF_H100},
    {"llama-2-70b", "H200", "fp8", 1, "trt-llm", OO_IN, 291, 806,
     FS_BENCH_OFFLINE_TPUT, 31302.7 / 8, 0, MLPERF_H200},
    /* held out: mixture of experts */
    {"mixtral-8x7b", "H200", "bf16", 2, "vllm@0.6", 32, 128, 8,
     FS_BENCH_LATENCY_MS, 1917.4, 0, VLLM_CI},
    {"mixtral-8x7b", "H100-80GB", "fp8", 2, "trt-llm", 128, 2048, 128,
     FS_BENCH_STATIC_TPUT, 3408, 0, V090},
    {"mixtral-8x7b", "A100-80GB", "fp16", 2, "trt-llm", 128, 2048, 128,
     FS_BENCH_STATIC_TPUT, 1724, 0, V090},
    {"mixtral-8x7b", "H200", "fp8", 2, "trt-llm", 128, 128, 1024,
     FS_BENCH_STATIC_TPUT, 5444, 0, V090},
};

const fs_llm_bench_point *fs_llm_bench_points(size_t *n)
{
    *n = sizeof points / sizeof points[0];
    return points;
}

const char *fs_llm_bench_metric_name(fs_llm_bench_metric m)
{
    static const char *const names[] = {"TTFT ms",    "tok/s/GPU",
                                        "tok/s",      "TPOT ms",
                                        "latency ms", "offline/GPU",
                                        "TTFT@N ms"};
    return m <= FS_BENCH_TTFT_CONC_MS ? names[m] : "?";
}

/* Static batching: one prefill of the batch's prompts, then out - 1 decode
 * steps of the whole batch. */
static double static_batch_time(const fs_llm_perf *p, int b, long in,
                                long out)
{
    double n = (double)in;
    double t = fs_llm_iteration_time(p, (long)b * in,
                                     b * n * (n + 1) / 2, 0, 0);
    for (long k = 1; k < out; k++)
        t += fs_llm_iteration_time(p, 0, 0, b, (long)b * (in + k));
    return t;
}

/* The attention pairs of a prompt of `in` tokens whose first `cached` come
 * from the prefix cache: its computed tokens, at positions cached + 1 to
 * in, each attend to the tokens up to its own. */
static double prompt_attention(long in, long cached)
{
    double x = (double)in, c = (double)cached;
    return (x - c) * (x + c + 1) / 2;
}

/* The steady state of n sequences, `enter` prompts prefilled an
 * iteration on average.  With fewer than one, only that share of the
 * iterations runs a prompt, whole, and pays the prefill's padding and
 * fixed cost; the others decode alone (vLLM's steps at a moderate rate
 * hold a prompt about every other step).  The mean iteration is the
 * mixture of the two, not the time of a mean iteration (a fraction of a
 * prompt in every step would pay the padding and fixed cost in each). */
static double steady(const fs_llm_perf *p, int n, double enter, long in,
                     long cached, long out)
{
    long kv = (long)((double)n * ((double)in + (double)out / 2));
    double share = enter < 1 ? enter : 1, per = share > 0 ? enter / share : 0;
    double pre = per * (double)(in - cached);
    double attn = per * prompt_attention(in, cached);
    double with = fs_llm_iteration_time(p, (long)(pre + 0.5), attn, n, kv);
    if (share >= 1)
        return with;
    return share * with +
           (1 - share) * fs_llm_iteration_time(p, 0, 0, n, kv);
}

double fs_llm_steady_iteration(const fs_llm_perf *p, int n, long in,
                               long out)
{
    /* n / out sequences finish per iteration and as many prompts enter */
    return steady(p, n, (double)n / (double)out, in, 0, out);
}

double fs_llm_tpot_at_concurrency(const fs_llm_perf *p, int n, long in,
                                  long cached, long out)
{
    /* the other n - 1 clients' prompts enter between a client's tokens */
    return steady(p, n, (double)(n - 1) / (double)out, in, cached, out);
}

/* TTFT of a closed-loop client among n: its prompt's prefill runs in one
 * iteration (s) beside the other n - 1 decodes.  The prompts of the n
 * clients queue for prefill as in an M/D/1 queue: arrivals from many
 * independent clients, a fixed service s, utilisation rho = (n - 1) s /
 * (a request's life), mean wait rho s / (2 (1 - rho)) (Pollaczek-
 * Khinchine); with no prefill under way it waits out half the decode step
 * running.  n = 1: no wait. */
double fs_llm_ttft_at_concurrency(const fs_llm_perf *p, int n, long in,
                                  long cached, long out)
{
    long others = (long)((double)(n - 1) * ((double)in + (double)out / 2));
    double s = fs_llm_iteration_time(p, in - cached,
                                     prompt_attention(in, cached), n - 1,
                                     others);
    if (n <= 1)
        return s;
    double tpot = fs_llm_tpot_at_concurrency(p, n, in, cached, out);
    double life = s + (double)(out - 1) * tpot;
    double rho = (double)(n - 1) * s / life;
    if (rho > 0.95)
        rho = 0.95;
    return s + rho * s / (2 * (1 - rho)) + (1 - rho) * tpot / 2;
}

int fs_llm_bench_eval(const fs_llm_bench_point *pt, const fs_catalog *cat,
                      const fs_llm_catalog *models,
                      const fs_llm_engines *engines, double *out, char *why,
                      size_t len)
{
    const fs_llm_model *m = fs_llm_catalog_find(models, pt->model);
    const fs_gpu *g = fs_catalog_gpu(cat, pt->gpu);
    if (!m || !g) {
        snprintf(why, len, "unknown %s '%s'", m ? "GPU" : "model",
                 m ? pt->gpu : pt->model);
        return -1;
    }
    fs_llm_config c;
    fs_llm_config_default(&c, m, engines);
    fs_precision_parse(pt->precision, &c.weights);
    c.kv = c.weights == FS_PREC_FP8 ? FS_PREC_FP8 : FS_PREC_BF16;
    c.tp = pt->tp;
    snprintf(c.engine, sizeof c.engine, "%s", pt->engine);
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, g);
    fs_llm_perf p;
    if (fs_llm_perf_init(&p, &c, &hw, why, len))
        return -1;
    switch (pt->metric) {
    case FS_BENCH_TTFT_MS:
        *out = 1e3 * fs_llm_prefill_time(&p, pt->in);
        break;
    case FS_BENCH_STATIC_TPUT:
        *out = (double)pt->batch * pt->out /
               static_batch_time(&p, pt->batch, pt->in, pt->out) / pt->tp;
        break;
    case FS_BENCH_LATENCY_MS:
        *out = 1e3 * static_batch_time(&p, pt->batch, pt->in, pt->out);
        break;
    case FS_BENCH_TTFT_CONC_MS:
        *out = 1e3 * fs_llm_ttft_at_concurrency(&p, pt->batch, pt->in, 0,
                                                pt->out);
        break;
    case FS_BENCH_OFFLINE_TPUT:
    case FS_BENCH_INFLIGHT_TPUT:
    case FS_BENCH_TPOT_MS: {
        long fit = p.kv_capacity_tokens / (pt->in + pt->out);
        int n = fit < pt->batch ? (int)fit : pt->batch;
        if (pt->metric == FS_BENCH_TPOT_MS)
            n = pt->batch;
        if (n < 1) {
            snprintf(why, len, "no sequence of %ld tokens fits",
                     pt->in + pt->out);
            return -1;
        }
        /* A request's TPOT counts the other n - 1 requests' prompts
         * prefilled between its tokens, not its own. */
        double t = pt->metric == FS_BENCH_TPOT_MS
                       ? fs_llm_tpot_at_concurrency(&p, n, pt->in, 0,
                                                    pt->out)
                       : fs_llm_steady_iteration(&p, n, pt->in, pt->out);
        *out = pt->metric == FS_BENCH_TPOT_MS ? 1e3 * t : n / t;
        if (pt->metric == FS_BENCH_OFFLINE_TPUT)
            *out /= pt->tp;
        break;
    }
    }
    return 0;
}
