/* purchase_reserved.c -- reserved instances: every hour of the horizon for
 * every instance, used or not; an upfront payment spread evenly over the
 * term's months. */
#include "models/purchase.h"

#include <stddef.h>

static const fs_key_doc reserved_keys[] = {
    {"term", "1y|3y", "1y", "reservation term"},
    {"upfront", "none|partial|all", "none",
     "upfront payment option: partial = upfront + a lower hourly rate, "
     "all = upfront and no hourly rate"},
    {"upfront_price", "money per instance", NULL,
     "the upfront payment for the whole term"},
    {NULL, NULL, NULL, NULL},
};

const fs_purchase_option fs_purchase_reserved = {
    .name = "reserved",
    .focus_category = "Committed",
    .keys = reserved_keys,
};
