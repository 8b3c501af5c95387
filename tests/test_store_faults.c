/* test_store_faults.c -- the results database when things go wrong around
 * it: another process holding the write lock when a finished run is
 * stored (kept aside, or stored once the lock is released), another
 * fleetsim creating the schema in the middle of our open, a full disk on
 * the first write and on a run, a damaged schema, and the memory a run
 * with many replications holds.
 *
 * Interleavings are made deterministic rather than hoped for: a trace hook
 * runs "the other process" between two given statements of ours, and a
 * forked locker tells us through a pipe when it holds the lock.
 *
 * Every test stands alone in a directory of its own (store_common.h):
 * `tests/test_store_faults NAME` runs one, `--list` names them. */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "sim/cli/commands.h"
#include "tests/store_common.h"

/* A small run with nutil utilization samples. */
static void make_small_results(fs_results *r, const char *name,
                               size_t nutil)
{
    fs_results_init(r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->scenario, sizeof r->scenario, "s.ini");
    r->scenario_text = strdup("[scenario]\n");
    r->horizon_s = 3600;
    r->months = 1;
    r->latency_mean_s = r->latency_p50_s = r->latency_p99_s = NAN;
    r->wait_mean_s = r->slo_attainment = NAN;
    fs_cost_row *c = fs_results_add_cost(r);
    snprintf(c->month, sizeof c->month, "2026-01");
    snprintf(c->pool, sizeof c->pool, "p");
    snprintf(c->pricing, sizeof c->pricing, "on-demand");
    c->cost_usd = 12.5;
    for (size_t i = 0; i < nutil; i++) {
        fs_util_row *u = fs_results_add_util(r);
        u->pool = "p";
        u->t_s = 60.0 * (double)(i + 1);
        u->gpus_provisioned = 1;
    }
}

/* What the SQLite hook (on_new_connection) does to connections opened
 * from now on. */
static struct {
    int armed;              /* trace connections opened from now on */
    int at, count;          /* interfere before our at-th statement */
    int unlink;             /* interfere by removing the file (else: open) */
    int max_pages;          /* > 0: every new connection gets this limit */
    const char *path;
    int other_opened;       /* the interfering fleetsim's open succeeded */
} hook;

/* ---- a lock held by another process ------------------------------------ */

typedef struct locker {
    pid_t pid;
    int release;        /* write end: a byte tells the child to release */
    int told;           /* it waits to be told (else it times itself) */
} locker;

/* Forks a process that takes path's write lock and holds it until told
 * to release (hold_s < 0) or for hold_s seconds.  Returns once the child
 * holds the lock. */
