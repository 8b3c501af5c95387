/* test_llm_memory.c -- the model catalog and the memory fit.
 *
 * Every shipped model reads, and its parameter count agrees with its shape
 * (embeddings, attention, FFN or experts) within 1%; a bad row is refused
 * with file:line and column; a user's model given key by key is checked
 * the same way.  Memory: the KV cache's closed form; llama-2-70b bf16 does
 * not fit one 80 GB GPU, int4 and tp=2 do; the 7B fine-tune of the judged
 * command (weights 13.5 GB, gradients 13.5, Adam 53.9, master weights 27.0)
 * and the seeds' low-memory variant (about 50 GB, refused on a 24 GB A10G);
 * ZeRO stages shard what they say. */
#include "check.h"
#include "models/llm/llm.h"

#include <unistd.h>

static fs_catalog *cat;
static fs_llm_catalog *models;

/* One layer's attention weights: a llama-style decoder's q, k, v, o; or
 * DeepSeek-V3's MLA modules (modeling_deepseek.py: q_a_proj, q_b_proj,
 * kv_a_proj_with_mqa, kv_b_proj, o_proj), v_head_dim = qk_nope_head_dim. */
static double attn_params(const fs_llm_model *m)
{
    double h = m->hidden, q = (double)m->heads * m->head_dim;
    double kv = (double)m->kv_heads * m->head_dim;
    if (m->attention != FS_ATTN_MLA)
        return h * q * 2 + h * kv * 2;
    double qk = (double)m->head_dim + m->rope_head_dim;
    double q_a = h * m->q_lora_rank;
    double q_b = (double)m->q_lora_rank * m->heads * qk;
    double kv_a = h * (m->kv_lora_rank + m->rope_head_dim);
    double kv_b = (double)m->kv_lora_rank * m->heads * 2 * m->head_dim;
    return q_a + q_b + kv_a + kv_b + q * h;
}

/* Parameters from the shape: embeddings, attention, and the FFN of each
 * layer (an MoE's routed and shared experts; its dense layers'). */
static double shape_params(const fs_llm_model *m)
{
    double h = m->hidden;
    double ffn = 3.0 * h * m->ffn *
                 (m->experts ? m->experts + m->shared_experts : 1);
    double moe_layers = m->layers - m->dense_layers;
    return 2.0 * m->vocab * h + m->layers * attn_params(m) +
           moe_layers * ffn + m->dense_layers * 3.0 * h * m->dense_ffn;
}

