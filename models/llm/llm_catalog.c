/* llm_catalog.c -- the model catalog: models/catalog/models.csv, or a
 * user's CSV of the same columns (a `models =` scenario key).
 *
 * One row per model, from its published config.json: parameters in
 * billions (total, and active per token for a mixture of experts), layers,
 * hidden size, attention and KV heads, head dimension, FFN size (one
 * expert's for an MoE), experts and experts per token, vocabulary and
 * maximum context, and (optional, 0 when the column is absent) the shared
 * experts every token runs besides its routed ones, the leading layers
 * whose FFN is dense and its size (dense_layers, dense_ffn: DeepSeek-V3's
 * first_k_dense_replace and intermediate_size), and the attention's kind
 * (gqa, the default, or mla: llm_attention.c) with MLA's kv_lora_rank,
 * q_lora_rank and rope_head_dim.  A malformed row is refused with
 * "path:line: column:". */
#include "models/llm/llm.h"
#include "sim/base/csvin.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct fs_llm_catalog {
    fs_llm_model *m;
    size_t n;
};

enum { C_NAME, C_PARAMS, C_ACTIVE, C_LAYERS, C_HIDDEN, C_HEADS, C_KV,
       C_HEAD_DIM, C_FFN, C_EXPERTS, C_EXPERTS_TOK, C_VOCAB, C_CTX, C_SOURCE,
       C_SHARED, C_ATTN, C_KV_LORA, C_Q_LORA, C_ROPE, C_DENSE_LAYERS,
       C_DENSE_FFN, C_COUNT };

static const char *const column_names[C_COUNT] = {
    "name", "params_b", "active_params_b", "layers", "hidden", "heads",
    "kv_heads", "head_dim", "ffn", "experts", "experts_per_token", "vocab",
    "max_context", "source", "shared_experts", "attention", "kv_lora_rank",
    "q_lora_rank", "rope_head_dim", "dense_layers", "dense_ffn"};

/* The shape columns: their range, and whether whole. */
typedef struct shape_col {
    const char *name;
    double lo, hi;
    int whole;
} shape_col;

static const shape_col shape_cols[] = {
    {"params_b", 1e-3, 1e5, 0},    {"active_params_b", 1e-3, 1e5, 0},
    {"layers", 1, 1000, 1},        {"hidden", 64, 1e6, 1},
    {"heads", 1, 4096, 1},         {"kv_heads", 1, 4096, 1},
    {"head_dim", 8, 1024, 1},      {"ffn", 64, 1e7, 1},
    {"experts", 0, 4096, 1},       {"experts_per_token", 0, 256, 1},
    {"vocab", 256, 1e7, 1},        {"max_context", 128, 1e8, 1},
    {"shared_experts", 0, 256, 1}, {"kv_lora_rank", 0, 65536, 1},
    {"q_lora_rank", 0, 65536, 1},  {"rope_head_dim", 0, 1024, 1},
    {"dense_layers", 0, 1000, 1},  {"dense_ffn", 0, 1e7, 1},
};
#define NSHAPE (sizeof shape_cols / sizeof shape_cols[0])

/* Where each shape column is kept; params in billions. */
static void store(fs_llm_model *m, size_t k, double v)
{
    switch (k) {
    case 0: m->params = v * 1e9; break;
    case 1: m->active_params = v * 1e9; break;
    case 2: m->layers = (int)v; break;
    case 3: m->hidden = (int)v; break;
    case 4: m->heads = (int)v; break;
    case 5: m->kv_heads = (int)v; break;
    case 6: m->head_dim = (int)v; break;
    case 7: m->ffn = (int)v; break;
    case 8: m->experts = (int)v; break;
    case 9: m->experts_per_token = (int)v; break;
    case 10: m->vocab = (int)v; break;
    case 11: m->max_context = (long)v; break;
    case 12: m->shared_experts = (int)v; break;
    case 13: m->kv_lora_rank = (int)v; break;
    case 14: m->q_lora_rank = (int)v; break;
    case 15: m->rope_head_dim = (int)v; break;
    case 16: m->dense_layers = (int)v; break;
    default: m->dense_ffn = (int)v; break;
    }
}

