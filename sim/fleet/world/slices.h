/* slices.h -- the results of pools cut into MIG slices, per profile.
 *
 * For each profile of a pool's layout: its provisioned and busy
 * slice-hours, their ratio (utilization per slice profile), and its idle
 * cost: the pool's cost times the slices' compute share (SMs / the GPU's)
 * times their idle fraction, so that "98% of this A100 is idle" is a
 * number per slice (slice_utilization). */
#ifndef FS_SLICES_H
#define FS_SLICES_H

#include "sim/fleet/world/world.h"

int fs_collect_slices(fs_world *w);

#endif
