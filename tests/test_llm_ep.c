/* test_llm_ep.c -- expert parallelism and multi-head latent attention
 * (models/llm/llm_ep.c, llm_attention.c).
 *
 *   - DeepSeek-V3's KV cache a token: 61 layers x (kv_lora_rank 512 +
 *     qk_rope_head_dim 64) values x bytes, exactly (70,272 bytes in bf16,
 *     35,136 in fp8), whole on each GPU of a TP group;
 *   - `fit deepseek-v3 --gpu H200 --tp 8`: weights 671.026e9 x 1 / 8 =
 *     83.9 GB a GPU at fp8 (fits), x 2 = 167.8 GB at bf16 (> 141 GB);
 *   - EP's memory: the dense part over tp, the routed experts over
 *     max(tp, ep), the two adding up to the weights; the KV capacity of
 *     ep / tp attention copies their sum;
 *   - the distinct ranks a token's k of E experts are on, against routing
 *     drawn at random (GSL's gsl_ran_choose, seed 11, 20,000 tokens):
 *     within 2% of ep (1 - C(E - E/ep, k) / C(E, k));
 *   - the all-to-all a token pays, by hand; the MoE layers' all-reduces
 *     dropped when the experts are whole on a GPU;
 *   - a decode step's bytes: each attention copy's dense part and the
 *     touched experts once, over the replica's bandwidth;
 *   - ep = 1 changes nothing: every catalog model's perf is the same
 *     with ep 0 and 1 (and cli_golden.sh is unchanged). */
#include "tests/check.h"
#include "tests/llm_common.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

static fs_llm_config config(const fs_llm_model *m, fs_llm_engines *engines,
                            int tp, int ep, fs_precision p)
{
    fs_llm_config c;
    fs_llm_config_default(&c, m, engines);
    c.tp = tp;
    c.ep = ep;
    c.weights = c.kv = p;
    return c;
}

/* DeepSeek-V3 at fp8 on 8 x H200 at tp and ep: its perf (fits). */
static fs_llm_perf on_h200(const fs_llm_model *ds, const fs_catalog *cat,
                           fs_llm_engines *engines, int tp, int ep)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, "H200"));
    fs_llm_config c = config(ds, engines, tp, ep, FS_PREC_FP8);
    fs_llm_perf p;
    CHECK(fs_llm_perf_init(&p, &c, &hw, NULL, 0) == 0);
    return p;
}

static void deepseek_kv(const fs_llm_model *ds, fs_llm_engines *engines)
{
    CHECK(ds->kv_lora_rank == 512 && ds->rope_head_dim == 64);
    CHECK_NEAR(fs_llm_kv_values(ds), 576, 0);
    fs_llm_config c = config(ds, engines, 8, 1, FS_PREC_BF16);
    CHECK_NEAR(fs_llm_kv_bytes_per_token(&c), 61.0 * 576 * 2, 0);
    /* the latent is not split by TP: each GPU holds it whole */
    CHECK_NEAR(fs_llm_kv_bytes_per_gpu_token(&c), 70272, 0);
    c.kv = FS_PREC_FP8;
    CHECK_NEAR(fs_llm_kv_bytes_per_token(&c), 35136, 0);
    /* as MHA its 128 heads would cache 2 x 128 x 128 a layer: 56.9 x */
    fs_llm_model mha = *ds;
    mha.attention = FS_ATTN_GQA;
    CHECK_NEAR(fs_llm_kv_values(&mha) / fs_llm_kv_values(ds), 32768.0 / 576,
               1e-12);
}

static void deepseek_fit(const fs_llm_model *ds, const fs_catalog *cat,
                         fs_llm_engines *engines)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, "H200"));
    fs_llm_memory fp8, bf16;
    fs_llm_config c = config(ds, engines, 8, 1, FS_PREC_FP8);
    fs_llm_fit_inference(&c, &hw, 0, 0, &fp8);
    CHECK_NEAR(fp8.weights, 671.026 / 8, 1e-9);
    CHECK(fp8.fits);
    printf("deepseek-v3 fp8 tp=8 on H200: %.1f GB of %.0f\n", fp8.total,
           fp8.capacity);
    c = config(ds, engines, 8, 1, FS_PREC_BF16);
    fs_llm_fit_inference(&c, &hw, 0, 0, &bf16);
    CHECK_NEAR(bf16.weights, 671.026 * 2 / 8, 1e-9);
    CHECK(!bf16.fits && bf16.weights > 141);
    char why[512];
    fs_llm_memory_format(&bf16, why, sizeof why);
    CHECK_CONTAINS(why, "weights 167.8 GB");
    fs_llm_perf p;
    CHECK(fs_llm_perf_init(&p, &c, &hw, why, sizeof why) != 0);
    CHECK_CONTAINS(why, "> 141.0 GB");
}

