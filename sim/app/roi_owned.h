/* roi_owned.h -- buy versus rent for `fleetsim roi --owned KEY=V,...`:
 * each pool of a run as owned servers on the terms given (the owned
 * purchase option's keys: server_price, energy_price, depreciation_years,
 * maintenance, colocation, pue, host_share), priced by the owned option's
 * own arithmetic (models/purchase/owned.h) at the run's utilization,
 * beside what the run paid to rent it; with the utilization at which
 * owning and renting the busy hours on demand cost the same, and the
 * months owning takes to pay its servers back. */
#ifndef FS_ROI_OWNED_H
#define FS_ROI_OWNED_H

#include <stddef.h>

#include "models/purchase/owned.h"
#include "sim/base/error.h"
#include "sim/store/store.h"

typedef struct fs_roi_owned {
    char pool[256], gpu[64], pricing[32];
    double servers;          /* owned: the pool's mean instances, rounded
                                up */
    int gpus;                /* per server */
    double util;             /* the run's busy GPU-hours over the owned
                                servers' GPU-hours */
    fs_owned_month month;    /* a 730-hour month owned */
    double owned_usd;        /* its total */
    double rent_usd;         /* the pool's bill as a 730-hour run rate */
    double on_demand_usd_h;  /* the list rate per instance-hour (0:
                                unknown) */
    double saving_usd;       /* rent_usd - owned_usd, a month */
    double break_even_util;  /* owned = the busy hours on demand; NaN:
                                never at or below 100% */
    double break_even_months;/* servers' price / (rent - power,
                                colocation, maintenance); NaN: never */
} fs_roi_owned;

/* Parses "server_price=250000,energy_price=0.12,..." into *t through the
 * owned option's own reader: 0, or -1 with why ("--owned: KEY: ..."). */
int fs_roi_owned_terms(const char *spec, fs_purchase_terms *t, char *why,
                       size_t len);

/* Each pool of run (or the one named) as owned on terms t, malloc'd into
 * *out (free()).  0, or -1 with err (no such run or pool, a GPU the
 * catalog does not know). */
int fs_roi_owned_run(fs_store *s, long run, const char *pool,
                     const fs_purchase_terms *t, fs_roi_owned **out,
                     size_t *n, fs_error *err);

#endif
