/* scenario_storage.c -- what a training workload's checkpoints cost beside
 * the GPU hour: the keys, and the prices of each of its pools.
 *
 *   checkpoint_size = 140          GB a checkpoint (model = derives it)
 *   checkpoint_retention = 730h    each checkpoint written is kept so long
 *   checkpoint_transfer = zone     a restore reads it from another zone
 *   storage_price = 0.023          $ per GB-month (else the catalog's)
 *   transfer_price = 0.02          $ per GB moved (else the catalog's)
 *
 * Prices are the provider's of each pool (its provider = or instance =
 * PROVIDER:TYPE) from the catalog's storage.csv.  A pool with no provider,
 * or one the file does not list, needs the workload's own price: refused
 * here, at the key that asked for it, before anything runs. */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The pool's provider: its provider key, else its instance's prefix. */
static void provider_of(const fs_pool_conf *p, char *buf, size_t len)
{
    const char *colon = strchr(p->instance, ':');
    if (p->provider[0])
        snprintf(buf, len, "%s", p->provider);
    else
        snprintf(buf, len, "%.*s", colon ? (int)(colon - p->instance) : 0,
                 p->instance);
}

/* Pool k's two prices: the workload's own where given (>= 0), else its
 * provider's from the catalog; -1 with the message when neither. */
static int pool_prices(fs_reader *rd, const fs_scenario *sc,
                       fs_training_conf *t, const fs_pool_conf *p, int k,
                       double own_storage, double own_transfer)
{
    char prov[16];
    provider_of(p, prov, sizeof prov);
    const fs_storage_price *sp = fs_catalog_storage(sc->catalog, prov);
    double transfer = t->checkpoint_transfer == FS_TRANSFER_NONE ? 0
                      : own_transfer >= 0 ? own_transfer
                      : sp ? sp->transfer_gb[t->checkpoint_transfer] : NAN;
    double storage = own_storage >= 0 ? own_storage
                     : sp ? sp->storage_gb_month : NAN;
    if (isnan(storage) || isnan(transfer)) {
        const char *key = isnan(storage) ? "storage_price" : "transfer_price";
        char why[320];
        snprintf(why, sizeof why, "pool %s has %s%s: the catalog's "
                 "storage.csv cannot price its checkpoints; give %s (or the "
                 "pool's provider = or instance = PROVIDER:TYPE)", p->name,
                 prov[0] ? "provider " : "no provider", prov, key);
        fs_config_entry *e = fs_rd_entry(rd, "checkpoint_size");
        return fs_rd_bad(rd, e ? e : fs_rd_entry(rd, "model"), "%s", why);
    }
    t->storage_usd_gb_month[k] = storage;
    t->transfer_usd_gb[k] = transfer;
    return 0;
}

int fs_scenario_training_storage(fs_reader *rd, fs_scenario *sc,
                                 fs_workload_conf *w)
{
    fs_training_conf *t = &w->training;
    double own_storage, own_transfer;
    if (fs_rd_double(rd, "checkpoint_size", fs_parse_number,
                     t->checkpoint_gb, &t->checkpoint_gb) ||
        fs_rd_double(rd, "checkpoint_retention", fs_parse_duration,
                     730 * 3600.0, &t->checkpoint_retention) ||
        fs_rd_choice(rd, "checkpoint_transfer", fs_transfer_names,
                     FS_TRANSFER_NONE, &t->checkpoint_transfer) ||
        fs_rd_double(rd, "storage_price", fs_parse_money, -1, &own_storage) ||
        fs_rd_double(rd, "transfer_price", fs_parse_money, -1, &own_transfer))
        return -1;
    if (!(t->checkpoint_gb > 0) || !(t->checkpoint_interval > 0))
        return 0;   /* nothing written: nothing to price */
    for (int k = 0; k < w->npools; k++)
        if (pool_prices(rd, sc, t, &sc->pools[w->pools[k]], k, own_storage,
                        own_transfer))
            return -1;
    return 0;
}
