/* store_query.c -- the named reads of store_query.h: the SQL of every
 * query the application and the commands make, in one table beside the
 * schema, and the row a caller reads them through.
 *
 * Why a table: a schema change (a column renamed, a table split) is then
 * one edit here, not a walk through the report, the charts, plan, compare
 * and export.  The parameters are bound by position: ?1 the run, ?2 the
 * text, ?3 the number; a query binds those it names. */
#include "sim/store/store_query.h"
#include "sim/store/store_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fs_row {
    sqlite3_stmt *st;
};

int fs_row_null(const fs_row *r, int col)
{
    return sqlite3_column_type(r->st, col) == SQLITE_NULL;
}

double fs_row_double(const fs_row *r, int col)
{
    return sqlite3_column_double(r->st, col);
}

long long fs_row_int(const fs_row *r, int col)
{
    return sqlite3_column_int64(r->st, col);
}

const char *fs_row_text(const fs_row *r, int col)
{
    return (const char *)sqlite3_column_text(r->st, col);
}

static const struct {
    const char *what;   /* "cannot read WHAT" */
    const char *sql;
} queries[FS_QUERIES] = {
    [FS_Q_RUN_NAME] = {"the run", "SELECT name FROM run WHERE run_id = ?1"},
    [FS_Q_RUN_START] = {"the run",
        "SELECT start_date, horizon_s FROM run WHERE run_id = ?1"},
    [FS_Q_RUN_HEAD] = {"the run",
        "SELECT name, start_date, horizon_s, scenario_text FROM run"
        " WHERE run_id = ?1"},
    [FS_Q_RUN_COUNT] = {"the runs", "SELECT count(*) FROM run"},
    [FS_Q_RUN_GROUP] = {"the runs of a name",
        "SELECT run_id FROM run r WHERE name = ?2 AND run_id ="
        " (SELECT max(run_id) FROM run WHERE name = ?2"
        "  AND replication IS r.replication) ORDER BY replication, run_id"},
    [FS_Q_POOL_PRICING] = {"the pool",
        "SELECT pricing FROM pool WHERE run_id = ?1 AND pool = ?2"},
    [FS_Q_POOLS] = {"the pools",
        "SELECT pool, gpu, pricing,"
        " instance_type, tags, price_usd_h, upfront_usd, term_months,"
        " instances, list_price_usd_h, contracted_price_usd_h,"
        " commitment_usd_h, gpus_per_instance, renew FROM pool WHERE"
        " run_id = ?1 ORDER BY rowid"},
    [FS_Q_POOL_UP] = {"the utilization",
        "SELECT t_s, instances_up FROM utilization WHERE run_id = ?1"
        " AND pool = ?2 ORDER BY t_s"},
    [FS_Q_COSTS] = {"the costs",
        "SELECT month, pool, cost_usd, pricing FROM cost_monthly"
        " WHERE run_id = ?1"},
    [FS_Q_MONTHS] = {"the monthly costs",
        "SELECT month, sum(cost_usd) FROM cost_monthly WHERE run_id = ?1"
        " GROUP BY month ORDER BY month"},
    [FS_Q_MONTH_PRICING] = {"the monthly costs",
        "SELECT month, pricing, SUM(cost_usd), SUM(gpu_hours)"
        " FROM cost_monthly WHERE run_id = ?1 GROUP BY month, pricing"
        " ORDER BY month, pricing"},
    [FS_Q_PRICINGS] = {"the pricing models",
        "SELECT DISTINCT pricing FROM cost_monthly WHERE run_id = ?1"
        " ORDER BY pricing"},
    /* column 4: the GPU of a pool cut into MIG slices (NULL otherwise),
     * so that its row says "N% of this A100 is idle" */
    [FS_Q_IDLE] = {"the idle costs",
        "SELECT pool, SUM(CASE WHEN workload IS NULL THEN cost_usd ELSE 0"
        " END), SUM(CASE WHEN workload IS NULL THEN gpu_hours ELSE 0 END),"
        " SUM(cost_usd),"
        " (SELECT p.gpu FROM pool p WHERE p.run_id = a.run_id"
        "  AND p.pool = a.pool AND EXISTS (SELECT 1 FROM slice_utilization s"
        "  WHERE s.run_id = a.run_id AND s.pool = a.pool))"
        " FROM cost_allocation a WHERE run_id = ?1"
        " GROUP BY pool ORDER BY pool"},
    /* every workload of the run: those that served requests (latency)
     * and those that ran jobs or were billed (cost_allocation: training
     * teams), each with its showback cost; latency columns NULL for
     * training */
    [FS_Q_WORKLOADS] = {"the workloads",
        "SELECT w.name, l.count, l.mean_s, l.p50_s, l.p99_s, l.slo_s,"
        " l.slo_attainment,"
        " (SELECT TOTAL(a.gpu_hours) FROM cost_allocation a"
        "  WHERE a.run_id = ?1 AND a.workload = w.name),"
        " (SELECT TOTAL(a.gpu_hours) FROM cost_allocation a"
        "  WHERE a.run_id = ?1),"
        " (SELECT TOTAL(a.cost_usd) FROM cost_allocation a"
        "  WHERE a.run_id = ?1 AND a.workload = w.name),"
        " coalesce(l.unfinished, 0) + coalesce(l.dropped, 0),"
        " coalesce(l.arrivals, 0),"
        " (SELECT count(*) FROM job j WHERE j.run_id = ?1"
        "  AND j.workload = w.name AND j.status = 'finished'),"
        " (SELECT count(*) FROM job j WHERE j.run_id = ?1"
        "  AND j.workload = w.name)"
        " FROM (SELECT workload AS name FROM latency WHERE run_id = ?1"
        "  UNION SELECT workload FROM cost_allocation WHERE run_id = ?1"
        "  AND workload IS NOT NULL) w"
        " LEFT JOIN latency l ON l.run_id = ?1 AND l.workload = w.name"
        " ORDER BY w.name"},
    [FS_Q_SLO_MISSED] = {"the latencies",
        "SELECT workload, slo_s, slo_attainment FROM latency"
        " WHERE run_id = ?1 AND slo_s IS NOT NULL AND slo_attainment < ?3"
        " ORDER BY rowid"},
    [FS_Q_LATENCY] = {"the latencies",
        "SELECT workload, p50_s, p90_s, p95_s, p99_s, p999_s, slo_s"
        " FROM latency WHERE run_id = ?1 AND count > 0 AND p50_s IS NOT NULL"
        " ORDER BY workload"},
    [FS_Q_UTILIZATION] = {"the utilization",
        "SELECT pool, t_s, gpus_provisioned, gpus_busy FROM utilization"
        " WHERE run_id = ?1 ORDER BY pool, t_s"},
    [FS_Q_SWEEP_POINT] = {"the run summary",
        "SELECT total_cost_usd, cost_per_month_usd, latency_p99_s,"
        " slo_attainment, requests_unfinished, unfinished_share"
        " FROM run_summary WHERE run_id = ?1"},
    [FS_Q_LATENCY_COLUMNS] = {"the latency table",
        "SELECT name, type FROM pragma_table_info('latency')"},
    [FS_Q_GROWTH] = {"the growth",
        "SELECT l.workload, coalesce(g.growth_mean, 0),"
        " coalesce(g.growth_spread, 0), coalesce(g.growth, 0),"
        " coalesce(l.arrivals, 0) FROM latency l LEFT JOIN run_growth g"
        " ON g.run_id = l.run_id AND g.workload = l.workload"
        " WHERE l.run_id = ?1 ORDER BY l.workload"},
    [FS_Q_POOL_GROWTH] = {"a pool's growth",
        "SELECT pool, growth FROM run_growth"
        " WHERE run_id = ?1 AND pool = ?2"},
    [FS_Q_POOL_GROWTH_BILLS] = {"the pools' growth",
        "SELECT g.pool, g.growth, coalesce((SELECT sum(c.cost_usd)"
        " FROM cost_monthly c WHERE c.run_id = g.run_id"
        " AND c.pool = g.pool), 0) FROM run_growth g"
        " WHERE g.run_id = ?1 AND g.pool IS NOT NULL ORDER BY g.pool"},
    [FS_Q_EXTRAS] = {"the storage and transfer costs",
        "SELECT month, pool, workload, category, item, count, quantity,"
        " unit, unit_price_usd, cost_usd, tags,"
        " (SELECT p.instance_type FROM pool p WHERE p.run_id = x.run_id"
        "  AND p.pool = x.pool) FROM cost_extra x WHERE run_id = ?1"
        " ORDER BY month, pool, workload, item"},
    [FS_Q_TRAINING_POOLS] = {"the training pools",
        "SELECT p.pool, p.pricing, p.instance_type, (SELECT sum(c.cost_usd)"
        " FROM cost_monthly c WHERE c.run_id = ?1 AND c.pool = p.pool),"
        " p.instances, min(j.start_s), max(coalesce(j.end_s, r.horizon_s)),"
        " r.horizon_s FROM pool p JOIN run r ON r.run_id = p.run_id"
        " JOIN job j ON j.run_id = p.run_id AND j.start_s IS NOT NULL"
        " AND j.workload IN (SELECT a.workload FROM cost_allocation a"
        " WHERE a.run_id = ?1 AND a.pool = p.pool)"
        " WHERE p.run_id = ?1 GROUP BY p.rowid ORDER BY p.rowid"},
    [FS_Q_POOL_USE] = {"the pools' use",
        "SELECT p.pool, p.gpu, p.gpus_per_instance, p.gpu_hours_provisioned,"
        " p.gpu_hours_busy, (SELECT sum(c.cost_usd) FROM cost_monthly c"
        " WHERE c.run_id = ?1 AND c.pool = p.pool), r.horizon_s,"
        " p.list_price_usd_h, p.pricing FROM pool p JOIN run r"
        " ON r.run_id = p.run_id WHERE p.run_id = ?1"
        " AND (?2 IS NULL OR p.pool = ?2) ORDER BY p.rowid"},
    [FS_Q_BUDGETS] = {"the budgets",
        "SELECT scope, source, limit_usd, spend_usd, overrun_usd FROM budget"
        " WHERE run_id = ?1 ORDER BY rowid"},
    /* the report's serving section: workloads a prefix cache, a P/D
     * transfer or speculative decoding served, then pools that cached
     * prefixes or cold-started (each table's rows only where there) */
    [FS_Q_SERVING] = {"the serving figures",
        "SELECT l.workload, 'workload', c.token_hit_rate, c.tokens_cached,"
        " c.tokens_in, k.transfers, k.transfer_mean_s, k.wait_mean_s,"
        " NULL, NULL, s.accepted_mean, s.expected_mean"
        " FROM latency l"
        " LEFT JOIN prefix_cache c ON c.run_id = l.run_id"
        "  AND c.workload = l.workload AND c.pool IS NULL"
        " LEFT JOIN kv_transfer k ON k.run_id = l.run_id"
        "  AND k.workload = l.workload"
        " LEFT JOIN spec_decode s ON s.run_id = l.run_id"
        "  AND s.workload = l.workload"
        " WHERE l.run_id = ?1 AND (c.run_id IS NOT NULL"
        "  OR k.run_id IS NOT NULL OR s.run_id IS NOT NULL)"
        " UNION ALL "
        "SELECT p.pool, 'pool', c.token_hit_rate, c.tokens_cached,"
        " c.tokens_in, NULL, NULL, NULL,"
        " CASE WHEN p.cold_starts > 0 THEN p.cold_starts END,"
        " CASE WHEN p.cold_starts > 0 THEN p.load_s END, NULL, NULL"
        " FROM pool p LEFT JOIN prefix_cache c ON c.run_id = p.run_id"
        "  AND c.pool = p.pool AND c.workload IS NULL"
        " WHERE p.run_id = ?1 AND (c.run_id IS NOT NULL"
        "  OR p.cold_starts > 0)"},
    [FS_Q_ADAPTERS] = {"the adapters",
        "SELECT workload || ' · adapter ' || adapter, requests, e2e_mean_s,"
        " gpu_s / 3600.0, (SELECT TOTAL(a.gpu_hours) FROM cost_allocation a"
        "  WHERE a.run_id = ?1), cost_usd"
        " FROM adapter WHERE run_id = ?1 ORDER BY workload, adapter"},
};

