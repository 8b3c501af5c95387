/* store_savings.c -- a run's realised saving per pool, read from the
 * results database: the one figure the run summary, `export --format
 * focus` (whose ListCost - EffectiveCost adds up to it) and the report
 * share; see store.h.
 *
 * list cost: what the instance-hours the pool ran (GPU-hours provisioned /
 *   GPUs per instance) cost at the on-demand list price, to the cent; for
 *   a pool priced at list (FOCUS PricingCategory Standard), or whose list
 *   price is unknown (stored NULL), its effective cost;
 * effective cost: its amortized bill, every cost_monthly row of the pool
 *   (a commitment's unused part included);
 * saving: list cost - effective cost. */
#include "sim/store/store_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/purchase.h"

long long fs_list_cents(double list_usd_h, double gpu_hours,
                        long gpus_per_instance)
{
    if (gpus_per_instance <= 0)
        return 0;
    return llround(list_usd_h * (gpu_hours / (double)gpus_per_instance) *
                   100);
}

/* A pool's list, effective and saved cents, from one row of
 * SAVINGS_SQL. */
static void saving_row(sqlite3_stmt *st, void *item)
{
    fs_pool_saving *v = item;
    fs_store_text_col(st, 0, v->pool, sizeof v->pool);
    fs_store_text_col(st, 1, v->pricing, sizeof v->pricing);
    double list = sqlite3_column_type(st, 2) == SQLITE_NULL
                      ? 0 : sqlite3_column_double(st, 2);
    double gpu_hours = sqlite3_column_double(st, 3);
    long gpi = (long)sqlite3_column_int64(st, 4);
    v->effective_cents = sqlite3_column_int64(st, 5);
    const fs_purchase_option *o = fs_purchase_find(v->pricing);
    v->priced_at_list = !o || !strcmp(o->focus_category, "Standard");
    v->has_list = list > 0 && gpi > 0 && !v->priced_at_list;
    v->instance_hours = gpi > 0 ? gpu_hours / (double)gpi : 0;
    v->list_cents = v->has_list ? fs_list_cents(list, gpu_hours, gpi)
                                : v->effective_cents;
    v->saving_cents = v->list_cents - v->effective_cents;
}

#define SAVINGS_SQL "SELECT p.pool, p.pricing," \
    " p.list_price_usd_h, p.gpu_hours_provisioned, p.gpus_per_instance," \
    " (SELECT sum(round(c.cost_usd * 100)) FROM cost_monthly c" \
    "  WHERE c.run_id = p.run_id AND c.pool = p.pool)" \
    " FROM pool p WHERE p.run_id = ?1 ORDER BY p.rowid"

int fs_store_pool_savings(fs_store *s, long run_id, fs_pool_saving **out,
                          size_t *n, fs_error *err)
{
    void *rows;
    int rc = fs_store_read_rows(s, SAVINGS_SQL, run_id, sizeof **out,
                                saving_row, &rows, n,
                                "cannot read the pools' savings", err);
    *out = rows;
    return rc;
}
