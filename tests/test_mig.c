/* test_mig.c -- MIG profiles, layouts and slices as servers.
 *
 * The catalog reads; NVIDIA's 19 maximal layouts of A100-80GB's five
 * classic profiles are exactly the ones found, each accepted when written
 * out; 3g.40gb+4g.40gb places, 2g.20gb*4 and 4g.40gb+4g.40gb are refused
 * with the reason and the nearest valid layouts, T4 has no MIG; balanced
 * is NVIDIA's 1g*2+2g+3g; an A100-80GB cut into 1g.10gb*7 serving
 * exponential requests of 1 s on the whole GPU at 60% load per slice is
 * M/M/7 with the SM-scaled service time 108/14 s. */
#include "check.h"
#include "simulate.h"
#include "models/llm/mig.h"
#include "sim/fleet/serve/shape.h"

#include <string.h>

static fs_mig_catalog *load(void)
{
    char path[1024];
    check_path(path, sizeof path, "models/catalog/mig.csv");
    fs_error err;
    fs_mig_catalog *c = fs_mig_load(path, &err);
    if (!c)
        printf("     %s\n", err.msg);
    return c;
}

typedef struct seen {
    char text[32][96];
    int n;
} seen;

static void collect(const fs_mig_layout *l, void *ctx)
{
    seen *s = ctx;
    if (s->n < 32)
        fs_mig_layout_format(l, s->text[s->n++], sizeof s->text[0]);
}

/* NVIDIA's MIG user guide, A100 profiles: the 19 placements that fill an
 * A100 with 1g, 2g, 3g, 4g and 7g instances are 14 distinct layouts as a
 * user writes them (2g+1g+1g fills the first half two ways). */
static const char *const nvidia_layouts[] = {
    "7g.80gb", "4g.40gb+3g.40gb", "4g.40gb+2g.20gb+1g.10gb",
    "4g.40gb+1g.10gb*3", "3g.40gb*2", "3g.40gb+2g.20gb+1g.10gb",
    "3g.40gb+1g.10gb*3", "3g.40gb+2g.20gb*2", "2g.20gb*3+1g.10gb",
    "2g.20gb*2+1g.10gb*3", "3g.40gb+2g.20gb+1g.10gb*2",
    "2g.20gb+1g.10gb*5", "3g.40gb+1g.10gb*4", "1g.10gb*7", NULL,
};

static void test_maximal(const fs_mig_catalog *c)
{
    const fs_mig_profile *p[FS_MIG_MAX_PROFILES];
    size_t n = fs_mig_profiles(c, "A100-80GB", p, FS_MIG_MAX_PROFILES);
    CHECK(n == 6);
    unsigned classic = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(p[i]->name, "1g.20gb") != 0)
            classic |= 1u << i;
    seen s = {.n = 0};
    size_t count = fs_mig_maximal(c, "A100-80GB", classic, collect, &s);
    CHECK(count == 19);
    CHECK(s.n == 19);
    /* Each one, written out, is accepted, and is one of NVIDIA's. */
    int distinct = 0;
    for (int i = 0; i < s.n; i++) {
        fs_mig_layout l;
        char why[1024];
        int ok = fs_mig_layout_parse(c, "A100-80GB", s.text[i], &l, why,
                                     sizeof why) == 0;
        if (!CHECK(ok))
            printf("     %s: %s\n", s.text[i], why);
        int known = 0, first = 1;
        for (int k = 0; nvidia_layouts[k]; k++)
            known |= strcmp(nvidia_layouts[k], s.text[i]) == 0;
        for (int j = 0; j < i; j++)
            first &= strcmp(s.text[j], s.text[i]) != 0;
        distinct += first;
        if (!CHECK(known))
            printf("     not NVIDIA's: %s\n", s.text[i]);
    }
    CHECK(distinct == 14);
}

