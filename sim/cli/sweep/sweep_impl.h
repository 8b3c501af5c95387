/* sweep_impl.h -- what the files of `fleetsim sweep` share and nobody
 * else sees: its options, its runs (a point's replication each), the
 * points' --set lists, and running the workers (sweep_workers.c). */
#ifndef FS_SWEEP_IMPL_H
#define FS_SWEEP_IMPL_H

#include "sim/app/progress.h"
#include "sim/cli/shared/run_options.h"
#include "sim/cli/sweep/sweep.h"

/* The options of one sweep. */
typedef struct fs_sweep_options {
    fs_run_common c;        /* the options run shares (run_options.h) */
    const char *scenario;
    fs_sweep_grid grid;
    fs_sweep_shard shard;
    long shard_count;       /* --shard-count (with --shard auto) */
} fs_sweep_options;

/* One run of the sweep: a point's replication. */
typedef struct fs_sweep_unit {
    long point, rep;
} fs_sweep_unit;

/* The --set list of point p: the options' sets, the point's values, its
 * name.  malloc'd strings from index o->nsets on; NULL when out of
 * memory.  Free with fs_sweep_free_sets. */
char **fs_sweep_point_sets(const fs_sweep_options *o,
                           const fs_sweep_point *pt, long p, int *n);
void fs_sweep_free_sets(const fs_sweep_options *o, char **sets, int n);

/* Runs units[0..nunits), each in a worker process, at most o->jobs at a
 * time, into o->db; fills each point's ids, done, ok and wstatus.  The
 * progress line counts the points (npoints) whose runs have all ended.
 * FS_EXIT_OK, or FS_EXIT_FAIL when a worker could not be started (those
 * started are waited for). */
int fs_sweep_run_units(const fs_sweep_options *o, fs_sweep_point *pts,
                       const fs_sweep_unit *units, long nunits,
                       long npoints, fs_progress_mode mode);

#endif