static int lock_in_child(const char *path, double hold_s, locker *l)
{
    int ready[2], release[2];
    if (pipe(ready) || pipe(release))
        return -1;
    fflush(stdout);
    l->pid = fork();
    if (l->pid == 0) {
        close(ready[0]);
        close(release[1]);
        sqlite3 *db;
        char ok = 'L';
        if (sqlite3_open(path, &db) != SQLITE_OK ||
            sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
            ok = 'E';
        if (write(ready[1], &ok, 1) != 1)
            _exit(2);
        if (hold_s < 0) {
            char c;
            if (read(release[0], &c, 1) < 0)
                _exit(2);
        } else {
            usleep((useconds_t)(hold_s * 1e6));
        }
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        _exit(ok == 'L' ? 0 : 1);
    }
    close(ready[1]);
    close(release[0]);
    l->release = release[1];
    l->told = hold_s < 0;
    char c = 0;
    ssize_t got = read(ready[0], &c, 1);
    close(ready[0]);
    return l->pid > 0 && got == 1 && c == 'L' ? 0 : -1;
}

static int unlock_child(locker *l)
{
    char c = 'R';
    if (l->told && write(l->release, &c, 1) != 1)
        printf("  could not tell the locker to release\n");
    close(l->release);
    int status = 0;
    waitpid(l->pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_kept_when_locked(void)
{
    const char *path = tmp_path("locked.db");
    fs_error err, why;
    fs_store_set_busy_timeout(0.5);
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    locker l;
    CHECK(lock_in_child(path, -1, &l) == 0);
    CHECK(fs_store_check_writable(s, &err) == 0);   /* locked: simulate on */

    fs_results r;
    make_small_results(&r, "held", 10);
    fs_keeper k;
    fs_keeper_init(&k, path);
    long id = 0;
    CHECK(fs_store_or_keep(s, &k, &r, &id, &why) == 1);
    char want[600];
    snprintf(want, sizeof want, "%s: database is locked by another process "
             "(waited 500ms; FLEETSIM_BUSY_TIMEOUT or run --busy-timeout sets "
             "how long)", path);
    CHECK(strcmp(why.msg, want) == 0);
    if (strcmp(why.msg, want) != 0)
        printf("  got: %s\n", why.msg);
    snprintf(want, sizeof want, "%s/locked.kept-%ld.db", store_tmpdir,
             (long)getpid());
    CHECK(strcmp(k.path, want) == 0);
    CHECK(id == 1);
    /* a later replication goes to the same file, without waiting again */
    CHECK(fs_store_or_keep(s, &k, &r, &id, &why) == 1);
    CHECK(why.msg[0] == '\0' && id == 2);
    fs_keeper_close(&k);

    CHECK(unlock_child(&l) == 0);
    CHECK(runs_in(path) == 0);
    CHECK(runs_in(want) == 2);
    /* the kept file is a fleetsim database for every command */
    fs_store *kept = fs_store_open(want, FS_STORE_READONLY, &err);
    CHECK(kept != NULL);
    long found = 0;
    if (kept)
        CHECK(fs_store_find_run(kept, "held", &found, &err) == 0);
    fs_store_close(kept);
    /* and imports into the database it was meant for */
    CHECK(fs_store_import(s, want, stdout, &err) == 0);
    CHECK(runs_in(path) == 2);
    CHECK(query_ll(fs_store_db(s), "SELECT count(*) FROM utilization") == 20);
    CHECK(fs_store_import(s, path, stdout, &err) == -1);
    CHECK_CONTAINS(err.msg, "is the database itself");
    fs_results_free(&r);
    fs_store_close(s);
    fs_store_set_busy_timeout(-1);
}

static void test_stored_when_released_in_time(void)
{
    const char *path = tmp_path("released.db");
    fs_error err, why;
    fs_store_set_busy_timeout(120);
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    /* held for a second after we know it holds it: the write waits */
    locker l;
    CHECK(lock_in_child(path, 1.0, &l) == 0);
    fs_results r;
    make_small_results(&r, "waited", 10);
    fs_keeper k;
    fs_keeper_init(&k, path);
    long id = 0;
    CHECK(fs_store_or_keep(s, &k, &r, &id, &why) == 0);
    CHECK(id == 1 && k.kept == NULL);
    CHECK(unlock_child(&l) == 0);
    CHECK(runs_in(path) == 1);
    fs_keeper_close(&k);
    fs_results_free(&r);
    fs_store_close(s);
    fs_store_set_busy_timeout(-1);
}

/* Beside the database is taken (a directory of that name): $TMPDIR. */
static void test_kept_elsewhere(void)
{
    const char *path = tmp_path("full.db");
    fs_error err, why;
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    /* A full disk, simulated: the database may not grow by a page. */
    sqlite3 *db = fs_store_db(s);
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
             query_ll(db, "PRAGMA page_count"));
    CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
    fs_results r;
    make_small_results(&r, "big", 2000);
    long id;
    CHECK(fs_store_write_run(s, &r, &id, &err) == -1);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot write the run: database or disk "
             "is full", path);
    CHECK(strcmp(err.msg, want) == 0);
    if (strcmp(err.msg, want) != 0)
        printf("  got: %s\n", err.msg);

    char beside[300], alt[300], elsewhere[400];
    snprintf(beside, sizeof beside, "%s/full.kept-%ld.db", store_tmpdir,
             (long)getpid());
    snprintf(alt, sizeof alt, "%s/alt", store_tmpdir);
    snprintf(elsewhere, sizeof elsewhere, "%s/full.kept-%ld.db", alt,
             (long)getpid());
    CHECK(mkdir(beside, 0755) == 0 && mkdir(alt, 0755) == 0);
    const char *old = getenv("TMPDIR");
    char *saved = old ? strdup(old) : NULL;
    setenv("TMPDIR", alt, 1);
    fs_keeper k;
    fs_keeper_init(&k, path);
    CHECK(fs_store_or_keep(s, &k, &r, &id, &why) == 1);
    CHECK(strcmp(why.msg, want) == 0);
    CHECK(strcmp(k.path, elsewhere) == 0);
    fs_keeper_close(&k);
    CHECK(runs_in(elsewhere) == 1);

    /* nowhere to keep it: said, with both reasons */
    rmdir(beside);
    rename(elsewhere, beside);       /* beside is taken by a database now, */
    CHECK(mkdir(elsewhere, 0755) == 0);          /* and alt by a directory */
    sqlite3 *other;
    CHECK(sqlite3_open(beside, &other) == SQLITE_OK);
    CHECK(sqlite3_exec(other, "PRAGMA application_id = 7", NULL, NULL, NULL)
          == SQLITE_OK);            /* not fleetsim's any more */
    sqlite3_close(other);
    fs_keeper_init(&k, path);
    CHECK(fs_store_or_keep(s, &k, &r, &id, &why) == -1);
    CHECK_CONTAINS(why.msg, want);
    CHECK_CONTAINS(why.msg, "; the finished run could not be kept either: ");
    CHECK_CONTAINS(why.msg, "not a fleetsim database");
    fs_keeper_close(&k);

    /* every disk full: a kept file that could not take the run is not
     * left behind, empty */
    char alt2[300], beside2[400], elsewhere2[400];
    snprintf(alt2, sizeof alt2, "%s/alt2", store_tmpdir);
    CHECK(mkdir(alt2, 0755) == 0);
    setenv("TMPDIR", alt2, 1);
    fs_store *s2 = fs_store_open(tmp_path("full2.db"), FS_STORE_CREATE, &err);
    CHECK(s2 != NULL);
    if (s2) {
        db = fs_store_db(s2);
        snprintf(sql, sizeof sql, "PRAGMA max_page_count = %lld",
                 query_ll(db, "PRAGMA page_count"));
        CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
        hook.max_pages = 20;     /* room for the schema, not for the run */
        fs_keeper_init(&k, tmp_path("full2.db"));
        CHECK(fs_store_or_keep(s2, &k, &r, &id, &why) == -1);
        hook.max_pages = 0;
        CHECK_CONTAINS(why.msg, "could not be kept either: ");
        CHECK_CONTAINS(why.msg, "cannot write the run: database or disk is "
                       "full");
        fs_keeper_close(&k);
        snprintf(beside2, sizeof beside2, "%s/full2.kept-%ld.db",
                 store_tmpdir, (long)getpid());
        snprintf(elsewhere2, sizeof elsewhere2, "%s/full2.kept-%ld.db", alt2,
                 (long)getpid());
        CHECK(access(beside2, F_OK) != 0 && access(elsewhere2, F_OK) != 0);
        fs_store_close(s2);
    }
    if (saved) {
        setenv("TMPDIR", saved, 1);
        free(saved);
    } else {
        unsetenv("TMPDIR");
    }
    fs_results_free(&r);
    fs_store_close(s);
}

/* ---- running "another process" between two statements of ours ---------- */


/* Another fleetsim opens (creating the schema if it can) without waiting
 * for any lock. */
static int interfere(unsigned type, void *ctx, void *p, void *x)
{
    (void)type, (void)ctx, (void)p, (void)x;
    if (!hook.armed || ++hook.count != hook.at)
        return 0;
    hook.armed = 0;
    if (hook.unlink) {
        /* as a fleetsim whose first write failed: under the write lock,
         * and only while the file is empty */
        sqlite3 *db;
        if (sqlite3_open_v2(hook.path, &db, SQLITE_OPEN_READWRITE, NULL)
                == SQLITE_OK &&
            sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)
                == SQLITE_OK &&
            query_ll(db, "SELECT count(*) FROM sqlite_master") == 0)
            hook.other_opened += unlink(hook.path) == 0;
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        sqlite3_close(db);
        return 0;
    }
    setenv("FLEETSIM_BUSY_TIMEOUT", "0", 1);
    fs_error e;
    fs_store *other = fs_store_open(hook.path, FS_STORE_CREATE, &e);
    unsetenv("FLEETSIM_BUSY_TIMEOUT");
    hook.other_opened += other != NULL;
    fs_store_close(other);
    return 0;
}

