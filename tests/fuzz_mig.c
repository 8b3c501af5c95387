/* fuzz_mig.c -- libFuzzer harness for MIG layout strings
 * (models/llm/mig.c: "3g.40gb+2g.20gb*2", "balanced") as a pool's `mig` key
 * and a workload's `mig_profile` take them.
 *
 * The input's first line is the layout; a hash of it picks one of the
 * GPUs with MIG profiles in models/catalog/mig.csv.  A layout that parses
 * must be sound: instances on allowed starts, memory slices that do not
 * overlap, compute within the GPU's, and its printed form must parse back
 * to the same layout.  The same line is then given to a small valid
 * scenario as `mig` (and as `mig_profile`) through --set.  Any crash,
 * sanitizer report, leak, hang or unsound layout is a bug.  Run with
 * tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "models/llm/mig.h"
#include "sim/scenario/scenario.h"

static fs_mig_catalog *mig;
static const char *gpu_names[16];
static size_t ngpu_names;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_catalog();
    fs_error err;
    mig = fs_mig_load(FS_SRC_CATALOG_DIR "/mig.csv", &err);
    if (!mig)
        abort();
    for (size_t i = 0; i < mig->n && ngpu_names < 16; i++) {
        size_t k = 0;
        while (k < ngpu_names && strcmp(gpu_names[k], mig->p[i].gpu) != 0)
            k++;
        if (k == ngpu_names)
            gpu_names[ngpu_names++] = mig->p[i].gpu;
    }
    return 0;
}

/* Starts allowed, memory slices apart, compute within the GPU's. */
static void check_sound(const fs_mig_layout *l, const char *gpu)
{
    unsigned used = 0;
    int compute = 0;
    if (l->n < 1 || l->n > FS_MIG_MAX_INSTANCES)
        abort();
    for (int i = 0; i < l->n; i++) {
        const fs_mig_profile *p = l->slice[i];
        int ok = 0;
        for (int s = 0; s < p->nstarts; s++)
            ok |= p->starts[s] == l->start[i];
        if (!ok || l->start[i] + p->memory > p->gpu_memory)
            abort();
        for (int m = l->start[i]; m < l->start[i] + p->memory; m++) {
            if (used & (1u << m))
                abort();
            used |= 1u << m;
        }
        compute += p->compute;
    }
    if (compute > fs_mig_gpu_compute(mig, gpu))
        abort();
}

static void round_trip(const fs_mig_layout *l, const char *gpu)
{
    char text[512], again[512], why[1024];
    fs_mig_layout back;
    fs_mig_layout_format(l, text, sizeof text);
    if (fs_mig_layout_parse(mig, gpu, text, &back, why, sizeof why) != 0)
        abort();
    fs_mig_layout_format(&back, again, sizeof again);
    if (strcmp(text, again) != 0 || back.n != l->n)
        abort();
}

static const char base[] =
    "[scenario]\nstart = 2026-01-01\nhorizon = 1h\n"
    "[pool.gpu]\ngpu = A100-80GB\ncount = 1\nprice = 3\n"
    "mig = 3g.40gb+2g.20gb+1g.20gb\n"
    "[workload.a]\npools = gpu\narrivals = poisson(rate=1/s)\n"
    "service = exponential(mean=1s)\nmig_profile = 3g.40gb\n";

static void in_scenario(const char *value, uint32_t h)
{
    fs_error err;
    fs_scenario_free(fuzz_load_set(base, (h >> 8) & 1 ? "pool.gpu.mig"
                                   : "workload.a.mig_profile", value, &err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char value[1024], why[1024];
    if (fuzz_first_line(data, size, value, sizeof value) < 0)
        return 0;
    uint32_t h = fuzz_hash(data, size);
    const char *gpu = gpu_names[h % ngpu_names];
    fs_mig_layout l;
    if (fs_mig_layout_parse(mig, gpu, value, &l, why, sizeof why) == 0) {
        check_sound(&l, gpu);
        round_trip(&l, gpu);
    }
    in_scenario(value, h);
    return 0;
}
