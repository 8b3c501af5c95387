/* block.h -- a pool whose instances exist only inside its purchase
 * option's windows (a capacity block, purchase.h's `windows`).
 *
 * At each opening the pool's count instances start (up at once: the
 * provider has them ready); at each close the provider takes them back,
 * work and all (fs_capacity_interrupt with no notice, as a spot instance
 * goes: a training job loses the work since its last checkpoint and waits
 * in its queue for the next opening, requests in service are requeued).
 * Work waiting for the pool while no block is open waits in its queue:
 * that is how a training job submitted before a block starts when it
 * opens.  At the horizon the pool's note sets the blocks' bill beside the
 * instance-hours its work kept busy and what those would cost on demand
 * (the option's list_rate). */
#ifndef FS_BLOCK_H
#define FS_BLOCK_H

#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/usage.h"
#include "sim/fleet/run/sim.h"

#define FS_BLOCK_WINDOWS 8

typedef struct fs_block_run {
    fs_sim *sim;
    const fs_pool_conf *conf;
    fs_capacity *cap;
    fs_usage *usage;
    double open[FS_BLOCK_WINDOWS], close[FS_BLOCK_WINDOWS];
    int n, next;            /* windows; the next to open */
    long at_work;           /* instances at work when a block closed */
} fs_block_run;

/* Whether conf's purchase option has windows (its instances exist only
 * inside them). */
int fs_block_applies(const fs_pool_conf *conf);
/* Schedules the windows' openings and closes (no-op for a pool without);
 * -1 when the run failed. */
int fs_block_start(fs_block_run *r, fs_sim *sim, const fs_pool_conf *conf,
                   fs_capacity *cap, fs_usage *usage);
/* The pool's note: what the blocks cost against on demand. */
void fs_block_finish(fs_block_run *r);

#endif
