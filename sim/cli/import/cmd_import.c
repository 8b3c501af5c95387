/* cmd_import.c -- `fleetsim import [--db FILE] KEPT.db...`: copies every
 * run of other fleetsim databases into the results database, in one
 * transaction per file.  Its use: a finished run that could not be stored
 * (the database was locked past the busy timeout, the disk was full) is
 * kept in a database of its own, and this brings it home.  The runs get
 * new ids; the files are left as they were; a run the database holds
 * already (the same run.uid) is skipped, so importing a file twice copies
 * it once (store_merge.c). */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/shared/help.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"

typedef struct import_opts {
    const char *db;
} import_opts;

const fs_option fs_options_import[] = {
    OPT_STRING(0, "db", import_opts, db, "FILE",
               "the results database the runs go to (created if missing)"),
    OPT_END(),
};

int cmd_import(int argc, char **argv)
{
    import_opts o = {FS_DEFAULT_DB};
    fs_run_args files;
    int rc = fs_run_args_parse("import", argc, argv, fs_options_import, &o,
                               &files);
    if (rc == 0 && files.n == 0)
        rc = fs_usage_error("import", "which file? e.g. fleetsim import "
                            "--db fleetsim.db fleetsim.kept-1234.db");
    fs_error err;
    fs_store *s = rc ? NULL : fs_store_open(o.db, FS_STORE_CREATE, &err);
    if (rc == 0 && !s)
        rc = fs_fail(err.msg);
    for (int i = 0; s && i < files.n && rc == FS_EXIT_OK; i++)
        if (fs_store_import(s, files.names[i], stdout, &err))
            rc = fs_fail(err.msg);
    fs_store_close(s);
    fs_run_args_free(&files);
    if (rc == FS_EXIT_OK && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
