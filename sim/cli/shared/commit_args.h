/* commit_args.h -- the values of commit's options --risk, --horizon and
 * --discount-rate, read into the application's fs_commit_opts
 * (sim/app/commit_inputs.h) by one function, so that `commit` and
 * `report` take them alike and solve the same portfolio. */
#ifndef FS_COMMIT_ARGS_H
#define FS_COMMIT_ARGS_H

#include <stddef.h>

#include "sim/app/commit_inputs.h"
#include "sim/cli/shared/parse_options.h"

/* The three options' entries of an option table whose struct T has
 * const char * members risk, horizon and discount: one text for both
 * commands. */
#define OPT_COMMIT_ARGS(T)                                                   \
    OPT_STRING(0, "risk", T, risk, "unused<=B@pN",                           \
               "at most a share B of the commitment unused in N% of runs"), \
    OPT_STRING(0, "horizon", T, horizon, "1y|3y|Nm",                         \
               "weigh commitments against the demand of this term, "        \
               "grown"),                                                    \
    OPT_STRING(0, "discount-rate", T, discount, "R",                         \
               "with --horizon: a year, for the NPV and the cost (default " \
               "0%)")

/* The options' texts (each NULL when not given) into *o.  0, or -1 with
 * why: one line naming the option and the value. */
int fs_commit_args_read(const char *risk, const char *horizon,
                        const char *discount, fs_commit_opts *o, char *why,
                        size_t len);

#endif
