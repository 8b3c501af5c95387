/* block_offer.h -- a capacity block offered for a training pool's
 * schedule: the block AWS would sell for the window a pool's jobs ran in,
 * priced against what those hours cost on demand, so that `commit` can
 * propose one (doc/money.md "Capacity blocks for training").
 *
 * The window runs from the first job's start to the last one's end; the
 * block holds the pool's instances for it rounded up to a length AWS
 * sells: "1-day increments up to 14 days, and in 7-day increments up to
 * 182 days", at most 64 instances a block (Amazon EC2 User Guide, "Find
 * and purchase Capacity Blocks").  Pure arithmetic over figures the
 * caller brings. */
#ifndef FS_BLOCK_OFFER_H
#define FS_BLOCK_OFFER_H

#define FS_BLOCK_MAX_DAYS 182
#define FS_BLOCK_MAX_INSTANCES 64

typedef struct fs_block_offer {
    double start_s, end_s;      /* the jobs' window, from the run's start */
    long count;                 /* instances */
    int days;                   /* the block's length as sold */
    double rate;                /* $ per instance-hour of the block */
    double busy_instance_h;     /* count x the window's hours */
    double block_usd;           /* count x days x 24 h x rate */
    double on_demand_usd;       /* busy_instance_h x the on-demand rate */
} fs_block_offer;

/* The days of the shortest block AWS sells covering hours (above 0):
 * whole days from 1 to 14, then multiples of 7 to 182; 0 when longer. */
int fs_block_days(double hours);

/* The block of count instances for the window [start_s, end_s) at rate,
 * set beside on_demand ($ per instance-hour).  0 with *o set; 1 when the
 * window or the count is empty; 2 when no block can hold it (longer than
 * 182 days, more than 64 instances: *o still holds the window, the count
 * and the on-demand cost). */
int fs_block_offer_make(double start_s, double end_s, long count,
                        double rate, double on_demand, fs_block_offer *o);

#endif
