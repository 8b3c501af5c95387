/* sim.h -- one simulated run of a scenario, from world building to results.
 *
 * fs_sim_run builds the world (pools, workloads and their streams; anything
 * infeasible is refused before the first event), runs the engine to the
 * horizon, and fills an fs_results with costs, latency and utilization.
 * It touches no database: the caller stores the results. */
#ifndef FS_SIM_H
#define FS_SIM_H

#include "sim/engine/engine.h"
#include "sim/base/error.h"
#include "sim/fleet/estimate.h"
#include "sim/fleet/results.h"
#include "sim/scenario/scenario.h"

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
} fs_sim_hooks;

/* fs_sim_run, with a look at the built world before it runs. */
int fs_sim_run_hooked(const fs_scenario *sc, unsigned replication,
                      const fs_sim_hooks *hooks, fs_results *out,
                      fs_error *err);

#endif
