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

#include "sim/base/vec.h"
#include "models/purchase/purchase.h"

long long fs_list_cents(double list_usd_h, double gpu_hours,
                        long gpus_per_instance)
{
    if (gpus_per_instance <= 0)
        return 0;
    return llround(list_usd_h * (gpu_hours / (double)gpus_per_instance) *
                   100);
}

static int read_pools(fs_store *s, long run_id, fs_pool_saving **out,
                      size_t *n)
{
    sqlite3_stmt *st;
    size_t cap = 0;
    int rc = sqlite3_prepare_v2(s->db, "SELECT p.pool, p.pricing,"
        " p.list_price_usd_h, p.gpu_hours_provisioned, p.gpus_per_instance,"
        " (SELECT sum(round(c.cost_usd * 100)) FROM cost_monthly c"
        "  WHERE c.run_id = p.run_id AND c.pool = p.pool)"
        " FROM pool p WHERE p.run_id = ?1 ORDER BY p.rowid", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        fs_pool_saving *v = fs_store_row_add((void **)out, &cap, n,
                                             sizeof *v);
        if (!v)
            break;
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
    return fs_store_rows_end(st, rc);
}

int fs_store_pool_savings(fs_store *s, long run_id, fs_pool_saving **out,
                          size_t *n, fs_error *err)
{
    *out = NULL;
    *n = 0;
    int rc = read_pools(s, run_id, out, n);
    if (rc != SQLITE_OK) {
        void *arr = *out;
        *out = NULL;
        return fs_store_rows_failed(s, err, rc, &arr, n, "cannot read the pools' "
                                  "savings");
    }
    return 0;
}
