/* test_kv_capacity.c -- KV-cache capacity against vLLM's own logs.
 *
 * Validation, not calibration: no figure below set a column of
 * engines.csv or gpus.csv (doc/llm-validation.md, "KV capacity").  Each
 * row is a published vLLM log of "# GPU blocks" (or the KV memory it
 * reserved, in GiB, over the bytes of a block), at the default
 * gpu_memory_utilization of 0.9 and 16-token blocks, simulated with the
 * profile of that release's memory profiler; fleetsim's blocks must be
 * within 10% of each (the tolerance for KV capacity).
 *
 * The rule itself: an engine sizes its cache from the total the driver
 * reports (gpus.csv reported_gib: 79.15 GiB on an A100 80GB, not the
 * datasheet's 80 GB), its CUDA graphs are captured inside the share it
 * leaves unused, and the parts with the cache fill that total to within
 * one block. */
#include "tests/llm_common.h"

#include <math.h>
#include <stdio.h>

static llm_catalogs all;
static fs_catalog *cat;
static fs_llm_catalog *models;
static fs_llm_engines *engines;

static void config(fs_llm_config *c, fs_llm_hw *hw, const char *model,
                   const char *gpu, int tp, const char *engine)
{
    fs_llm_config_default(c, fs_llm_catalog_find(models, model), engines);
    c->tp = tp;
    snprintf(c->engine, sizeof c->engine, "%s", engine);
    fs_llm_hw_default(hw, fs_catalog_gpu(cat, gpu));
}

static long blocks_of(const char *model, const char *gpu, int tp,
                      const char *engine)
{
    fs_llm_config c;
    fs_llm_hw hw;
    fs_llm_perf p;
    char why[512];
    config(&c, &hw, model, gpu, tp, engine);
    if (fs_llm_perf_init(&p, &c, &hw, why, sizeof why)) {
        printf("     %s\n", why);
        return 0;
    }
    return p.kv_capacity_tokens / 16;
}

/* One published log.  blocks: vLLM's "# GPU blocks"; or kv_gib, the KV
 * memory it logged, over kv_block_bytes a 16-token block. */
typedef struct kv_row {
    const char *model, *gpu;
    int tp;
    const char *engine;     /* the profile of that release's profiler */
    double blocks, kv_gib, kv_block_bytes;
    const char *source;
} kv_row;

/* Llama-2-7B: 32 layers x 2 x 32 heads x 128 x 2 bytes x 16 = 8 MiB a
 * block; Llama-2-70B at TP 4: 80 x 2 x 2 heads x 128 x 2 x 16 = 1.25 MiB;
 * Llama-3-8B: 32 x 2 x 8 x 128 x 2 x 16 = 2 MiB. */
static const kv_row rows[] = {
    {"llama-2-7b", "A100-80GB", 1, "vllm@0.1", 7449, 0, 0,
     "vllm-project/vllm#2031, main of 2023-12-11 (0.2.4; torch's peak)"},
    {"llama-2-70b", "A100-80GB", 4, "vllm@0.1", 31615, 0, 0,
     "vllm-project/vllm#2031, main of 2023-12-11 (0.2.4; torch's peak)"},
    {"llama-2-7b", "A100-80GB", 1, "vllm@0.1", 7351, 0, 0,
     "vllm-project/vllm#2031, the fix (0.2.5: the driver's free memory)"},
    {"llama-3-8b", "H100-80GB", 1, "vllm@0.6.0", 0, 53.29, 2097152,
     "vllm-project/vllm#10511 (0.6.5 dev, total_gpu_memory 79.22 GiB)"},
    {"llama-3.1-8b", "H100-80GB", 1, "vllm", 0, 51.38, 2097152,
     "llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md"
     " (V1 engine, 79.18 GiB)"},
};

static void published_logs(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const kv_row *r = &rows[i];
        double want = r->blocks > 0
                          ? r->blocks
                          : floor(r->kv_gib * 1073741824.0 /
                                  r->kv_block_bytes);
        long got = blocks_of(r->model, r->gpu, r->tp, r->engine);
        double err = (double)got / want - 1;
        printf("  %-12s %-9s tp%d %-10s vLLM %6.0f blocks, fleetsim %6ld "
               "(%+.1f%%): %s\n", r->model, r->gpu, r->tp, r->engine, want,
               got, 100 * err, r->source);
        CHECK(fabs(err) <= 0.10);
    }
    /* Not asserted: the same pull request's 20,865 blocks for Llama-2-70B
     * at TP 4 after its fix.  That build held every all-reduce's input
     * until the pass ended (two a layer; fixed days later in
     * vllm-project/vllm#2151: the peak of Llama-70B at TP 8 fell from
     * 25.5 to 19.5 GiB), some 10 GiB a GPU no release since reserves. */
    long got = blocks_of("llama-2-70b", "A100-80GB", 4, "vllm@0.1");
    printf("  not asserted: llama-2-70b tp4 after vllm#2031's fix: vLLM "
           "20865 blocks, fleetsim %ld (%+.1f%%)\n", got,
           100 * ((double)got / 20865 - 1));
}

/* The budget is the driver's total, the graphs sit in the share kept
 * free, and the parts with the cache fill the total to within a block;
 * without an engine profile the datasheet's GB stands. */
static void rule(void)
{
    fs_llm_config c;
    fs_llm_hw hw;
    fs_llm_perf p;
    fs_llm_memory m;
    char why[512];
    config(&c, &hw, "llama-2-70b", "A100-80GB", 4, "vllm");
    CHECK(fs_llm_perf_init(&p, &c, &hw, why, sizeof why) == 0);
    fs_llm_fit_inference(&p.cfg, &hw, 0, 0, &m);
    CHECK_NEAR(m.capacity, 79.15 * 1073741824.0 / 1e9, 1e-9);
    CHECK_NEAR(m.reserved + m.cuda_graphs, 0.1 * m.capacity, 1e-9);
    CHECK(m.cuda_graphs > 0);
    double kv = (double)p.kv_capacity_tokens *
                fs_llm_kv_bytes_per_gpu_token(&p.cfg) / 1e9;
    double parts = m.weights + m.activations + m.overhead + m.cuda_graphs +
                   m.reserved + kv;
    double block = 16 * fs_llm_kv_bytes_per_gpu_token(&p.cfg) / 1e9;
    CHECK(parts <= m.capacity && parts > m.capacity - block);
    /* a GPU with no reported total found: the datasheet's GB */
    config(&c, &hw, "llama-2-7b", "L4", 1, "vllm");
    fs_llm_fit_inference(&c, &hw, 0, 0, &m);
    CHECK_NEAR(m.capacity, 24, 1e-12);
    /* no engine profile: the datasheet's GB */
    config(&c, &hw, "llama-2-7b", "A100-80GB", 1, "none-such");
    fs_llm_fit_inference(&c, &hw, 0, 0, &m);
    CHECK_NEAR(m.capacity, 80, 1e-12);
}

int main(void)
{
    if (llm_catalogs_load(&all))
        return 1;
    cat = all.cat;
    models = all.models;
    engines = all.engines;
    published_logs();
    rule();
    llm_catalogs_free(&all);
    return check_report("kv_capacity");
}
