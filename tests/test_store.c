/* test_store.c -- the results database itself: the rows of an fs_results,
 * the schema, one-transaction writes (and their rollback), opening
 * read-only, and the refusals (unwritable, locked, newer schema, not a
 * database).  Reading runs back is in test_store_read.c; the faults
 * around a store (other processes, full disks) in test_store_faults.c.
 *
 * Every test stands alone in a directory of its own (store_common.h):
 * `tests/test_store NAME` runs one, `--list` names them. */
#include <errno.h>
#include <sys/stat.h>

#include "sim/store/store.h"
#include "sim/store/store_impl.h"
#include "tests/store_common.h"

static const char *const tables[] = {
    "run", "cost_monthly", "latency", "utilization", "job", "pool",
};
#define NTABLES (sizeof tables / sizeof tables[0])

/* ---- the rows of a run, in memory --------------------------------------- */

static void test_results_arrays(void)
{
    fs_results r;
    fs_results_init(&r);
    for (int i = 0; i < 1000; i++) {
        fs_util_row *u = fs_results_add_util(&r);
        CHECK(u != NULL);
        if (!u)
            break;
        CHECK(u->t_s == 0 && u->pool == NULL);
        u->t_s = i;
    }
    CHECK(r.nutil == 1000);
    CHECK(r.util_cap >= 1000 && r.util_cap < 2048);
    CHECK((r.util_cap & (r.util_cap - 1)) == 0);    /* doubling */
    CHECK(r.util[999].t_s == 999 && r.util[0].t_s == 0);
    CHECK(fs_results_add_job(&r) != NULL && r.njobs == 1);
    fs_results_free(&r);
    CHECK(r.util == NULL && r.nutil == 0 && r.util_cap == 0);
    fs_results_free(&r);    /* twice is harmless */
}

/* ---- the schema --------------------------------------------------------- */

static void test_schema(void)
{
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    fs_error err = { "" };
    sqlite3 *db = fs_store_db(s);
    CHECK(query_ll(db, "PRAGMA user_version") == FS_SCHEMA_VERSION);
    CHECK(text_is(db, "PRAGMA journal_mode", "wal"));
    CHECK(query_ll(db, "PRAGMA foreign_keys") == 1);
    CHECK(query_ll(db, "SELECT count(*) FROM sqlite_master WHERE "
                   "type = 'index' AND name LIKE '%_run'") == 16);
    CHECK(fs_store_check_writable(s, &err) == 0);

    /* the view's columns, in the contract's order */
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(db, "SELECT * FROM run_summary", -1, &st, NULL)
          == SQLITE_OK);
    CHECK(sqlite3_column_count(st) == FS_SUMMARY_COLUMNS);
    for (int c = 0; c < FS_SUMMARY_COLUMNS && c < sqlite3_column_count(st);
         c++)
        CHECK(strcmp(sqlite3_column_name(st, c),
                     fs_summary_columns[c].name) == 0);
    sqlite3_finalize(st);
    fs_store_close(s);
}

/* Every object of db's schema, one "type name table sql" line each, in
 * name order (malloc'd; NULL on failure). */
static char *schema_text(sqlite3 *db)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT type || ' ' || name || ' ' || "
                           "tbl_name || ' ' || coalesce(sql, '') FROM "
                           "sqlite_schema ORDER BY type, name", -1, &st,
                           NULL) != SQLITE_OK)
        return NULL;
    size_t len = 0;
    char *out = calloc(1, 1);
    while (out && sqlite3_step(st) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        char *more = realloc(out, len + strlen(line) + 2);
        if (!more) {
            free(out);
            out = NULL;
            break;
        }
        out = more;
        len += (size_t)sprintf(out + len, "%s\n", line);
    }
    sqlite3_finalize(st);
    return out;
}

/* A new database gets the schema in one pass, from the snapshot the build
 * makes of the migrations (store_snapshot.c): the same schema, object for
 * object and word for word, as a database of version 1 migrated step by
 * step to today's. */
