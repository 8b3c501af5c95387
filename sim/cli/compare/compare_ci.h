/* compare_ci.h -- `fleetsim compare --group`: replications as one column,
 * each metric as its mean and 95% confidence interval.
 *
 * A group is the replications of one run name (cmd_compare.c picks them).
 * Every numeric metric that compare shows (run_summary columns, and the
 * workloads', pools' and pricing models' rows) is summarised over the
 * group's runs that have it: mean, and mean +- t(0.975, n-1) s / sqrt(n)
 * (Student t, sample standard deviation; no interval with n = 1).
 *
 * Against a baseline group, the change is the paired difference by
 * replication index when both groups hold the same replications: the
 * same seed and replication draw the same arrivals and service demands
 * (common random numbers), so the pairs' differences vary far less than
 * either group.  Otherwise (different replication sets) Welch's interval
 * for a difference of means, with Welch-Satterthwaite degrees of freedom.
 * The percent change and its interval are the difference's over the
 * baseline's mean (whose own uncertainty is left out). */
#ifndef FS_COMPARE_CI_H
#define FS_COMPARE_CI_H

#include "sim/cli/compare/compare_impl.h"

/* The runs of one group: runs[first .. first + n) of the array given. */
typedef struct fs_ci_group {
    size_t first, n;
} fs_ci_group;

/* An estimate: n values, their mean and the interval [lo, hi] (NaN when
 * n < 2, or for a difference when no interval could be formed). */
typedef struct fs_ci {
    int n;
    double mean, lo, hi;
} fs_ci;

typedef struct fs_ci_delta {
    int has;             /* both groups have the metric */
    int paired;          /* paired by replication, else Welch */
    fs_ci abs;
    int has_pct;         /* the baseline mean is not 0 */
    double pct, pct_lo, pct_hi;
} fs_ci_delta;

/* One metric: a run_summary column (section -1) or a section's column
 * col for the row of key. */
typedef struct fs_ci_metric {
    int section;
    const char *key;     /* borrowed from the runs */
    size_t col;
    fs_section_column def;
} fs_ci_metric;

typedef struct fs_ci_table {
    const fs_compare_run *runs;
    const fs_ci_group *groups;
    size_t ngroups;
    int baseline;        /* group index, or -1 */
    fs_ci_metric *metric;
    size_t nmetrics;
    fs_ci *stat;         /* [g * nmetrics + m] */
    fs_ci_delta *delta;  /* [g * nmetrics + m], for g != baseline */
} fs_ci_table;

/* Mean and 95% interval of x[0..n). */
fs_ci fs_ci_of(const double *x, size_t n);

/* Builds the table; -1 when out of memory. */
int fs_ci_table_build(fs_ci_table *t, const fs_compare_run *runs,
                      const fs_ci_group *groups, size_t ngroups,
                      int baseline);
void fs_ci_table_free(fs_ci_table *t);

/* The group's run name (its first run's), borrowed. */
const char *fs_ci_group_name(const fs_ci_table *t, size_t g);

/* `compare --group` (compare_group.c): reads the groups of the RUNs
 * (and of baseline, when not NULL) from s and writes them to out in fmt;
 * -1 with a message in err. */
int fs_compare_groups(fs_store *s, FILE *out, fs_compare_format fmt,
                      const char *const *runs, size_t nruns,
                      const char *baseline, fs_error *err);

/* Writes the table in fmt (compare_ci_write.c); -1 on failure. */
int fs_ci_write(FILE *out, fs_compare_format fmt, const fs_ci_table *t);

#endif
