/* commit_block.h -- the capacity blocks `commit` proposes for the runs'
 * training pools: for each pool a training workload's jobs ran on (on
 * demand or spot), the block AWS would sell for its instances over the
 * window from the jobs' first start to their last end
 * (models/purchase/block_offer.h), at the catalog's published
 * block rate for its instance type (capacity_blocks.csv), beside the
 * on-demand cost of the same busy hours and what the run paid for the
 * pool over them; recommended when the block costs less than that. */
#ifndef FS_COMMIT_BLOCK_H
#define FS_COMMIT_BLOCK_H

#include <stddef.h>

#include "models/purchase/block_offer.h"
#include "sim/app/commit_inputs.h"

typedef struct fs_commit_block {
    long run_id;
    char pool[FS_NAME_MAX];
    char instance[96];          /* "aws:p5.48xlarge" */
    char pricing[32];           /* what the pool paid by: on-demand, spot */
    char source[160];           /* where the block rate came from */
    char term[16];              /* the block's length: "9 days" */
    double paid_usd;            /* the pool's bill over the window: its
                                   bill x window / horizon */
    fs_block_offer offer;
    int fits;                   /* a block AWS sells holds the window */
    int recommended;            /* fits, and costs less than paid_usd */
} fs_commit_block;

/* The blocks for the training pools of in's runs, malloc'd into *out
 * (free()): a pool whose instance type has no published block rate, or
 * on which no job started, is left out.  0, or -1 with err. */
int fs_commit_blocks(fs_store *s, const fs_commit_inputs *in,
                     fs_commit_block **out, size_t *n, fs_error *err);

/* The name of the option whose instances live in windows (a capacity
 * block's), from the registry: the kind of a recommended block's rows. */
const char *fs_commit_block_option(void);

/* Saving against on demand: the busy hours' on-demand cost less the
 * block's; against what was paid: the pool's bill less the block's. */
double fs_commit_block_saving(const fs_commit_block *b);
double fs_commit_block_saving_paid(const fs_commit_block *b);

#endif
