/* sim.h -- one simulated run of a scenario, from world building to results.
 *
 * fs_sim_run builds the world (pools, workloads and their streams; anything
 * infeasible is refused before the first event), runs the engine to the
 * horizon, and fills an fs_results with costs, latency and utilization.
 * It touches no database: the caller stores the results. */
#ifndef FS_SIM_H
#define FS_SIM_H

#include "engine.h"
#include "error.h"
#include "results.h"
#include "scenario.h"

int fs_sim_run(const fs_scenario *sc, unsigned replication,
               fs_progress_fn progress, void *progress_ctx, fs_results *out,
               fs_error *err);

#endif
