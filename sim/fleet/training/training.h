/* training.h -- the training scheduler: jobs of kind = training workloads
 * placed on their pools' instances, run with checkpoints, and restarted
 * after an interruption.
 *
 * The family sim/fleet/training/ (above serve/): the training scheduler,
 * its jobs, queue and results (training_impl.h is the family's own).
 *
 * One scheduler per world (fs_training) holds every training workload's
 * jobs in one queue, ordered by priority (higher first), then by the order
 * they were submitted: FIFO with EASY backfill.  The head job that does not
 * fit gets a reservation at the earliest time enough GPUs free up (from the
 * running jobs' expected ends); a later job may start now only if it does
 * not delay that reservation (it ends before it, or runs on another
 * instance, or leaves enough GPUs for the head at that time).  A job takes
 * all its GPUs at once (gang placement), on one instance unless its
 * workload has span_instances = yes; pools are tried in the workload's
 * order, and with fallback_after a job may take the next pool of its list
 * only after waiting that long per pool.
 *
 * It follows instances as a subscriber of each pool's capacity
 * (fs_training_listener with ctx = the pool's fs_train_pool): an instance
 * up offers its GPUs; a spot notice makes the jobs on the instance
 * checkpoint when checkpoint_cost fits in the notice, then stop; an
 * interruption loses the work since the last checkpoint and puts the job
 * back in the queue at its place.  A running job holds its instances and
 * counts as busy GPUs in the pool's usage, so utilization and
 * cost_allocation see it as they see inference servers. */
#ifndef FS_TRAINING_H
#define FS_TRAINING_H

#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/run/sim.h"
#include "sim/fleet/serve/usage.h"

typedef struct fs_training fs_training;

/* A pool as the scheduler sees it. */
typedef struct fs_train_pool {
    fs_training *sched;        /* NULL: no training workload uses it */
    const fs_pool_conf *conf;
    fs_capacity *cap;
    fs_usage *usage;
    int *free_milli;           /* per slot: thousandths of a GPU no job holds */
} fs_train_pool;

/* Subscribe it to a pool's capacity with ctx = the pool's fs_train_pool. */
extern const fs_capacity_listener fs_training_listener;

/* Called by the pool: where its instances and usage are (no allocation). */
void fs_train_pool_init(fs_train_pool *tp, const fs_pool_conf *conf,
                        fs_capacity *cap, fs_usage *usage);
void fs_train_pool_free(fs_train_pool *tp);

/* The scheduler of every training workload of the scenario; pools[i] is
 * the scenario's pool i.  Returns NULL with a message in sim->err when out
 * of memory; a scenario with no training workload gets an empty one. */
fs_training *fs_training_new(fs_sim *sim, fs_train_pool *const *pools);
void fs_training_free(fs_training *t);
/* Schedules the first submissions; -1 when the run failed. */
int fs_training_start(fs_training *t);
/* At the horizon: the job rows, the per-month busy GPU-seconds for
 * cost_allocation, the notes (Young/Daly interval, per-workload counts). */
int fs_training_collect(fs_training *t, double horizon);

/* Busy GPU-seconds of training workload wl on pool p in month m, for
 * cost_allocation; and the conf of each training workload using p. */
size_t fs_training_nworkloads(const fs_training *t);
const fs_workload_conf *fs_training_workload(const fs_training *t, size_t i);
double fs_training_busy(const fs_training *t, size_t i,
                        const fs_pool_conf *p, size_t m);

#endif
