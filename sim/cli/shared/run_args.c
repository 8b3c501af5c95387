/* run_args.c -- the RUN... operands the commands share (run_args.h). */
#include "sim/cli/shared/run_args.h"

#include <stdlib.h>

#include "sim/cli/commands.h"

const fs_option fs_options_db_read[] = {
    OPT__DB_READ(fs_db_opts, db),
    OPT_END(),
};

int fs_run_args_parse(const char *cmd, int argc, char **argv,
                      const fs_option *opts, void *base, fs_run_args *r)
{
    *r = (fs_run_args){0};
    r->names = calloc((size_t)argc, sizeof *r->names);
    if (!r->names)
        return fs_fail("out of memory");
    return fs_parse_options(cmd, argc, argv, opts, base,
                            (const char **)r->names, &r->n);
}

int fs_run_args_none(const char *cmd)
{
    return fs_usage_error(cmd, "which runs? give at least one RUN (an id or "
                          "a name; see `fleetsim runs`)");
}

fs_store *fs_run_args_open(const char *db, fs_run_args *r, fs_error *err)
{
    fs_store *s = fs_store_open(db, FS_STORE_READONLY, err);
    if (!s)
        return NULL;
    r->ids = calloc((size_t)r->n + 1, sizeof *r->ids);
    int rc = r->ids ? 0 : fs_error_set(err, "out of memory");
    for (int i = 0; rc == 0 && i < r->n; i++)
        rc = fs_store_find_run(s, r->names[i], &r->ids[i], err);
    if (rc == 0)
        return s;
    fs_store_close(s);
    return NULL;
}

void fs_run_args_free(fs_run_args *r)
{
    free(r->names);
    free(r->ids);
    *r = (fs_run_args){0};
}
