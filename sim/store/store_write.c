/* store_write.c -- writing one run into the results database; see
 * store.h.
 *
 * A run is written as BEGIN IMMEDIATE ... COMMIT: the write lock is taken
 * up front (waiting at most the busy timeout for another writer), every
 * row goes through one prepared statement per table, and any failure
 * rolls the whole run back, so a database never holds half a run.  A test
 * hook (fs_store_fail_after) makes the Nth row fail through SQLite's own
 * error path, to check that rollback. */
#include "sim/store/store_impl.h"
#include "sim/store/store_tables.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#ifdef PACKAGE_VERSION
#define FS_VERSION_STRING PACKAGE_VERSION
#else
#define FS_VERSION_STRING "dev"
#endif

/* The bind helpers keep the first error in *rc and do nothing after it,
 * so a row is a list of binds and one step_row(). */
static void bind_int(sqlite3_stmt *st, int i, long long v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = sqlite3_bind_int64(st, i, v);
}

/* NaN is NULL: "no value" (no SLO, never started, ...). */
static void bind_real(sqlite3_stmt *st, int i, double v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = isnan(v) ? sqlite3_bind_null(st, i)
                       : sqlite3_bind_double(st, i, v);
}

/* Text of at most max bytes (a fixed-size field); "" and NULL are NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *v, size_t max,
                      int *rc)
{
    if (*rc != SQLITE_OK)
        return;
    size_t n = v ? strnlen(v, max) : 0;
    if (n == 0)
        *rc = sqlite3_bind_null(st, i);
    else if (n > INT_MAX)
        *rc = SQLITE_TOOBIG;
    else
        *rc = sqlite3_bind_text(st, i, v, (int)n, SQLITE_STATIC);
}

/* Parameter 1 of every child row: the run id.  The test hook makes the
 * Nth insert bind NULL instead, which the NOT NULL constraint rejects,
 * so the failure takes SQLite's own error path. */
static void bind_run_id(fs_store *s, sqlite3_stmt *st, long long run_id,
                        int *rc)
{
    s->inserts++;
    if (*rc != SQLITE_OK)
        return;
    if (s->fail_after > 0 && s->inserts == s->fail_after)
        *rc = sqlite3_bind_null(st, 1);
    else
        *rc = sqlite3_bind_int64(st, 1, run_id);
}

/* Steps a bound insert and resets it for the next row. */
static int step_row(sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    sqlite3_reset(st);
    return rc;
}

#define FIELD(row, f) (row)->f, sizeof (row)->f

/* A new run identity (run.uid): 128 random bits as 32 hex digits.  Random
 * rather than derived from the scenario, so that the same scenario run
 * twice on purpose gives two runs; kept when a run is copied (import,
 * merge), so that a copy is recognised. */
static int new_uid(char out[33])
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n <= 0)
            return SQLITE_IOERR;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return SQLITE_OK;
}

