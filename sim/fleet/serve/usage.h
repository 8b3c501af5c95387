/* usage.h -- time integrals of a pool's instances and busy GPUs.
 *
 * Utilization rows, the pools' GPU-hours and the autoscaler's busy
 * fraction all come from four integrals over time: instances up, GPUs
 * provisioned (launched instances, provisioning included), GPUs of
 * instances up, and busy GPUs.  They advance together, at every change of
 * a count and at every reading, so each piece of a run adds the same terms
 * in the same order whoever reads it: results stay bit-identical.
 *
 * The instance counts follow the pool's capacity as a subscriber
 * (fs_usage_listener); busy servers are reported by dispatch, or read
 * from the recursion that serves a plain FIFO pool (fifo_recursion.h). */
#ifndef FS_USAGE_H
#define FS_USAGE_H

#include <assert.h>
#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/fifo_recursion.h"
#include "sim/fleet/run/results.h"
#include "sim/fleet/serve/shape.h"

typedef struct fs_usage {
    double gpus_per_instance;
    int launched, up;          /* instances provisioning or up; up */
    int busy_servers;
    double busy_gpus;          /* the busy servers' fs_shape_busy_gpus */
    double last_t;             /* the integrals run to here */
    double area_up;            /* instance-seconds up */
    double area_gpus;          /* GPU-seconds provisioned */
    double area_gpus_up;       /* GPU-seconds of instances up */
    double area_busy;          /* busy GPU-seconds */
    double sample_t;           /* the last utilization sample */
    double sample_up, sample_gpus, sample_busy;
    /* A pool served by the recursion (fifo_recursion.h) reports no busy
     * servers: its busy GPU-seconds are read from the recursion's books
     * (times fifo_gpus, each server's GPUs) whenever the integrals run. */
    const fs_fifo *fifo;
    double fifo_gpus;
} fs_usage;

/* Subscribe it to its pool's capacity with ctx = the fs_usage. */
extern const fs_capacity_listener fs_usage_listener;

void fs_usage_init(fs_usage *u, long gpus_per_instance);

/* Runs the integrals to now with the counts as they are.  Inline, as
 * fs_usage_busy: twice for every request served. */
static inline void fs_usage_advance(fs_usage *u, double now)
{
    if (u->fifo)
        u->area_busy = u->fifo_gpus * fs_fifo_busy_to(u->fifo, now);
    double dt = now - u->last_t;
    if (dt <= 0)
        return;
    double gpi = u->gpus_per_instance;
    u->area_up += u->up * dt;
    u->area_gpus += u->launched * gpi * dt;
    u->area_gpus_up += u->up * gpi * dt;
    u->area_busy += u->busy_gpus * dt;
    u->last_t = now;
}

/* A server of this shape becomes busy (busy = 1) or stops being busy. */
static inline void fs_usage_busy(fs_usage *u, double now,
                                 const fs_server_shape *shape, int busy)
{
    fs_usage_advance(u, now);
    u->busy_servers += busy ? 1 : -1;
    assert(u->busy_servers >= 0);
    /* Whole numbers of GPUs add up exactly; fractions of them might leave a
     * residue, which the last server going idle clears. */
    u->busy_gpus = u->busy_servers == 0 ? 0
        : u->busy_gpus + (busy ? 1 : -1) * fs_shape_busy_gpus(shape);
}

/* The time averages since the last sample into row (instances_up,
 * gpus_provisioned, gpus_busy, t_s); 0 when no time has passed since it,
 * and then row is untouched. */
int fs_usage_sample(fs_usage *u, double now, fs_util_row *row);

#endif
