/* llm_common.h -- the shipped catalogs an LLM test reads: GPUs and
 * instances, models and engine profiles (models/catalog/), found under the
 * source tree as check_path finds test data.  One loader, so that each LLM
 * test does not repeat the four paths. */
#ifndef FS_TEST_LLM_COMMON_H
#define FS_TEST_LLM_COMMON_H

#include "tests/check.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"

typedef struct llm_catalogs {
    fs_catalog *cat;
    fs_llm_catalog *models;
    fs_llm_engines *engines;
} llm_catalogs;

/* 0 when all three loaded (each failure printed); -1 otherwise. */
static inline int llm_catalogs_load(llm_catalogs *c)
{
    char g[1024], i[1024], m[1024], e[1024];
    check_path(g, sizeof g, "models/catalog/gpus.csv");
    check_path(i, sizeof i, "models/catalog/instances.csv");
    check_path(m, sizeof m, "models/catalog/models.csv");
    check_path(e, sizeof e, "models/catalog/engines.csv");
    fs_error err;
    c->cat = fs_catalog_load(g, i, &err);
    if (!c->cat)
        printf("%s\n", err.msg);
    c->models = fs_llm_catalog_load(m, &err);
    if (!c->models)
        printf("%s\n", err.msg);
    c->engines = fs_llm_engines_load(e, &err);
    if (!c->engines)
        printf("%s\n", err.msg);
    return c->cat && c->models && c->engines ? 0 : -1;
}

static inline void llm_catalogs_free(llm_catalogs *c)
{
    fs_llm_engines_free(c->engines);
    fs_llm_catalog_free(c->models);
    fs_catalog_free(c->cat);
}

#endif
