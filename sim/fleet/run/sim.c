/* sim.c -- how a running world fails: the error sink every module of the
 * fleet reports to.
 *
 * It lives here, low in the fleet's DAG (beside sim.h, below every
 * subsystem), so that a subsystem reporting a failure depends on the
 * shared fs_sim only, never on world.c, which builds and runs them all. */
#include "sim/fleet/run/sim.h"

void fs_sim_fail(fs_sim *sim)
{
    sim->failed = 1;
    fs_engine_stop(sim->engine);
}
