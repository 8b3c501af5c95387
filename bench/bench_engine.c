/* bench_engine.c -- in-process figures for the parts of the hot path:
 * the event engine (the classic "hold" model), the heap alone, the latency
 * histogram, the CSV reader and the trace replay.  Prints figures; asserts
 * nothing (tests/ does that).  bench/run builds and runs it.
 *
 * usage: bench_engine [SRCDIR]   (where traces/sample lives; default .) */
#include "sim/base/csvin.h"
#include "sim/engine/engine.h"
#include "sim/base/histogram.h"
#include "sim/app/progress.h"
#include "sim/base/rng.h"
#include "traces/arrivals.h"
#include "models/llm/llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <gsl/gsl_randist.h>

/* A figure line: what, how many, in how long. */
static void report(const char *what, double n, const char *unit,
                   double seconds)
{
    printf("  %-44s %12.0f %-9s %7.3fs  %8.2fM %s/s\n", what, n, unit,
           seconds, n / seconds / 1e6, unit);
}

/* ---- engine: the hold model ---------------------------------------------
 * `pending` events are in the heap at all times; each one, when it runs,
 * schedules one more at an exponential delay.  This is the standard test
 * of a future-event set: a pop and a push per event, at a fixed heap size. */

typedef struct hold {
    gsl_rng *rng;
    long left;
} hold;

static void on_hold(fs_engine *e, void *obj, long arg)
{
    hold *h = obj;
    if (--h->left > 0)
        fs_engine_at(e, fs_engine_now(e) + gsl_ran_exponential(h->rng, 1),
                     on_hold, h, arg);
    else
        fs_engine_stop(e);
}

static void bench_hold(long pending, long events)
{
    fs_engine *e = fs_engine_new();
    hold h = {fs_rng_new(1, 0, "bench:hold"), events};
    for (long i = 0; i < pending; i++)
        fs_engine_at(e, gsl_ran_exponential(h.rng, 1), on_hold, &h, i);
    double t0 = fs_wall_seconds();
    fs_engine_run(e, 1e300);
    double dt = fs_wall_seconds() - t0;
    char what[64];
    snprintf(what, sizeof what, "engine, hold model, %ld pending", pending);
    report(what, (double)e->events, "events", dt);
    gsl_rng_free(h.rng);
    fs_engine_free(e);
}

static void bench_heap(long n)
{
    fs_heap hp;
    fs_heap_init(&hp);
    gsl_rng *r = fs_rng_new(1, 0, "bench:heap");
    double t0 = fs_wall_seconds();
    for (long i = 0; i < n; i++)
        fs_heap_push(&hp, gsl_rng_uniform(r), (uint32_t)i);
    fs_heap_entry top;
    while (fs_heap_pop(&hp, &top))
        ;
    double dt = fs_wall_seconds() - t0;
    report("heap, push then pop all (random times)", (double)n, "entries",
           dt);
    fs_heap_free(&hp);
    gsl_rng_free(r);
}

static void bench_histogram(long n)
{
    fs_hist h;
    if (fs_hist_init(&h))
        return;
    gsl_rng *r = fs_rng_new(1, 0, "bench:hist");
    enum { DISTINCT = 1 << 20 };   /* samples drawn, reused in turn */
    double *x = malloc(DISTINCT * sizeof *x);
    if (!x)
        return;
    for (long i = 0; i < DISTINCT; i++)
        x[i] = gsl_ran_lognormal(r, -1, 1.5);
    double t0 = fs_wall_seconds();
    for (long i = 0; i < n; i++)
        fs_hist_add(&h, x[i & (DISTINCT - 1)]);
    double p99 = fs_hist_quantile(&h, 0.99);
    double dt = fs_wall_seconds() - t0;
    report("latency histogram, adds", (double)n, "samples", dt);
    if (p99 < 0)   /* keep the quantile from being optimized away */
        puts("?");
    free(x);
    gsl_rng_free(r);
    fs_hist_free(&h);
}

/* The CSV reader alone: every record of a file, `laps` times. */
static void bench_csv(const char *path, int laps)
{
    fs_error err;
    fs_csv *c = fs_csv_open(path, &err);
    if (!c) {
        printf("  (skipped csv: %s)\n", err.msg);
        return;
    }
    long rows = 0;
    double t0 = fs_wall_seconds();
    for (int l = 0; l < laps; l++) {
        while (fs_csv_next(c, &err) == 1)
            rows++;
        fs_csv_rewind(c, &err);
    }
    double dt = fs_wall_seconds() - t0;
    report("CSV reader (libcsv), LoRA trace records", (double)rows, "rows",
           dt);
    fs_csv_free(c);
}

/* Trace replay: open (the validating pass) and pull every arrival of
 * `laps` laps of the trace: parsing, date-times and all. */
