/* test_store.c -- the results database and what reads it back: schema,
 * one-transaction writes (and their rollback), run lookup, refusals
 * (read-only, locked, newer schema, not a database), the run_summary view,
 * and the formats of `fleetsim compare` and `fleetsim runs`.
 *
 * Every file lives in a fresh mkdtemp directory under /tmp, removed at the
 * end. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim/cli/commands.h"
#include "sim/cli/compare.h"
#include "sim/fleet/results.h"
#include "sim/store/store.h"
#include "tests/check.h"

static char tmpdir[64];

/* ---- helpers ------------------------------------------------------------ */

static const char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

/* The whole file, NUL-terminated (binary files too: *len has the size). */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *p = realloc(buf, cap *= 2);
            if (!p)
                free(buf);
            buf = p;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(text, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

static long long query_ll(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -12345;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        printf("  query failed: %s: %s\n", sql, sqlite3_errmsg(db));
        return v;
    }
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

static char *query_text(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    char *v = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        v = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return v;
}

static int text_is(sqlite3 *db, const char *sql, const char *want)
{
    char *got = query_text(db, sql);
    int ok = got && strcmp(got, want) == 0;
    if (!ok)
        printf("  %s -> '%s', expected '%s'\n", sql, got ? got : "(null)",
               want);
    free(got);
    return ok;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A run with 2 months of costs on two pools, pools, latency with and
 * without an SLO, nutil utilization samples and three jobs. */
static void make_results(fs_results *r, const char *name, unsigned rep,
                         size_t nutil)
{
    fs_results_init(r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->scenario, sizeof r->scenario, "scenarios/quickstart.ini");
    r->scenario_text = strdup("[scenario]\nname = quickstart\n");
    r->seed = 7;
    r->replication = rep;
    snprintf(r->started_at, sizeof r->started_at, "2026-01-05T10:00:00Z");
    snprintf(r->finished_at, sizeof r->finished_at, "2026-01-05T10:00:03Z");
    snprintf(r->start_date, sizeof r->start_date, "2026-01-01");
    r->horizon_s = 59 * 86400.0;
    r->months = 2;
    r->requests = 1000;
    r->requests_dropped = 3;
    r->latency_mean_s = 0.5;
    r->latency_p50_s = 0.4;
    r->latency_p99_s = 1.9;
    r->wait_mean_s = 0.1;
    r->slo_attainment = NAN;
    r->events = 12345;

    static const struct { const char *month, *pool, *pricing; double usd; }
    costs[] = {
        { "2026-01", "a100", "on-demand", 600.25 },
        { "2026-01", "spot", "spot", 100.06 },
        { "2026-02", "a100", "on-demand", 400.00 },
        { "2026-02", "spot", "spot", 134.25 },
    };
    for (size_t i = 0; i < 4; i++) {
        fs_cost_row *c = fs_results_add_cost(r);
        snprintf(c->month, sizeof c->month, "%s", costs[i].month);
        snprintf(c->pool, sizeof c->pool, "%s", costs[i].pool);
        snprintf(c->pricing, sizeof c->pricing, "%s", costs[i].pricing);
        c->cost_usd = costs[i].usd;
        c->gpu_hours = 100;
    }
    fs_pool_row *p = fs_results_add_pool(r);
    snprintf(p->pool, sizeof p->pool, "a100");
    snprintf(p->gpu, sizeof p->gpu, "A100-80GB");
    snprintf(p->pricing, sizeof p->pricing, "on-demand");
    snprintf(p->instance, sizeof p->instance, "aws:p4d.24xlarge");
    p->price_usd_h = 4.1;
    p->gpu_hours_provisioned = 1000;
    p->gpu_hours_busy = 400;
    p->launches = 2;
    p = fs_results_add_pool(r);
    snprintf(p->pool, sizeof p->pool, "spot");
    snprintf(p->gpu, sizeof p->gpu, "A100-80GB");
    snprintf(p->pricing, sizeof p->pricing, "spot");
    p->price_usd_h = 1.5;
    p->gpu_hours_provisioned = 500;
    p->gpu_hours_busy = 350;
    p->launches = 6;
    p->interruptions = 4;

    fs_latency_row *l = fs_results_add_latency(r);
    snprintf(l->workload, sizeof l->workload, "chat");
    l->count = 900;
    l->arrivals = 903;
    l->dropped = 3;
    l->mean_s = 0.5;
    l->p50_s = 0.4;
    l->p90_s = l->p95_s = 1;
    l->p99_s = 1.9;
    l->p999_s = 3;
    l->wait_mean_s = 0.1;
    l->slo_s = NAN;
    l->slo_attainment = NAN;
    l->ttft_p50_s = l->ttft_p99_s = l->tpot_p50_s = l->tpot_p99_s = NAN;
    l = fs_results_add_latency(r);
    snprintf(l->workload, sizeof l->workload, "llm");
    l->count = 100;
    l->slo_s = 2;
    l->slo_attainment = 0.97;
    l->ttft_p50_s = 0.2;
    l->ttft_p99_s = 0.8;
    l->tpot_p50_s = 0.02;
    l->tpot_p99_s = 0.05;

    for (size_t i = 0; i < nutil; i++) {
        fs_util_row *u = fs_results_add_util(r);
        u->pool = i % 2 ? "spot" : "a100";
        u->t_s = 300.0 * (double)(i / 2 + 1);
        u->instances_up = 1;
        u->gpus_provisioned = 1;
        u->gpus_busy = 0.5;
    }

    static const struct { const char *id; int met; double start; } jobs[] = {
        { "j1", 1, 10 }, { "j2", 0, 20 }, { "j3", -1, NAN },
    };
    for (size_t i = 0; i < 3; i++) {
        fs_job_row *j = fs_results_add_job(r);
        snprintf(j->workload, sizeof j->workload, "finetune");
        snprintf(j->job_id, sizeof j->job_id, "%s", jobs[i].id);
        j->submit_s = 0;
        j->start_s = jobs[i].start;
        j->end_s = isnan(jobs[i].start) ? NAN : jobs[i].start + 3600;
        j->gpus = 8;
        j->gpu_hours = 8;
        j->deadline_s = jobs[i].met < 0 ? NAN : 7200;
        j->met_deadline = jobs[i].met;
    }
}

static long count_rows(sqlite3 *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    return (long)query_ll(db, sql);
}

static const char *const tables[] = {
    "run", "cost_monthly", "latency", "utilization", "job", "pool",
};
#define NTABLES (sizeof tables / sizeof tables[0])

/* Runs a command with stdout and stderr sent to files, returns its exit
 * status; *out and *err (if not NULL) get what it printed. */
static int run_cmd(int (*cmd)(int, char **), char **argv, char **out,
                   char **err)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    fflush(stderr);
    int save_out = dup(1), save_err = dup(2);
    int fo = open(tmp_path("cmd.out"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int fe = open(tmp_path("cmd.err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fo, 1);
    dup2(fe, 2);
    int status = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save_out, 1);
    dup2(save_err, 2);
    close(fo);
    close(fe);
    close(save_out);
    close(save_err);
    if (out)
        *out = read_file(tmp_path("cmd.out"), NULL);
    if (err)
        *err = read_file(tmp_path("cmd.err"), NULL);
    return status;
}

/* ---- tests -------------------------------------------------------------- */

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

static void test_write_and_summary(void)
{
    const char *path = tmp_path("runs.db");
    fs_error err = { "" };
    fs_store *s = fs_store_open(path, 0, &err);
    CHECK(s != NULL);
    if (!s) {
        printf("  %s\n", err.msg);
        return;
    }
    sqlite3 *db = fs_store_db(s);
    CHECK(query_ll(db, "PRAGMA user_version") == FS_SCHEMA_VERSION);
    CHECK(text_is(db, "PRAGMA journal_mode", "wal"));
    CHECK(query_ll(db, "PRAGMA foreign_keys") == 1);
    CHECK(query_ll(db, "SELECT count(*) FROM sqlite_master WHERE "
                   "type = 'index' AND name LIKE '%_run'") == 5);
    CHECK(fs_store_check_writable(s, &err) == 0);

    fs_results r;
    make_results(&r, "base", 0, 100);
    long id = 0;
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    CHECK(id == 1);

    fs_summary sm;
    CHECK(fs_store_summary(s, id, &sm, &err) == 0);
    static const char *const want[FS_SUMMARY_COLUMNS] = {
        "1", "base", "scenarios/quickstart.ini", "7", "0", "5097600.0",
        "1234.56", "636.46", "1500.0", "750.0", "0.5", "1000", "3", "0.5",
        "0.4", "1.9", "0.1", NULL, "3", "1", "4",
    };
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        int same = want[c] ? sm.col[c] && strcmp(sm.col[c], want[c]) == 0
                           : sm.col[c] == NULL;
        CHECK(same);
        if (!same)
            printf("  %s = '%s', expected '%s'\n", fs_summary_columns[c].name,
                   sm.col[c] ? sm.col[c] : "NULL", want[c] ? want[c] : "NULL");
    }
    CHECK_NEAR(atof(sm.col[6]), 1234.56, 1e-9);
    CHECK_NEAR(atof(sm.col[7]), 636.46, 1e-9);  /* x 730 h / 1416 h */
    CHECK_NEAR(atof(sm.col[10]), 0.5, 1e-12);
    fs_summary_free(&sm);
    CHECK(sm.col[0] == NULL);

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

    /* a second write gets the next id; names resolve to the latest */
    long id2 = 0;
    CHECK(fs_store_write_run(s, &r, &id2, &err) == 0);
    CHECK(id2 == 2);
    fs_results_free(&r);
    long found = 0;
    CHECK(fs_store_find_run(s, "base", &found, &err) == 0 && found == 2);
    CHECK(fs_store_find_run(s, "1", &found, &err) == 0 && found == 1);
    CHECK(fs_store_find_run(s, "7", &found, &err) == -1);
    char want_msg[512];
    snprintf(want_msg, sizeof want_msg, "no run with id 7 in %s", path);
    CHECK(strcmp(err.msg, want_msg) == 0);
    CHECK(fs_store_find_run(s, "bsae", &found, &err) == -1);
    CHECK_CONTAINS(err.msg, "no run named 'bsae' in ");
    CHECK_CONTAINS(err.msg, "did you mean 'base'?");
    CHECK(fs_store_find_run(s, "completely-different", &found, &err) == -1);
    CHECK_CONTAINS(err.msg, "; runs: base");
    CHECK(fs_store_find_run(s, "", &found, &err) == -1);

    /* replications: the latest run's lowest replication */
    long ids[4];
    for (int i = 0; i < 4; i++) {
        make_results(&r, "reps", (unsigned)(i % 2), 0);
        CHECK(fs_store_write_run(s, &r, &ids[i], &err) == 0);
        fs_results_free(&r);
    }
    CHECK(fs_store_find_run(s, "reps", &found, &err) == 0 && found == ids[2]);
    /* a run named like a number still resolves once no id matches */
    make_results(&r, "2026", 0, 0);
    long numeric = 0;
    CHECK(fs_store_write_run(s, &r, &numeric, &err) == 0);
    fs_results_free(&r);
    CHECK(fs_store_find_run(s, "2026", &found, &err) == 0 &&
          found == numeric);

    /* a run with no child rows still has its summary */
    fs_results_init(&r);
    snprintf(r.name, sizeof r.name, "empty");
    r.slo_attainment = NAN;
    long empty = 0;
    CHECK(fs_store_write_run(s, &r, &empty, &err) == 0);
    fs_results_free(&r);
    CHECK(fs_store_summary(s, empty, &sm, &err) == 0);
    CHECK(sm.col[6] && strcmp(sm.col[6], "0.0") == 0);     /* total cost */
    CHECK(sm.col[7] == NULL);                  /* horizon 0: no run rate */
    CHECK(sm.col[10] == NULL);                 /* utilization */
    CHECK(sm.col[18] && strcmp(sm.col[18], "0") == 0);      /* jobs */
    CHECK(sm.col[20] && strcmp(sm.col[20], "0") == 0);      /* interruptions */
    fs_summary_free(&sm);
    CHECK(fs_store_summary(s, 999, &sm, &err) == -1);
    CHECK_CONTAINS(err.msg, "no run with id 999");

    /* deleting a run takes its rows along */
    CHECK(sqlite3_exec(db, "DELETE FROM run WHERE run_id = 1", NULL, NULL,
                       NULL) == SQLITE_OK);
    CHECK(query_ll(db, "SELECT count(*) FROM utilization WHERE run_id = 1")
          == 0);
    CHECK(query_ll(db, "SELECT count(*) FROM utilization WHERE run_id = 2")
          == 100);

    /* the listing */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CHECK(fs_store_list_runs(s, out, &err) == 0);
    fclose(out);
    CHECK_CONTAINS(buf, "id  name");
    CHECK_CONTAINS(buf, "finished (UTC)");
    CHECK_CONTAINS(buf, "2026-01-05 10:00");
    CHECK_CONTAINS(buf, "1,234.56");
    CHECK_CONTAINS(buf, "636.46");
    CHECK(!strstr(buf, "\n 1  base"));     /* run 1 was deleted */
    free(buf);
    fs_store_close(s);

    /* and read-only, as `runs` and `compare` open it */
    s = fs_store_open(path, 1, &err);
    CHECK(s != NULL);
    if (s) {
        CHECK(fs_store_find_run(s, "base", &found, &err) == 0 && found == 2);
        CHECK(fs_store_check_writable(s, &err) == -1);
        make_results(&r, "nope", 0, 0);
        CHECK(fs_store_write_run(s, &r, &id, &err) == -1);
        fs_results_free(&r);
        fs_store_close(s);
    }
}

static void test_failed_write_rolls_back(void)
{
    const char *path = tmp_path("rollback.db");
    fs_error err;
    fs_store *s = fs_store_open(path, 0, &err);
    CHECK(s != NULL);
    if (!s)
        return;
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
    CHECK(fs_store_open(tmpdir, 0, &err) == NULL);
    CHECK_CONTAINS(err.msg, "cannot open the results database");
    CHECK_CONTAINS(err.msg, "Is a directory");

    /* read-only mode never creates the file */
    const char *missing = tmp_path("missing.db");
    CHECK(fs_store_open(missing, 1, &err) == NULL);
    snprintf(want, sizeof want, "%s: no such database (run `fleetsim run` "
             "first)", missing);
    CHECK(strcmp(err.msg, want) == 0);
    CHECK(access(missing, F_OK) != 0);

    /* a read-only copy of a database */
    const char *ro = tmp_path("readonly.db");
    fs_store *s = fs_store_open(ro, 0, &err);
    CHECK(s != NULL);
    fs_results r;
    make_results(&r, "ro", 0, 10);
    long id;
    if (s)
        CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    fs_results_free(&r);
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
    if (!s)
        return;
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
    fs_store *s = fs_store_open(newer, 0, &err);
    CHECK(s != NULL);
    fs_results r;
    make_results(&r, "old", 0, 3);
    long id;
    if (s)
        CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    fs_results_free(&r);
    fs_store_close(s);
    sqlite3 *db;
    CHECK(sqlite3_open(newer, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL)
          == SQLITE_OK);
    sqlite3_close(db);

    size_t len0, len1;
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

/* In-memory summaries, as fs_store_summary returns them. */
static void set_summary(fs_summary *sm, const char *const v[])
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        sm->col[c] = v[c] ? strdup(v[c]) : NULL;
}

static char *compare_text(fs_compare_format fmt, const fs_summary *runs,
                          size_t n, int baseline)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CHECK(fs_compare_write(out, fmt, runs, n, baseline) == 0);
    fclose(out);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

static size_t utf8_width(const char *s, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static void test_compare_formats(void)
{
    static const char *const a[FS_SUMMARY_COLUMNS] = {
        "1", "today", "scenarios/today.ini", "1", "0", "2592000.0",
        "80.0", "80.0", "1000.0", "500.0", "0.5", "1000", "0", "0.25",
        "0.2", "1.5", "0.05", "0.99", "2", "0", "0",
    };
    static const char *const b[FS_SUMMARY_COLUMNS] = {
        "2", "with \"spot\", 3x", "scenarios/spot.ini", "1", "0", "2592000.0",
        "100.0", "100.0", "1500.0", "1200.0", "0.8", "3000", "12", "0.3",
        "0.25", "2.0", NULL, NULL, "2", "1", "5",
    };
    static const char *const big[FS_SUMMARY_COLUMNS] = {
        "3", "big", "s.ini", "1", "0", "2592000.0",
        "1234567.891", "1234.56", "1500.0", "1200.0", "0.8", "3000", "12",
        "0.3", "0.25", "2.0", NULL, NULL, "2", "1", "5",
    };
    fs_summary runs[3];
    set_summary(&runs[0], a);
    set_summary(&runs[1], b);
    set_summary(&runs[2], big);

    fs_compare_format f;
    CHECK(fs_compare_parse_format("markdown", &f) == 0 &&
          f == FS_COMPARE_MARKDOWN);
    CHECK(fs_compare_parse_format("yaml", &f) == -1);

    /* json: an array of run_summary objects with their own key names */
    char *json = compare_text(FS_COMPARE_JSON, runs, 2, 0);
    CHECK(json && json[0] == '[' && strcmp(json + strlen(json) - 2, "]\n")
          == 0);
    CHECK_CONTAINS(json, "{\"run_id\":1,\"name\":\"today\",\"scenario\":"
                    "\"scenarios/today.ini\",\"seed\":1,\"replication\":0,");
    CHECK_CONTAINS(json, "\"total_cost_usd\":80.0,");
    CHECK_CONTAINS(json, "\"name\":\"with \\\"spot\\\", 3x\"");
    CHECK_CONTAINS(json, "\"wait_mean_s\":null,\"slo_attainment\":null,");
    CHECK_CONTAINS(json, "\"delta_vs_baseline\":{\"horizon_s\":0,"
                    "\"total_cost_usd\":20,\"cost_per_month_usd\":20,");
    CHECK_CONTAINS(json, "\"delta_pct_vs_baseline\":{\"horizon_s\":0,"
                    "\"total_cost_usd\":25,");
    CHECK_CONTAINS(json, "\"utilization\":0.3,");            /* 0.8 - 0.5 */
    CHECK_CONTAINS(json, "\"requests\":2000,");
    CHECK_CONTAINS(json, "\"slo_attainment\":null,");
    CHECK_CONTAINS(json, "\"jobs_missed_deadline\":1,");
    CHECK_CONTAINS(json, "\"jobs_missed_deadline\":null,");  /* pct of 0 */
    CHECK(!strstr(json, "\"seed\":0"));                  /* no seed delta */
    CHECK(strstr(json, "delta_vs_baseline") > strstr(json, "\"run_id\":2"));
    free(json);
    json = compare_text(FS_COMPARE_JSON, runs, 2, -1);
    CHECK(!strstr(json, "delta"));
    CHECK(count_lines(json) == 4);
    free(json);

    /* csv: a header and one row per run_summary column */
    char *csv = compare_text(FS_COMPARE_CSV, runs, 2, -1);
    CHECK(count_lines(csv) == 1 + FS_SUMMARY_COLUMNS);
    CHECK_CONTAINS(csv, "metric,today #1,\"with \"\"spot\"\", 3x #2\"\n");
    CHECK_CONTAINS(csv, "\ntotal_cost_usd,80.0,100.0\n");
    CHECK_CONTAINS(csv, "\nwait_mean_s,0.05,\n");
    free(csv);
    csv = compare_text(FS_COMPARE_CSV, runs, 2, 0);
    CHECK(count_lines(csv) == 1 + FS_SUMMARY_COLUMNS);
    CHECK_CONTAINS(csv, "metric,today #1,\"with \"\"spot\"\", 3x #2\","
                   "\"with \"\"spot\"\", 3x #2 delta\","
                   "\"with \"\"spot\"\", 3x #2 delta %\"\n");
    CHECK_CONTAINS(csv, "\ntotal_cost_usd,80.0,100.0,20,25\n");
    CHECK_CONTAINS(csv, "\ngpu_hours_busy,500.0,1200.0,700,140\n");
    CHECK_CONTAINS(csv, "\nseed,1,1,,\n");
    CHECK_CONTAINS(csv, "\nslo_attainment,0.99,,,\n");
    CHECK_CONTAINS(csv, "\ninterruptions,0,5,5,\n");     /* baseline 0: no % */
    free(csv);

    /* table: one row per metric, aligned, units; baseline deltas */
    char *table = compare_text(FS_COMPARE_TABLE, runs, 3, 0);
    CHECK_CONTAINS(table, "metric");
    CHECK_CONTAINS(table, "today #1 (baseline)");
    CHECK_CONTAINS(table, "$80.00");
    CHECK_CONTAINS(table, "$1,234,567.89");
    CHECK_CONTAINS(table, "+$20.00");
    CHECK_CONTAINS(table, "+25.0%");
    CHECK_CONTAINS(table, "50.00%");
    CHECK_CONTAINS(table, "+30.00 pp");
    CHECK_CONTAINS(table, "1,500.0");
    CHECK_CONTAINS(table, "30 d");
    CHECK_CONTAINS(table, "0.25 s");
    CHECK_CONTAINS(table, "\xce\x94%");
    CHECK(count_lines(table) == 2 + FS_SUMMARY_COLUMNS - 2);
    /* right-aligned: every line but the rule ends in the same column */
    size_t width = 0;
    int aligned = 1;
    for (const char *line = table; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t w = utf8_width(line, (size_t)(end - line));
        if (!width)
            width = w;
        aligned &= w == width;
        line = end + 1;
    }
    CHECK(aligned);
    free(table);

    /* markdown: the same as a GitHub table */
    char *md = compare_text(FS_COMPARE_MARKDOWN, runs, 2, 0);
    CHECK(md && strncmp(md, "| metric | today #1 (baseline) |", 32) == 0);
    CHECK_CONTAINS(md, "\n| :--- | ---: | ---: | ---: | ---: |\n");
    CHECK_CONTAINS(md, "| total cost | $80.00 | $100.00 | +$20.00 | +25.0% |");
    CHECK_CONTAINS(md, "| wait mean | 0.05 s | - |  |  |");
    CHECK(count_lines(md) == 2 + FS_SUMMARY_COLUMNS - 2);
    free(md);

    for (int i = 0; i < 3; i++)
        fs_summary_free(&runs[i]);
}

static void test_thousands(void)
{
    char buf[64];
    CHECK(strcmp(fs_format_thousands(1234.56, 2, buf, sizeof buf),
                 "1,234.56") == 0);
    CHECK(strcmp(fs_format_thousands(-1234567.891, 2, buf, sizeof buf),
                 "-1,234,567.89") == 0);
    CHECK(strcmp(fs_format_thousands(999.999, 2, buf, sizeof buf),
                 "1,000.00") == 0);
    CHECK(strcmp(fs_format_thousands(-0.001, 2, buf, sizeof buf), "0.00")
          == 0);
    CHECK(strcmp(fs_format_thousands(100, 0, buf, sizeof buf), "100") == 0);
    CHECK(strcmp(fs_format_thousands(NAN, 2, buf, sizeof buf), "nan") == 0);
}

static void test_commands(void)
{
    char db[300];                     /* from test_write_and_summary */
    snprintf(db, sizeof db, "%s", tmp_path("runs.db"));
    char *out = NULL, *err = NULL;

    char *a1[] = { "runs", "--db", db, NULL };
    CHECK(run_cmd(cmd_runs, a1, &out, &err) == FS_EXIT_OK);
    CHECK_CONTAINS(out, "total cost $");
    CHECK_CONTAINS(out, "reps");
    free(out);
    free(err);

    char *a2[] = { "runs", "--db", db, "stray", NULL };
    CHECK(run_cmd(cmd_runs, a2, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "fleetsim runs: unexpected argument 'stray'");
    free(err);

    char *a3[] = { "runs", "--dbb", "x", NULL };
    CHECK(run_cmd(cmd_runs, a3, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown option '--dbb'; did you mean '--db'?");
    free(err);

    char *a4[] = { "runs", "--db", NULL };
    CHECK(run_cmd(cmd_runs, a4, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--db needs a value");
    free(err);

    char missing[300];
    snprintf(missing, sizeof missing, "%s", tmp_path("nothing.db"));
    char *a5[] = { "runs", "--db", missing, NULL };
    CHECK(run_cmd(cmd_runs, a5, NULL, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "no such database (run `fleetsim run` first)");
    CHECK(access(missing, F_OK) != 0);
    free(err);

    char dbeq[320];
    snprintf(dbeq, sizeof dbeq, "--db=%s", db);
    char *c1[] = { "compare", dbeq, "--format", "json", "--baseline", "base",
                   "empty", NULL };
    CHECK(run_cmd(cmd_compare, c1, &out, &err) == FS_EXIT_OK);
    CHECK_CONTAINS(out, "[\n{\"run_id\":2,\"name\":\"base\"");   /* first */
    CHECK_CONTAINS(out, "\"total_cost_usd\":1234.56,");
    CHECK_CONTAINS(out, "\"delta_vs_baseline\":{");
    CHECK_CONTAINS(out, "\"total_cost_usd\":-1234.56,");
    CHECK(count_lines(out) == 4);
    free(out);
    free(err);

    char *c2[] = { "compare", "--db", db, NULL };
    CHECK(run_cmd(cmd_compare, c2, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "give at least one RUN");
    free(err);

    char *c3[] = { "compare", "--db", db, "--format", "yaml", "base",
                   NULL };
    CHECK(run_cmd(cmd_compare, c3, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown format 'yaml'");
    free(err);

    char *c4[] = { "compare", "--db", db, "base", "nosuchrun", NULL };
    CHECK(run_cmd(cmd_compare, c4, &out, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "fleetsim: no run named 'nosuchrun' in ");
    CHECK(out && out[0] == '\0');
    free(out);
    free(err);

    char *c5[] = { "compare", "--db", db, "--format", "csv", "2",
                   "base", "--", "reps", NULL };
    CHECK(run_cmd(cmd_compare, c5, &out, &err) == FS_EXIT_OK);
    /* "base" is #2 again, shown once */
    CHECK_CONTAINS(out, "metric,base #2,reps #5\n");
    free(out);
    free(err);

    char *c6[] = { "compare", "--db", missing, "1", NULL };
    CHECK(run_cmd(cmd_compare, c6, NULL, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "no such database");
    free(err);
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", tmpdir);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fleetsim-test-store-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_results_arrays();
    test_thousands();
    test_write_and_summary();
    test_failed_write_rolls_back();
    test_unwritable();
    test_locked();
    test_refused_files();
    test_compare_formats();
    test_commands();
    remove_tmpdir();
    return check_report("store");
}
