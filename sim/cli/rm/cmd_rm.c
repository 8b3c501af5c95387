/* cmd_rm.c -- `fleetsim rm [--db FILE] RUN...`: removes runs, with all
 * their rows, in one transaction.  RUN is an id or a name, resolved as
 * everywhere else (a name is its most recent run); one RUN that matches
 * nothing removes nothing.  Never creates the database. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/shared/help.h"
#include "sim/store/store.h"

typedef struct rm_opts {
    const char *db;
} rm_opts;

const fs_option fs_options_rm[] = {
    OPT__DB_READ(rm_opts, db),
    OPT_END(),
};

int cmd_rm(int argc, char **argv)
{
    rm_opts o = {FS_DEFAULT_DB};
    char **runs = calloc((size_t)argc, sizeof *runs);
    if (!runs)
        return fs_fail("out of memory");
    int n = 0, rc = fs_parse_options("rm", argc, argv, fs_options_rm, &o,
                                     (const char **)runs, &n);
    if (rc) {
        free(runs);
        return rc;
    }
    if (n == 0) {
        free(runs);
        return fs_usage_error("rm", "which runs? give at least one RUN (an "
                              "id or a name; see `fleetsim runs`)");
    }

    fs_error err;
    fs_store *s = fs_store_open(o.db, FS_STORE_EXISTING, &err);
    rc = s ? fs_store_remove_runs(s, runs, n, stdout, &err) : -1;
    fs_store_close(s);
    free(runs);
    if (rc)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return FS_EXIT_OK;
}
