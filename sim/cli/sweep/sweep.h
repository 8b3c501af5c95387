/* sweep.h -- the grid of `fleetsim sweep`: its --vary axes, its points
 * (the cartesian product, first axis slowest) and their run names. */
#ifndef FS_SWEEP_H
#define FS_SWEEP_H

#include <stddef.h>
#include <stdio.h>
#include "sim/base/error.h"
#include "sim/base/names.h"

/* Writes the printf-style reason into why (len bytes): -1, so that a
 * check reads `return fs_sweep_why(why, len, "...", ...)`. */
int fs_sweep_why(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Most points one sweep may have. */
#define FS_SWEEP_POINTS_MAX 10000

typedef struct fs_sweep_axis {
    char *key;          /* SECTION.KEY, e.g. pool.gpu.count */
    const char *label;  /* shown in names: the key's last part (count), or
                           the whole key when two axes end alike */
    char **values;
    int nvalues;
} fs_sweep_axis;

typedef struct fs_sweep_grid {
    fs_sweep_axis *axes;
    int naxes;
    long npoints;
} fs_sweep_grid;

/* Adds the axis of one `--vary SECTION.KEY=V1,V2,...` (values split at
 * commas outside parentheses).  0, or -1 with why set. */
int fs_sweep_add_axis(fs_sweep_grid *g, const char *arg, char *why,
                      size_t whylen);

/* Sets the labels and the number of points once every axis is added.
 * 0, or -1 with why set (no axis, too many points). */
int fs_sweep_grid_finish(fs_sweep_grid *g, char *why, size_t whylen);

void fs_sweep_grid_free(fs_sweep_grid *g);

/* The value of axis a at point p. */
const char *fs_sweep_value(const fs_sweep_grid *g, long p, int a);

/* "SECTION.KEY=VALUE" for axis a at point p: malloc'd, NULL when out of
 * memory. */
char *fs_sweep_assignment(const fs_sweep_grid *g, long p, int a);

/* The run name of point p: BASE[label=value,...], at most FS_NAME_MAX - 1
 * bytes.  One that would be longer is cut at a UTF-8 character boundary
 * and ends "~N]", N the point's number (1-based), so it stays unique. */
void fs_sweep_point_name(const fs_sweep_grid *g, const char *base, long p,
                         char *buf, size_t size);

/* ---- shards (sweep_shard.c) ---------------------------------------- */

/* Which of the sweep's runs (every point's replications, numbered point by
 * point from 0) this process runs: those whose number is index modulo
 * count.  count 0: all of them. */
typedef struct fs_sweep_shard {
    long index, count;      /* 0-based index, of count */
    int automatic;          /* --shard auto: read from the environment */
    char source[64];        /* where it came from, for messages */
} fs_sweep_shard;

/* `--shard I/N` (1-based: 1/4 to 4/4) or `--shard auto`.  0, or -1 with
 * why set. */
int fs_sweep_shard_parse(const char *arg, fs_sweep_shard *sh, char *why,
                         size_t whylen);

/* For --shard auto: the index and count from SLURM_ARRAY_TASK_ID (minus
 * SLURM_ARRAY_TASK_MIN, over SLURM_ARRAY_TASK_STEP) and
 * SLURM_ARRAY_TASK_COUNT; JOB_COMPLETION_INDEX (Kubernetes indexed Jobs;
 * the count from --shard-count, set in sh->count beforehand); or MPI's
 * OMPI_COMM_WORLD_RANK/SIZE or PMI_RANK/SIZE.  0, or -1 with why set. */
int fs_sweep_shard_resolve(fs_sweep_shard *sh, char *why, size_t whylen);

/* 1 when the shard runs the sweep's run number `run`. */
int fs_sweep_shard_takes(const fs_sweep_shard *sh, long run);

/* ---- one point's outcome, and the table of them (sweep_table.c) ---- */
typedef struct fs_sweep_point {
    char name[FS_NAME_MAX];
    long nreps;         /* replications it should store */
    long *ids;          /* the runs it stored, nids of them, in the order
                           of their replications once done */
    long *reps;         /* the replication of each of ids */
    long nids;
    int kept;           /* a run went to a kept database */
    int done;           /* its worker has ended */
    int ok;             /* exit status 0, every replication stored */
    int wstatus;        /* the worker's wait status (the first failed
                           one, when its replications ran apart) */
    long first_run;     /* the sweep's number of its replication 0 */
    long units_left;    /* its workers still to end */
    /* run_summary means over its replications; NaN when NULL */
    double cost, rate, p99, slo;
    double unfinished, unfinished_share;   /* arrived, not finished, or
                                              dropped: count and share */
    int overloaded;     /* unfinished_share over 1%: never on the front */
    int front;          /* on the cost-vs-p99 Pareto front */
} fs_sweep_point;

/* Reads each ok point's run_summary rows from db into its means.  0, or
 * -1 with err set. */
int fs_sweep_read_results(const char *db, fs_sweep_point *pts, long n,
                          fs_error *err);

/* Marks the points on the cost-vs-p99 Pareto front: ok points, not
 * overloaded (their p99 is over finished requests only), with a cost and
 * a p99 that no other such point beats on both (lower or equal, one
 * strictly lower). */
void fs_sweep_mark_front(fs_sweep_point *pts, long n);

/* The table: point, run, name, total cost, run rate, p99 (finished
 * requests), SLO attainment, unfinished share, front mark ("overloaded"
 * for a point left off the front), then the overloaded points listed;
 * failed points say how they failed. */
void fs_sweep_print_table(FILE *out, const fs_sweep_point *pts, long n);

/* "exit status 1", "killed by signal 9" for a wait status. */
void fs_sweep_describe_status(int wstatus, char *buf, size_t size);

#endif