/* Binds the parameters st names (?1, ?2, ?3) from a. */
static int bind_args(sqlite3_stmt *st, const fs_query_arg *a)
{
    static const fs_query_arg none = {0, NULL, 0};
    if (!a)
        a = &none;
    int rc = SQLITE_OK;
    for (int i = 1; rc == SQLITE_OK && i <= sqlite3_bind_parameter_count(st);
         i++) {
        const char *name = sqlite3_bind_parameter_name(st, i);
        int which = name ? name[1] - '0' : i;
        rc = which == 1 ? sqlite3_bind_int64(st, i, a->run)
           : which == 2 ? sqlite3_bind_text(st, i, a->text, -1, SQLITE_STATIC)
                        : sqlite3_bind_double(st, i, a->num);
    }
    return rc;
}

/* Runs sql with a's parameters, each row to fn; what names it in errors. */
static int each_sql(fs_store *s, const char *sql, const char *what,
                    const fs_query_arg *a, fs_row_fn fn, void *ctx,
                    fs_error *err)
{
    char msg[96];
    snprintf(msg, sizeof msg, "cannot read %s", what);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = bind_args(st, a);
    if (rc != SQLITE_OK) {
        fs_store_sql_error(s, err, rc, msg);
        sqlite3_finalize(st);
        return -1;
    }
    fs_row row = {st};
    int stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW)
        stop = fn(&row, ctx, err);
    if (!stop && rc != SQLITE_DONE)
        fs_store_sql_error(s, err, rc, msg);
    sqlite3_finalize(st);
    if (stop)
        return stop < 0 ? -1 : 0;
    return rc != SQLITE_DONE ? -1 : 0;
}