static void catalog(void)
{
    CHECK(fs_llm_catalog_count(models) >= 13);
    const char *need[] = {"llama-2-7b", "llama-2-13b", "llama-2-70b",
                          "llama-3-8b", "llama-3.1-8b", "llama-3-70b",
                          "llama-3.3-70b", "mistral-7b", "mixtral-8x7b",
                          "qwen2.5-7b", "qwen2.5-72b", "qwen3-30b-a3b"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        CHECK(fs_llm_catalog_find(models, need[i]) != NULL);
    for (size_t i = 0; i < fs_llm_catalog_count(models); i++) {
        const fs_llm_model *m = fs_llm_catalog_at(models, i);
        /* tied embeddings (Llama 3.2 1B and 3B): one vocab x hidden
         * matrix where the shape counts two */
        double rel = shape_params(m) / m->params - 1;
        double tied = (shape_params(m) - (double)m->vocab * m->hidden) /
                      m->params - 1;
        if (fabs(tied) < fabs(rel))
            rel = tied;
        if (!CHECK(fabs(rel) < 0.01))
            printf("     %s: %.3g from the shape, %.3g in the row\n",
                   m->name, shape_params(m), m->params);
        CHECK(m->source[0] != '\0');
    }
    const fs_llm_model *mx = fs_llm_catalog_find(models, "Mixtral-8x7B");
    CHECK(mx && mx->experts == 8 && mx->experts_per_token == 2);
    CHECK_NEAR(mx->active_params, 12.88e9, 1e7);
    const fs_llm_model *q3 = fs_llm_catalog_find(models, "qwen3-30b-a3b");
    CHECK(q3 && q3->experts == 128 && q3->experts_per_token == 8);
    /* the published totals: DeepSeek-V3 671B and 37B active (arXiv:
     * 2412.19437, abstract; active rounded there), Qwen3-235B-A22B 235B
     * and 22B */
    const fs_llm_model *ds = fs_llm_catalog_find(models, "deepseek-v3");
    CHECK(ds && ds->attention == FS_ATTN_MLA && ds->dense_layers == 3);
    if (ds) {
        CHECK_NEAR(ds->params / 671e9, 1.0, 0.001);
        CHECK_NEAR(ds->active_params / 37e9, 1.0, 0.02);
    }
    const fs_llm_model *qb = fs_llm_catalog_find(models, "qwen3-235b-a22b");
    CHECK(qb && qb->experts == 128 && qb->experts_per_token == 8);
    if (qb) {
        CHECK_NEAR(qb->params / 235e9, 1.0, 0.001);
        CHECK_NEAR(qb->active_params / 22e9, 1.0, 0.01);
    }
    char buf[256];
    fs_llm_catalog_suggest(models, "llama-2-7", buf, sizeof buf);
    CHECK_CONTAINS(buf, "did you mean 'llama-2-7b'");
}

static void bad_rows(void)
{
    char path[] = "/tmp/fs_models_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("name,params_b,active_params_b,layers,hidden,heads,kv_heads,"
          "head_dim,ffn,experts,experts_per_token,vocab,max_context\n"
          "ok,6.738,6.738,32,4096,32,32,128,11008,0,0,32000,4096\n"
          "bad,6.7,6.7,32,4096,32,5,128,11008,0,0,32000,4096\n", f);
    fclose(f);
    fs_error err;
    CHECK(fs_llm_catalog_load(path, &err) == NULL);
    CHECK_CONTAINS(err.msg, ":3:");
    CHECK_CONTAINS(err.msg, "not a multiple of 5 KV heads");
    f = fopen(path, "w");
    fputs("name,params_b,active_params_b,layers,hidden,heads,kv_heads,"
          "head_dim,ffn,experts,experts_per_token,vocab,max_context\n"
          "x,6.7,6.7,3.5,4096,32,32,128,11008,0,0,32000,4096\n", f);
    fclose(f);
    CHECK(fs_llm_catalog_load(path, &err) == NULL);
    CHECK_CONTAINS(err.msg, ":2: layers: '3.5': expected a whole number");
    unlink(path);

    fs_llm_model m = {0};
    char why[256];
    CHECK(fs_llm_model_set(&m, "name", "mine", why, sizeof why) == 0);
    CHECK(fs_llm_model_set(&m, "layers", "32", why, sizeof why) == 0);
    CHECK(fs_llm_model_set(&m, "hiden", "32", why, sizeof why) == -1);
    CHECK_CONTAINS(why, "unknown model column 'hiden'");
    CHECK(fs_llm_model_finish(&m, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "a model needs");
}

static fs_llm_hw hw_of(const char *gpu)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, fs_catalog_gpu(cat, gpu));
    return hw;
}

static void inference(void)
{
    fs_llm_config c;
    fs_llm_config_default(&c, fs_llm_catalog_find(models, "llama-2-70b"),
                          NULL);
    fs_llm_hw hw = hw_of("A100-80GB");
    fs_llm_memory m;
    fs_llm_fit_inference(&c, &hw, 4096, 1, &m);
    CHECK_NEAR(m.weights, 68.977 * 2, 1e-9);
    /* 2 x 80 layers x 8 KV heads x 128 x 2 bytes x 4096 tokens */
    CHECK_NEAR(m.kv_cache, 2.0 * 80 * 8 * 128 * 2 * 4096 / 1e9, 1e-9);
    CHECK_NEAR(m.overhead, 1 + 0.04 * 80, 1e-12);
    CHECK(!m.fits);
    char buf[512];
    fs_llm_memory_format(&m, buf, sizeof buf);
    CHECK_CONTAINS(buf, "weights 138.0 GB + KV cache 1.3 GB");
    CHECK_CONTAINS(buf, "> 80.0 GB");
    c.weights = FS_PREC_INT4;
    fs_llm_fit_inference(&c, &hw, 4096, 1, &m);
    CHECK(m.fits);
    c.weights = FS_PREC_BF16;
    c.tp = 2;
    fs_llm_fit_inference(&c, &hw, 4096, 1, &m);
    CHECK(m.fits);
    CHECK_NEAR(m.weights, 68.977, 1e-9);
    CHECK_NEAR(m.kv_cache, 2.0 * 80 * 4 * 128 * 2 * 4096 / 1e9, 1e-9);
}

