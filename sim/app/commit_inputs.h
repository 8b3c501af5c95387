/* commit_inputs.h -- what a commitment portfolio is solved from: each
 * run's hourly demand per pool and the rates roi uses, gathered into one
 * problem (models/purchase/portfolio.h), with each run's cost all on
 * demand and the sum of roi's one-pool answers beside it.  `commit` and
 * the report's portfolio section both read it (commit_inputs.c). */
#ifndef FS_COMMIT_INPUTS_H
#define FS_COMMIT_INPUTS_H

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
    double *pool_growth;              /* [run * npools + pool]: the pool's
                                         own growth = drawn, else the
                                         run's (fs_store_pool_growth) */
    fs_pf_problem problem;
} fs_commit_inputs;

/* Reads runs[0..n) from s into in (free with fs_commit_inputs_free).  0,
 * or -1 with err (an unknown run, a run without hourly demand, no pool
 * that can be priced). */
int fs_commit_inputs_read(fs_store *s, char *const *runs, size_t n,
                          fs_commit_inputs *in, fs_error *err);
void fs_commit_inputs_free(fs_commit_inputs *in);

/* What `commit`'s options set (--risk, --horizon, --discount-rate), so
 * that `commit` and the report solve the same problem: all 0, the run's
 * hours alone and no bound. */
typedef struct fs_commit_opts {
    int risk;                 /* --risk given */
    double risk_bound;        /* unused / commitment, 0..1 */
    double risk_quantile;     /* the share of runs within it, 0..1 */
    int horizon_months;       /* 0: the run alone */
    double discount_rate;     /* a year */
} fs_commit_opts;

/* Puts o (NULL: none) into in->problem.  0, or -1 with err when the
 * horizon is shorter than one of the runs. */
int fs_commit_inputs_apply(fs_commit_inputs *in, const fs_commit_opts *o,
                           fs_error *err);

/* The portfolio of runs ids[0..n) as `commit RUN...` with options o
 * (NULL: none) solves it, for the report's section and chart: 0 with *in
 * and *sol filled (free both); 1 when there is nothing to commit (a run
 * commit cannot read, or no pool a reservation or savings plan could
 * cover: the report leaves the section out; *in still to free); -1 with
 * err when the options do not fit the runs or the solver fails. */
int fs_commit_solve_ids(fs_store *s, const long *ids, size_t n,
                        const fs_commit_opts *o, fs_commit_inputs *in,
                        fs_pf_solution *sol, fs_error *err);

#endif
