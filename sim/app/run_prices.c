/* run_prices.c -- the prices a FOCUS export needs besides the bill, set on
 * each pool row of a run before it is stored (schema version 6).
 *
 * - The list price (ListUnitPrice): the on-demand price of an
 *   instance-hour.  A pool without a term that bills at its own price
 *   (on-demand; a savings plan, whose price is the on-demand one it
 *   discounts) lists at that price.  A reservation or a spot pool lists at
 *   the catalog's on-demand price of the same instance type (or of the
 *   cheapest one with its GPU at its provider, as pricing chose it),
 *   scaled to the pool's GPUs per instance; 0 (unknown) when the catalog
 *   has none.
 * - A commitment's rate per instance-hour (ContractedUnitPrice) and its $
 *   an hour.  A reservation's rate is its hourly fee plus its upfront
 *   payment spread evenly over the term's hours (8,760 a year).  A
 *   commitment without a term (a savings plan) keeps its terms private to
 *   its purchase option, so they are measured through the option's own
 *   table, on a calendar of one hour: billed with no usage, the option
 *   charges exactly its commitment; billed with usage worth half of that
 *   at the list price, it charges that usage at the committed rate.  The
 *   option stays the one place that knows how it bills. */
#include "sim/app/run_exec.h"

#include <math.h>
#include <string.h>

#include "sim/fleet/run/results.h"
#include "sim/scenario/scenario.h"
#include "models/purchase/billing.h"
#include "models/catalog/catalog.h"
#include "models/purchase/purchase.h"

#define HOURS_PER_YEAR 8760.0

/* The catalog's on-demand price of the pool's instance, per instance of
 * the pool; 0 when it has none. */
static double catalog_list_price(const fs_scenario *sc,
                                 const fs_pool_conf *p)
{
    const fs_instance_type *it = NULL;
    if (!sc->catalog)
        return 0;
    char list[512];
    if (p->instance[0])
        it = fs_catalog_instance(sc->catalog, p->instance);
    else if (!p->provider[0] && fs_catalog_providers(sc->catalog,
                 p->gpu.name, list, sizeof list) > 1)
        return 0;    /* several providers' prices: none is its list */
    else
        it = fs_catalog_cheapest_at(sc->catalog,
                                    p->provider[0] ? p->provider : NULL,
                                    p->gpu.name, (int)p->gpus_per_instance,
                                    FS_PRICE_ON_DEMAND);
    double rate = it ? fs_instance_price(it, FS_PRICE_ON_DEMAND) : NAN;
    if (!(rate > 0) || it->gpus <= 0)
        return 0;
    return rate / it->gpus * (double)p->gpus_per_instance;
}

/* What the option charges for one hour of one commitment with busy_s
 * seconds of one instance's usage in it (at the end of the hour): *paid
 * for usage and commitment used, *unused for the rest.  -1 when out of
 * memory. */
static int probe_hour(const fs_pool_conf *p, double busy_s, double *paid,
                      double *unused)
{
    const fs_purchase_option *o = p->purchase;
    fs_calendar cal;
    fs_meter m = {0}, un = {0};
    void *state = NULL;
    int rc = -1;
    if (fs_calendar_init(&cal, 0, 3600))
        return -1;
    if (fs_meter_init(&m, &cal) || fs_meter_init(&un, &cal))
        goto done;
    if (o->open && !(state = o->open(&p->terms, &cal)))
        goto done;
    fs_purchase_bill b = {&m, &cal, (int)p->gpus_per_instance, state, &un,
                          NULL, NULL, 0, 0, 0, 0};
    if (busy_s > 0)
        fs_purchase_cut(o, &p->terms, &b, 3600 - busy_s);
    fs_purchase_finish(o, &p->terms, &b, 1);
    *paid = *unused = 0;
    for (size_t i = 0; i < cal.nmonths; i++) {
        *paid += m.usd[i];
        *unused += un.usd[i];
    }
    rc = 0;
done:
    if (o->close)
        o->close(state);
    fs_meter_free(&m);
    fs_meter_free(&un);
    fs_calendar_free(&cal);
    return rc;
}

/* A commitment without a term: its $ an hour and its rate per
 * instance-hour, measured as the header says. */
static int spend_commitment(const fs_pool_conf *p, double list,
                            fs_pool_row *row)
{
    double paid, unused;
    if (probe_hour(p, 0, &paid, &unused))
        return -1;
    double c = paid + unused;
    if (!(c > 0) || !(list > 0))
        return 0;
    double busy_s = 3600 * fmin(1, c / list) / 2;
    if (probe_hour(p, busy_s, &paid, &unused))
        return -1;
    row->commitment_usd_h = c;
    row->contracted_price_usd_h = paid * 3600 / busy_s;
    return 0;
}

int fs_run_pool_prices(const fs_scenario *sc, fs_results *res)
{
    for (size_t i = 0; i < res->npools; i++) {
        fs_pool_row *row = &res->pools[i];
        const fs_pool_conf *p = NULL;
        for (size_t k = 0; k < sc->npools && !p; k++)
            if (!strcmp(sc->pools[k].name, row->pool))
                p = &sc->pools[k];
        if (!p)
            continue;
        const fs_purchase_terms *t = &p->terms;
        int committed = p->purchase->commitment != FS_COMMIT_NONE;
        row->gpus_per_instance = p->gpus_per_instance;
        row->list_price_usd_h = t->term_months == 0 &&
                                !p->purchase->interruptible
                                    ? t->price : catalog_list_price(sc, p);
        if (committed && t->term_months > 0) {
            row->contracted_price_usd_h =
                t->price + t->upfront_usd /
                               (t->term_months / 12.0 * HOURS_PER_YEAR);
            row->commitment_usd_h =
                row->contracted_price_usd_h * (double)p->count;
        } else if (committed &&
                   spend_commitment(p, row->list_price_usd_h, row)) {
            return -1;
        }
    }
    return 0;
}
