/* commit_block.c -- capacity blocks for the runs' training pools; see
 * commit_block.h.
 *
 * Only a pool paid as used is weighed (the list-priced option, on
 * demand, or the interruptible one, spot: the seams of purchase.h, not
 * their names): a reservation or a block of its own already commits. */
#include "sim/app/commit_block.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_blocks.h"
#include "models/purchase/purchase.h"
#include "sim/store/store_query.h"

typedef struct blocks_ctx {
    const fs_commit_inputs *in;
    size_t run;
    fs_commit_block *list;
    size_t n, cap;
} blocks_ctx;

/* Pool name's index in in, or in->npools. */
static size_t pool_index(const fs_commit_inputs *in, const char *name)
{
    size_t q = 0;
    while (q < in->npools && strcmp(in->pool_names[q], name))
        q++;
    return q;
}

/* Whether a pool of pricing is paid as used (on demand, spot). */
static int paid_as_used(const char *pricing)
{
    const fs_purchase_option *o = fs_purchase_find(pricing);
    return o && o->commitment == FS_COMMIT_NONE && !o->windows &&
           (o->list_priced || o->interruptible);
}

/* The next slot of c->list; NULL out of memory. */
static fs_commit_block *next_block(blocks_ctx *c)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 4;
        fs_commit_block *p = realloc(c->list, cap * sizeof *p);
        if (!p)
            return NULL;
        c->list = p;
        c->cap = cap;
    }
    fs_commit_block *b = &c->list[c->n];
    memset(b, 0, sizeof *b);
    return b;
}

static int pool_row(const fs_row *row, void *ctx, fs_error *err)
{
    blocks_ctx *c = ctx;
    const fs_commit_inputs *in = c->in;
    const char *pool = fs_row_text(row, 0), *pricing = fs_row_text(row, 1);
    const char *inst = fs_row_text(row, 2);
    size_t q = pool ? pool_index(in, pool) : in->npools;
    if (q == in->npools || !pricing || !inst || !paid_as_used(pricing))
        return 0;
    fs_commit_block *b = next_block(c);
    if (!b)
        return fs_error_set(err, "out of memory"), -1;
    char path[1024];
    double rate;
    snprintf(path, sizeof path, "%s/capacity_blocks.csv",
             fs_catalog_default_dir());
    int rc = fs_catalog_block_price(path, inst, &rate, b->source,
                                    sizeof b->source, err);
    if (rc <= 0)
        return rc;   /* no published block rate: nothing to propose */
    rc = fs_block_offer_make(fs_row_double(row, 5), fs_row_double(row, 6),
                             (long)fs_row_double(row, 4), rate,
                             in->pools[q].on_demand, &b->offer);
    if (rc == 1)
        return 0;    /* no job ran */
    b->run_id = in->run_ids[c->run];
    snprintf(b->pool, sizeof b->pool, "%s", pool);
    snprintf(b->instance, sizeof b->instance, "%s", inst);
    snprintf(b->pricing, sizeof b->pricing, "%s", pricing);
    /* what the run paid for the window: the pool's bill over the
     * horizon, its share of the window (a training pool's count is
     * fixed, so its bill runs evenly: on demand, exactly) */
    double horizon = fs_row_double(row, 7);
    b->paid_usd = horizon > 0 ? fs_row_double(row, 3) *
                  (b->offer.end_s - b->offer.start_s) / horizon : 0;
    snprintf(b->term, sizeof b->term, "%d day%s", b->offer.days,
             b->offer.days == 1 ? "" : "s");
    b->fits = rc == 0;
    b->recommended = b->fits && b->offer.block_usd < b->paid_usd;
    c->n++;
    return 0;
}

int fs_commit_blocks(fs_store *s, const fs_commit_inputs *in,
                     fs_commit_block **out, size_t *n, fs_error *err)
{
    blocks_ctx c = {.in = in};
    for (size_t r = 0; r < in->nruns; r++) {
        fs_query_arg a = {.run = in->run_ids[r]};
        c.run = r;
        if (fs_store_each(s, FS_Q_TRAINING_POOLS, &a, pool_row, &c, err)) {
            free(c.list);
            return -1;
        }
    }
    *out = c.list;
    *n = c.n;
    return 0;
}

const char *fs_commit_block_option(void)
{
    for (int i = 0; fs_purchase_options[i]; i++)
        if (fs_purchase_options[i]->windows)
            return fs_purchase_options[i]->name;
    return "block";
}

double fs_commit_block_saving(const fs_commit_block *b)
{
    return b->offer.on_demand_usd - b->offer.block_usd;
}

double fs_commit_block_saving_paid(const fs_commit_block *b)
{
    return b->paid_usd - b->offer.block_usd;
}
