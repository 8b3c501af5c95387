/* store_schema.c -- the results database's schema: what it is, how a file
 * is recognised as a fleetsim database, how it is created or migrated, and
 * the check that every table a run needs is there.
 *
 * Why it is built this way:
 * - The schema is a list of migrations (store_migrations.c):
 *   fs_schema_migrations[v] takes a database from PRAGMA user_version v
 *   to v+1.  Version 0 is an empty file.  PRAGMA application_id marks the
 *   file as fleetsim's.
 * - A file is identified with reads only, inside one read transaction (a
 *   consistent snapshot: another process creating the schema meanwhile is
 *   seen entirely or not at all), so a refused file is left byte for byte
 *   as it was.
 * - Creating or migrating happens in one BEGIN IMMEDIATE transaction that
 *   identifies the file again under the write lock: of several fleetsims
 *   opening a new database at once, exactly one creates the schema and the
 *   others find it complete.
 * - A database whose tables were dropped or altered is refused when it is
 *   opened, before a long simulation, not when the run is written.
 * - If this process created the file and its first write fails (a full
 *   disk, a file-size limit), the file is removed under the write lock, so
 *   no empty database is left behind. */
#include "sim/store/store_impl.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const fs_store_child_tables[] = {
    "cost_monthly", "latency", "utilization", "job", "pool",
    "cost_allocation", "interruption", "slice_utilization", "prefix_cache",
    "spec_decode", "kv_transfer", "run_growth", "cost_extra", "budget",
    "tenancy", "adapter", NULL,
};

/* What a run is written to and read from: each object with the columns
 * fleetsim uses, in the order of the schema (the view's: columns.c). */
static const struct required {
    const char *type, *name, *columns;
} required[] = {
    { "table", "run", "run_id, name, scenario, scenario_text, seed,"
      " replication, started_at, finished_at, fleetsim_version, start_date,"
      " horizon_s, months, requests, requests_dropped, latency_mean_s,"
      " latency_p50_s, latency_p99_s, wait_mean_s, slo_attainment, events,"
      " uid, cost_unrounded_usd" },
    { "table", "cost_monthly", "run_id, month, pool, pricing, cost_usd,"
      " gpu_hours" },
    { "table", "latency", "run_id, workload, count, mean_s, p50_s, p90_s,"
      " p95_s, p99_s, p999_s, slo_s, slo_attainment, ttft_p50_s, ttft_p99_s,"
      " tpot_p50_s, tpot_p99_s, arrivals, dropped, unfinished, wait_mean_s,"
      " mean_batch_size"
      ", ttft_mean_s, tpot_mean_s, ttft_p90_s, tpot_p90_s, slo_ttft_s, slo_ttft_attainment,"
      " slo_tpot_s, slo_tpot_attainment, tokens_in, tokens_out,"
      " tokens_in_per_gpu_s, tokens_out_per_gpu_s, cost_usd,"
      " cost_per_mtok_out_usd, cost_per_mtok_usd, preempted, wait_p50_s,"
      " wait_p90_s, wait_p99_s" },
    { "table", "utilization", "run_id, pool, t_s, instances_up,"
      " gpus_provisioned, gpus_busy, queue_len" },
    { "table", "job", "run_id, workload, job_id, submit_s, start_s, end_s,"
      " gpus, gpu_hours, interruptions, lost_gpu_hours, deadline_s,"
      " met_deadline, cost_usd, status, reason" },
    { "table", "pool", "run_id, pool, gpu, pricing, instance, price_usd_h,"
      " gpu_hours_provisioned, gpu_hours_busy, launches, interruptions,"
      " instance_type, tags, upfront_usd, term_months, instances,"
      " requests_retried, work_lost_s, fallback_hours, fallback_cost_usd,"
      " renew, rate_quotes,"
      " list_price_usd_h, contracted_price_usd_h, commitment_usd_h,"
      " gpus_per_instance"
      ", tokens_in, tokens_out, tokens_in_per_gpu_s, tokens_out_per_gpu_s,"
      " cost_per_mtok_out_usd, cost_per_mtok_usd"
      ", ttft_p50_s, ttft_p99_s, tpot_p50_s, tpot_p99_s, e2e_p50_s,"
      " e2e_p99_s, ttft_p90_s, tpot_p90_s, e2e_p90_s, ttft_mean_s,"
      " tpot_mean_s, e2e_mean_s, gpu_hours_busy_sm" },
    { "table", "cost_allocation", "run_id, month, workload, pool, tags,"
      " cost_usd, gpu_hours, profile" },
    { "table", "interruption", "run_id, pool, t_s, instance_id, notice_s,"
      " work_lost_s" },
    { "table", "prefix_cache", "run_id, workload, pool, tokens_in,"
      " tokens_cached, token_hit_rate, cost_per_mtok_usd,"
      " cost_per_mtok_uncached_usd" },
    { "table", "spec_decode", "run_id, workload, kind, draft_model, k,"
      " acceptance, steps, accepted_mean, expected_mean" },
    { "table", "kv_transfer", "run_id, workload, link_gbps, transfers,"
      " kv_bytes, transfer_mean_s, wait_mean_s" },
    { "table", "run_growth", "run_id, workload, growth_mean, growth_spread,"
      " growth, pool" },
    { "table", "tenancy", "run_id, workload, replicas, adapters,"
      " adapter_rank, max_adapters, zipf_s, load_s, loads, load_wait_s" },
    { "table", "adapter", "run_id, workload, adapter, requests,"
      " share_expected, tokens_in, tokens_out, ttft_mean_s, e2e_mean_s,"
      " loads, gpu_s, cost_usd, cost_per_mtok_usd" },
    { "table", "slice_utilization", "run_id, pool, profile, slices_per_gpu,"
      " compute_share, slice_hours, busy_hours, utilization,"
      " idle_cost_usd, sm_share" },
    { "table", "cost_extra", "run_id, month, pool, workload, category,"
      " item, count, quantity, unit, unit_price_usd, cost_usd, tags" },
    { "table", "budget", "run_id, scope, source, limit_usd, spend_usd,"
      " overrun_usd" },
    { "view", "run_summary", NULL },     /* fs_summary_columns */
};

