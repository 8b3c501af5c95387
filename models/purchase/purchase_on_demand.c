/* purchase_on_demand.c -- on-demand instances: paid per second from launch
 * to termination, with a minimum per launch (min_billed).
 *
 * Nothing is owed at launch: the meter moves when the instance ends.  An
 * instance still up at the horizon is billed to the horizon without the
 * minimum, which is for terminations: the horizon cuts the bill, it does
 * not end the launch. */
#include "models/purchase/purchase.h"

#include <stdio.h>

static const fs_key_doc on_demand_keys[] = {
    {"min_billed", "duration", "60s",
     "minimum billed per launch that ends before the horizon"},
    {NULL, NULL, NULL, NULL},
};

/* min_billed, then the price key or the catalog's on-demand rate. */
static int on_demand_resolve(const fs_purchase_reader *rd,
                             fs_purchase_terms *t)
{
    if (fs_purchase_read_duration(rd, "min_billed", 60, &t->min_billed_s))
        return -1;
    return fs_purchase_read_price(rd, FS_PRICE_ON_DEMAND, t);
}

static void on_demand_terminate(const fs_purchase_terms *t,
                                const fs_purchase_bill *b, double t0,
                                double t1)
{
    fs_bill_on_demand(b->meter, b->cal, t0, t1, t->price, b->gpus,
                      t->min_billed_s);
}

static void on_demand_cut(const fs_purchase_terms *t,
                          const fs_purchase_bill *b, double t0)
{
    fs_bill_on_demand(b->meter, b->cal, t0, b->cal->horizon_s, t->price,
                      b->gpus, 0);
}

const fs_purchase_option fs_purchase_on_demand = {
    .name = "on-demand",
    .commitment = FS_COMMIT_NONE,
    .list_priced = 1,
    .roi_own_rate = 1,
    .label = "on demand",
    .focus_category = "Standard",
    .bill_label = "all on demand",
    .keys = on_demand_keys,
    .resolve = on_demand_resolve,
    .terminate = on_demand_terminate,
    .cut = on_demand_cut,
};
