/* scenario_storage.c -- what a workload's data costs beside the GPU hour:
 * a training workload's checkpoints and an llm workload's weights, the
 * keys, and the prices of each of its pools.
 *
 *   checkpoint_size = 140          GB a checkpoint (model = derives it)
 *   checkpoint_retention = 730h    each checkpoint written is kept so long
 *   checkpoint_transfer = zone     a restore reads it from another zone
 *   weights_from = other-region    llm: where a cold start pulls the weights
 *   storage_price = 0.023          $ per GB-month (else the catalog's)
 *   transfer_price = 0.02          $ per GB moved (else the catalog's)
 *
 * Prices are the provider's of each pool (its provider = or instance =
 * PROVIDER:TYPE) from the catalog's storage.csv.  A pool with no provider,
 * or one the file does not list, needs the workload's own price: refused
 * here, at the key that asked for it, before anything runs.
 *
 * weights_from: same-region (object storage in the pool's region: the
 * pull is free, as S3 to EC2 in one region is), other-zone, other-region
 * (the provider's price to move a GB there), internet (the weights held in
 * another cloud or outside: its egress to the internet, taken as the
 * pool's provider's unless transfer_price says).  Absent (none): the
 * weights are not priced, no line, as before the key existed. */
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

/* A pool's two prices for data moved by transfer (FS_TRANSFER_*): the
 * workload's own where given (>= 0), else its provider's from the catalog;
 * -1 with the message at entry e (what asked) when neither. */
static int pool_prices(fs_reader *rd, const fs_scenario *sc, int transfer,
                       const fs_pool_conf *p, double own_storage,
                       double own_transfer, fs_config_entry *e,
                       const char *what, double *storage_out,
                       double *transfer_out)
{
    char prov[16];
    provider_of(p, prov, sizeof prov);
    const fs_storage_price *sp = fs_catalog_storage(sc->catalog, prov);
    double move = transfer == FS_TRANSFER_NONE ? 0
                  : own_transfer >= 0 ? own_transfer
                  : sp ? sp->transfer_gb[transfer] : NAN;
    double storage = own_storage >= 0 ? own_storage
                     : sp ? sp->storage_gb_month : NAN;
    if (isnan(storage) || isnan(move)) {
        const char *key = isnan(storage) ? "storage_price" : "transfer_price";
        char why[320];
        snprintf(why, sizeof why, "pool %s has %s%s: the catalog's "
                 "storage.csv cannot price its %s; give %s (or the "
                 "pool's provider = or instance = PROVIDER:TYPE)", p->name,
                 prov[0] ? "provider " : "no provider", prov, what, key);
        return fs_rd_bad(rd, e, "%s", why);
    }
    *storage_out = storage;
    *transfer_out = move;
    return 0;
}

/* storage_price and transfer_price, -1 where absent. */
static int own_prices(fs_reader *rd, double *storage, double *transfer)
{
    return fs_rd_double(rd, "storage_price", fs_parse_money, -1, storage) ||
           fs_rd_double(rd, "transfer_price", fs_parse_money, -1, transfer);
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
        own_prices(rd, &own_storage, &own_transfer))
        return -1;
    if (!(t->checkpoint_gb > 0) || !(t->checkpoint_interval > 0))
        return 0;   /* nothing written: nothing to price */
    fs_config_entry *e = fs_rd_entry(rd, "checkpoint_size");
    for (int k = 0; k < w->npools; k++)
        if (pool_prices(rd, sc, t->checkpoint_transfer,
                        &sc->pools[w->pools[k]], own_storage, own_transfer,
                        e ? e : fs_rd_entry(rd, "model"), "checkpoints",
                        &t->storage_usd_gb_month[k], &t->transfer_usd_gb[k]))
            return -1;
    return 0;
}

const char *const fs_weights_from_names[FS_WEIGHTS_N + 1] = {
    "none", "same-region", "other-zone", "other-region", "internet", NULL,
};

/* weights_from's pull as a storage.csv transfer (same-region: none). */
static const int weights_transfer[FS_WEIGHTS_N] = {
    FS_TRANSFER_NONE, FS_TRANSFER_NONE, FS_TRANSFER_ZONE,
    FS_TRANSFER_REGION, FS_TRANSFER_INTERNET,
};

int fs_scenario_parse_weights(fs_reader *rd, fs_scenario *sc,
                              fs_workload_conf *w)
{
    fs_weights_conf *c = &w->weights;
    double own_storage, own_transfer;
    fs_config_entry *e = fs_rd_entry(rd, "weights_from");
    int llm = w->service.model && w->service.model->server;
    if (e && !llm)
        return fs_rd_bad(rd, e, "%s", "applies to workloads with service = "
                         "llm(...) only (their weights are what it prices)");
    if (fs_rd_choice(rd, "weights_from", fs_weights_from_names,
                     FS_WEIGHTS_NONE, &c->from) ||
        own_prices(rd, &own_storage, &own_transfer))
        return -1;
    if (c->from == FS_WEIGHTS_NONE) {
        fs_config_entry *x = fs_rd_entry(rd, "storage_price");
        if (!x)
            x = fs_rd_entry(rd, "transfer_price");
        return x ? fs_rd_bad(rd, x, "%s", "prices a training workload's "
                             "checkpoints or an llm workload's weights: "
                             "give weights_from = (same-region, other-zone, "
                             "other-region, internet) with it") : 0;
    }
    for (int k = 0; k < w->npools; k++)
        if (pool_prices(rd, sc, weights_transfer[c->from],
                        &sc->pools[w->pools[k]], own_storage, own_transfer,
                        e, "model weights", &c->storage_usd_gb_month[k],
                        &c->transfer_usd_gb[k]))
            return -1;
    return 0;
}
