/* cmd_runs.c -- `fleetsim runs [--db FILE]`: lists the runs in a results
 * database, one line each, so that a RUN for `compare`, `plot` or `roi`
 * can be picked by id or name.  Reads only: never creates the file. */
#include "sim/cli/commands.h"

#include <stdio.h>

#include "sim/cli/shared/help.h"
#include "sim/store/store.h"

int cmd_runs(int argc, char **argv)
{
    static const char *const options[] = { "--db", "--help", NULL };
    const char *db = FS_DEFAULT_DB;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int taken = fs_option_value("runs", argc, argv, &i, "--db", &db);
        if (taken < 0)
            return FS_EXIT_USAGE;
        if (taken)
            continue;
        if (fs_is_help(arg)) {
            fputs(fs_help_text("runs"), stdout);
            return FS_EXIT_OK;
        }
        if (arg[0] == '-' && arg[1] != '\0')
            return fs_unknown_option("runs", arg, options);
        return fs_usage_error("runs", "unexpected argument '%s' (to see one "
                              "run, use `fleetsim compare %s`)", arg, arg);
    }

    fs_error err;
    fs_store *s = fs_store_open(db, 1, &err);
    if (!s)
        return fs_fail(err.msg);
    int rc = fs_store_list_runs(s, stdout, &err);
    fs_store_close(s);
    if (rc)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return FS_EXIT_OK;
}
