/* catalog.h -- what the files of `fleetsim catalog` share: its options
 * (one table, cmd_catalog.c, for the catalogs and `catalog mig`) and the
 * MIG listing (catalog_mig.c). */
#ifndef FS_CLI_CATALOG_H
#define FS_CLI_CATALOG_H

typedef struct fs_catalog_args {
    const char *dir;            /* --catalog */
    const char *model;          /* mig: --model, the LLM fitted */
    const char *precision;      /* mig: --precision */
    long context, batch;        /* mig: --context, --batch */
} fs_catalog_args;

/* `catalog mig [GPU]` (gpu NULL: every profile); the exit status. */
int fs_catalog_mig(const char *gpu, const fs_catalog_args *a);

#endif
