/* cmd_merge.c -- `fleetsim merge INTO.db PART.db...`: brings the parts of
 * a sharded sweep (`sweep --shard I/N --db part-I.db`, one per batch task)
 * into one database, as if one machine had run the whole sweep.
 *
 * Every part is checked before INTO is touched; the runs are copied in one
 * transaction, with new ids, everything else kept; a run INTO holds
 * already (the same run.uid) is skipped, so merging a part twice changes
 * nothing (store_merge.c). */
#include "sim/cli/commands.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"

#include <stdio.h>
#include <stdlib.h>

const fs_option fs_options_merge[] = {   /* no options */
    OPT_END(),
};

int cmd_merge(int argc, char **argv)
{
    fs_run_args files;
    int rc = fs_run_args_parse("merge", argc, argv, fs_options_merge, NULL,
                               &files);
    if (rc == 0 && files.n < 2)
        rc = fs_usage_error("merge", "which files? e.g. fleetsim merge "
                            "all.db part-*.db");
    fs_error err;
    if (rc == 0 && fs_store_merge(files.names[0], files.names + 1,
                                  files.n - 1, stdout, &err))
        rc = fs_fail(err.msg);
    fs_run_args_free(&files);
    if (rc == FS_EXIT_OK && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
