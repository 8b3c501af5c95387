/* store_changes.c -- the reads of the report's savings attribution; see
 * store_changes.h.  A pool's run rate is its bill (the sum of its
 * cost_monthly rows, commitments' unused part included) times 730 hours
 * over the run's horizon, so that the pools' rates add up to the run's. */
#include "sim/store/store_changes.h"
#include "sim/store/store_impl.h"
#include "sim/base/vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MONTH_S (730.0 * 3600)

static char *col_dup(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return strdup(t ? (const char *)t : "");
}

int fs_store_run_source(fs_store *s, long run_id, fs_run_source *out,
                        fs_error *err)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT name, scenario,"
        " scenario_text, seed, replication, horizon_s FROM run"
        " WHERE run_id = ?1", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot read the run");
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        fs_store_text_col(st, 0, out->name, sizeof out->name);
        out->scenario = col_dup(st, 1);
        out->text = col_dup(st, 2);
        out->seed = (long)sqlite3_column_int64(st, 3);
        out->replication = (long)sqlite3_column_int64(st, 4);
        out->horizon_s = sqlite3_column_double(st, 5);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return fs_error_set(err, "no run with id %ld in %s", run_id,
                            s->path);
    if (rc != SQLITE_ROW)
        return fs_store_sql_error(s, err, rc, "cannot read the run");
    if (!out->scenario || !out->text) {
        fs_run_source_free(out);
        return fs_error_set(err, "out of memory");
    }
    return 0;
}

void fs_run_source_free(fs_run_source *r)
{
    free(r->scenario);
    free(r->text);
    r->scenario = r->text = NULL;
}

/* A pool's bill and its monthly rates, from one row of RATES_SQL. */
static void rate_row(sqlite3_stmt *st, void *item)
{
    fs_pool_rate *v = item;
    fs_store_text_col(st, 0, v->pool, sizeof v->pool);
    fs_store_text_col(st, 1, v->pricing, sizeof v->pricing);
    double horizon = sqlite3_column_double(st, 5);
    double k = horizon > 0 ? MONTH_S / horizon : NAN;
    v->cost = sqlite3_column_double(st, 2);
    v->rate = v->cost * k;
    v->idle_rate = sqlite3_column_double(st, 3) * k;
    v->scales = sqlite3_column_int(st, 4);
}

#define RATES_SQL "SELECT p.pool, p.pricing," \
    " (SELECT total(c.cost_usd) FROM cost_monthly c" \
    "  WHERE c.run_id = p.run_id AND c.pool = p.pool)," \
    " (SELECT total(a.cost_usd) FROM cost_allocation a" \
    "  WHERE a.run_id = p.run_id AND a.pool = p.pool" \
    "  AND a.workload IS NULL)," \
    " (SELECT max(u.instances_up) > min(u.instances_up)" \
    "  FROM utilization u WHERE u.run_id = p.run_id" \
    "  AND u.pool = p.pool)," \
    " r.horizon_s" \
    " FROM pool p JOIN run r USING (run_id) WHERE p.run_id = ?1" \
    " ORDER BY p.rowid"

int fs_store_pool_rates(fs_store *s, long run_id, fs_pool_rate **out,
                        size_t *n, fs_error *err)
{
    void *rows;
    int rc = fs_store_read_rows(s, RATES_SQL, run_id, sizeof **out,
                                rate_row, &rows, n,
                                "cannot read the pools' bills", err);
    *out = rows;
    return rc;
}

int fs_store_run_service(fs_store *s, long run_id, fs_run_service *out,
                         fs_error *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT"
        " (SELECT min(slo_attainment) FROM latency WHERE run_id = ?1"
        "  AND slo_s IS NOT NULL),"
        " (SELECT unfinished_share FROM run_summary WHERE run_id = ?1),"
        " (SELECT jobs_missed_deadline FROM run_summary WHERE run_id = ?1)",
        -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot read the run");
    sqlite3_bind_int64(st, 1, run_id);
    *out = (fs_run_service){NAN, 0, 0};
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL)
            out->min_slo = sqlite3_column_double(st, 0);
        out->unfinished_share = sqlite3_column_double(st, 1);
        out->jobs_missed = sqlite3_column_double(st, 2);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? 0 : fs_store_sql_error(s, err, rc, "cannot "
                                                    "read the run");
}

int fs_store_runs_with_prefix(fs_store *s, const char *prefix, long **ids,
                              size_t *n, fs_error *err)
{
    sqlite3_stmt *st;
    size_t cap = 0;
    *ids = NULL;
    *n = 0;
    int rc = sqlite3_prepare_v2(s->db, "SELECT run_id FROM run WHERE"
        " substr(name, 1, length(?1)) = ?1 ORDER BY run_id", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot read runs");
    sqlite3_bind_text(st, 1, prefix, -1, SQLITE_TRANSIENT);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        long *v = fs_vec_grow(*ids, &cap, *n + 1, sizeof *v);
        if (!v) {
            rc = SQLITE_NOMEM;
            break;
        }
        *ids = v;
        v[(*n)++] = (long)sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(*ids);
        *ids = NULL;
        *n = 0;
        return fs_store_sql_error(s, err, rc, "cannot read runs");
    }
    return 0;
}
