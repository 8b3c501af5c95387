/* purchase_spot.c -- spot instances: paid per second at the spot price
 * while they run, nothing after the provider takes them (FOCUS
 * PricingCategory "Dynamic").
 *
 * No minimum per launch: a spot instance in fleetsim ends only when it is
 * interrupted or at the horizon, and an interrupted instance costs the
 * seconds it ran (AWS bills per-second spot instances for the seconds
 * used; GCP's spot VMs likewise).  The price is the `price` key, else the
 * catalog's spot column.
 *
 * The keys below are declared here so that they are accepted on spot
 * pools only and documented with them; the interruption model, notice,
 * replacement and fallback are read by the scenario (scenario_spot.c) and
 * acted on by the fleet (sim/fleet/spot.c), not billed here. */
#include "models/purchase.h"

#include <stdio.h>

static const fs_key_doc spot_keys[] = {
    {"interruption", "interruption model", "none()",
     "exponential(mean=D) | weibull(shape=K, scale=D) | lognormal(mu=M, "
     "sigma=S) (of ln seconds) | empirical(FILE) (lifetimes in seconds) | "
     "trace(FILE[, repeat=yes]) (t_seconds,available replayed)"},
    {"notice", "duration", "0s",
     "warning before an interruption (AWS 2m, GCP 30s): no new work, "
     "running batches finish if they can"},
    {"replace_delay", "duration or distribution", "0s",
     "interruption to relaunch, e.g. exponential(mean=10m); the launch then "
     "provisions for provision_delay"},
    {"fallback", "POOL", NULL,
     "an on-demand pool that launches instances while this pool is short "
     "of spot, and gives them back when spot returns"},
    {"fallback_after", "duration", "0s",
     "how long the pool is short of spot before the fallback launches"},
    {"spot_extra", "integer, 0 to 1000", "0",
     "instances kept above count (over-provisioning, as SkyServe's "
     "SpotHedge)"},
    {NULL, NULL, NULL, NULL},
};

static int spot_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    t->min_billed_s = 0;
    int given = rd->price(rd->ctx, &t->price);
    if (given < 0)
        return -1;
    if (given) {
        snprintf(t->price_source, sizeof t->price_source, "price key");
        return 0;
    }
    return rd->catalog_price(rd->ctx, FS_PRICE_SPOT, &t->price,
                             t->price_source, sizeof t->price_source);
}

static void spot_terminate(const fs_purchase_terms *t,
                           const fs_purchase_bill *b, double t0, double t1)
{
    fs_bill_on_demand(b->meter, b->cal, t0, t1, t->price, b->gpus, 0);
}

static void spot_cut(const fs_purchase_terms *t, const fs_purchase_bill *b,
                     double t0)
{
    fs_bill_on_demand(b->meter, b->cal, t0, b->cal->horizon_s, t->price,
                      b->gpus, 0);
}

static void spot_finish(const fs_purchase_terms *t, const fs_purchase_bill *b,
                        long count)
{
    (void)t;
    (void)b;
    (void)count;
}

const fs_purchase_option fs_purchase_spot = {
    .name = "spot",
    .focus_category = "Dynamic",
    .keys = spot_keys,
    .fixed_count = "spot pools have a fixed count (plus spot_extra): "
                   "interrupted instances are replaced, not autoscaled",
    .resolve = spot_resolve,
    .terminate = spot_terminate,
    .cut = spot_cut,
    .finish = spot_finish,
};
