/* plan_cost.c -- how to buy each chosen fleet: the ways --purchase asks,
 * priced by `fleetsim roi`'s own functions on the fleet's stored run
 * (roi_run.h), summed over the run's pools, as 730-hour run rates:
 *   on-demand     every instance-hour at the on-demand price;
 *   reserved      the k reserved instances of least cost (1 year, no
 *                 upfront) from the run's hour-by-hour demand, plus
 *                 on-demand above k;
 *   savings-plan  the hourly commitment of least cost, plus on-demand
 *                 above it;
 *   spot          the same fleet simulated again with its pool priced as
 *                 spot (plan_search.c), and roi on that run: k reserved
 *                 (0 when none pays) and spot above, against its spot
 *                 bill.
 * The cheapest of those asked is the plan's.  Beside them, the run's own
 * bill (its pools bought as the scenario says: a reserved base and an
 * on-demand or spot burst, say), from run_summary.  Nothing is recomputed
 * here: the figures are roi's. */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "sim/app/roi_run.h"
#include "models/purchase/purchase.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fs_plan_purchase_name(int k)
{
    const fs_purchase_option *o =
        k == FS_PLAN_OD ? fs_purchase_committing(FS_COMMIT_NONE)
        : k == FS_PLAN_RESERVED ? fs_purchase_committing(FS_COMMIT_COUNT)
        : k == FS_PLAN_SAVINGS ? fs_purchase_committing(FS_COMMIT_SPEND)
                               : fs_purchase_interruptible();
    return o ? o->name : "?";
}

/* roi on run with (plan) into the sums; 0, or -1 with note set. */
static int roi_sum(fs_store *db, long run, int plan, double *od,
                   double *with, long *k, double *commit, char *note,
                   size_t len)
{
    fs_roi_query q;
    fs_roi_query_default(&q);
    q.plan = plan;
    q.coarse_as_note = 1;
    fs_roi_pool *pools = NULL;
    size_t n = 0;
    fs_error err;
    if (fs_roi_for_run(db, run, &q, &pools, &n, &err)) {
        snprintf(note, len, "%.200s", err.msg);
        return -1;
    }
    *od = *with = *commit = 0;
    *k = 0;
    int rc = n ? 0 : -1;
    for (size_t i = 0; i < n; i++) {
        if (!pools[i].ok) {
            snprintf(note, len, "pool %.60s: %.180s", pools[i].row.pool,
                     pools[i].note);
            rc = -1;
            continue;
        }
        *od += pools[i].row.r.on_demand_monthly;
        *with += pools[i].row.r.with_monthly;
        *k += pools[i].row.r.count;
        *commit += pools[i].row.r.commitment;
    }
    free(pools);
    return rc;
}

static void price_one(const fs_plan *p, fs_store *db, fs_plan_candidate *c)
{
    c->as_run = fs_store_summary_value(db, c->best.run_id, "cost_per_month_usd");
    double od, with, commit;
    long k;
    if (roi_sum(db, c->best.run_id, 0, &od, &with, &k, &commit,
                c->cost_note, sizeof c->cost_note)) {
        /* no reservation price: all on demand is still the run's own bill
         * when its one pool is on demand */
        if (p->purchases[FS_PLAN_OD] && p->pool_on_demand && p->npools == 1)
            od = c->as_run;
        else
            od = NAN;
        with = NAN;
        k = 0;
    }
    if (p->purchases[FS_PLAN_OD])
        c->cost[FS_PLAN_OD] = od;
    if (p->purchases[FS_PLAN_RESERVED] && p->pool_has_price &&
        !p->pool_has_quote) {
        /* the on-demand column is the user's rate: the catalog's
         * reservation would be another source */
        snprintf(c->cost_note, sizeof c->cost_note, "reserved: not priced, "
                 "pool %.60s sets price = (your on-demand rate) and no "
                 "reserved_1y = (your 1-year quote) to compare it with",
                 p->pool);
        with = NAN;
    }
    if (p->purchases[FS_PLAN_RESERVED] && !isnan(with)) {
        c->cost[FS_PLAN_RESERVED] = with;
        c->reserved_k = k;
    }
    if (p->purchases[FS_PLAN_SAVINGS] &&
        !roi_sum(db, c->best.run_id, 1, &od, &with, &k, &commit,
                 c->cost_note, sizeof c->cost_note)) {
        c->cost[FS_PLAN_SAVINGS] = with;
        c->commitment = commit;
    }
    if (p->purchases[FS_PLAN_SPOT] && c->spot.done &&
        !roi_sum(db, c->spot.run_id, 0, &od, &with, &k, &commit,
                 c->cost_note, sizeof c->cost_note)) {
        c->cost[FS_PLAN_SPOT] = with;
        c->spot_k = k;
    }
    c->purchase = -1;
    for (int i = 0; i < FS_PLAN_PURCHASES; i++)
        if (!isnan(c->cost[i]) &&
            (c->purchase < 0 || c->cost[i] < c->monthly - 1e-9)) {
            c->purchase = i;
            c->monthly = c->cost[i];
        }
    /* the run's $ per million tokens, scaled from its own bill to the
     * plan's */
    double mtok = fs_store_summary_value(db, c->best.run_id, "cost_per_mtok_usd");
    c->usd_per_mtok = c->as_run > 0 ? mtok * c->monthly / c->as_run : NAN;
}

int fs_plan_price(fs_plan *p)
{
    fs_error err;
    fs_store *s = fs_store_open(p->db, FS_STORE_READONLY, &err);
    if (!s)
        return fs_fail(err.msg);
    for (int i = 0; i < p->ncand; i++)
        if (p->cand[i].feasible)
            price_one(p, s, &p->cand[i]);
    fs_store_close(s);
    return 0;
}