static void test_layouts(const fs_mig_catalog *c)
{
    fs_mig_layout l;
    char why[1024], text[96];
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "3g.40gb+4g.40gb", &l, why,
                              sizeof why) == 0);
    CHECK(l.n == 2);
    CHECK(l.start[0] + l.start[1] == 4);   /* one at 0, one at 4 */
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "2g.20gb*4", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "'2g.20gb*4'");
    CHECK_CONTAINS(why, "4 x 2g.20gb, and a GPU holds at most 3");
    CHECK_CONTAINS(why, "nearest valid layouts: 2g.20gb*3+1g.10gb");
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "4g.40gb+4g.40gb", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "'4g.40gb+4g.40gb'");
    CHECK_CONTAINS(why, "at most 1");
    CHECK_CONTAINS(why, "4g.40gb+3g.40gb");
    /* Within every count, over the compute slices. */
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "4g.40gb+2g.20gb*2", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "8 compute slices and the GPU has 7");
    /* Within compute and counts, but no placement: 1g.10gb cannot start
     * at slice 7, so 3g.40gb*2 leaves no room for it. */
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "3g.40gb*2+1g.10gb", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "do not fit on the GPU's memory slices");
    CHECK(fs_mig_layout_parse(c, "T4", "1g.10gb*7", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "'1g.10gb*7': T4 has no MIG");
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "3g.40g", &l, why,
                              sizeof why) < 0);
    CHECK_CONTAINS(why, "did you mean 3g.40gb?");
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "balanced", &l, why,
                              sizeof why) == 0);
    fs_mig_layout_format(&l, text, sizeof text);
    CHECK(strcmp(text, "3g.40gb+2g.20gb+1g.10gb*2") == 0);
    CHECK(fs_mig_layout_parse(c, "A100-80GB", "1g.10gb*7", &l, why,
                              sizeof why) == 0 && l.n == 7);
    /* Every GPU of the catalog has a balanced layout that places. */
    static const char *const gpus[] = {"A30", "A100-40GB", "A100-80GB",
                                       "H100-80GB", "H100-PCIE", "H100-NVL",
                                       "H200", "B200", NULL};
    for (int i = 0; gpus[i]; i++) {
        int ok = fs_mig_layout_parse(c, gpus[i], "balanced", &l, why,
                                     sizeof why) == 0;
        if (!CHECK(ok))
            printf("     %s\n", why);
    }
}

/* Erlang C: the probability that an arrival waits in M/M/c at offered
 * load a = lambda / mu. */
static double erlang_c(int c, double a)
{
    double term = 1, sum = 0;
    for (int k = 0; k < c; k++) {
        sum += term;
        term *= a / (k + 1);
    }
    double last = term / (1 - a / c);
    return last / (sum + last);
}

/* 1g.10gb*7 on an A100-80GB: each slice runs a 1 s (whole-GPU) request in
 * 108/14 s; at 60% load per slice the workload's one FIFO queue over the
 * seven slices is M/M/7. */
static void test_mm7(void)
{
    double s = 108.0 / 14, lambda = 0.6 * 7 / s;
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 40d\nwarmup = 1d\n"
             "[pool.a]\ngpu = A100-80GB\nprice = 4\nmig = 1g.10gb*7\n"
             "[workload.w]\npools = a\narrivals = poisson(rate=%.17g/s)\n"
             "service = exponential(mean=1s)\n", lambda);
    fs_results out;
    if (!CHECK(check_simulate(text, &out) == 0)) {
        fs_results_free(&out);
        return;
    }
    double wq = erlang_c(7, lambda * s) / (7 / s - lambda);
    printf("  1g.10gb*7 at 60%%: slice utilization %.4f (0.60), mean wait "
           "%.4f s (M/M/7 %.4f s), GPU utilization %.4f\n",
           out.slices[0].utilization, out.latency[0].wait_mean_s, wq,
           out.pools[0].gpu_hours_busy / out.pools[0].gpu_hours_provisioned);
    CHECK(out.nslices == 1);
    CHECK(strcmp(out.slices[0].profile, "1g.10gb") == 0);
    CHECK(out.slices[0].slices_per_gpu == 7);
    CHECK_NEAR(out.slices[0].utilization, 0.60, 0.012);
    CHECK_NEAR(out.latency[0].wait_mean_s, wq, 0.08 * wq);
    CHECK_NEAR(out.latency[0].mean_s, wq + s, 0.02 * (wq + s));
    /* A busy slice counts its SMs: the GPU is 0.6 x 98/108 busy. */
    CHECK_NEAR(out.pools[0].gpu_hours_busy /
                   out.pools[0].gpu_hours_provisioned,
               0.6 * 98 / 108, 0.012);
    /* The slices' idle cost: the bill x 98/108 x their idle share. */
    double bill = 0;
    for (size_t i = 0; i < out.ncosts; i++)
        bill += out.costs[i].cost_usd;
    CHECK_NEAR(out.slices[0].idle_cost_usd,
               bill * 98 / 108 * (1 - out.slices[0].utilization), 0.01);
    fs_results_free(&out);
}

/* 3g.40gb+4g.40gb: each workload runs on its own profile only, at its
 * SM share: a 1 s request takes 108/42 s on the 3g, 108/56 s on the 4g. */
