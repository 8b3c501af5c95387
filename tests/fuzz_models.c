/* fuzz_models.c -- libFuzzer harness for the LLM model readers: a
 * models.csv of the user's (models/llm/llm_catalog.c) and a scenario's
 * `model = custom(...)` string (models/llm/llm_params.c through the scenario's
 * llm keys).
 *
 * An input of several lines is a models file: each model read is then
 * found by its name and weighed on an H100 (its memory breakdown must add
 * up); an input of one line (no newline) is the custom() value of a small
 * valid LLM scenario, which is loaded (every fit check runs).  Any crash, sanitizer report, leak or hang is a bug.  Run with
 * tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "models/llm/llm.h"
#include "sim/scenario/scenario.h"

#include <math.h>

static fs_catalog *gpus;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_catalog();
    fs_error err;
    gpus = fs_catalog_load(FS_SRC_CATALOG_DIR "/gpus.csv",
                           FS_SRC_CATALOG_DIR "/instances.csv", &err);
    if (!gpus)
        abort();
    return 0;
}

/* Every model read: found by its name, its memory on one H100 finite and
 * the parts adding up to the total. */
static void weigh(const fs_llm_catalog *c)
{
    const fs_gpu *g = fs_catalog_gpu(gpus, "H100-80GB");
    char buf[512];
    for (size_t i = 0; i < fs_llm_catalog_count(c) && i < 16; i++) {
        const fs_llm_model *m = fs_llm_catalog_at(c, i);
        if (fs_llm_catalog_find(c, m->name) == NULL)
            abort();
        fs_llm_config cfg;
        fs_llm_config_default(&cfg, m, NULL);
        fs_llm_hw hw;
        fs_llm_hw_default(&hw, g);
        fs_llm_memory mem;
        fs_llm_fit_inference(&cfg, &hw, m->max_context < 4096
                             ? m->max_context : 4096, 1, &mem);
        double parts = mem.weights + mem.kv_cache + mem.activations +
                       mem.overhead + mem.cuda_graphs + mem.reserved;
        if (!isfinite(mem.total) || mem.total < 0 ||
            fabs(parts - mem.total) > 1e-6 * (1 + mem.total))
            abort();
        fs_llm_memory_format(&mem, buf, sizeof buf);
    }
    fs_llm_catalog_suggest(c, "llama-3-8", buf, sizeof buf);
}

static const char base[] =
    "[scenario]\nstart = 2026-01-01\nhorizon = 10m\n"
    "[pool.gpu]\ngpu = H100-80GB\ncount = 2\nprice = 3\n"
    "[workload.chat]\npools = gpu\narrivals = poisson(rate=2/s)\n"
    "service = llm(model=custom, precision=bf16)\n"
    "tokens_in = const(500)\ntokens_out = const(100)\n";

static void custom(const uint8_t *data, size_t size)
{
    size_t n = 0;
    while (n < size && n < 2048 && data[n] != 0)
        n++;
    char text[4096];
    int len = snprintf(text, sizeof text, "%smodel = custom(%.*s)\n", base,
                       (int)n, (const char *)data);
    if (len < 0 || (size_t)len >= sizeof text)
        return;
    char path[400];
    fuzz_write("input.ini", (const uint8_t *)text, (size_t)len, path,
               sizeof path);
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, NULL, 0, &err);
    fs_scenario_free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!memchr(data, '\n', size)) {
        custom(data, size);
        return 0;
    }
    char path[400];
    fuzz_write("input.csv", data, size, path, sizeof path);
    fs_error err;
    fs_llm_catalog *c = fs_llm_catalog_load(path, &err);
    if (c)
        weigh(c);
    fs_llm_catalog_free(c);
    return 0;
}