static int on_new_connection(sqlite3 *db, char **msg,
                             const struct sqlite3_api_routines *api)
{
    (void)msg, (void)api;
    if (hook.armed)
        sqlite3_trace_v2(db, SQLITE_TRACE_STMT, interfere, NULL);
    if (hook.max_pages > 0) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA max_page_count = %d",
                 hook.max_pages);
        sqlite3_exec(db, sql, NULL, NULL, NULL);
    }
    return SQLITE_OK;
}

/* Two fleetsims opening a new database at once, the other one running
 * between any two statements of ours: ours always succeeds and the schema
 * is complete. */
static void test_first_use_interleaved(void)
{
    int failures = 0;
    hook.other_opened = 0;
    for (int at = 1; at <= 40; at++) {
        char name[32];
        snprintf(name, sizeof name, "first%d.db", at);
        const char *path = tmp_path(name);
        hook.path = path;
        hook.at = at;
        hook.count = 0;
        hook.armed = 1;
        fs_error err;
        fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
        hook.armed = 0;
        CHECK(s != NULL);
        if (!s) {
            if (failures++ < 3)
                printf("  other process before our statement %d: %s\n", at,
                       err.msg);
            continue;
        }
        CHECK(query_ll(fs_store_db(s), "PRAGMA user_version")
              == FS_SCHEMA_VERSION);
        fs_store_close(s);
        s = fs_store_open(path, FS_STORE_READONLY, &err);   /* complete */
        CHECK(s != NULL);
        fs_store_close(s);
    }
    CHECK(hook.other_opened > 0);     /* it did interfere */
}

