/* commit_args.h -- the values of commit's options --risk, --horizon and
 * --discount-rate, read into the application's fs_commit_opts
 * (sim/app/commit_inputs.h) by one function, so that `commit` and
 * `report` take them alike and solve the same portfolio. */
#ifndef FS_COMMIT_ARGS_H
#define FS_COMMIT_ARGS_H

#include <stddef.h>

#include "sim/app/commit_inputs.h"

/* The options' texts (each NULL when not given) into *o.  0, or -1 with
 * why: one line naming the option and the value. */
int fs_commit_args_read(const char *risk, const char *horizon,
                        const char *discount, fs_commit_opts *o, char *why,
                        size_t len);

#endif
