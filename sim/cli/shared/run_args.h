/* run_args.h -- the operands of the commands that read stored runs or
 * database files (rm, import, merge, export, plot, report): room for them,
 * the parse of the command's table, the one "which runs?" message, and the
 * runs opened by id, so that each command says only what it does with
 * them. */
#ifndef FS_RUN_ARGS_H
#define FS_RUN_ARGS_H

#include "sim/base/error.h"
#include "sim/cli/shared/parse_options.h"
#include "sim/store/store.h"

typedef struct fs_run_args {
    char **names;       /* the operands as typed: RUNs (ids or names), files */
    int n;
    long *ids;          /* fs_run_args_open: the RUNs' ids, in order */
} fs_run_args;

/* The options of a command whose one option is the --db it reads (runs,
 * rm): one struct and one table, fs_options_db_read (commands.h). */
typedef struct fs_db_opts {
    const char *db;
} fs_db_opts;

/* Reads argv[1..argc) of cmd against opts into base, the operands into
 * r.  0, or the exit status (a usage error, or out of memory). */
int fs_run_args_parse(const char *cmd, int argc, char **argv,
                      const fs_option *opts, void *base, fs_run_args *r);

/* The usage error of a command given no RUN; returns FS_EXIT_USAGE. */
int fs_run_args_none(const char *cmd);

/* The database db opened read-only and every RUN found in it (r->ids).
 * The store, or NULL with err. */
fs_store *fs_run_args_open(const char *db, fs_run_args *r, fs_error *err);

void fs_run_args_free(fs_run_args *r);

#endif