int fs_llm_model_set(fs_llm_model *m, const char *key, const char *value,
                     char *why, size_t len)
{
    if (strcasecmp(key, "name") == 0 || strcasecmp(key, "source") == 0) {
        char *dst = tolower(key[0]) == 'n' ? m->name : m->source;
        size_t cap = tolower(key[0]) == 'n' ? sizeof m->name
                                            : sizeof m->source;
        if (!value[0] || strlen(value) >= cap) {
            snprintf(why, len, "expected 1 to %zu characters", cap - 1);
            return -1;
        }
        snprintf(dst, cap, "%s", value);
        return 0;
    }
    if (strcasecmp(key, "attention") == 0) {
        if (!value[0])   /* an empty cell: the default */
            value = "gqa";
        if (fs_llm_attention_parse(value, &m->attention) == 0)
            return 0;
        snprintf(why, len, "'%s': expected gqa (grouped-query, MHA, MQA) "
                 "or mla (multi-head latent attention)", value);
        return -1;
    }
    for (size_t k = 0; k < NSHAPE; k++) {
        const shape_col *c = &shape_cols[k];
        if (strcasecmp(key, c->name))
            continue;
        double v;
        if (fs_csv_number(value, &v) || v < c->lo || v > c->hi ||
            (c->whole && v != floor(v))) {
            snprintf(why, len, "'%s': expected a %snumber from %g to %g",
                     value, c->whole ? "whole " : "", c->lo, c->hi);
            return -1;
        }
        store(m, k, v);
        return 0;
    }
    snprintf(why, len, "unknown model column '%s' (known: name, params_b, "
             "active_params_b, layers, hidden, heads, kv_heads, head_dim, "
             "ffn, experts, experts_per_token, vocab, max_context, "
             "shared_experts, attention, kv_lora_rank, q_lora_rank, "
             "rope_head_dim, dense_layers, dense_ffn)", key);
    return -1;
}

/* The parameters the shape holds, as the catalog's models are built:
 * each layer's attention (fs_llm_attention_params: for GQA q and o,
 * hidden x heads x head_dim each, k and v, hidden x kv_heads x head_dim
 * each; MLA's compressions) and gated FFN (gate, up, down: 3 x hidden x
 * ffn, for each routed and shared expert of an MoE layer; 3 x hidden x
 * dense_ffn in an MoE's leading dense layers), and untied input and
 * output embeddings (2 x vocab x hidden).  Norms, biases and routers are
 * left out: under 0.1% for every catalog model (models.csv's params_b
 * over this is 1.000 for each). */
double fs_llm_shape_params(const fs_llm_model *m)
{
    double h = m->hidden, attn = fs_llm_attention_params(m);
    double ffn = 3.0 * h * m->ffn *
                 (m->experts > 0 ? m->experts + m->shared_experts : 1);
    double dense = 3.0 * h * m->dense_ffn - ffn;   /* a dense layer's
                                                     instead */
    return (double)m->layers * (attn + ffn) + m->dense_layers * dense +
           2.0 * m->vocab * h;
}

/* params_b against the shape: a model with tied embeddings or a plain
 * (two-matrix) FFN, biases or other extras stays well within this factor;
 * a params_b typed in the wrong unit (millions, or a shape from another
 * model) does not. */
#define SHAPE_FACTOR 2.0