static void bench_trace(const char *srcdir, const char *file,
                        const char *format, int laps, const char *what)
{
    char text[512];
    snprintf(text, sizeof text, "trace(%s/traces/sample/%s, format=%s)",
             srcdir, file, format);
    fs_call call;
    char why[256];
    if (fs_parse_call(text, &call, why, sizeof why))
        return;
    /* A horizon long enough for every lap wanted (31 years), yet inside
     * the bound on the rows a stream may read. */
    gsl_rng *r = fs_rng_new(1, 0, "bench:trace");
    fs_arrivals_spec spec = {
        .call = &call, .key = "bench", .horizon_s = 1e9, .rate_scale = 1,
        .repeat = 1, .bad_rows = FS_BAD_ROWS_SKIP, .rng = r,
    };
    fs_error err;
    double t0 = fs_wall_seconds();
    fs_arrivals *a = fs_arrivals_open(&spec, &err);
    if (!a) {
        printf("  (skipped %s: %s)\n", file, err.msg);
        gsl_rng_free(r);
        return;
    }
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    long want = st.valid * laps, n = 0;
    fs_arrival x;
    while (n < want && fs_arrivals_next(a, &x, &err) == 1)
        n++;
    double dt = fs_wall_seconds() - t0;
    /* Rows read: the validating pass plus every lap of replay. */
    report(what, (double)(st.rows * (laps + 1)), "rows", dt);
    fs_arrivals_free(a);
    gsl_rng_free(r);
}

/* ---- LLM iteration time -------------------------------------------------
 * fs_llm_iteration_time is called once per server iteration by the LLM
 * service model: a few multiplications and one pow() for an MoE.  Shapes
 * from the catalog rows (llama-3.1-8b, mixtral-8x7b) and the H100 SXM
 * datasheet, built here so the figure needs no catalog file. */
static void bench_llm_iteration(long calls)
{
    fs_gpu g = {.name = "H100-80GB", .memory_gb = 80, .memory_bw_gbs = 3350,
                .bf16_tflops = 989.5, .fp8_tflops = 1979, .fp16_tflops = 989.5,
                .nvlink_gbs = 900, .pcie_gbs = 128, .fp8_native = 1,
                .generation = "hopper", .form = "sxm"};
    fs_llm_model dense = {.name = "llama-3.1-8b", .params = 8.03e9,
                          .active_params = 8.03e9, .layers = 32,
                          .hidden = 4096, .heads = 32, .kv_heads = 8,
                          .head_dim = 128, .ffn = 14336, .vocab = 128256,
                          .max_context = 131072};
    fs_llm_model moe = {.name = "mixtral-8x7b", .params = 46.703e9,
                        .active_params = 12.88e9, .layers = 32,
                        .hidden = 4096, .heads = 32, .kv_heads = 8,
                        .head_dim = 128, .ffn = 14336, .experts = 8,
                        .experts_per_token = 2,
                        .expert_params = 3.0 * 4096 * 14336 * 32,
                        .vocab = 32000, .max_context = 32768};
    const fs_llm_model *ms[2] = {&dense, &moe};
    fs_error err;
    fs_llm_engines *eng = fs_llm_engines_load_default(&err);
    if (!eng) {
        printf("  llm: %s\n", err.msg);
        return;
    }
    for (int k = 0; k < 2; k++) {
        fs_llm_config c;
        fs_llm_config_default(&c, ms[k], eng);
        c.weights = FS_PREC_FP8;
        c.kv = FS_PREC_FP8;
        c.tp = k == 0 ? 1 : 2;
        fs_llm_hw hw;
        fs_llm_hw_default(&hw, &g);
        fs_llm_perf p;
        char why[256];
        if (fs_llm_perf_init(&p, &c, &hw, why, sizeof why)) {
            printf("  llm: %s\n", why);
            break;
        }
        volatile double sink = 0;
        double t0 = fs_wall_seconds();
        for (long i = 0; i < calls; i++) {
            int batch = 1 + (int)(i & 255);
            long pre = (i & 7) == 0 ? 512 : 0;
            sink += fs_llm_iteration_time(&p, pre, pre * 256.0, batch,
                                          (long)batch * 1500);
        }
        double dt = fs_wall_seconds() - t0;
        char what[96];
        snprintf(what, sizeof what, "fs_llm_iteration_time, %s", ms[k]->name);
        report(what, (double)calls, "calls", dt);
        (void)sink;
    }
    fs_llm_engines_free(eng);
}

int main(int argc, char **argv)
{
    const char *srcdir = argc > 1 ? argv[1] : ".";
    char path[1024];
    puts("bench_engine: in-process figures (one core)");
    bench_hold(64, 20000000);
    bench_hold(100000, 10000000);
    bench_heap(5000000);
    bench_histogram(20000000);
    bench_llm_iteration(20000000);
    snprintf(path, sizeof path, "%s/traces/sample/lora_request_trace.csv",
             srcdir);
    bench_csv(path, 40);
    bench_trace(srcdir, "AzureLLMInferenceTrace_conv.csv", "azure-llm", 50,
                "trace replay, Azure conv (date-times, tokens)");
    bench_trace(srcdir, "lora_request_trace.csv", "alibaba-lora", 40,
                "trace replay, Alibaba LoRA (11 columns)");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("  peak RSS of bench_engine: %.1f MB (most of it the 5M-entry heap)\n",
           ru.ru_maxrss / 1024.0);
    return 0;
}
