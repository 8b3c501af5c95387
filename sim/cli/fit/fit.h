/* fit.h -- what the files of `fleetsim fit` share: its arguments, read
 * from argv by fit_options.c (the option table and its checks) and used by
 * cmd_fit.c (the breakdown and where the model fits). */
#ifndef FS_CLI_FIT_H
#define FS_CLI_FIT_H

#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

typedef struct fit_args {
    const char *model, *gpu, *models_csv, *dir;
    fs_llm_config cfg;
    fs_llm_training train;
    int training, kv_set, qlora;
    /* an option of one mode given: refused in the other, which would
     * ignore it without a word */
    const char *train_only, *serve_only;
    long context;
    int batch;
    double mfu;
    const char *v[17];      /* the options' values (fs_options_fit) */
    int mtp;                /* --mtp */
    fs_llm_spec spec;       /* --draft M or --mtp: the proposer charged */
    int ckpt, no_master;    /* --activation-checkpointing, --no-master-... */
} fit_args;

/* Reads and checks the arguments of `fleetsim fit` into a: 0, or the exit
 * status after a usage error. */
int fs_fit_parse(fit_args *a, int argc, char **argv);
/* --draft's model name, or NULL. */
const char *fs_fit_draft(const fit_args *a);

#endif
