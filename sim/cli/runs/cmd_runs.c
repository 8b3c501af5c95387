/* cmd_runs.c -- `fleetsim runs [--db FILE]`: lists the runs in a results
 * database, one line each, so that a RUN for `compare`, `plot` or `roi`
 * can be picked by id or name.  Reads only: never creates the file. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>

#include "sim/cli/shared/help.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"

int cmd_runs(int argc, char **argv)
{
    fs_db_opts o = {FS_DEFAULT_DB};
    const char *extra[1];
    int n = 0;
    int rc = fs_parse_options_few("runs", argc, argv, fs_options_db_read, &o,
                                  extra, 1, &n);
    if (rc == 0 && n > 0)
        rc = fs_usage_error("runs", "unexpected argument '%s' (to see one "
                            "run, use `fleetsim compare %s`)", extra[0],
                            extra[0]);
    if (rc)
        return rc;
    const char *db = o.db;

    fs_error err;
    fs_store *s = fs_store_open(db, 1, &err);
    if (!s)
        return fs_fail(err.msg);
    rc = fs_store_list_runs(s, stdout, &err);
    fs_store_close(s);
    if (rc)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return FS_EXIT_OK;
}
