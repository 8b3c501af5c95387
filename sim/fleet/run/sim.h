/* sim.h -- what every module of a running world shares: the scenario, the
 * engine, the calendar, the results being filled, and how a run fails.
 *
 * The family sim/fleet/run/ (lowest, beside capacity/): what a running
 * world shares: this fs_sim, the results it fills (results.h) and the
 * notes it tells its user (notes.h).
 *
 * Kept apart from world.h (which assembles pools and workloads) so that
 * each concern of the fleet can include it without including the others:
 * the fleet's headers form a DAG, capacity at the bottom. */
#ifndef FS_SIM_H
#define FS_SIM_H

#include "sim/base/error.h"
#include "sim/engine/engine.h"
#include "sim/fleet/run/results.h"
#include "sim/scenario/scenario.h"
#include "models/purchase/billing.h"

typedef struct fs_sim {
    const fs_scenario *sc;
    fs_engine *engine;
    fs_calendar cal;
    fs_results *out;
    fs_error *err;
    int failed;
} fs_sim;

/* Marks the run failed and stops the engine: the run returns -1 with the
 * message already set in sim->err (e.g. "out of memory scheduling ..."). */
void fs_sim_fail(fs_sim *sim);

#endif
