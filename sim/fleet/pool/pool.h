/* pool.h -- a pool: a set of instances of one type and one purchase
 * option, and the concerns that share them.
 *
 * The family sim/fleet/pool/ (above training/): a pool and the concerns
 * that act on its instances: the autoscaler (autoscale.h), spot
 * interruptions (spot.h), availability windows (window.h), capacity
 * blocks (block.h).
 *
 *   capacity    the instances and their life cycle     (capacity.h)
 *   servers     the servers on them, idle or working   (servers.h)
 *   usage       time integrals of instances and GPUs   (usage.h)
 *   autoscaler  resizes the pool                       (autoscale.h)
 *   spot        interrupts, replaces, falls back       (spot.h)
 *   coldstart   a launched LLM replica's load          (coldstart.h)
 *   weights     its weights stored and pulled, priced  (weights.h)
 *   meter       what it costs, month by month          (models/purchase/billing.h)
 *
 * Each concern knows only those below it; they meet here, each one entry
 * of the table of parts in pool.c (built, subscribed, started, finished
 * down the table, freed up it).  The servers (dispatch), the usage
 * integrals, the meter and the training scheduler follow the capacity as
 * subscribers, in that order. */
#ifndef FS_POOL_H
#define FS_POOL_H

#include "sim/fleet/pool/autoscale.h"
#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/servers.h"
#include "sim/fleet/training/training.h"
#include "sim/fleet/pool/window.h"
#include "sim/fleet/pool/block.h"
#include "sim/fleet/pool/spot.h"
#include "sim/fleet/pool/weights.h"
#include "sim/fleet/run/sim.h"
#include "sim/fleet/serve/usage.h"
#include "models/purchase/billing.h"

typedef struct fs_pool {
    const fs_pool_conf *conf;
    fs_sim *sim;
    fs_capacity cap;
    fs_servers servers;
    fs_usage usage;
    fs_autoscaler scale;
    fs_meter meter;
    fs_train_pool train;    /* the training scheduler's view (training.h) */
    fs_window_run window;   /* schedule = WINDOW: opens and closes it */
    fs_block_run block;     /* a capacity block's windows (block.h) */
    fs_meter unused;        /* a commitment's unused part (savings plan) */
    fs_meter after_term;    /* its instances after a commitment's term, at
                               the on-demand rate (purchase.h) */
    fs_weights_run weights; /* its llm weights' storage and pulls */
    fs_meter lines[FS_PURCHASE_LINES];  /* the option's own cost lines
                                           (an owned pool's power, ...) */
    void *purchase_state;   /* the purchase option's, or NULL */
    fs_spot spot;           /* set up by the world (spot.h), after every
                               pool is built: a fallback is another pool */
} fs_pool;

/* Builds the pool and wires its concerns; -1 when out of memory
 * (fs_pool_free is still safe). */
int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf);
void fs_pool_free(fs_pool *p);
/* The instances up at t = 0, and the autoscaler's first decision; -1 when
 * the run failed. */
int fs_pool_start(fs_pool *p);
/* Bills everything to the horizon and runs the integrals to it. */
void fs_pool_finish(fs_pool *p);

/* Month m of the pool's own cost lines (purchase.h: an owned pool's power,
 * colocation and maintenance); with cents, each as its cost row has it
 * (fs_meter_cents), so that what is shared adds up to the rows. */
static inline double fs_pool_lines_usd(const fs_pool *p, size_t m, int cents)
{
    double usd = 0;
    for (int k = 0; k < FS_PURCHASE_LINES && p->lines[k].usd; k++)
        usd += cents ? fs_meter_cents(p->lines[k].usd, m) : p->lines[k].usd[m];
    return usd;
}

#endif