static int check_shape_params(const fs_llm_model *m, char *why, size_t len)
{
    double shape = fs_llm_shape_params(m);
    if (m->params <= shape * SHAPE_FACTOR && m->params >= shape / SHAPE_FACTOR)
        return 0;
    snprintf(why, len, "params_b %.4g is not within a factor of %.0f of the "
             "%.4g billion parameters its shape holds (layers x (attention "
             "+ 3 x hidden x ffn x max(experts + shared_experts, 1)), the "
             "dense layers' 3 x hidden x dense_ffn instead, + 2 x vocab x "
             "hidden)", m->params / 1e9,
             SHAPE_FACTOR, shape / 1e9);
    return -1;
}

/* An MoE's leading dense layers: fewer than its layers, with their FFN
 * size; none in a dense model. */
static int check_layers(const fs_llm_model *m, char *why, size_t len)
{
    if (m->dense_layers && (m->experts <= 0 || m->dense_layers >= m->layers)) {
        snprintf(why, len, "dense_layers: expected 0 for a dense model, "
                 "else fewer than the %d layers", m->layers);
        return -1;
    }
    if ((m->dense_layers > 0) != (m->dense_ffn > 0)) {
        snprintf(why, len, "dense_layers and dense_ffn go together (the "
                 "leading dense layers and their FFN size)");
        return -1;
    }
    return 0;
}

int fs_llm_model_finish(fs_llm_model *m, char *why, size_t len)
{
    if (!m->name[0] || m->params <= 0 || !m->layers || !m->hidden ||
        !m->heads || !m->kv_heads || !m->head_dim || !m->ffn || !m->vocab ||
        !m->max_context) {
        snprintf(why, len, "a model needs name, params_b, layers, hidden, "
                 "heads, kv_heads, head_dim, ffn, vocab and max_context");
        return -1;
    }
    if (m->active_params > m->params) {
        snprintf(why, len, "active_params_b %.4g is larger than params_b "
                 "%.4g", m->active_params / 1e9, m->params / 1e9);
        return -1;
    }
    if (m->active_params <= 0 || !m->experts)
        m->active_params = m->params;
    if (m->heads % m->kv_heads) {
        snprintf(why, len, "%d heads are not a multiple of %d KV heads",
                 m->heads, m->kv_heads);
        return -1;
    }
    if ((m->experts > 0) != (m->experts_per_token > 0) ||
        m->experts_per_token > m->experts) {
        snprintf(why, len, "experts_per_token: expected 0 for a dense "
                 "model, else 1 to experts (%d)", m->experts);
        return -1;
    }
    if (m->shared_experts > 0 && m->experts <= 0) {
        snprintf(why, len, "shared_experts: expected 0 for a dense model "
                 "(experts 0)");
        return -1;
    }
    if (check_layers(m, why, len) || fs_llm_attention_check(m, why, len))
        return -1;
    /* One expert's gate, up and down projections, over its MoE layers. */
    m->expert_params = m->experts ? 3.0 * m->hidden * m->ffn *
                                        fs_llm_moe_layers(m)
                                  : 0;
    if (m->experts && m->expert_params * (m->experts + m->shared_experts) >
                          m->params) {
        snprintf(why, len, "the experts (ffn %d) alone exceed params_b",
                 m->ffn);
        return -1;
    }
    return check_shape_params(m, why, len);
}

static int read_shape(fs_csv *r, const int *idx, fs_llm_model *m,
                      fs_error *err)
{
    char why[256];
    for (int k = C_PARAMS; k < C_COUNT; k++)
        if (k != C_SOURCE && idx[k] >= 0 &&
            fs_llm_model_set(m, column_names[k],
                             fs_csv_field(r, (size_t)idx[k]), why, sizeof why))
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               column_names[k], "%s", why);
    if (fs_llm_model_finish(m, why, sizeof why))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), NULL,
                           "%s", why);
    return 0;
}

