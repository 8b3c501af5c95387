/* cmd_merge.c -- `fleetsim merge INTO.db PART.db...`: brings the parts of
 * a sharded sweep (`sweep --shard I/N --db part-I.db`, one per batch task)
 * into one database, as if one machine had run the whole sweep.
 *
 * Every part is checked before INTO is touched; the runs are copied in one
 * transaction, with new ids, everything else kept; a run INTO holds
 * already (the same run.uid) is skipped, so merging a part twice changes
 * nothing (store_merge.c). */
#include "sim/cli/commands.h"
#include "sim/store/store.h"

#include <stdio.h>
#include <stdlib.h>

const fs_option fs_options_merge[] = {   /* no options */
    OPT_END(),
};

int cmd_merge(int argc, char **argv)
{
    char **files = calloc((size_t)argc, sizeof *files);
    if (!files)
        return fs_fail("out of memory");
    int n = 0, rc = fs_parse_options("merge", argc, argv, fs_options_merge,
                                     NULL, (const char **)files, &n);
    if (rc) {
        free(files);
        return rc;
    }
    if (n < 2) {
        free(files);
        return fs_usage_error("merge", "which files? e.g. fleetsim merge "
                              "all.db part-*.db");
    }
    fs_error err;
    rc = fs_store_merge(files[0], files + 1, n - 1, stdout, &err)
         ? fs_fail(err.msg) : FS_EXIT_OK;
    free(files);
    if (rc == FS_EXIT_OK && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