static void training(void)
{
    const fs_llm_model *m = fs_llm_catalog_find(models, "llama-2-7b");
    fs_llm_hw a100 = hw_of("A100-80GB"), a10g = hw_of("A10G");
    fs_llm_training t = {FS_PREC_BF16, 16, 2048, 0, FS_OPT_ADAM, 1, 0, 1, 0};
    fs_llm_memory mem;
    fs_llm_fit_training(m, &t, &a100, &mem);
    CHECK_NEAR(mem.weights, 13.476, 0.001);
    CHECK_NEAR(mem.gradients, 13.476, 0.001);
    CHECK_NEAR(mem.optimizer, 53.904, 0.001);
    CHECK_NEAR(mem.master_weights, 26.952, 0.001);
    /* without checkpointing: every layer's 161,792 bytes a token */
    double tokens = 16.0 * 2048;
    double layer = 2.0 * (7 * 4096 + 4 * 11008 + 2 * 32 * 128);
    CHECK_NEAR(mem.activations,
               (32 * layer * tokens + 2.0 * 32000 * tokens) / 1e9, 1e-9);
    CHECK(!mem.fits);
    /* the seeds' 89 GB: bf16 + Adam, checkpointing, no master copy */
    t.checkpointing = 1;
    t.master_weights = 0;
    fs_llm_fit_training(m, &t, &a100, &mem);
    CHECK_NEAR(mem.activations,
               (2.0 * 4096 * 32 * tokens + layer * tokens +
                2.0 * 32000 * tokens) / 1e9, 1e-9);
    CHECK(mem.total > 89 * 0.9 && mem.total < 89 * 1.2);
    /* the low-memory variant: int8 weights, 8-bit Adam: about 50 GB */
    t.weights = FS_PREC_INT8;
    t.optimizer = FS_OPT_ADAM8BIT;
    fs_llm_fit_training(m, &t, &a100, &mem);
    CHECK(mem.total > 45 && mem.total < 58);
    CHECK(mem.fits);
    fs_llm_fit_training(m, &t, &a10g, &mem);
    CHECK(!mem.fits);
    /* ZeRO-3 over 8 GPUs shards weights, gradients and optimizer states */
    t = (fs_llm_training){FS_PREC_BF16, 16, 2048, 1, FS_OPT_ADAM, 1, 3, 8, 0};
    fs_llm_fit_training(m, &t, &a100, &mem);
    CHECK_NEAR(mem.weights, 13.476 / 8, 0.001);
    CHECK_NEAR(mem.gradients, 13.476 / 8, 0.001);
    CHECK_NEAR(mem.optimizer, 53.904 / 8, 0.001);
    CHECK_NEAR(mem.master_weights, 26.952 / 8, 0.001);
    t.zero = 1;
    fs_llm_fit_training(m, &t, &a100, &mem);
    CHECK_NEAR(mem.weights, 13.476, 0.001);
    CHECK_NEAR(mem.gradients, 13.476, 0.001);
    CHECK_NEAR(mem.optimizer, 53.904 / 8, 0.001);
}

/* LoRA and QLoRA on llama-2-7b, bytes by hand.  Rank 16 on every linear
 * layer: a layer's q, k, v, o are 4096 x 4096 (r x 8,192 each), the FFN's
 * gate, up and down 4096 x 11008 (r x 15,104 each): 16 x 32 x (4 x 8,192 +
 * 3 x 15,104) = 39,976,960 trainable parameters (PEFT's count for this
 * model).  QLoRA, batch 1 x 2,048, checkpointing, Adam, fp32 master copy,
 * on a 24 GB A10G: base 6.738e9 x 0.5 bytes, and its quantization
 * constants with double quantization (QLoRA section 3: 8/64 + 32/(64 x
 * 256) = 0.126953125 bits a parameter): 6.738e9 x 0.126953125 / 8 =
 * 106,926,269.53 bytes; adapters and gradients 2 bytes each, Adam 8,
 * master 4 a trainable parameter; activations as the full model's;
 * overhead 1 GB + 4% of 24 GB. */