int fs_schema_identify(fs_store *s, long long *version, fs_error *err)
{
    long long app_id = 0, objects = 0;
    int rc = fs_store_query_int(s, "PRAGMA user_version", version);
    if (rc == SQLITE_OK)
        rc = fs_store_query_int(s, "PRAGMA application_id", &app_id);
    if (rc == SQLITE_OK)
        rc = fs_store_query_int(s, "SELECT count(*) FROM sqlite_master",
                                &objects);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc,
                                  "cannot read the results database");

    if (app_id != 0 && app_id != FS_APPLICATION_ID)
        return fs_error_set(err, "%s: not a fleetsim database (it belongs "
                            "to another application, id 0x%08llx)",
                            s->path, (unsigned long long)app_id);
    if (*version > FS_SCHEMA_VERSION)
        return fs_error_set(err, "%s: database schema version %lld is newer "
                            "than this fleetsim (version %d); use a newer "
                            "fleetsim or another --db", s->path, *version,
                            FS_SCHEMA_VERSION);
    if (*version == 0 && objects > 0)
        return fs_error_set(err, "%s: not a fleetsim database (it has tables "
                            "but no fleetsim schema)", s->path);
    if (*version > 0 && app_id != FS_APPLICATION_ID)
        return fs_error_set(err, "%s: not a fleetsim database (schema "
                            "version %lld, but not fleetsim's)", s->path,
                            *version);
    return 0;
}

/* 1 when sqlite_master holds an object of that type and name. */
static int has_object(fs_store *s, const char *type, const char *name,
                      int *rc)
{
    sqlite3_stmt *st;
    *rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master"
                             " WHERE type = ?1 AND name = ?2", -1, &st, NULL);
    if (*rc != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    int found = 0;
    *rc = sqlite3_step(st);
    if (*rc == SQLITE_ROW) {
        found = sqlite3_column_int(st, 0) > 0;
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return found;
}

int fs_schema_check(fs_store *s, fs_error *err)
{
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        const struct required *q = &required[i];
        int rc;
        if (!has_object(s, q->type, q->name, &rc)) {
            if (rc != SQLITE_OK)
                return fs_store_sql_error(s, err, rc, "cannot read the "
                                          "results database");
            return fs_error_set(err, "%s: not a usable fleetsim database: "
                                "%s %s is missing (restore the file from a "
                                "copy, or use another --db)", s->path,
                                q->type, q->name);
        }
        /* Preparing a query of every column finds a dropped column, or a
         * view over a table that is gone, without reading a row. */
        char sql[1024], view_columns[600];
        const char *columns = q->columns;
        if (!columns) {
            size_t n = fs_summary_column_list(view_columns,
                                              sizeof view_columns);
            assert(n < sizeof view_columns);
            (void)n;
            columns = view_columns;
        }
        snprintf(sql, sizeof sql, "SELECT %s FROM %s LIMIT 0", columns,
                 q->name);
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
        if (rc != SQLITE_OK) {
            fs_error_set(err, "%s: not a usable fleetsim database: %s %s is "
                         "damaged (%s); restore the file from a copy, or use "
                         "another --db", s->path, q->type, q->name,
                         sqlite3_errmsg(s->db));
            return -1;
        }
        sqlite3_finalize(st);
    }
    return 0;
}

