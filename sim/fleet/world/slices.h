/* slices.h -- the results of pools cut into MIG slices, per profile.
 *
 * For each profile of a pool's layout: its provisioned and busy
 * slice-hours, their ratio (utilization per slice profile), and its idle
 * cost: the pool's cost times the slices' compute share (compute slices /
 * the GPU's: 1/7 for a 1g on an A100) times their idle fraction, so that
 * "98% of this A100 is idle" is a number per slice (slice_utilization),
 * and a layout's idle costs add up to the pool's when nothing runs.  Each
 * row also keeps the slices' SM share (14/108 for that 1g). */
#ifndef FS_SLICES_H
#define FS_SLICES_H

#include "sim/fleet/world/world.h"

int fs_collect_slices(fs_world *w);

/* A pool's busy GPU-hours with each busy MIG slice counted at its SM
 * share rather than its compute share (pool.gpu_hours_busy_sm); a pool
 * without MIG: its busy GPU-hours. */
double fs_slices_busy_sm_hours(const fs_pool *p);

#endif