/* EP memory: the parts add up; the copies' KV capacity is their sum. */
static void ep_memory(const fs_llm_model *ds, const fs_catalog *cat,
                      fs_llm_engines *engines)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, "H200"));
    fs_llm_config c = config(ds, engines, 1, 8, FS_PREC_FP8);
    CHECK(fs_llm_gpus(&c) == 8 && fs_llm_attention_copies(&c) == 8);
    double routed = ds->expert_params * ds->experts;
    double dense = ds->params - routed;
    CHECK_NEAR(fs_llm_weight_bytes_per_gpu(&c), dense + routed / 8, 1);
    /* ep <= tp: everything over tp, as without EP */
    fs_llm_config t8 = config(ds, engines, 8, 8, FS_PREC_FP8);
    fs_llm_config t8e1 = config(ds, engines, 8, 1, FS_PREC_FP8);
    CHECK(fs_llm_weight_bytes_per_gpu(&t8) ==
          fs_llm_weight_bytes_per_gpu(&t8e1));
    fs_llm_perf a, b;
    CHECK(fs_llm_perf_init(&a, &c, &hw, NULL, 0) == 0);
    CHECK(fs_llm_perf_init(&b, &t8e1, &hw, NULL, 0) == 0);
    fs_llm_memory mem;
    fs_llm_fit_inference(&c, &hw, 0, 0, &mem);
    /* each copy's cache: one GPU's free memory over 35,136 bytes */
    double one = (mem.capacity - mem.total) * 1e9 / 35136;
    CHECK_NEAR((double)a.kv_capacity_tokens / (8 * one), 1.0, 1e-4);
    printf("KV capacity: tp=8 %ld tokens, tp=1 ep=8 %ld (8 copies)\n",
           b.kv_capacity_tokens, a.kv_capacity_tokens);
    CHECK(a.kv_capacity_tokens > 4 * b.kv_capacity_tokens);
}

/* Distinct ranks of a token's k experts: E experts on ep ranks, E / ep
 * each, k drawn without replacement. */
static void ranks_vs_drawn(void)
{
    static const int cases[][3] = {{256, 8, 8}, {128, 8, 4}, {8, 2, 2},
                                   {128, 8, 8}, {64, 6, 8}};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int e = cases[i][0], k = cases[i][1], ep = cases[i][2];
        int all[256], pick[8];
        for (int j = 0; j < e; j++)
            all[j] = j;
        double sum = 0;
        for (int t = 0; t < 20000; t++) {
            int seen[8] = {0}, n = 0;
            gsl_ran_choose(r, pick, (size_t)k, all, (size_t)e, sizeof(int));
            for (int q = 0; q < k; q++)
                n += !seen[pick[q] / (e / ep)]++;
            sum += n;
        }
        double drawn = sum / 20000;
        double closed = fs_llm_ep_ranks_per_token(e, ep, k);
        printf("E %3d k %d ep %d: ranks %.3f drawn, %.3f closed (%+.2f%%)\n",
               e, k, ep, drawn, closed, 100 * (drawn / closed - 1));
        CHECK_NEAR(drawn / closed, 1.0, 0.02);
    }
    gsl_rng_free(r);
}

/* The all-to-all and the all-reduces, by hand, on 8 x H200 (450 GB/s a
 * direction, 5 us a step; vllm's collective overhead 0). */
static void collectives(const fs_llm_model *ds, const fs_catalog *cat,
                        fs_llm_engines *engines)
{
    fs_llm_perf tp = on_h200(ds, cat, engines, 8, 1);
    fs_llm_perf ep = on_h200(ds, cat, engines, 8, 8);
    double none = 1;   /* C(224, 8) / C(256, 8) */
    for (int i = 0; i < 8; i++)
        none *= (224.0 - i) / (256 - i);
    double ranks = 8 * (1 - none);
    double a2a = 2.0 * 58 * 7168 * 2 * ranks * 7 / 8 / 8 / 450e9;
    CHECK_NEAR(ep.alltoall_s / a2a, 1.0, 1e-12);
    /* of 2 x 61 all-reduces, the 58 MoE layers' FFN ones go */
    double kept = (122.0 - 58) / 122;
    CHECK_NEAR(ep.allreduce_s_per_token,
               tp.allreduce_s_per_token * kept + a2a, 1e-15);
    CHECK_NEAR(ep.allreduce_fixed_s,
               tp.allreduce_fixed_s * kept + 2 * 58 * 5e-6, 1e-12);
    printf("tp=8: all-reduce %.2f us a token; ep=8: %.2f (all-to-all "
           "%.2f)\n", tp.allreduce_s_per_token * 1e6,
           ep.allreduce_s_per_token * 1e6, ep.alltoall_s * 1e6);
}