static void test_schema_snapshot(void)
{
    sqlite3 *old;
    CHECK(sqlite3_open(tmp_path("v1.db"), &old) == SQLITE_OK);
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA user_version = 1; "
             "PRAGMA application_id = %d", FS_APPLICATION_ID);
    CHECK(sqlite3_exec(old, fs_schema_migrations[0], NULL, NULL, NULL) ==
          SQLITE_OK);
    CHECK(sqlite3_exec(old, sql, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(old);
    fs_error err = { "" };
    fs_store *migrated = fs_store_open(tmp_path("v1.db"), FS_STORE_CREATE,
                                       &err);
    fs_store *fresh = open_new("new.db");
    CHECK(migrated != NULL && fresh != NULL);
    if (!migrated || !fresh) {
        printf("  %s\n", err.msg);
        fs_store_close(migrated);
        fs_store_close(fresh);
        return;
    }
    CHECK(query_ll(fs_store_db(migrated), "PRAGMA user_version") ==
          FS_SCHEMA_VERSION);
    char *a = schema_text(fs_store_db(migrated));
    char *b = schema_text(fs_store_db(fresh));
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(b && strstr(b, "table run run CREATE TABLE run (") &&
          strstr(b, "view run_summary"));
    if (a && b && strcmp(a, b) != 0)
        printf("  migrated:\n%s  new:\n%s", a, b);
    free(a);
    free(b);
    fs_store_close(migrated);
    fs_store_close(fresh);
}

/* ---- writing ------------------------------------------------------------ */

/* Every table gets its rows, "no value" is NULL, ids follow each other,
 * and removing a run takes its rows along. */
static void test_write_run(void)
{
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    sqlite3 *db = fs_store_db(s);
    CHECK(write_run(s, "base", 0, 100) == 1);

    /* rows and NULLs */
    CHECK(count_rows(db, "utilization") == 100);
    CHECK(count_rows(db, "cost_monthly") == 4);
    CHECK(query_ll(db, "SELECT slo_s IS NULL AND slo_attainment IS NULL AND "
                   "ttft_p50_s IS NULL AND tpot_p99_s IS NULL FROM latency "
                   "WHERE workload = 'chat'") == 1);
    CHECK(text_is(db, "SELECT slo_s FROM latency WHERE workload = 'llm'",
                  "2.0"));
    CHECK(query_ll(db, "SELECT met_deadline IS NULL AND start_s IS NULL AND "
                   "end_s IS NULL AND deadline_s IS NULL FROM job "
                   "WHERE job_id = 'j3'") == 1);
    CHECK(query_ll(db, "SELECT met_deadline FROM job WHERE job_id = 'j2'")
          == 0);
    CHECK(query_ll(db, "SELECT instance IS NULL FROM pool WHERE "
                   "pool = 'spot'") == 1);
    CHECK(text_is(db, "SELECT instance FROM pool WHERE pool = 'a100'",
                  "aws:p4d.24xlarge"));
    CHECK(query_ll(db, "SELECT slo_attainment IS NULL FROM run") == 1);
    CHECK(text_is(db, "SELECT scenario_text FROM run",
                  "[scenario]\nname = quickstart\n"));
    CHECK(query_ll(db, "SELECT fleetsim_version IS NOT NULL FROM run") == 1);
    CHECK(text_is(db, "SELECT started_at FROM run", "2026-01-05T10:00:00Z"));
    CHECK(query_ll(db, "SELECT events FROM run") == 12345);

    /* a second write gets the next id */
    CHECK(write_run(s, "base", 0, 100) == 2);

    /* deleting a run takes its rows along */
    CHECK(sqlite3_exec(db, "DELETE FROM run WHERE run_id = 1", NULL, NULL,
                       NULL) == SQLITE_OK);
    CHECK(query_ll(db, "SELECT count(*) FROM utilization WHERE run_id = 1")
          == 0);
    CHECK(query_ll(db, "SELECT count(*) FROM utilization WHERE run_id = 2")
          == 100);
    fs_store_close(s);
}

static void test_failed_write_rolls_back(void)
{
    const char *path = tmp_path("rollback.db");
    fs_store *s = open_new("rollback.db");
    if (!s)
        return;
    fs_error err;
    sqlite3 *db = fs_store_db(s);
    fs_results r;
    make_results(&r, "keep", 0, 50);
    long id;
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    long before[NTABLES];
    for (size_t t = 0; t < NTABLES; t++)
        before[t] = count_rows(db, tables[t]);

    /* rows: 1 run, 4 costs, 2 latency, 50 util, 3 jobs, 2 pools = 62 */
    static const long fail_at[] = { 1, 2, 6, 7, 30, 57, 58, 61, 62 };
    for (size_t i = 0; i < sizeof fail_at / sizeof fail_at[0]; i++) {
        fs_store_fail_after(s, fail_at[i]);
        err.msg[0] = '\0';
        CHECK(fs_store_write_run(s, &r, &id, &err) == -1);
        CHECK_CONTAINS(err.msg, path);
        CHECK_CONTAINS(err.msg, "NOT NULL constraint failed");
        for (size_t t = 0; t < NTABLES; t++) {
            long now = count_rows(db, tables[t]);
            CHECK(now == before[t]);
            if (now != before[t])
                printf("  fail at %ld: %s has %ld rows, had %ld\n",
                       fail_at[i], tables[t], now, before[t]);
        }
        CHECK(sqlite3_get_autocommit(db) == 1);   /* no open transaction */
    }
    fs_store_fail_after(s, 63);     /* past the last row: no failure */
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    CHECK(count_rows(db, "run") == before[0] + 1);
    fs_store_fail_after(s, 0);
    fs_results_free(&r);
    fs_store_close(s);
}

/* ---- opening ------------------------------------------------------------ */

/* Read-only, as `runs` and `compare` open it: runs are found, nothing is
 * written. */
static void test_readonly_open(void)
{
    const char *path = tmp_path("runs.db");
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    CHECK(write_run(s, "base", 0, 10) == 1);
    CHECK(write_run(s, "base", 0, 10) == 2);
    fs_store_close(s);

    fs_error err;
    s = fs_store_open(path, FS_STORE_READONLY, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    long found = 0, id = 0;
    CHECK(fs_store_find_run(s, "base", &found, &err) == 0 && found == 2);
    CHECK(fs_store_check_writable(s, &err) == -1);
    fs_results r;
    make_results(&r, "nope", 0, 0);
    CHECK(fs_store_write_run(s, &r, &id, &err) == -1);
    fs_results_free(&r);
    fs_store_close(s);
    CHECK(runs_in(path) == 2);
}

static void test_unwritable(void)
{
    fs_error err;
    /* a directory that cannot exist: under a regular file */
    const char *plain = tmp_path("plain.txt");
    CHECK(write_file(plain, "x\n", 2) == 0);
    char path[300];
    snprintf(path, sizeof path, "%s/x.db", plain);
    CHECK(fs_store_open(path, 0, &err) == NULL);
    char want[400];
    snprintf(want, sizeof want, "%s: cannot create the results database: "
             "%s is not a directory", path, plain);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(fs_store_open("/proc/nonexistent/x.db", 0, &err) == NULL);
    CHECK(strcmp(err.msg, "/proc/nonexistent/x.db: cannot create the results "
                 "database: /proc/nonexistent: No such file or directory")
          == 0);
    /* a directory this user may not write in (root may write anywhere) */
    if (geteuid() != 0) {
        CHECK(fs_store_open("/proc/x.db", 0, &err) == NULL);
        CHECK_CONTAINS(err.msg, "/proc/x.db: cannot create the results "
                       "database: directory /proc is not writable");
    }
    /* a path that is a directory */
    CHECK(fs_store_open(store_tmpdir, 0, &err) == NULL);
    CHECK_CONTAINS(err.msg, ": is a directory, not a results database");

    /* read-only mode never creates the file */
    const char *missing = tmp_path("missing.db");
    CHECK(fs_store_open(missing, 1, &err) == NULL);
    snprintf(want, sizeof want, "%s: no such database (run `fleetsim run` "
             "first)", missing);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(access(missing, F_OK) != 0);

    /* a read-only copy of a database */
    const char *ro = tmp_path("readonly.db");
    fs_store *s = open_new("readonly.db");
    if (s)
        CHECK(write_run(s, "ro", 0, 10) > 0);
    fs_store_close(s);
    CHECK(chmod(ro, 0444) == 0);
    if (geteuid() == 0) {
        printf("note: running as root, where chmod 0444 does not stop "
               "writes: read-only file check skipped\n");
    } else {
        CHECK(fs_store_open(ro, 0, &err) == NULL);
        CHECK_CONTAINS(err.msg, ro);
        CHECK_CONTAINS(err.msg, "cannot write the results database: "
                       "attempt to write a readonly database");
    }
    s = fs_store_open(ro, 1, &err);     /* still readable */
    CHECK(s != NULL);
    long found;
    if (s)
        CHECK(fs_store_find_run(s, "ro", &found, &err) == 0);
    fs_store_close(s);
    chmod(ro, 0644);
}

static void test_locked(void)
{
    const char *path = tmp_path("locked.db");
    fs_error err;
    fs_store_set_busy_timeout(1);
    fs_store *s = fs_store_open(path, 0, &err);
    CHECK(s != NULL);
    if (!s) {
        fs_store_set_busy_timeout(-1);
        return;
    }
    sqlite3 *other;
    CHECK(sqlite3_open(path, &other) == SQLITE_OK);
    CHECK(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL, NULL)
          == SQLITE_OK);

    /* Locked now is no reason not to simulate: the run will wait. */
    CHECK(fs_store_check_writable(s, &err) == 0);

    fs_results r;
    make_results(&r, "blocked", 0, 5);
    long id;
    double t0 = now_s();
    CHECK(fs_store_write_run(s, &r, &id, &err) == -1);
    double waited = now_s() - t0;
    char want[400];
    snprintf(want, sizeof want, "%s: database is locked by another process "
             "(waited 1s; FLEETSIM_BUSY_TIMEOUT or run --busy-timeout sets "
             "how long)", path);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(waited > 0.9);                /* it did wait for the timeout */
    if (!(waited > 0.9))
        printf("  waited %.2f s\n", waited);

    /* another fleetsim opening the database meanwhile is not refused */
    fs_store *s2 = fs_store_open(path, 0, &err);
    CHECK(s2 != NULL);
    fs_store_close(s2);

    CHECK(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(other);
    CHECK(fs_store_check_writable(s, &err) == 0);
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0 && id == 1);
    fs_results_free(&r);
    fs_store_close(s);
    fs_store_set_busy_timeout(-1);
}

static void test_refused_files(void)
{
    fs_error err;
    /* a database from a newer fleetsim: refused, untouched */
    const char *newer = tmp_path("newer.db");
    fs_store *s = open_new("newer.db");
    if (s)
        CHECK(write_run(s, "old", 0, 3) > 0);
    fs_store_close(s);
    sqlite3 *db;
    CHECK(sqlite3_open(newer, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL)
          == SQLITE_OK);
    sqlite3_close(db);

    size_t len0 = 0, len1 = 0;
    char *before = read_file(newer, &len0);
    struct stat st0, st1;
    CHECK(stat(newer, &st0) == 0);
    char want[512];
    snprintf(want, sizeof want, "%s: database schema version 99 is newer "
             "than this fleetsim (version %d); use a newer fleetsim or "
             "another --db", newer, FS_SCHEMA_VERSION);
    CHECK(fs_store_open(newer, 0, &err) == NULL);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(fs_store_open(newer, 1, &err) == NULL);
    CHECK(strcmp(err.msg, want) == 0);
    char *after = read_file(newer, &len1);
    CHECK(stat(newer, &st1) == 0);
    CHECK(before && after && len0 == len1 && memcmp(before, after, len0)
          == 0);
    CHECK(st0.st_mtim.tv_sec == st1.st_mtim.tv_sec &&
          st0.st_mtim.tv_nsec == st1.st_mtim.tv_nsec);
    free(before);
    free(after);

    /* not a database at all */
    const char *text = tmp_path("notes.csv");
    static const char csv[] = "job_id,submit_s,gpus,duration_s\n"
                              "j1,0,8,3600\nj2,60,8,7200\nj3,120,4,1800\n"
                              "j4,180,2,900\nj5,240,1,60\n";
    CHECK(write_file(text, csv, sizeof csv - 1) == 0);
    snprintf(want, sizeof want, "%s: not a fleetsim database (file is not "
             "a database)", text);
    CHECK(fs_store_open(text, 0, &err) == NULL);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(fs_store_open(text, 1, &err) == NULL);
    CHECK(strcmp(err.msg, want) == 0);
    before = read_file(text, &len0);
    CHECK(before && len0 == sizeof csv - 1 && memcmp(before, csv, len0) == 0);
    free(before);

    /* somebody else's SQLite database */
    const char *foreign = tmp_path("foreign.db");
    CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1)",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(fs_store_open(foreign, 0, &err) == NULL);
    CHECK_CONTAINS(err.msg, "not a fleetsim database");
    CHECK_CONTAINS(err.msg, foreign);
    CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
    CHECK(query_ll(db, "SELECT count(*) FROM sqlite_master") == 1);
    CHECK(query_ll(db, "PRAGMA user_version") == 0);
    sqlite3_close(db);

    /* an empty file becomes a database; read-only, it has no runs */
    const char *empty = tmp_path("empty.db");
    CHECK(write_file(empty, "", 0) == 0);
    CHECK(fs_store_open(empty, 1, &err) == NULL);
    CHECK_CONTAINS(err.msg, "no fleetsim runs yet");
    s = fs_store_open(empty, 0, &err);
    CHECK(s != NULL);
    fs_store_close(s);
}

