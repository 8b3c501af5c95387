/* purchase.h -- purchase options: how a pool's instances are paid for.
 *
 * Each purchase option (on-demand, reserved; savings plan and spot to come)
 * is one module, models/purchase_NAME.c, behind the small table of
 * functions below, and one line in the registry (purchase.c).  The fleet
 * never asks which option a pool has: it tells the pool's option what
 * happened (an instance launched, an instance terminated, the horizon
 * reached) and the option charges the pool's meter.  The scenario layer
 * finds an option by its `pricing =` name and accepts the pool keys the
 * option declares. */
#ifndef FS_PURCHASE_H
#define FS_PURCHASE_H

#include "sim/base/keydoc.h"

typedef struct fs_purchase_option {
    const char *name;             /* the `pricing =` value: "reserved" */
    const char *focus_category;   /* FOCUS 1.2 PricingCategory: "Committed" */
    const fs_key_doc *keys;       /* pool keys it reads; NULL-name ended */
} fs_purchase_option;

/* The registry, in the order `fleetsim help` lists them; NULL-ended. */
extern const fs_purchase_option *const fs_purchase_options[];

/* The option named name, or NULL. */
const fs_purchase_option *fs_purchase_find(const char *name);

#endif
