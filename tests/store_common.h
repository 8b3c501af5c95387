/* store_common.h -- what the store's test programs share
 * (test_store.c, test_store_read.c, test_store_faults.c).
 *
 * Every test stands alone: store_tests_main gives each one a fresh
 * mkdtemp directory under /tmp (removed after it), where it opens its own
 * databases and writes the runs it needs, so that any test runs alone
 * (`tests/test_store NAME`), or in any order (`--reverse`), with the same
 * result.  `--list` prints the names.
 *
 * Header-only, as check.h: its counters are per translation unit, and a
 * test program is one. */
#ifndef FS_TESTS_STORE_COMMON_H
#define FS_TESTS_STORE_COMMON_H

#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim/base/vec.h"
#include "sim/fleet/run/results.h"
#include "sim/store/store.h"
#include "tests/check.h"

/* One test: its name on the command line, and the function. */
typedef struct store_test {
    const char *name;
    void (*run)(void);
} store_test;

/* The directory of the test running now. */
static char store_tmpdir[64];

/* store_tmpdir + "/" + name; eight results may be in use at once. */
static inline const char *tmp_path(const char *name)
{
    static char buf[8][256];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, 256, "%s/%s", store_tmpdir, name);
    return p;
}

/* The whole file, NUL-terminated (binary files too: *len has the size). */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 0, n = 0, got = 0;
    char *buf = fs_vec_grow(NULL, &cap, 4096, 1);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        char *p = fs_vec_grow(buf, &cap, n + 2, 1);
        if (!p)
            free(buf);
        buf = p;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

static inline int write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(text, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

/* The first column of the first row as an integer; -12345 when the query
 * fails (said), 0 rows leave it -12345 too. */
static inline long long query_ll(sqlite3 *db, const char *sql)
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

static inline char *query_text(sqlite3 *db, const char *sql)
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

static inline int text_is(sqlite3 *db, const char *sql, const char *want)
{
    char *got = query_text(db, sql);
    int ok = got && strcmp(got, want) == 0;
    if (!ok)
        printf("  %s -> '%s', expected '%s'\n", sql, got ? got : "(null)",
               want);
    free(got);
    return ok;
}

static inline long count_rows(sqlite3 *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    return (long)query_ll(db, sql);
}

/* Runs of the database at path, read by a connection of our own. */
static inline long long runs_in(const char *path)
{
    sqlite3 *db;
    long long n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
        n = query_ll(db, "SELECT count(*) FROM run");
    sqlite3_close(db);
    return n;
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs a command with stdout and stderr sent to files, returns its exit
 * status; *out and *err (if not NULL) get what it printed. */
static inline int run_cmd(int (*cmd)(int, char **), char **argv, char **out,
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

/* A run with 2 months of costs on two pools (1234.56 in all), two pools,
 * latency with and without an SLO, nutil utilization samples and three
 * jobs (met, missed, no deadline): 10 + nutil rows besides the run. */
static inline void make_results(fs_results *r, const char *name, unsigned rep,
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
    r->cost_unrounded_usd = 1234.56;   /* the cost rows' sum, exactly */
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

/* Opens a new database at tmp_path(name) for writing. */
static inline fs_store *open_new(const char *name)
{
    fs_error err = { "" };
    fs_store *s = fs_store_open(tmp_path(name), FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    if (!s)
        printf("  %s\n", err.msg);
    return s;
}

/* Writes make_results(name, rep, nutil) to s; its id, 0 on failure. */
static inline long write_run(fs_store *s, const char *name, unsigned rep,
                             size_t nutil)
{
    fs_results r;
    make_results(&r, name, rep, nutil);
    fs_error err = { "" };
    long id = 0;
    int rc = fs_store_write_run(s, &r, &id, &err);
    CHECK(rc == 0);
    if (rc)
        printf("  %s\n", err.msg);
    fs_results_free(&r);
    return rc ? 0 : id;
}

/* Runs one test in a fresh directory: 0, or -1 when none could be made. */
static inline int store_run_one(const store_test *t, const char *program)
{
    snprintf(store_tmpdir, sizeof store_tmpdir,
             "/tmp/fleetsim-test-%s-XXXXXX", program);
    if (!mkdtemp(store_tmpdir)) {
        perror("mkdtemp");
        return -1;
    }
    t->run();
    fs_store_set_busy_timeout(-1);    /* the next test starts afresh */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", store_tmpdir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", store_tmpdir);
    store_tmpdir[0] = '\0';
    return 0;
}

/* main() of a store test program: no argument runs every test in order,
 * NAME runs that test alone, --reverse runs them all last first, --list
 * prints the names.  Exit status 0 when every check passed, 1 when one
 * failed, 2 for a bad argument. */
static inline int store_tests_main(int argc, char **argv,
                                   const store_test *tests, size_t n,
                                   const char *program)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (argc > 2) {
        fprintf(stderr, "usage: %s [NAME | --reverse | --list]\n", argv[0]);
        return 2;
    }
    if (only && strcmp(only, "--list") == 0) {
        for (size_t i = 0; i < n; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    int reverse = only && strcmp(only, "--reverse") == 0;
    if (reverse)
        only = NULL;
    size_t ran = 0;
    for (size_t k = 0; k < n; k++) {
        const store_test *t = &tests[reverse ? n - 1 - k : k];
        if (only && strcmp(only, t->name) != 0)
            continue;
        if (store_run_one(t, program))
            return 1;
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "%s: no test named '%s' (--list shows them)\n",
                argv[0], only);
        return 2;
    }
    return check_report(program);
}

#endif
