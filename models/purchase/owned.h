/* owned.h -- an owned server's month, from the owned purchase option's
 * own arithmetic (purchase_owned.c), for buy versus rent (`roi --owned`):
 * the same capex, colocation and maintenance rates its bill charges each
 * hour, and the same power model (energy.h) at a given utilization, over
 * a 730-hour month. */
#ifndef FS_OWNED_H
#define FS_OWNED_H

#include "models/purchase/purchase.h"

/* One 730-hour month of servers owned, dollars. */
typedef struct fs_owned_month {
    double capex;        /* server_price / depreciation hours x 730 */
    double power;        /* the energy at utilization, at energy_price */
    double colocation;   /* rated kW x colocation per kW-month */
    double maintenance;  /* a year's upkeep x 730 / 8,760 */
} fs_owned_month;

/* The owned purchase option (purchase_owned.c), for its keys. */
extern const fs_purchase_option fs_purchase_owned;

/* Reads an owned pool's keys (server_price, energy_price, ...) through
 * rd into *t, as a scenario's pricing = owned pool reads them. */
int fs_owned_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t);

/* servers of gpus GPUs (tdp_w, idle_w each) owned on terms t (an owned
 * option's), their GPUs busy a share util (0..1) of the month. */
void fs_owned_month_cost(const fs_purchase_terms *t, double servers,
                         int gpus, double tdp_w, double idle_w, double util,
                         fs_owned_month *m);
double fs_owned_month_total(const fs_owned_month *m);

#endif
