/* cmd_rm.c -- `fleetsim rm [--db FILE] RUN...`: removes runs, with all
 * their rows, in one transaction.  RUN is an id or a name, resolved as
 * everywhere else (a name is its most recent run); one RUN that matches
 * nothing removes nothing.  Never creates the database. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/shared/help.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"

/* Removes the runs; 0, or -1 with err. */
static int remove_runs(const char *db, fs_run_args *r, fs_error *err)
{
    fs_store *s = fs_store_open(db, FS_STORE_EXISTING, err);
    int rc = s ? fs_store_remove_runs(s, r->names, r->n, stdout, err) : -1;
    fs_store_close(s);
    return rc;
}

int cmd_rm(int argc, char **argv)
{
    fs_db_opts o = {FS_DEFAULT_DB};
    fs_run_args r;
    fs_error err;
    int rc = fs_run_args_parse("rm", argc, argv, fs_options_db_read, &o, &r);
    if (rc == 0 && r.n == 0)
        rc = fs_run_args_none("rm");
    if (rc == 0 && remove_runs(o.db, &r, &err))
        rc = fs_fail(err.msg);
    fs_run_args_free(&r);
    if (rc == 0 && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
