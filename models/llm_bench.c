/* llm_bench.c -- the published measurements the LLM model is calibrated
 * and validated on, and how each is reproduced (see llm_bench.h). */
#include "models/llm_bench.h"

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
     FS_BENCH_STATIC_TPUT, 5255, -1, V090},
    {"mixtral-8x7b", "A100-80GB", "fp16", 2, "trt-llm", 128, 128, 512,
     FS_BENCH_STATIC_TPUT, 2842, 0, V090},
    {"llama-3.1-8b", "H100-80GB", "fp8", 1, "trt-llm", 128, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 22714, 0, CUR},
    {"llama-3.1-8b", "H100-80GB", "fp8", 1, "trt-llm", 2048, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 9305, 0, CUR},
    {"llama-3.3-70b", "H100-80GB", "fp8", 2, "trt-llm", 2048, 2048, 2048,
     FS_BENCH_INFLIGHT_TPUT, 3082, 0, CUR},
};

const fs_llm_bench_point *fs_llm_bench_points(size_t *n)
{
    *n = sizeof points / sizeof points[0];
    return points;
}

const char *fs_llm_bench_metric_name(fs_llm_bench_metric m)
{
    static const char *const names[] = {"TTFT ms", "tok/s/GPU",
                                        "tok/s", "TPOT ms"};
    return m <= FS_BENCH_TPOT_MS ? names[m] : "?";
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

/* The steady state of n sequences, `entering` prompts prefilled an
 * iteration on average. */
static double steady(const fs_llm_perf *p, int n, double enter, long in,
                     long out)
{
    double pre = enter * (double)in;
    double attn = enter * (double)in * ((double)in + 1) / 2;
    long kv = (long)((double)n * ((double)in + (double)out / 2));
    return fs_llm_iteration_time(p, (long)(pre + 0.5), attn, n, kv);
}

double fs_llm_steady_iteration(const fs_llm_perf *p, int n, long in,
                               long out)
{
    /* n / out sequences finish per iteration and as many prompts enter */
    return steady(p, n, (double)n / (double)out, in, out);
}

int fs_llm_bench_eval(const fs_llm_bench_point *pt, const fs_catalog *cat,
                      const fs_llm_catalog *models, double *out, char *why,
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
    fs_llm_config_default(&c, m);
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
                       ? steady(&p, n, (double)(n - 1) / (double)pt->out,
                                pt->in, pt->out)
                       : fs_llm_steady_iteration(&p, n, pt->in, pt->out);
        *out = pt->metric == FS_BENCH_TPOT_MS ? 1e3 * t : n / t;
        break;
    }
    }
    return 0;
}
