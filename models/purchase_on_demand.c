/* purchase_on_demand.c -- on-demand instances: paid per second from launch
 * to termination, with a minimum per launch (min_billed). */
#include "models/purchase.h"

#include <stddef.h>

static const fs_key_doc on_demand_keys[] = {
    {"min_billed", "duration", "60s",
     "minimum billed per launch that ends before the horizon"},
    {NULL, NULL, NULL, NULL},
};

const fs_purchase_option fs_purchase_on_demand = {
    .name = "on-demand",
    .focus_category = "Standard",
    .keys = on_demand_keys,
};
