/* world.h -- one simulated run of a scenario, from world building to
 * results.
 *
 * The family sim/fleet/world/ (the top of sim/fleet/): building and
 * running a world, and collecting its results (collect.h, slices.h,
 * estimate.h).
 *
 * fs_sim_run builds the world (pools, workloads and their streams; anything
 * infeasible is refused before the first event), runs the engine to the
 * horizon, and fills an fs_results with costs, latency and utilization.
 * It touches no database: the caller stores the results.  The steps are
 * public too (fs_world_init, fs_world_start, fs_world_run, fs_world_free),
 * for tests that drive a world event by event or reach its engine. */
#ifndef FS_WORLD_H
#define FS_WORLD_H

#include "sim/base/error.h"
#include "sim/engine/engine.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/world/estimate.h"
#include "sim/fleet/pool/pool.h"
#include "sim/fleet/run/results.h"
#include "sim/fleet/run/sim.h"
#include "sim/scenario/scenario.h"

typedef struct fs_world {
    fs_sim sim;                /* first: shared with every module */
    fs_pool *pools;            /* one per scenario pool, in its order */
    size_t npools;
    fs_workload *workloads;    /* inference workloads, in scenario order */
    size_t nworkloads;
    fs_training *training;     /* training workloads' scheduler */
    unsigned replication;
    int events_only;           /* no workload takes the recursion's
                                  shortcut (fs_workload_use_fifo) */
} fs_world;

int fs_sim_run(const fs_scenario *sc, unsigned replication,
               fs_progress_fn progress, void *progress_ctx, fs_results *out,
               fs_error *err);

/* Called once the world is built, before the first event, with the run's
 * estimated size (estimate.h): 0 to run it, -1 with a message in err to
 * refuse it. */
typedef int (*fs_sim_start_fn)(void *ctx, const fs_estimate *est,
                               fs_error *err);

typedef struct fs_sim_hooks {
    fs_progress_fn progress;   /* may be NULL */
    fs_sim_start_fn start;     /* may be NULL */
    void *ctx;                 /* passed to both */
    int events_only;           /* serve every request through the event
                                  list, even where a plain FIFO pool could
                                  take the recursion (fifo_recursion.h):
                                  for cross-checks */
} fs_sim_hooks;

/* fs_sim_run, with a look at the built world before it runs. */
int fs_sim_run_hooked(const fs_scenario *sc, unsigned replication,
                      const fs_sim_hooks *hooks, fs_results *out,
                      fs_error *err);

/* Builds the world of sc with a new engine; -1 with a message in err
 * (fs_world_free is still needed).  out receives notes while it builds. */
int fs_world_init(fs_world *w, const fs_scenario *sc, unsigned replication,
                  fs_results *out, fs_error *err);
/* Schedules what happens by itself: the instances at t = 0, autoscaler
 * decisions, the first arrivals, metrics samples.  -1 when the run failed
 * (w->sim.err says why). */
int fs_world_start(fs_world *w);
/* Runs the started world to the horizon and fills the results; -1 with a
 * message when the run failed. */
int fs_world_run(fs_world *w);
void fs_world_free(fs_world *w);

#endif
