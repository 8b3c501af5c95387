/* test_llm_moe.c -- a mixture of experts' iteration (models/llm_moe.c).
 *
 *   - the distinct routed experts a batch touches, E (1 - (1 - k/E)^B),
 *     against routing drawn at random (each of B tokens picks k distinct
 *     of E, GSL's gsl_ran_choose on mt19937, seed 7, 4,000 batches): the
 *     mean count within 2% of the closed form at every (E, k, B) tried;
 *   - the GEMM rows: B k token-expert pairs, each touched expert's rounded
 *     up to the fused kernel's tile (16 rows while B <= E, else 64),
 *     worked by hand;
 *   - the iteration's FLOPs and bytes add up: dense part + routed experts
 *     (+ shared experts) give the total, and one token reads its active
 *     parameters' bytes;
 *   - shared experts: counted in the shape's parameters, in every token's
 *     work and in the bytes every step reads, not in the routed count. */
#include "tests/check.h"
#include "tests/llm_common.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* Mean distinct experts over `trials` batches of b tokens, each picking
 * k distinct experts of e uniformly. */
static double drawn_touched(gsl_rng *r, int e, int k, int b, int trials)
{
    int all[4096], pick[256], seen[4096];
    for (int i = 0; i < e; i++)
        all[i] = i;
    double sum = 0;
    for (int t = 0; t < trials; t++) {
        memset(seen, 0, sizeof(int) * (size_t)e);
        int distinct = 0;
        for (int j = 0; j < b; j++) {
            gsl_ran_choose(r, pick, (size_t)k, all, (size_t)e, sizeof(int));
            for (int q = 0; q < k; q++)
                distinct += !seen[pick[q]]++;
        }
        sum += distinct;
    }
    return sum / trials;
}

static void touched_vs_drawn(void)
{
    static const int cases[][3] = {
        {8, 2, 1},    {8, 2, 3},     {8, 2, 16},   {64, 6, 7},
        {128, 8, 4},  {128, 8, 32},  {128, 8, 128}, {256, 8, 64},
    };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int e = cases[i][0], k = cases[i][1], b = cases[i][2];
        double closed = fs_llm_moe_touched(e, k, b);
        double drawn = drawn_touched(r, e, k, b, 4000);
        printf("E %3d k %d B %3d: closed form %7.3f, drawn %7.3f (%+.2f%%)\n",
               e, k, b, closed, drawn, 100 * (drawn / closed - 1));
        CHECK_NEAR(drawn / closed, 1.0, 0.02);
    }
    gsl_rng_free(r);
    /* the limits: one token touches k; a long batch all E */
    CHECK_NEAR(fs_llm_moe_touched(8, 2, 1), 2.0, 1e-12);
    CHECK_NEAR(fs_llm_moe_touched(8, 2, 4096), 8.0, 1e-9);
    CHECK(fs_llm_moe_touched(0, 0, 100) == 0);
}

static void rows_by_hand(void)
{
    fs_llm_moe_load l;
    /* Mixtral, a 2,048-token prompt: all 8 touched, 512 rows each, 8
     * whole tiles of 64: no rounding */
    fs_llm_moe_route(8, 2, 0, 2048, &l);
    CHECK_NEAR(l.touched, 8.0, 1e-9);
    CHECK_NEAR(l.pairs, 4096.0, 1e-9);
    CHECK_NEAR(l.rows, 4096.0, 1e-6);
    /* 4 tokens (<= 8 experts: 16-row tiles): 8 (1 - 0.75^4) = 5.46875
     * touched, 8 pairs, 1.46 rows each, one tile each */
    fs_llm_moe_route(8, 2, 0, 4, &l);
    CHECK_NEAR(l.touched, 5.46875, 1e-12);
    CHECK_NEAR(l.rows, 5.46875 * 16, 1e-9);
    /* Qwen3-30B-A3B, 128 tokens: 128 (1 - (15/16)^128) touched, 1,024
     * pairs, about 8 rows each, each rounded to a 16-row tile: twice the
     * pairs' rows */
    fs_llm_moe_route(128, 8, 0, 128, &l);
    double t = 128 * (1 - pow(15.0 / 16, 128));
    CHECK_NEAR(l.touched, t, 1e-9);
    CHECK_NEAR(l.rows, t * 16, 1e-6);
    CHECK(l.rows > 1.9 * l.pairs && l.rows < 2.1 * l.pairs);
}

static fs_llm_perf perf_on(const fs_llm_model *m, const fs_catalog *cat,
                           fs_llm_engines *engines, const char *gpu, int tp,
                           fs_precision weights)
{
    fs_llm_config c;
    fs_llm_hw hw;
    fs_llm_perf p;
    fs_llm_config_default(&c, m, engines);
    c.tp = tp;
    c.weights = c.kv = weights;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, gpu));
    memset(&p, 0, sizeof p);
    CHECK(fs_llm_perf_init(&p, &c, &hw, NULL, 0) == 0);
    return p;
}

static fs_llm_perf perf_of(const fs_llm_model *m, const fs_catalog *cat,
                           fs_llm_engines *engines)
{
    return perf_on(m, cat, engines, "H100-80GB", 2, FS_PREC_BF16);
}