/* The realised saving per pool (store_savings.c), in closed form: the
 * spot pool ran 500 GPU-hours on 2-GPU instances, 250 instance-hours at a
 * $3.00 list price = $750.00, and cost 100.06 + 134.25 = $234.31: it saved
 * $515.69.  The on-demand pool is priced at list: it saves nothing. */
static void test_pool_savings(void)
{
    fs_store *s = open_new("savings.db");
    if (!s)
        return;
    fs_results r;
    make_results(&r, "save", 0, 10);
    r.pools[1].list_price_usd_h = 3.0;
    r.pools[1].gpus_per_instance = 2;
    r.pools[0].list_price_usd_h = 4.1;
    r.pools[0].gpus_per_instance = 8;
    long id;
    fs_error err;
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    fs_results_free(&r);
    sqlite3 *db = fs_store_db(s);
    CHECK(query_ll(db, "SELECT count(*) FROM pool WHERE"
                   " contracted_price_usd_h IS NULL AND commitment_usd_h IS"
                   " NULL") == 2);     /* 0 (unknown) is stored as NULL */
    fs_pool_saving *v = NULL;
    size_t n = 0;
    CHECK(fs_store_pool_savings(s, id, &v, &n, &err) == 0);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(!strcmp(v[0].pool, "a100") && v[0].priced_at_list &&
              !v[0].has_list);
        CHECK(v[0].list_cents == 100025 && v[0].effective_cents == 100025 &&
              v[0].saving_cents == 0);
        CHECK(!strcmp(v[1].pool, "spot") && v[1].has_list);
        CHECK_NEAR(v[1].instance_hours, 250, 1e-9);
        CHECK(v[1].list_cents == 75000 && v[1].effective_cents == 23431 &&
              v[1].saving_cents == 51569);
    }
    free(v);
    CHECK(fs_list_cents(3.0, 500, 0) == 0 && fs_list_cents(0.125, 1, 1) == 13);
    fs_store_close(s);
}