static void lora(void)
{
    const fs_llm_model *m = fs_llm_catalog_find(models, "llama-2-7b");
    fs_llm_hw a10g = hw_of("A10G");
    const double a = 39976960;
    CHECK_NEAR(fs_llm_lora_params(m, 16), a, 0);
    CHECK_NEAR(fs_llm_lora_params(m, 64), 4 * a, 0);
    fs_llm_training t = {FS_PREC_INT4, 1, 2048, 1, FS_OPT_ADAM, 1, 0, 1, 16};
    fs_llm_memory mem;
    fs_llm_fit_training(m, &t, &a10g, &mem);
    CHECK_NEAR(mem.weights * 1e9, 3369000000.0, 1e-3);
    CHECK_NEAR(mem.quant_consts * 1e9, 106926269.53125, 1e-3);
    CHECK_NEAR(mem.adapters * 1e9, 79953920.0, 1e-3);
    CHECK_NEAR(mem.gradients * 1e9, 79953920.0, 1e-3);
    CHECK_NEAR(mem.optimizer * 1e9, 319815680.0, 1e-3);
    CHECK_NEAR(mem.master_weights * 1e9, 159907840.0, 1e-3);
    /* 2 x 4096 x 2048 x 32 layer inputs + one layer's 161,792 bytes a
     * token + the logits' 2 x 32,000 a token */
    CHECK_NEAR(mem.activations * 1e9, 536870912.0 + 331350016.0 +
               131072000.0, 1e-3);
    CHECK_NEAR(mem.overhead, 1.96, 1e-12);
    CHECK_NEAR(mem.total * 1e9, 3369000000.0 + 106926269.53125 +
               2 * 79953920.0 + 319815680.0 + 159907840.0 + 999292928.0 +
               1960000000.0, 1e-3);
    /* the parts add up to the total */
    CHECK_NEAR(mem.total, mem.weights + mem.quant_consts + mem.adapters +
               mem.gradients + mem.optimizer + mem.master_weights +
               mem.activations + mem.overhead, 1e-12);
    CHECK(mem.fits);
    /* LoRA on a bf16 base: the base at 2 bytes, the adapters' the same,
     * and no quantization constants */
    t.weights = FS_PREC_BF16;
    fs_llm_fit_training(m, &t, &a10g, &mem);
    CHECK_NEAR(mem.weights * 1e9, 13476000000.0, 1e-2);
    CHECK(mem.quant_consts == 0);
    CHECK_NEAR(mem.optimizer * 1e9, 319815680.0, 1e-3);
    CHECK(mem.fits);
    /* ZeRO over the adapters: stage 3 over 4 GPUs shards them too */
    t.zero = 3;
    t.gpus = 4;
    t.batch = 4;
    fs_llm_fit_training(m, &t, &a10g, &mem);
    CHECK_NEAR(mem.adapters * 1e9, 79953920.0 / 4, 1e-3);
    t.weights = FS_PREC_INT4;   /* ZeRO-3 shards the frozen base's constants */
    fs_llm_fit_training(m, &t, &a10g, &mem);
    CHECK_NEAR(mem.quant_consts * 1e9, 106926269.53125 / 4, 1e-3);
    CHECK_NEAR(mem.optimizer * 1e9, 319815680.0 / 4, 1e-3);
}

/* Case 5's low-memory fine-tune (int8, 8-bit Adam, checkpointing, no
 * master copy, 2 sequences of 2,048 a GPU) refused on one A10G fits with
 * ZeRO-3 over 8: weights 6.738e9 / 8, gradients and 8-bit Adam 2 x 6.738e9
 * / 8 each, activations of 4,096 tokens, 1.96 GB overhead = 8.17 GB a
 * GPU, the figure `fit --training` suggests. */
static void zero_suggestion(void)
{
    const fs_llm_model *m = fs_llm_catalog_find(models, "llama-2-7b");
    fs_llm_hw a10g = hw_of("A10G");
    fs_llm_training t = {FS_PREC_INT8, 16, 2048, 1, FS_OPT_ADAM8BIT, 0, 3, 8,
                         0};
    fs_llm_memory mem;
    fs_llm_fit_training(m, &t, &a10g, &mem);
    double act = 2.0 * 4096 * 4096 * 32 + 161792.0 * 4096 + 2.0 * 32000 *
                 4096;
    CHECK_NEAR(act, 1998585856.0, 0);
    CHECK_NEAR(mem.total * 1e9, 842250000.0 + 2 * 1684500000.0 + act +
               1960000000.0, 1e-2);
    CHECK(mem.fits);
}

int main(void)
{
    char g[1024], i[1024], mp[1024];
    check_path(g, sizeof g, "models/catalog/gpus.csv");
    check_path(i, sizeof i, "models/catalog/instances.csv");
    check_path(mp, sizeof mp, "models/catalog/models.csv");
    fs_error err;
    cat = fs_catalog_load(g, i, &err);
    models = fs_llm_catalog_load(mp, &err);
    if (!CHECK(cat && models))
        return 1;
    catalog();
    bad_rows();
    inference();
    training();
    lora();
    zero_suggestion();
    fs_llm_catalog_free(models);
    fs_catalog_free(cat);
    return check_report("llm_memory");
}