int fs_store_each(fs_store *s, fs_query q, const fs_query_arg *a,
                  fs_row_fn fn, void *ctx, fs_error *err)
{
    return each_sql(s, queries[q].sql, queries[q].what, a, fn, ctx, err);
}

fs_store *fs_store_adopt(sqlite3 *db, const char *path)
{
    fs_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        return NULL;
    }
    s->db = db;
    s->readonly = 1;
    return s;
}

/* ---- reads of one value ------------------------------------------------ */

typedef struct text_out {
    char *buf;
    size_t size;
    int col;
    double *num;        /* column col + 1, when wanted */
} text_out;

static int first_text(const fs_row *r, void *ctx, fs_error *err)
{
    (void)err;
    text_out *t = ctx;
    const char *v = fs_row_text(r, t->col);
    snprintf(t->buf, t->size, "%s", v ? v : "");
    if (t->num)
        *t->num = fs_row_double(r, t->col + 1);
    return 1;           /* the first row is all */
}

/* The first row's text column col (and the number after it) of q. */
static int read_text(fs_store *s, fs_query q, const fs_query_arg *a, int col,
                     char *buf, size_t size, double *num, fs_error *err)
{
    buf[0] = '\0';
    text_out t = {buf, size, col, num};
    return fs_store_each(s, q, a, first_text, &t, err);
}

