/* purchase.c -- the registry of purchase options (purchase.h).
 *
 * Adding an option: write models/purchase_NAME.c with its table, and add
 * one line below. */
#include "models/purchase.h"

#include <string.h>

extern const fs_purchase_option fs_purchase_on_demand;
extern const fs_purchase_option fs_purchase_reserved;

const fs_purchase_option *const fs_purchase_options[] = {
    &fs_purchase_on_demand,
    &fs_purchase_reserved,
    NULL,
};

const fs_purchase_option *fs_purchase_find(const char *name)
{
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        if (strcmp((*o)->name, name) == 0)
            return *o;
    return NULL;
}
