/* catalog_models.c -- `fleetsim catalog models`: the LLM model catalog
 * (models/catalog/models.csv, or --models FILE), one model a line. */
#include "sim/cli/commands.h"
#include "models/llm/llm.h"

#include <stdio.h>

int fs_catalog_print_models(const char *dir, const char *models_csv)
{
    char path[2048];
    if (!models_csv) {
        snprintf(path, sizeof path, "%s/models.csv", dir);
        models_csv = path;
    }
    fs_error err;
    fs_llm_catalog *c = fs_llm_catalog_load(models_csv, &err);
    if (!c)
        return fs_fail(err.msg);
    printf("%-14s %8s %8s %6s %6s %5s %4s %4s %6s %7s %6s %6s %5s %6s %7s "
           "%8s  %s\n", "model", "params_B", "active_B", "layers", "hidden",
           "heads", "kv", "hdim", "ffn", "experts", "per_tk", "shared",
           "attn", "kv_val", "vocab", "context", "source");
    for (size_t i = 0; i < fs_llm_catalog_count(c); i++) {
        const fs_llm_model *m = fs_llm_catalog_at(c, i);
        printf("%-14s %8.2f %8.2f %6d %6d %5d %4d %4d %6d %7d %6d %6d %5s "
               "%6.0f %7d %8ld  %s\n", m->name, m->params / 1e9,
               m->active_params / 1e9, m->layers, m->hidden, m->heads,
               m->kv_heads, m->head_dim, m->ffn, m->experts,
               m->experts_per_token, m->shared_experts,
               fs_llm_attention_name(m->attention), fs_llm_kv_values(m),
               m->vocab, m->max_context, m->source);
    }
    printf("\nparams and active in billions (active: per token, an MoE's "
           "shared part and its routed experts); kv = KV heads (GQA); ffn = "
           "one expert's for an MoE (the expert's size); per_tk = experts "
           "a token is routed to; shared = experts every token also runs; "
           "attn = attention (gqa, or mla: multi-head latent); kv_val = "
           "values a token caches a layer; "
           "context = max_position_embeddings.  "
           "Sources: models/catalog/SOURCES.md.\n");
    fs_llm_catalog_free(c);
    return FS_EXIT_OK;
}
