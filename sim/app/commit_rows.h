/* commit_rows.h -- a commitment portfolio's answer as rows (the buys) and
 * cost lines (the expected total, its parts, its spread across the runs,
 * the alternatives, the risk), which `commit` prints in its formats and
 * the report as its portfolio section (commit_rows.c). */
#ifndef FS_COMMIT_ROWS_H
#define FS_COMMIT_ROWS_H

#include <stddef.h>

#include "models/purchase/portfolio.h"
#include "sim/app/commit_inputs.h"

/* One line of the portfolio. */
typedef struct fs_commit_row {
    const char *kind;     /* the option's name (a count, a spend), "plan-pool" */
    char item[288];       /* the instance type, or the pool (a block: pool, instance, run, hours) */
    const char *term, *upfront;
    double count;         /* instances (reserved), NaN otherwise */
    double usd_h;         /* the commitment: hourly $ (reserved: count x
                             recurring; plan: the $ an hour) */
    double upfront_usd;   /* count x upfront, for the term */
    double covered_h;     /* instance-hours covered, mean over runs */
    double covered_usd;   /* the commitment's $ used on them, mean */
    double coverage;      /* of the demand it may cover */
    double utilization;   /* of the commitment */
} fs_commit_row;

/* One cost line: "expected_total", "reservations", "p10", ... */
typedef struct fs_commit_cost {
    const char *name;
    double usd;
} fs_commit_cost;

#define FS_COMMIT_COSTS_MAX 32

/* The most rows fs_commit_rows writes for in. */
size_t fs_commit_rows_max(const fs_commit_inputs *in);

/* The reservations bought, then each savings plan and the pools it
 * covers ("plan-pool" rows), into rows.  Returns how many. */
size_t fs_commit_rows(const fs_commit_inputs *in, const fs_pf_solution *s,
                      fs_commit_row *rows);

/* The cost lines into c (at most FS_COMMIT_COSTS_MAX), with shares
 * [in->nruns] as scratch for each run's unused share.  Returns how
 * many. */
size_t fs_commit_costs(const fs_commit_inputs *in, const fs_pf_solution *s,
                       fs_commit_cost *c, double *shares);

#endif