static void test_profiles(void)
{
    const char *text =
        "[scenario]\nhorizon = 2d\n"
        "[pool.a]\ngpu = A100-80GB\nprice = 4\nmig = 3g.40gb+4g.40gb\n"
        "[workload.small]\npools = a\nmig_profile = 3g.40gb\n"
        "arrivals = poisson(rate=0.01/s)\nservice = const(1s)\n"
        "[workload.big]\npools = a\nmig_profile = 4g.40gb\n"
        "arrivals = poisson(rate=0.01/s)\nservice = const(1s)\n";
    fs_results out;
    if (!CHECK(check_simulate(text, &out) == 0)) {
        fs_results_free(&out);
        return;
    }
    /* Low load: most requests never wait; the median is the service. */
    CHECK_NEAR(out.latency[0].p50_s, 108.0 / 42, 0.01 * 108 / 42);
    CHECK_NEAR(out.latency[1].p50_s, 108.0 / 56, 0.01 * 108 / 56);
    CHECK(out.nslices == 2);
    /* Each slice's busy hours are its workload's requests x its time. */
    for (size_t i = 0; i < out.nslices; i++) {
        int big = strcmp(out.slices[i].profile, "4g.40gb") == 0;
        double per = big ? 108.0 / 56 : 108.0 / 42;
        long n = out.latency[big].count + out.latency[big].unfinished;
        CHECK_NEAR(out.slices[i].busy_hours * 3600, n * per, per + 1e-6);
    }
    fs_results_free(&out);
}

/* A slice as the LLM model's hardware: its SM and memory-slice shares. */
static void test_slice_hw(const fs_mig_catalog *c)
{
    const fs_mig_profile *p[FS_MIG_MAX_PROFILES];
    size_t n = fs_mig_profiles(c, "A100-80GB", p, FS_MIG_MAX_PROFILES);
    fs_gpu g = {.name = "A100-80GB", .memory_gb = 80};
    for (size_t i = 0; i < n; i++) {
        fs_llm_hw hw;
        fs_mig_slice_hw(p[i], &g, &hw);
        if (strcmp(p[i]->name, "2g.20gb") == 0) {
            CHECK_NEAR(hw.compute_frac, 28.0 / 108, 1e-12);
            CHECK_NEAR(hw.memory_frac, 2.0 / 8, 1e-12);
        }
        if (strcmp(p[i]->name, "7g.80gb") == 0) {
            CHECK_NEAR(hw.compute_frac, 98.0 / 108, 1e-12);
            CHECK_NEAR(hw.memory_frac, 1, 1e-12);
        }
    }
}

/* The shapes of a 3g.40gb+2g.20gb+1g.20gb GPU: SM and memory shares, and
 * the shape a workload's mig_profile (or any slice) runs on. */
static void test_shapes(void)
{
    fs_scenario *sc = check_load(
        "[scenario]\nhorizon = 1h\n[pool.a]\ngpu = A100-80GB\nprice = 4\n"
        "mig = 3g.40gb+2g.20gb+1g.20gb\n[workload.w]\npools = a\n"
        "arrivals = poisson(rate=1/s)\nservice = const(1s)\n");
    if (!CHECK(sc != NULL))
        return;
    fs_server_shape s[FS_SHAPES_PER_GPU];
    int n = fs_shape_of_gpu(&sc->pools[0], s);
    CHECK(n == 3);
    const fs_server_shape *two = fs_shape_for_profile(s, n, "2g.20gb");
    CHECK(two && two->gpus == 1);
    CHECK(two && fabs(two->speed - 28.0 / 108) < 1e-12);
    CHECK(two && fabs(two->compute - 28.0 / 108) < 1e-12);
    CHECK(two && fabs(two->memory - 2.0 / 8) < 1e-12);
    CHECK(two && fabs(two->memory_gb - 19.5) < 1e-12);
    const fs_server_shape *any = fs_shape_for_profile(s, n, "");
    CHECK(any && strcmp(any->profile, "1g.20gb") == 0);
    CHECK(fs_shape_for_profile(s, n, "7g.80gb") == NULL);
    fs_scenario_free(sc);
}

int main(void)
{
    fs_mig_catalog *c = load();
    CHECK(c != NULL);
    if (c) {
        test_maximal(c);
        test_layouts(c);
        test_slice_hw(c);
    }
    test_shapes();
    test_mm7();
    test_profiles();
    fs_mig_free(c);
    return check_report("mig");
}
