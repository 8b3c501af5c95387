/* cmd_import.c -- `fleetsim import [--db FILE] KEPT.db...`: copies every
 * run of other fleetsim databases into the results database, in one
 * transaction per file.  Its use: a finished run that could not be stored
 * (the database was locked past the busy timeout, the disk was full) is
 * kept in a database of its own, and this brings it home.  The runs get
 * new ids; the files are left as they were. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/help.h"
#include "sim/store/store.h"

int cmd_import(int argc, char **argv)
{
    static const char *const options[] = { "--db", "--help", NULL };
    const char *db = FS_DEFAULT_DB;
    char **files = calloc((size_t)argc, sizeof *files);
    if (!files)
        return fs_fail("out of memory");
    int n = 0, options_done = 0, rc = FS_EXIT_OK;
    for (int i = 1; i < argc && rc == FS_EXIT_OK; i++) {
        const char *arg = argv[i];
        int taken = 0;
        if (!options_done) {
            taken = fs_option_value("import", argc, argv, &i, "--db", &db);
            if (taken < 0)
                rc = FS_EXIT_USAGE;
            else if (strcmp(arg, "--") == 0)
                options_done = taken = 1;
            else if (fs_is_help(arg))
                rc = -1;
            else if (!taken && arg[0] == '-' && arg[1] != '\0')
                rc = fs_unknown_option("import", arg, options);
        }
        if (rc == FS_EXIT_OK && !taken)
            files[n++] = argv[i];
    }
    if (rc == -1) {
        free(files);
        fputs(fs_help_text("import"), stdout);
        return FS_EXIT_OK;
    }
    if (rc == FS_EXIT_OK && n == 0)
        rc = fs_usage_error("import", "which file? e.g. fleetsim import "
                            "--db fleetsim.db fleetsim.kept-1234.db");
    if (rc != FS_EXIT_OK) {
        free(files);
        return rc;
    }

    fs_error err;
    fs_store *s = fs_store_open(db, FS_STORE_CREATE, &err);
    if (!s)
        rc = fs_fail(err.msg);
    for (int i = 0; s && i < n && rc == FS_EXIT_OK; i++)
        if (fs_store_import(s, files[i], stdout, &err))
            rc = fs_fail(err.msg);
    fs_store_close(s);
    free(files);
    if (rc == FS_EXIT_OK && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
