/* coldstart.h -- how long a launched LLM replica loads before it serves.
 *
 * A pool's instances that launch during a run (autoscaling, a spot
 * relaunch or fallback, scaling from zero) are up after provision_delay
 * plus this: capacity.h's load_delay, set once the pool's workloads have
 * built their replicas (their weights are known then). */
#ifndef FS_COLDSTART_H
#define FS_COLDSTART_H

#include "sim/fleet/serve/servers.h"

/* Seconds a launched instance of the pool loads: its load_time when the
 * pool sets one; else each LLM workload's weight bytes on the instance
 * (a replica's weights times the replicas an instance holds) over the
 * instance's network bandwidth, plus the engine profile's startup_s, the
 * longest over the pool's LLM workloads.  0 for a pool serving none. */
double fs_coldstart_seconds(const fs_servers *servers);

/* The bytes one launched instance of pool p pulls for workload w (its
 * k-th pool): a replica's weights times the replicas an instance holds.
 * What the load is timed by, and what weights.c prices a cold start at. */
double fs_coldstart_bytes(const fs_workload *w, int k, const fs_servers *p);

#endif