/* Another fleetsim removes the new file we have open (its first write
 * failed): we notice, open the path again, and the database is there. */
static void test_first_use_removed_under_us(void)
{
    hook.unlink = 1;
    hook.other_opened = 0;
    for (int at = 1; at <= 40; at++) {
        char name[32];
        snprintf(name, sizeof name, "removed%d.db", at);
        const char *path = tmp_path(name);
        hook.path = path;
        hook.at = at;
        hook.count = 0;
        hook.armed = 1;
        fs_error err;
        fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
        hook.armed = 0;
        CHECK(s != NULL);
        if (!s)
            printf("  removed before our statement %d: %s\n", at, err.msg);
        fs_store_close(s);
        s = fs_store_open(path, FS_STORE_READONLY, &err);   /* on disk */
        CHECK(s != NULL);
        if (!s)
            printf("  removed before our statement %d: %s\n", at, err.msg);
        fs_store_close(s);
    }
    CHECK(hook.other_opened > 0);
    hook.unlink = 0;
}

/* A full disk on the first write into a new file: no empty file is left. */
static void test_full_on_first_write(void)
{
    const char *path = tmp_path("nospace.db");
    fs_error err;
    hook.max_pages = 1;
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    hook.max_pages = 0;
    CHECK(s == NULL);
    fs_store_close(s);
    char want[400];
    snprintf(want, sizeof want, "%s: cannot create the results schema: "
             "database or disk is full", path);
    CHECK(strcmp(err.msg, want) == 0);
    if (strcmp(err.msg, want) != 0)
        printf("  got: %s\n", err.msg);
    CHECK(access(path, F_OK) != 0 && errno == ENOENT);
    char journal[300];
    snprintf(journal, sizeof journal, "%s-journal", path);
    CHECK(access(journal, F_OK) != 0);

    /* an existing empty file is the user's: it stays */
    const char *mine = tmp_path("mine.db");
    int fd = open(mine, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK(fd >= 0);
    close(fd);
    hook.max_pages = 1;
    s = fs_store_open(mine, FS_STORE_CREATE, &err);
    hook.max_pages = 0;
    CHECK(s == NULL);
    fs_store_close(s);
    CHECK(access(mine, F_OK) == 0);
}

/* ---- a damaged schema -------------------------------------------------- */

static void test_damaged_schema(void)
{
    const char *path = tmp_path("damaged.db");
    fs_error err;
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    fs_store_close(s);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "ALTER TABLE utilization DROP COLUMN queue_len",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    char want[400];
    snprintf(want, sizeof want, "%s: not a usable fleetsim database: table "
             "utilization is damaged (no such column: queue_len); restore the "
             "file from a copy, or use another --db", path);
    for (int mode = FS_STORE_CREATE; mode <= FS_STORE_EXISTING; mode++) {
        CHECK(fs_store_open(path, mode, &err) == NULL);
        CHECK(strcmp(err.msg, want) == 0);
        if (strcmp(err.msg, want) != 0)
            printf("  got: %s\n", err.msg);
    }
    const char *path2 = tmp_path("nojob.db");
    s = fs_store_open(path2, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    fs_store_close(s);
    CHECK(sqlite3_open(path2, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "DROP TABLE job", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(fs_store_open(path2, FS_STORE_CREATE, &err) == NULL);
    CHECK_CONTAINS(err.msg, "not a usable fleetsim database: table job is "
                   "missing");
}

/* ---- rm ---------------------------------------------------------------- */

static void test_remove(void)
{
    const char *path = tmp_path("rm.db");
    fs_error err;
    fs_store *s = fs_store_open(path, FS_STORE_CREATE, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    long id;
    for (int i = 0; i < 3; i++) {
        fs_results r;
        make_small_results(&r, i == 1 ? "b" : "a", 5);
        CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
        fs_results_free(&r);
    }
    sqlite3 *db = fs_store_db(s);
    char *bad[] = { "1", "zz" }, *twice[] = { "a", "3", "b" };
    CHECK(fs_store_remove_runs(s, bad, 2, stdout, &err) == -1);
    CHECK_CONTAINS(err.msg, "no run named 'zz'");
    CHECK(query_ll(db, "SELECT count(*) FROM run") == 3);
    CHECK(sqlite3_get_autocommit(db) == 1);
    /* "a" is run 3 (the latest a): named twice, removed once */
    CHECK(fs_store_remove_runs(s, twice, 3, stdout, &err) == 0);
    CHECK(query_ll(db, "SELECT group_concat(run_id) FROM run") == 1);
    CHECK(query_ll(db, "SELECT count(*) FROM utilization") == 5);
    CHECK(query_ll(db, "SELECT count(*) FROM cost_monthly WHERE run_id <> 1")
          == 0);
    fs_store_close(s);
    CHECK(fs_store_open(tmp_path("nothere.db"), FS_STORE_EXISTING, &err)
          == NULL);
    CHECK_CONTAINS(err.msg, "no such database");
    CHECK(access(tmp_path("nothere.db"), F_OK) != 0);
    int fd = open(tmp_path("zero.db"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    close(fd);
    CHECK(fs_store_open(tmp_path("zero.db"), FS_STORE_EXISTING, &err)
          == NULL);
    CHECK_CONTAINS(err.msg, "empty database, no fleetsim runs yet");
    struct stat st;
    CHECK(stat(tmp_path("zero.db"), &st) == 0 && st.st_size == 0);
}

/* ---- memory: one replication at a time --------------------------------- */

static int run_quiet(char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    int save = dup(1), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    int status = cmd_run(argc, argv);
    fflush(stdout);
    dup2(save, 1);
    close(save);
    close(devnull);
    return status;
}

static void test_memory_per_replication(void)
{
    /* rows stay small: no name copied into each sample */
    CHECK(sizeof(fs_util_row) <= 48);

    const char *scen = tmp_path("many.ini");
    FILE *f = fopen(scen, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("[scenario]\nname = many\nhorizon = 1d\nmetrics_interval = 1m\n"
          "[pool.a]\ngpu = L4\ncount = 1\nprice = 0.8\n"
          "[pool.b]\ngpu = L4\ncount = 1\nprice = 0.8\n"
          "[workload.w]\npools = a, b\narrivals = poisson(rate=0.05/s)\n"
          "service = exponential(mean=1s)\n", f);
    fclose(f);
    char db[300];
    snprintf(db, sizeof db, "%s", tmp_path("many.db"));
    size_t peak[2];
    char *reps[2] = { "1", "4" };
    for (int i = 0; i < 2; i++) {
        /* -j 1: in this process, where the peak is counted */
        char *argv[] = { "run", (char *)scen, "--db", db, "--quiet",
                         "--replications", reps[i], "-j", "1", NULL };
        fs_results_reset_peak();
        CHECK(run_quiet(argv) == FS_EXIT_OK);
        peak[i] = fs_results_peak_bytes();
    }
    CHECK(fs_results_bytes() == 0);               /* all freed */
    CHECK(peak[0] >= 2 * 1440 * sizeof(fs_util_row));
    CHECK(peak[1] == peak[0]);       /* 4 replications hold what 1 holds */
    if (peak[1] != peak[0])
        printf("  peak %zu bytes with 1 replication, %zu with 4\n", peak[0],
               peak[1]);
    sqlite3 *d;
    CHECK(sqlite3_open(db, &d) == SQLITE_OK);
    CHECK(query_ll(d, "SELECT count(*) FROM run") == 5);
    CHECK(query_ll(d, "SELECT count(*) FROM utilization") == 5 * 2 * 1440);
    CHECK(query_ll(d, "SELECT count(DISTINCT pool) FROM utilization") == 2);
    sqlite3_close(d);
}

static const store_test tests[] = {
    { "first_use_interleaved", test_first_use_interleaved },
    { "first_use_removed_under_us", test_first_use_removed_under_us },
    { "full_on_first_write", test_full_on_first_write },
    { "damaged_schema", test_damaged_schema },
    { "kept_when_locked", test_kept_when_locked },
    { "stored_when_released_in_time", test_stored_when_released_in_time },
    { "kept_elsewhere", test_kept_elsewhere },
    { "remove", test_remove },
    { "memory_per_replication", test_memory_per_replication },
};

int main(int argc, char **argv)
{
    unsetenv("FLEETSIM_BUSY_TIMEOUT");
    sqlite3_auto_extension((void (*)(void))on_new_connection);
    int status = store_tests_main(argc, argv, tests,
                                  sizeof tests / sizeof *tests,
                                  "store_faults");
    sqlite3_reset_auto_extension();
    return status;
}