/* A command that created a database and stored no run (refused) removes
 * it, under the write lock: a process that had the file open and writes
 * afterwards stores its run at the path, one that wrote first keeps the
 * file, and the remover's close leaves a database made at the path since
 * alone. */
static void test_remove_if_no_run(void)
{
    fs_error err = { "" };
    const char *path = tmp_path("refused.db");
    fs_store *a = open_new("refused.db");
    fs_store *b = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(a && b);
    if (!a || !b)
        return;
    CHECK(fs_store_remove_if_no_run(a) == 1);
    CHECK(access(path, F_OK) != 0);
    fs_store_close(a);
    CHECK(write_run(b, "after", 0, 3) > 0);   /* opened again, at the path */
    fs_store_close(b);
    CHECK(runs_in(path) == 1);

    /* a run written first, or a writer holding the lock: the file stays */
    const char *kept = tmp_path("kept.db");
    a = open_new("kept.db");
    b = fs_store_open(kept, FS_STORE_CREATE, &err);
    CHECK(a && b);
    if (!a || !b)
        return;
    CHECK(sqlite3_exec(fs_store_db(b), "BEGIN IMMEDIATE", 0, 0, 0) == SQLITE_OK);
    CHECK(fs_store_remove_if_no_run(a) == 0);
    CHECK(sqlite3_exec(fs_store_db(b), "ROLLBACK", 0, 0, 0) == SQLITE_OK);
    CHECK(write_run(b, "first", 0, 3) > 0);
    CHECK(fs_store_remove_if_no_run(a) == 0);
    fs_store_close(a);
    fs_store_close(b);
    CHECK(runs_in(kept) == 1);

    /* Removed, then made again at the path by another process whose run
     * is still in its -wal: the remover's close must not delete that -wal
     * by name (SQLite's last connection to a WAL database does). */
    const char *again = tmp_path("again.db");
    a = open_new("again.db");
    CHECK(a && fs_store_remove_if_no_run(a) == 1);
    fs_store *c = open_new("again.db");
    CHECK(c && write_run(c, "new", 0, 3) > 0);
    fs_store_close(a);
    CHECK(runs_in(again) == 1);
    fs_store_close(c);
    CHECK(runs_in(again) == 1);
}

static const store_test tests[] = {
    { "remove_if_no_run", test_remove_if_no_run },
    { "pool_savings", test_pool_savings },
    { "results_arrays", test_results_arrays },
    { "schema", test_schema },
    { "write_run", test_write_run },
    { "failed_write_rolls_back", test_failed_write_rolls_back },
    { "readonly_open", test_readonly_open },
    { "unwritable", test_unwritable },
    { "locked", test_locked },
    { "schema_snapshot", test_schema_snapshot },
    { "refused_files", test_refused_files },
};

int main(int argc, char **argv)
{
    return store_tests_main(argc, argv, tests, sizeof tests / sizeof *tests,
                            "store");
}