int fs_schema_look(fs_store *s, long long *version, fs_error *err)
{
    int rc = fs_store_exec(s, "BEGIN");
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot read the results "
                                  "database");
    int failed = fs_schema_identify(s, version, err);
    if (!failed && *version == FS_SCHEMA_VERSION)
        failed = fs_schema_check(s, err);
    fs_store_rollback(s);     /* it read only */
    return failed ? -1 : 0;
}

/* Removes the database file this process created, when nothing is in it,
 * under the write lock so that no other process is writing it.  A process
 * that opened the file meanwhile finds it moved when it writes (SQLite's
 * SQLITE_READONLY_DBMOVED) and opens the path again. */
/* The file's sidecar path+suffix removed (a journal, -wal, -shm). */
static void unlink_sidecar(const fs_store *s, const char *suffix)
{
    char *p = malloc(strlen(s->path) + strlen(suffix) + 1);
    if (p) {
        sprintf(p, "%s%s", s->path, suffix);
        unlink(p);
        free(p);
    }
}

/* When even the lock cannot be taken (a full disk: no room for -wal), a
 * file of 0 bytes that is still the one we created holds nothing: it
 * goes, with the sidecars SQLite made for it. */
static void remove_if_zero_bytes(fs_store *s)
{
    struct stat st;
    if (stat(s->path, &st) != 0 || st.st_size != 0 || st.st_dev != s->dev ||
        st.st_ino != s->ino)
        return;
    unlink(s->path);
    unlink_sidecar(s, "-journal");
    unlink_sidecar(s, "-wal");
    unlink_sidecar(s, "-shm");
}

static void remove_if_empty(fs_store *s)
{
    if (sqlite3_get_autocommit(s->db)) {
        sqlite3_busy_timeout(s->db, 0);
        int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
        sqlite3_busy_timeout(s->db, s->busy_ms);
        if (rc != SQLITE_OK) {
            if ((rc & 0xff) != SQLITE_BUSY)
                remove_if_zero_bytes(s);
            return;
        }
    }
    long long version = -1, objects = -1;
    if (fs_store_query_int(s, "PRAGMA user_version", &version) == SQLITE_OK
        && fs_store_query_int(s, "SELECT count(*) FROM sqlite_master",
                              &objects) == SQLITE_OK
        && version == 0 && objects == 0) {
        char *journal = malloc(strlen(s->path) + sizeof "-journal");
        unlink(s->path);
        if (journal) {
            sprintf(journal, "%s-journal", s->path);
            unlink(journal);
            free(journal);
        }
    }
    fs_store_rollback(s);
}

int fs_store_remove_if_no_run(fs_store *s)
{
    assert(s && !s->readonly);
    sqlite3_busy_timeout(s->db, 0);     /* a writer now: it is in use */
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    sqlite3_busy_timeout(s->db, s->busy_ms);
    if (rc != SQLITE_OK)
        return 0;
    long long runs = -1;
    int removed = 0;
    if (!fs_store_moved(s) &&
        fs_store_query_int(s, "SELECT count(*) FROM run", &runs) == SQLITE_OK
        && runs == 0) {
        unlink(s->path);
        unlink_sidecar(s, "-journal");
        unlink_sidecar(s, "-wal");
        unlink_sidecar(s, "-shm");
        removed = 1;
    }
    fs_store_rollback(s);
    return removed;
}

/* The file we opened is no longer at s->path: another fleetsim, whose
 * first write into the new file failed, removed it.  SQLite notices too,
 * as SQLITE_READONLY_DBMOVED or an I/O error, depending on the step. */
int fs_store_moved(const fs_store *s)
{
    struct stat st;
    if (sqlite3_extended_errcode(s->db) == SQLITE_READONLY_DBMOVED)
        return 1;
    return stat(s->path, &st) != 0 || st.st_dev != s->dev ||
           st.st_ino != s->ino;
}