int fs_store_run_name(fs_store *s, long id, char *buf, size_t size,
                      fs_error *err)
{
    fs_query_arg a = {id, NULL, 0};
    return read_text(s, FS_Q_RUN_NAME, &a, 0, buf, size, NULL, err);
}

int fs_store_run_start(fs_store *s, long id, char *buf, size_t size,
                       double *horizon, fs_error *err)
{
    fs_query_arg a = {id, NULL, 0};
    *horizon = 0;
    return read_text(s, FS_Q_RUN_START, &a, 0, buf, size, horizon, err);
}

int fs_store_pool_pricing(fs_store *s, long id, const char *pool,
                          char *buf, size_t size, fs_error *err)
{
    fs_query_arg a = {id, pool, 0};
    return read_text(s, FS_Q_POOL_PRICING, &a, 0, buf, size, NULL, err);
}

/* A column name as the schema spells them: lower case, digits, '_'. */
static int plain_column(const char *c)
{
    if (!c || !*c || strlen(c) > 64)
        return 0;
    return strspn(c, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(c);
}

static int first_values(const fs_row *r, void *ctx, fs_error *err)
{
    (void)err;
    double *v = ctx;
    v[0] = fs_row_null(r, 0) ? NAN : fs_row_double(r, 0);
    v[1] = fs_row_double(r, 1);
    v[2] = fs_row_double(r, 2);
    v[3] = 1;           /* found */
    return 1;
}

double fs_store_summary_value(fs_store *s, long id, const char *column)
{
    char sql[160];
    double v[4] = {NAN, 0, 0, 0};
    fs_error err;
    if (!plain_column(column))
        return NAN;
    snprintf(sql, sizeof sql, "SELECT %s, 0, 0 FROM run_summary"
             " WHERE run_id = ?1", column);
    fs_query_arg a = {id, NULL, 0};
    each_sql(s, sql, "the run summary", &a, first_values, v, &err);
    return v[0];
}

int fs_store_latency_value(fs_store *s, long id, const char *workload,
                           const char *column, double *v, double *arrivals,
                           double *unfinished, fs_error *err)
{
    char sql[256];
    double got[4] = {NAN, 0, 0, 0};
    if (!plain_column(column))
        return fs_error_set(err, "no latency column '%s'", column);
    snprintf(sql, sizeof sql, "SELECT %s, arrivals, coalesce(dropped, 0) + "
             "coalesce(unfinished, 0) FROM latency WHERE run_id = ?1 AND "
             "workload = ?2", column);
    fs_query_arg a = {id, workload, 0};
    if (each_sql(s, sql, "the latencies", &a, first_values, got, err))
        return -1;
    *v = got[0];
    *arrivals = got[1];
    *unfinished = got[2];
    return got[3] ? 0 : 1;
}
