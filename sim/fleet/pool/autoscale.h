/* autoscale.h -- target-tracking autoscaling of a pool (autoscale.c says
 * how it decides).  It reads the pool's usage and its workloads' queues and
 * acts through the pool's capacity: launch n, release n. */
#ifndef FS_AUTOSCALE_H
#define FS_AUTOSCALE_H

#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/servers.h"
#include "sim/fleet/run/sim.h"
#include "sim/fleet/serve/usage.h"

typedef struct fs_autoscaler {
    const fs_pool_conf *conf;
    fs_sim *sim;
    fs_capacity *cap;          /* what it resizes */
    fs_servers *servers;       /* whose workloads' queues it reads */
    fs_usage *usage;           /* whose busy time it reads */
    double scale_busy, scale_gpus_up;   /* the integrals at the last tick */
    double scale_queued;       /* GPU-seconds queued for it, at the last tick */
    double last_scale_in;      /* the last scaling action */
    long *wanted;              /* recent desired counts (stabilization) */
    int nwanted, wanted_pos;
} fs_autoscaler;

/* -1 when out of memory; a fixed pool (scale = fixed) gets an autoscaler
 * that never acts. */
int fs_autoscaler_init(fs_autoscaler *a, fs_sim *sim,
                       const fs_pool_conf *conf, fs_capacity *cap,
                       fs_servers *servers, fs_usage *usage);
void fs_autoscaler_free(fs_autoscaler *a);
/* Schedules the first decision, one autoscale_interval in; -1 when the run
 * failed (out of memory scheduling it). */
int fs_autoscaler_start(fs_autoscaler *a);

#endif