/* The run_summary view of this version, from columns.c.  It is derived,
 * not migrated step by step: every migration ends by creating it anew, so
 * a change to columns.c needs only a new schema version (whose migration
 * may be empty) for existing databases to get it. */
static int create_view(fs_store *s)
{
    char *view = fs_summary_view_sql();
    if (!view)
        return SQLITE_NOMEM;
    int rc = fs_store_exec(s, "DROP VIEW IF EXISTS run_summary");
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, view);
    free(view);
    return rc;
}

/* A migration's SQL failed on a file of schema version `version`: its
 * tables are not that version's (a user_version changed by hand, or a
 * file another program wrote).  Said without SQLite's words, which name
 * a column and not the cause. */
static int version_mismatch(const fs_store *s, long long version,
                            fs_error *err)
{
    return fs_error_set(err, "%s: its schema version %lld does not match "
                        "its tables (was PRAGMA user_version changed?); it "
                        "cannot be upgraded to version %d", s->path, version,
                        FS_SCHEMA_VERSION);
}

/* Creates or migrates the schema in one transaction, identifying the file
 * again under the write lock: another fleetsim may have created the schema
 * since fs_schema_look(). */
static int create_or_migrate(fs_store *s, int created, fs_error *err)
{
    static const char what[] = "cannot create the results schema";
    long long version = 0;
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        if (fs_store_moved(s))
            return FS_SCHEMA_RETRY;
        fs_store_sql_error(s, err, rc, what);
        if (created && (rc & 0xff) != SQLITE_BUSY)
            remove_if_zero_bytes(s);      /* a full disk: not even a lock */
        return -1;
    }
    if (fs_schema_identify(s, &version, err)) {
        fs_store_rollback(s);
        return -1;
    }
    if (version == 0)   /* new: the migrations' result, in one pass */
        rc = fs_store_exec(s, fs_schema_snapshot);
    for (long long v = version; v > 0 && rc == SQLITE_OK &&
         v < FS_SCHEMA_VERSION; v++)
        rc = fs_store_exec(s, fs_schema_migrations[v]);
    if (version > 0 && (rc & 0xff) == SQLITE_ERROR) {
        fs_store_rollback(s);
        return version_mismatch(s, version, err);
    }
    if (rc == SQLITE_OK && version < FS_SCHEMA_VERSION)
        rc = create_view(s);
    if (rc == SQLITE_OK && version < FS_SCHEMA_VERSION) {
        char sql[96];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d; "
                 "PRAGMA application_id = %d", FS_SCHEMA_VERSION,
                 FS_APPLICATION_ID);
        rc = fs_store_exec(s, sql);
    }
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "COMMIT");
    if (rc != SQLITE_OK) {
        int moved = fs_store_moved(s);
        fs_store_sql_error(s, err, rc, what);
        fs_store_rollback(s);   /* first: the failed schema is no object */
        if (created && version == 0 && !moved)
            remove_if_empty(s);
        return moved ? FS_SCHEMA_RETRY : -1;
    }
    return fs_schema_check(s, err);
}

/* PRAGMA journal_mode = WAL reads the header and then rewrites it: an
 * upgrade from a read lock to a write lock, for which SQLite does not call
 * the busy handler (two upgrading readers would wait for each other).
 * With nothing else held here, waiting is safe, so we wait as the busy
 * handler would, up to the busy timeout.  (Several fleetsims opening a new
 * database at once meet this.) */
static int set_wal(fs_store *s)
{
    int rc, waited = 0;
    while ((rc = fs_store_exec(s, "PRAGMA journal_mode = WAL")) == SQLITE_BUSY
           && waited < s->busy_ms) {
        int ms = waited < 100 ? 2 : 25;
        sqlite3_sleep(ms);
        waited += ms;
    }
    return rc;
}

int fs_schema_ready(fs_store *s, int created, fs_error *err)
{
    long long version = 0;
    if (fs_schema_look(s, &version, err))
        return -1;
    /* SQLite falls back to read-only when the OS refuses writing. */
    if (sqlite3_db_readonly(s->db, "main") == 1)
        return fs_store_sql_error(s, err, SQLITE_READONLY,
                                  "cannot write the results database");
    if (version < FS_SCHEMA_VERSION) {
        int rc = create_or_migrate(s, created, err);
        if (rc)
            return rc;
    }
    int rc = fs_store_exec(s, "PRAGMA foreign_keys = ON");
    if (rc == SQLITE_OK)
        rc = set_wal(s);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot set up the results "
                                  "database");
    return 0;
}