/* A decode step's bytes with 8 attention copies: the dense part 8 times,
 * the touched experts once, over 8 GPUs' bandwidth. */
static void decode_bytes(const fs_llm_model *ds, const fs_catalog *cat,
                         fs_llm_engines *engines)
{
    fs_llm_perf p = on_h200(ds, cat, engines, 1, 8);
    fs_llm_perf q = on_h200(ds, cat, engines, 8, 1);
    double eb = ds->expert_params;   /* fp8: a byte a parameter */
    double dense = ds->params - 256 * eb;
    for (int b = 1; b <= 512; b *= 8) {
        double touched = 256 * (1 - pow(1 - 8.0 / 256, b));
        CHECK_NEAR(fs_llm_weight_bytes_read(&p, b) /
                       (8 * dense + touched * eb), 1.0, 1e-12);
        CHECK_NEAR(fs_llm_weight_bytes_read(&q, b) / (dense + touched * eb),
                   1.0, 1e-12);
    }
    CHECK_NEAR(p.bandwidth / q.bandwidth, 1.0, 1e-12);
    /* MLA at tp=8: each GPU reads the whole latent, 8 x one copy */
    CHECK_NEAR(q.kv_bytes_per_token, 8 * 35136.0, 1e-9);
    CHECK_NEAR(p.kv_bytes_per_token, 35136.0, 1e-9);
    /* the decode step at a few batches, 2,000 tokens of context each */
    fs_llm_perf r = on_h200(ds, cat, engines, 8, 8);
    for (int b = 1; b <= 512; b *= 8)
        printf("decode step, batch %3d: tp=8 %.2f ms, tp=8 ep=8 %.2f ms, "
               "tp=1 ep=8 %.2f ms\n", b,
               1e3 * fs_llm_iteration_time(&q, 0, 0, b, 2000L * b),
               1e3 * fs_llm_iteration_time(&r, 0, 0, b, 2000L * b),
               1e3 * fs_llm_iteration_time(&p, 0, 0, b, 2000L * b));
}

/* ep = 1 is today's model: the same perf, field for field. */
static void ep1_unchanged(const fs_llm_catalog *models, const fs_catalog *cat,
                          fs_llm_engines *engines)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, "H100-80GB"));
    for (size_t i = 0; i < fs_llm_catalog_count(models); i++) {
        const fs_llm_model *m = fs_llm_catalog_at(models, i);
        fs_llm_config a = config(m, engines, 8, 0, FS_PREC_FP8);
        fs_llm_config b = config(m, engines, 8, 1, FS_PREC_FP8);
        fs_llm_perf pa, pb;
        int ra = fs_llm_perf_init(&pa, &a, &hw, NULL, 0);
        int rb = fs_llm_perf_init(&pb, &b, &hw, NULL, 0);
        CHECK(ra == rb);
        if (ra)
            continue;
        CHECK(pa.kv_capacity_tokens == pb.kv_capacity_tokens);
        CHECK(fs_llm_iteration_time(&pa, 300, 5e4, 32, 40000) ==
              fs_llm_iteration_time(&pb, 300, 5e4, 32, 40000));
        CHECK(pb.alltoall_s == 0);
    }
}

int main(void)
{
    ranks_vs_drawn();
    llm_catalogs all;
    CHECK(llm_catalogs_load(&all) == 0);
    const fs_llm_model *ds =
        all.models ? fs_llm_catalog_find(all.models, "deepseek-v3") : NULL;
    CHECK(ds != NULL);
    if (ds && all.cat && all.engines) {
        deepseek_kv(ds, all.engines);
        deepseek_fit(ds, all.cat, all.engines);
        ep_memory(ds, all.cat, all.engines);
        collectives(ds, all.cat, all.engines);
        decode_bytes(ds, all.cat, all.engines);
        ep1_unchanged(all.models, all.cat, all.engines);
    }
    llm_catalogs_free(&all);
    return check_report("llm_ep");
}
