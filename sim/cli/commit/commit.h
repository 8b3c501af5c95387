/* commit.h -- `fleetsim commit`: what its files share.  commit_inputs.c
 * gathers the runs' hourly demand (sim/store) and the rates roi uses
 * (sim/cli/shared/roi_run.c) into a portfolio problem
 * (models/purchase/portfolio.h); commit_out.c prints the answer. */
#ifndef FS_COMMIT_H
#define FS_COMMIT_H

#include <stddef.h>

#include "models/purchase/portfolio.h"
#include "sim/base/error.h"
#include "sim/store/store.h"

#define FS_COMMIT_OPTIONS 6   /* 1y and 3y x none, partial, all upfront */

/* Everything `commit` reads, and its problem. */
typedef struct fs_commit_inputs {
    size_t nruns, npools, ngroups, noptions;
    long *run_ids;
    char (*pool_names)[FS_NAME_MAX];  /* [pool], first seen first */
    char (*group_names)[160];         /* [group]: the instance type */
    fs_pf_pool *pools;
    fs_pf_option *options;
    size_t *hours;                    /* [run] */
    double **demand;                  /* [run * npools + pool] */
    double *roi_cost;                 /* [run]: sum over pools of roi's
                                         best one-pool answer */
    double *on_demand_cost;           /* [run]: all on demand */
    double *growth;                   /* [run]: the rate it drew, a month
                                         (store: fs_store_run_growth) */
    fs_pf_problem problem;
} fs_commit_inputs;

/* Reads runs[0..n) from s into in (free with fs_commit_inputs_free).  0,
 * or -1 with err (an unknown run, a run without hourly demand, no pool
 * that can be priced). */
int fs_commit_inputs_read(fs_store *s, char *const *runs, size_t n,
                          fs_commit_inputs *in, fs_error *err);
void fs_commit_inputs_free(fs_commit_inputs *in);

enum { FS_COMMIT_TABLE, FS_COMMIT_CSV, FS_COMMIT_JSON, FS_COMMIT_MARKDOWN,
       FS_COMMIT_FOCUS };

/* Prints the portfolio, its cost and the comparisons in format fmt. */
void fs_commit_print(FILE *out, int fmt, const fs_commit_inputs *in,
                     const fs_pf_solution *sol);

/* The buys as FOCUS 1.2 Purchase rows (commit_focus.c), bought at start
 * (seconds since the epoch, UTC). */
void fs_commit_print_focus(FILE *out, const fs_commit_inputs *in,
                           const fs_pf_solution *sol, long long start);

#endif