static int insert_run(fs_store *s, const fs_results *r, long long *run_id)
{
    static const char sql[] =
        "INSERT INTO run (name, scenario, scenario_text, seed, replication,"
        " started_at, finished_at, fleetsim_version, start_date, horizon_s,"
        " months, requests, requests_dropped, latency_mean_s, latency_p50_s,"
        " latency_p99_s, wait_mean_s, slo_attainment, events, uid,"
        " cost_unrounded_usd)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?)";
    sqlite3_stmt *st;
    char uid[33];
    int rc = new_uid(uid);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    s->inserts++;
    if (s->fail_after > 0 && s->inserts == s->fail_after)
        rc = sqlite3_bind_null(st, 1);      /* name is NOT NULL */
    else
        bind_text(st, 1, r->name, sizeof r->name, &rc);
    bind_text(st, 2, FIELD(r, scenario), &rc);
    bind_text(st, 3, r->scenario_text, SIZE_MAX, &rc);
    /* seeds above 2^63 are stored as their two's-complement value */
    bind_int(st, 4, (long long)r->seed, &rc);
    bind_int(st, 5, r->replication, &rc);
    bind_text(st, 6, FIELD(r, started_at), &rc);
    bind_text(st, 7, FIELD(r, finished_at), &rc);
    bind_text(st, 8, FS_VERSION_STRING, SIZE_MAX, &rc);
    bind_text(st, 9, FIELD(r, start_date), &rc);
    bind_real(st, 10, r->horizon_s, &rc);
    bind_real(st, 11, r->months, &rc);
    bind_int(st, 12, r->requests, &rc);
    bind_int(st, 13, r->requests_dropped, &rc);
    bind_real(st, 14, r->latency_mean_s, &rc);
    bind_real(st, 15, r->latency_p50_s, &rc);
    bind_real(st, 16, r->latency_p99_s, &rc);
    bind_real(st, 17, r->wait_mean_s, &rc);
    bind_real(st, 18, r->slo_attainment, &rc);
    bind_int(st, 19, r->events, &rc);
    bind_text(st, 20, uid, sizeof uid, &rc);
    bind_real(st, 21, r->cost_unrounded_usd, &rc);
    rc = step_row(st, rc);
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        *run_id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

/* Binds field c of row as parameter i. */
static void bind_col(sqlite3_stmt *st, int i, const fs_store_col *c, const char *row,
                     int *rc)
{
    const char *f = row + c->off;
    long long v = 0;
    double d;
    if (c->kind == COL_INT || c->kind == COL_RENEW || c->kind == COL_BOOL) {
        assert(c->size == sizeof(int) || c->size == sizeof(long));
        if (c->size == sizeof(int))
            v = *(const int *)f;
        else
            v = *(const long *)f;
    }
    switch (c->kind) {
    case COL_TEXT:
        bind_text(st, i, f, c->size, rc);
        break;
    case COL_NAME:
        bind_text(st, i, *(const char *const *)f, FS_NAME_MAX, rc);
        break;
    case COL_INT:
        bind_int(st, i, v, rc);
        break;
    case COL_REAL:
        bind_real(st, i, *(const double *)f, rc);
        break;
    case COL_POSITIVE:
        d = *(const double *)f;
        bind_real(st, i, d > 0 ? d : NAN, rc);
        break;
    case COL_RENEW:
        bind_real(st, i, v < 0 ? NAN : (double)v, rc);
        break;
    case COL_BOOL:
        if (*rc == SQLITE_OK)
            *rc = v < 0 ? sqlite3_bind_null(st, i)
                        : sqlite3_bind_int(st, i, v != 0);
        break;
    }
}

/* "INSERT INTO t (run_id, a, b) VALUES (?,?,?)", or for an LLM update
 * "UPDATE t SET a = ?1, b = ?2 WHERE run_id = ?3 AND key = ?4". */
static int table_sql(const fs_store_table *t, char *buf, size_t cap)
{
    size_t n = 0;
    int w = t->key ? snprintf(buf, cap, "UPDATE %s SET", t->name)
                   : snprintf(buf, cap, "INSERT INTO %s (run_id", t->name);
    for (size_t i = 0; w >= 0 && (n += (size_t)w) < cap && i < t->ncols; i++)
        w = t->key ? snprintf(buf + n, cap - n, "%s %s = ?%zu", i ? "," : "",
                              t->cols[i].sql, i + 1)
                   : snprintf(buf + n, cap - n, ", %s", t->cols[i].sql);
    if (w >= 0 && n < cap && t->key) {
        w = snprintf(buf + n, cap - n, " WHERE run_id = ?%zu AND %s = ?%zu",
                     t->ncols + 1, t->key->sql, t->ncols + 2);
    } else if (w >= 0 && n < cap) {
        w = snprintf(buf + n, cap - n, ") VALUES (?");
        for (size_t i = 0; w >= 0 && (n += (size_t)w) < cap && i < t->ncols;
             i++)
            w = snprintf(buf + n, cap - n, ",?");
        if (w >= 0 && n < cap)
            w = snprintf(buf + n, cap - n, ")");
    }
    return w >= 0 && n + (size_t)w < cap ? SQLITE_OK : SQLITE_TOOBIG;
}

/* Every row of table t of r: inserted with run id, or its LLM columns
 * updated in the row the insert made. */
static int write_table(fs_store *s, const fs_store_table *t, const fs_results *r,
                       long long id)
{
    char sql[2048];
    sqlite3_stmt *st;
    int rc = table_sql(t, sql, sizeof sql);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    const char *rows = *(const char *const *)((const char *)r + t->rows_off);
    size_t n = *(const size_t *)((const char *)r + t->count_off);
    for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
        const char *row = rows + i * t->row_size;
        if (t->keep && !t->keep(row))
            continue;
        if (!t->key)
            bind_run_id(s, st, id, &rc);   /* parameter 1 */
        int base = t->key ? 1 : 2;
        for (size_t c = 0; c < t->ncols; c++)
            bind_col(st, base + (int)c, &t->cols[c], row, &rc);
        if (t->key) {
            bind_int(st, (int)t->ncols + 1, id, &rc);
            bind_col(st, (int)t->ncols + 2, t->key, row, &rc);
        }
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

/* BEGIN IMMEDIATE on the file at s's path.  Another fleetsim may have
 * removed the file we opened (it created it and stored no run: refused),
 * while it held the write lock: once we hold the lock, the file is either
 * still at the path or gone for good, and a gone file is opened again at
 * the path (created anew, or another process's new one) so that the run is
 * stored where the user looks, not in a removed file. */
static int begin_in_place(fs_store *s, fs_error *err)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
        if (!fs_store_moved(s)) {
            if (rc != SQLITE_OK)
                fs_store_sql_error(s, err, rc, "cannot write the run");
            return rc;
        }
        fs_store_rollback(s);
        if (fs_store_reopen(s, err))
            return SQLITE_ERROR;
    }
    fs_error_set(err, "%s: cannot write the run: other processes keep "
                 "removing the database", s->path);
    return SQLITE_ERROR;
}

int fs_store_write_run(fs_store *s, const fs_results *r, long *run_id,
                       fs_error *err)
{
    assert(s && r && run_id);
    if (s->readonly)
        return fs_error_set(err, "%s: cannot write the results database: "
                            "opened read-only", s->path);
    s->inserts = 0;
    long long id = 0;
    int rc = begin_in_place(s, err);
    if (rc != SQLITE_OK)
        return -1;
    rc = insert_run(s, r, &id);
    for (size_t t = 0; rc == SQLITE_OK && t < fs_store_ntables; t++)
        rc = write_table(s, &fs_store_tables[t], r, id);
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "COMMIT");
    if (rc != SQLITE_OK) {
        fs_store_sql_error(s, err, rc, "cannot write the run");
        fs_store_rollback(s);
        return -1;
    }
    assert(id > 0 && id <= LONG_MAX);
    *run_id = (long)id;
    return 0;
}