/* Reads the header, and with it where each column is. */
static int find_columns(fs_csv *r, int *idx, fs_error *err)
{
    int rc = fs_csv_next(r, err);
    if (rc == 0)
        return fs_error_at(err, fs_csv_path(r), 1, NULL,
                           "empty file (expected a header)");
    if (rc < 0)
        return -1;
    for (int k = 0; k < C_COUNT; k++) {
        idx[k] = fs_csv_column(r, column_names[k]);
        if (idx[k] < 0 && k != C_SOURCE && k < C_SHARED)
            return fs_error_at(err, fs_csv_path(r), 1, NULL,
                               "missing column '%s'", column_names[k]);
    }
    return 0;
}

typedef struct rows_ctx {
    const fs_llm_catalog *c;
    const int *idx;
    size_t fields;
} rows_ctx;

/* One model's row: its name (new in the file), source and shape. */
static int read_model(fs_csv *r, void *out, void *ctx, fs_error *err)
{
    const rows_ctx *x = ctx;
    fs_llm_model *row = out;
    if (fs_csv_nfields(r) != x->fields)   /* a shifted row would be read
                                             into the wrong columns */
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           NULL, "%zu fields, but the header has %zu",
                           fs_csv_nfields(r), x->fields);
    const char *name = fs_csv_field(r, (size_t)x->idx[C_NAME]);
    if (!name[0] || strlen(name) >= sizeof row->name)
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           "name", "expected a name of 1 to %zu "
                           "characters", sizeof row->name - 1);
    if (fs_llm_catalog_find(x->c, name))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           "name", "'%s' appears twice", name);
    snprintf(row->name, sizeof row->name, "%s", name);
    if (x->idx[C_SOURCE] >= 0)
        snprintf(row->source, sizeof row->source, "%s",
                 fs_csv_field(r, (size_t)x->idx[C_SOURCE]));
    return read_shape(r, x->idx, row, err);
}

static int read_rows(fs_llm_catalog *c, fs_csv *r, const int *idx,
                     size_t fields, fs_error *err)
{
    rows_ctx x = {c, idx, fields};
    int rc = fs_catalog_read_rows(r, (void **)&c->m, &c->n, sizeof *c->m,
                                  read_model, &x, err);
    if (rc == 0 && c->n == 0)
        return fs_error_at(err, fs_csv_path(r), 1, NULL, "a header and no "
                           "row: expected one row for each model");
    return rc;
}

fs_llm_catalog *fs_llm_catalog_load(const char *csv, fs_error *err)
{
    fs_llm_catalog *c = calloc(1, sizeof *c);
    if (!c) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    fs_csv *r = fs_csv_open(csv, err);
    int idx[C_COUNT];
    if (!r || find_columns(r, idx, err) ||
        read_rows(c, r, idx, fs_csv_nfields(r), err)) {
        fs_csv_free(r);
        return FS_DISCARD(fs_llm_catalog_free, c);
    }
    fs_csv_free(r);
    return c;
}

void fs_llm_catalog_free(fs_llm_catalog *c)
{
    if (c)
        FS_FREE_ALL(c->m, c);
}

fs_llm_catalog *fs_llm_catalog_load_default(fs_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/models.csv", fs_catalog_default_dir());
    return fs_llm_catalog_load(path, err);
}

const fs_llm_model *fs_llm_catalog_find(const fs_llm_catalog *c,
                                        const char *name)
{
    for (size_t i = 0; c && i < c->n; i++)
        if (strcasecmp(c->m[i].name, name) == 0)
            return &c->m[i];
    return NULL;
}

void fs_llm_catalog_suggest(const fs_llm_catalog *c, const char *name,
                            char *buf, size_t len)
{
    fs_catalog_suggest_rows(name, c->m, c->n, sizeof *c->m,
                            offsetof(fs_llm_model, name), "models", buf, len);
}

size_t fs_llm_catalog_count(const fs_llm_catalog *c)
{
    return c ? c->n : 0;
}

const fs_llm_model *fs_llm_catalog_at(const fs_llm_catalog *c, size_t i)
{
    return c && i < c->n ? &c->m[i] : NULL;
}
