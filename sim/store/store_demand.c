/* store_demand.c -- a run's hourly demand per pool, read from the results
 * database for `fleetsim commit` (store.h).
 *
 * A pool's demand in hour h is the instances it had launched, time-
 * averaged over the hour (provisioning included: every second the run
 * bills), each utilization sample's GPUs provisioned over the pool's GPUs
 * per instance (instances up in a database that did not store them): the
 * same reading as `fleetsim roi`, so that the portfolio and roi's one-
 * pool answers price the same demand.  A sample spanning more than an
 * hour is refused: hourly demand cannot be read from it. */
#include "sim/store/store_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grammar.h"

static void copy_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* The run's horizon and its pools' names, instance sources and GPUs per
 * instance, in stored order, into *out. */
static int read_pool_rows(fs_store *s, long run, double *horizon,
                          fs_pool_demand **out, size_t *n, fs_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT r.horizon_s, p.pool, p.instance,"
                           " p.pricing, p.gpus_per_instance FROM run r"
                           " LEFT JOIN pool p ON p.run_id = r.run_id"
                           " WHERE r.run_id = ?1 ORDER BY p.rowid", -1, &st,
                           NULL) != SQLITE_OK)
        return fs_error_set(err, "%s", sqlite3_errmsg(s->db));
    sqlite3_bind_int64(st, 1, run);
    size_t cap = 0;
    int rc, found = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        found = 1;
        *horizon = sqlite3_column_double(st, 0);
        if (sqlite3_column_type(st, 1) == SQLITE_NULL)
            continue;   /* a run without pools */
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            fs_pool_demand *p = realloc(*out, cap * sizeof *p);
            if (!p)
                break;
            *out = p;
        }
        fs_pool_demand *p = &(*out)[(*n)++];
        memset(p, 0, sizeof *p);
        copy_text(st, 1, p->pool, sizeof p->pool);
        copy_text(st, 2, p->instance, sizeof p->instance);
        copy_text(st, 3, p->pricing, sizeof p->pricing);
        p->gpus_per_instance = sqlite3_column_int(st, 4);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fs_error_set(err, "%s", rc == SQLITE_ROW ? "out of memory"
                            : sqlite3_errmsg(s->db));
    return found ? 0 : fs_error_set(err, "run %ld is gone", run);
}

/* Adds up * (b - a) over [a, b) to the hours of d[0..n) it covers. */
static void spread(double *d, size_t n, double a, double b, double up)
{
    for (size_t h = (size_t)(a / 3600); h < n && h * 3600.0 < b; h++) {
        double lo = fmax(a, h * 3600.0), hi = fmin(b, (h + 1) * 3600.0);
        if (hi > lo)
            d[h] += up * (hi - lo);
    }
}

/* Pool p's hourly demand over [0, horizon) into p->demand. */
static int read_hours(fs_store *s, long run, double horizon,
                      fs_pool_demand *p, fs_error *err)
{
    size_t n = (size_t)ceil(horizon / 3600 - 1e-9);
    sqlite3_stmt *st;
    p->demand = calloc(n ? n : 1, sizeof *p->demand);
    p->hours = n;
    if (!p->demand)
        return fs_error_set(err, "out of memory");
    if (sqlite3_prepare_v2(s->db, "SELECT t_s, instances_up, "
                           "gpus_provisioned FROM utilization WHERE "
                           "run_id = ?1 AND pool = ?2 ORDER BY t_s", -1, &st,
                           NULL) != SQLITE_OK)
        return fs_error_set(err, "%s", sqlite3_errmsg(s->db));
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_text(st, 2, p->pool, -1, SQLITE_STATIC);
    double prev = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        double t = sqlite3_column_double(st, 0);
        double up = p->gpus_per_instance > 0
                    ? sqlite3_column_double(st, 2) / p->gpus_per_instance
                    : sqlite3_column_double(st, 1);
        if (t - prev > 3600 * (1 + 1e-9)) {
            char iv[32];
            fs_format_duration(t - prev, iv, sizeof iv);
            sqlite3_finalize(st);
            return fs_error_set(err, "run %ld samples utilization every %s "
                                "(metrics_interval), longer than an hour: "
                                "hourly demand cannot be read from it; "
                                "rerun with --set scenario.metrics_interval"
                                "=1h", run, iv);
        }
        spread(p->demand, n, prev, t, up);
        prev = t;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fs_error_set(err, "%s", sqlite3_errmsg(s->db));
    for (size_t h = 0; h < n; h++)   /* a last partial hour: its length */
        p->demand[h] /= fmin(3600.0, horizon - h * 3600.0);
    return 0;
}

int fs_store_pool_demands(fs_store *s, long run, fs_pool_demand **out,
                          size_t *n, fs_error *err)
{
    double horizon = 0;
    *out = NULL;
    *n = 0;
    int rc = read_pool_rows(s, run, &horizon, out, n, err);
    for (size_t i = 0; i < *n && rc == 0; i++)
        rc = read_hours(s, run, horizon, &(*out)[i], err);
    if (rc) {
        fs_pool_demands_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc ? -1 : 0;
}

void fs_pool_demands_free(fs_pool_demand *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++)
        free(p[i].demand);
    free(p);
}