/* FLOPs and bytes: the parts give the total. */
static void parts_add_up(const fs_llm_perf *p, const fs_llm_model *m)
{
    double ep = m->expert_params, k = m->experts_per_token;
    double dense = m->active_params - k * ep;   /* shared experts inside */
    static const double tokens[] = {1, 16, 128, 2048};
    for (int i = 0; i < 4; i++) {
        double b = tokens[i], pad = 100;
        fs_llm_moe_load l;
        fs_llm_moe_route(m->experts, m->experts_per_token, m->shared_experts,
                         b, &l);
        double want = 2 * (dense * (b + pad) + ep * (l.rows + pad * k));
        CHECK_NEAR(fs_llm_gemm_flops(p, b, pad) / want, 1.0, 1e-12);
        CHECK(l.rows >= l.pairs - 1e-9);
        double bytes = p->dense_bytes + l.touched * p->expert_bytes;
        CHECK_NEAR(fs_llm_weight_bytes_read(p, b) / bytes, 1.0, 1e-12);
        CHECK(fs_llm_weight_bytes_read(p, b) <= p->weight_bytes * 1.000001);
    }
    /* one token reads the dense part and its k experts: its active
     * parameters (the catalog's active_params_b, within 0.5%) */
    double wb = fs_precision_bytes(p->cfg.weights);
    CHECK_NEAR(fs_llm_weight_bytes_read(p, 1) / (wb * m->active_params), 1.0,
               0.005);
}

/* A shape with 2 shared experts beside 64 routed (top 6), as
 * DeepSeek-MoE-16B's config gives (n_shared_experts 2, n_routed_experts
 * 64, num_experts_per_tok 6, moe_intermediate_size 1408; its dense first
 * layer is left out: every layer is taken as MoE here, and params_b and
 * active_params_b are this shape's counts). */
static void shared_experts(const fs_catalog *cat, fs_llm_engines *engines)
{
    fs_llm_model m;
    memset(&m, 0, sizeof m);
    static const char *const kv[][2] = {
        {"name", "shared-moe"}, {"layers", "28"},   {"hidden", "2048"},
        {"heads", "16"},        {"kv_heads", "16"}, {"head_dim", "128"},
        {"ffn", "1408"},        {"experts", "64"},  {"experts_per_token", "6"},
        {"shared_experts", "2"}, {"vocab", "102400"}, {"max_context", "4096"},
        {"params_b", "16.875782144"}, {"active_params_b", "2.826960896"},
    };
    char why[256];
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        CHECK(fs_llm_model_set(&m, kv[i][0], kv[i][1], why, sizeof why) == 0);
    CHECK(fs_llm_model_finish(&m, why, sizeof why) == 0);
    double ep = 3.0 * 2048 * 1408 * 28;
    CHECK_NEAR(m.expert_params, ep, 1);
    /* the shape counts 64 + 2 experts */
    double attn = 28 * 4.0 * 2048 * 16 * 128, emb = 2.0 * 102400 * 2048;
    CHECK_NEAR(fs_llm_shape_params(&m), attn + 66 * ep + emb, 1);
    CHECK_NEAR(fs_llm_ffn_active(&m), 1408.0 * 8, 1e-9);
    fs_llm_perf p = perf_of(&m, cat, engines);
    /* the shared experts are in the bytes every step reads: one token
     * reads the dense part, 2 shared and 6 routed experts */
    double wb = 2;   /* bf16 */
    double one = p.weight_bytes - 64 * ep * wb + 6 * ep * wb;
    CHECK_NEAR(fs_llm_weight_bytes_read(&p, 1) / one, 1.0, 1e-9);
    CHECK(p.dense_bytes > (attn + emb + 2 * ep) * wb * 0.999);
    parts_add_up(&p, &m);
    /* a dense model with shared experts is refused */
    fs_llm_model d = m;
    d.experts = 0;
    d.experts_per_token = 0;
    CHECK(fs_llm_model_finish(&d, why, sizeof why) != 0);
    CHECK_CONTAINS(why, "shared_experts");
}

int main(void)
{
    touched_vs_drawn();
    rows_by_hand();
    llm_catalogs all;
    CHECK(llm_catalogs_load(&all) == 0);
    fs_catalog *cat = all.cat;
    fs_llm_catalog *models = all.models;
    fs_llm_engines *engines = all.engines;
    if (cat && models && engines) {
        static const char *const moe[] = {"mixtral-8x7b", "qwen3-30b-a3b",
                                          "qwen3-235b-a22b", "deepseek-v3"};
        for (int k = 0; k < 4; k++) {
            const fs_llm_model *m = fs_llm_catalog_find(models, moe[k]);
            CHECK(m && m->experts > 0 && m->shared_experts == (k == 3));
            if (!m)
                continue;
            /* the large two at fp8 on 8 x H200, as they are served */
            fs_llm_perf p = k < 2 ? perf_of(m, cat, engines)
                                  : perf_on(m, cat, engines, "H200", 8,
                                            FS_PREC_FP8);
            parts_add_up(&p, m);
        }
        shared_experts(cat, engines);
    }
    llm_catalogs_free(&all);
    return check_report("llm_moe");
}
