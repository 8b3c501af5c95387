/* llm_attention.c -- how a model's attention caches keys and values: one
 * table of kinds, each with its weights, the values a token caches, how
 * tensor parallelism splits that cache and the FLOPs of attending.
 *
 *   gqa  grouped-query attention (MHA and MQA are its ends): q and o
 *        projections of heads x head_dim, k and v of KV heads x head_dim;
 *        a token caches a key and a value per KV head, 2 x KV heads x
 *        head_dim values a layer, and TP splits the KV heads (a head is
 *        never split: with fewer KV heads than GPUs each holds one).
 *   mla  DeepSeek's multi-head latent attention (DeepSeek-V2, arXiv:
 *        2405.04434, section 2.1; DeepSeek-V3, arXiv:2412.19437, section
 *        2.1.1): the keys and values are compressed into one latent of
 *        kv_lora_rank values, beside a rotary key of rope_head_dim shared
 *        by the heads, and only those are cached: kv_lora_rank +
 *        rope_head_dim values a token a layer (DeepSeek-V3: 512 + 64 =
 *        576, against 2 x 128 x 128 = 32,768 for its 128 heads as MHA).
 *        Every head reads the one latent, so TP cannot split it: each GPU
 *        of a TP group holds the whole cache of its sequences (vLLM's
 *        MLA backends; hence DeepSeek's deployments run attention data
 *        parallel, `ep` beyond `tp`: llm_ep.c).  Decode runs with the
 *        up-projections absorbed into q and o, so a (token, cached token)
 *        pair costs 2 x heads x (kv_lora_rank + rope_head_dim) FLOPs for
 *        the scores and 2 x heads x kv_lora_rank for the values.  The
 *        weights, per layer: q (with a q_lora_rank compression: h x q_r +
 *        q_r x heads x (head_dim + rope); without: h x heads x (head_dim
 *        + rope)), the KV compression h x (kv_lora_rank + rope), its
 *        up-projection kv_lora_rank x heads x 2 head_dim (keys' nope part
 *        and values, v_head_dim taken equal to qk_nope_head_dim, as in
 *        DeepSeek-V2 and V3) and o, heads x head_dim x h.
 * A new kind is a row of `kinds` and a name in fs_llm_attention. */
#include "models/llm/llm.h"

#include <stdio.h>
#include <strings.h>

typedef struct attention_kind {
    const char *name;
    double (*params)(const fs_llm_model *m);
    double (*kv_values)(const fs_llm_model *m);
    int (*kv_groups)(const fs_llm_model *m);
    double (*flops)(const fs_llm_model *m);
    int (*check)(const fs_llm_model *m, char *why, size_t len);
} attention_kind;

static double gqa_params(const fs_llm_model *m)
{
    double h = m->hidden;
    return 2.0 * h * m->heads * m->head_dim +
           2.0 * h * m->kv_heads * m->head_dim;
}

static double gqa_kv_values(const fs_llm_model *m)
{
    return 2.0 * m->kv_heads * m->head_dim;
}

static int gqa_kv_groups(const fs_llm_model *m)
{
    return m->kv_heads;
}

static double gqa_flops(const fs_llm_model *m)
{
    return 4.0 * m->heads * m->head_dim;
}

static int gqa_check(const fs_llm_model *m, char *why, size_t len)
{
    if (m->kv_lora_rank || m->q_lora_rank || m->rope_head_dim) {
        snprintf(why, len, "kv_lora_rank, q_lora_rank and rope_head_dim "
                 "are multi-head latent attention's: expected 0 with "
                 "attention gqa (or attention mla)");
        return -1;
    }
    return 0;
}

static double mla_params(const fs_llm_model *m)
{
    double h = m->hidden, heads = m->heads, d = m->head_dim;
    double r = m->rope_head_dim, kv = m->kv_lora_rank, q = m->q_lora_rank;
    double q_proj = q > 0 ? h * q + q * heads * (d + r) : h * heads * (d + r);
    return q_proj + h * (kv + r) + kv * heads * 2.0 * d + heads * d * h;
}

static double mla_kv_values(const fs_llm_model *m)
{
    return (double)m->kv_lora_rank + m->rope_head_dim;
}

static int mla_kv_groups(const fs_llm_model *m)
{
    (void)m;
    return 1;
}

static double mla_flops(const fs_llm_model *m)
{
    return 2.0 * m->heads * (2.0 * m->kv_lora_rank + m->rope_head_dim);
}

static int mla_check(const fs_llm_model *m, char *why, size_t len)
{
    if (m->kv_lora_rank <= 0 || m->rope_head_dim <= 0) {
        snprintf(why, len, "attention mla needs kv_lora_rank and "
                 "rope_head_dim (the config's kv_lora_rank and "
                 "qk_rope_head_dim)");
        return -1;
    }
    return 0;
}

static const attention_kind kinds[FS_ATTN_COUNT] = {
    [FS_ATTN_GQA] = {"gqa", gqa_params, gqa_kv_values, gqa_kv_groups,
                     gqa_flops, gqa_check},
    [FS_ATTN_MLA] = {"mla", mla_params, mla_kv_values, mla_kv_groups,
                     mla_flops, mla_check},
};

static const attention_kind *kind_of(const fs_llm_model *m)
{
    return &kinds[m->attention < FS_ATTN_COUNT ? m->attention : FS_ATTN_GQA];
}

int fs_llm_attention_parse(const char *s, fs_llm_attention *out)
{
    int i = 0;
    while (i < FS_ATTN_COUNT && strcasecmp(s, kinds[i].name))
        i++;
    if (i == FS_ATTN_COUNT)
        return -1;
    *out = (fs_llm_attention)i;
    return 0;
}

const char *fs_llm_attention_name(fs_llm_attention a)
{
    return a < FS_ATTN_COUNT ? kinds[a].name : "?";
}

double fs_llm_attention_params(const fs_llm_model *m)
{
    return kind_of(m)->params(m);
}

double fs_llm_kv_values(const fs_llm_model *m)
{
    return kind_of(m)->kv_values(m);
}

int fs_llm_kv_groups(const fs_llm_model *m)
{
    return kind_of(m)->kv_groups(m);
}

double fs_llm_attention_flops(const fs_llm_model *m)
{
    return kind_of(m)->flops(m);
}

int fs_llm_attention_check(const fs_llm_model *m, char *why, size_t len)
{
    return kind_of(m)->check(m, why, len);
}
