/* fuzz_catalog.c -- libFuzzer harness for the catalog readers
 * (models/catalog/catalog.c): gpus.csv and instances.csv.
 *
 * The input is written as one of the two files, the project's own catalog
 * standing in for the other (picked from a hash of the input, so seeds can
 * be plain CSV files); a catalog that loads is looked up by name, by
 * provider and for its cheapest instance.  Any crash, sanitizer report,
 * leak or hang is a bug.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "models/catalog/catalog.h"

#ifndef FS_SRC_CATALOG_DIR
#define FS_SRC_CATALOG_DIR "models/catalog"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_dir();
    return 0;
}

static void look_up(const fs_catalog *c)
{
    char buf[512];
    for (size_t i = 0; i < c->ngpus && i < 8; i++) {
        const char *g = c->gpus[i].name;
        if (fs_catalog_gpu(c, g) == NULL)
            abort();    /* every GPU read is found by its name */
        fs_catalog_providers(c, g, buf, sizeof buf);
        for (int col = 0; col < 4; col++)
            (void)fs_catalog_cheapest(c, g, 1, col);
        fs_catalog_list_instances(c, g, buf, sizeof buf);
    }
    for (size_t i = 0; i < c->ninst && i < 8; i++)
        (void)fs_instance_price(&c->inst[i], 0);
    fs_catalog_suggest_gpu(c, "A100-80G", buf, sizeof buf);
    fs_catalog_suggest_instance(c, "aws:p4d", buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[400];
    uint32_t h = fuzz_hash(data, size);
    int as_gpus = h & 1;
    fuzz_write("input.csv", data, size, path, sizeof path);
    fs_error err;
    fs_catalog *c = as_gpus
        ? fs_catalog_load(path, FS_SRC_CATALOG_DIR "/instances.csv", &err)
        : fs_catalog_load(FS_SRC_CATALOG_DIR "/gpus.csv", path, &err);
    if (c) {
        look_up(c);
        fs_catalog_free(c);
    }
    return 0;
}
