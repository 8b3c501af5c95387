/* store.c -- the results database (SQLite); see store.h.
 *
 * How it is built, and why:
 * - The schema, and recognising, creating and migrating a file, are in
 *   store_schema.c; removing and importing runs in store_edit.c; keeping a
 *   run its database cannot take in store_keep.c.  This file opens the
 *   database, writes a run, and reads runs back.
 * - A run is written as BEGIN IMMEDIATE ... COMMIT: the write lock is taken
 *   up front (waiting at most the busy timeout for another writer), every
 *   row goes through one prepared statement per table, and any failure
 *   rolls the whole run back.
 * - The busy timeout is long by default (FS_BUSY_TIMEOUT_DEFAULT_S): a
 *   run that has finished simulating waits for the other runs of a sweep
 *   to store theirs rather than being thrown away.
 * - Every message names the file (users keep several databases) and says
 *   what the user can do: which directory is read-only, which limit was
 *   reached, how long we waited and which knob sets it. */
#include "sim/store/store_impl.h"
#include "sim/base/grammar.h"
#include "sim/base/textout.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef PACKAGE_VERSION
#define FS_VERSION_STRING PACKAGE_VERSION
#else
#define FS_VERSION_STRING "dev"
#endif

#define SUGGEST_NAMES 10               /* names listed for an unknown run */
#define OPEN_ATTEMPTS 4    /* opens of a new file another process removed */

/* ---- the busy timeout ------------------------------------------------- */

static double busy_timeout_s = -1;    /* < 0: the environment, or default */

void fs_store_set_busy_timeout(double seconds)
{
    busy_timeout_s = seconds;
}

/* The busy timeout in ms for stores opened now: what
 * fs_store_set_busy_timeout set, else FLEETSIM_BUSY_TIMEOUT, else the
 * default. */
static int busy_timeout_ms(int *ms, fs_error *err)
{
    double sec = busy_timeout_s;
    if (sec < 0) {
        const char *env = getenv("FLEETSIM_BUSY_TIMEOUT");
        sec = FS_BUSY_TIMEOUT_DEFAULT_S;
        char why[256];
        if (env && *env && fs_parse_duration(env, &sec, why, sizeof why))
            return fs_error_set(err, "FLEETSIM_BUSY_TIMEOUT: %s", why);
    }
    *ms = sec * 1000 >= INT_MAX ? INT_MAX : (int)lround(sec * 1000);
    return 0;
}

/* ---- errors ---------------------------------------------------------- */

/* Set when a write went past the file-size limit.  SQLite reports such a
 * write as a plain I/O error, and the errno it keeps may have been
 * overwritten by the time it is read; the signal is not. */
static volatile sig_atomic_t file_size_limit_hit;

static void on_file_size_limit(int sig)
{
    (void)sig;
    file_size_limit_hit = 1;
}

void fs_store_catch_file_size_limit(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_file_size_limit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGXFSZ, &sa, NULL);
}

/* The directory of path (malloc'd), "." for a bare name. */
static char *dir_of(const char *path)
{
    char *dir = strdup(path);
    if (!dir)
        return NULL;
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return dir;
}

/* A database SQLite may not write: the file itself, or its directory,
 * where WAL mode needs to create FILE-wal and FILE-shm. */
static int explain_readonly(const fs_store *s, fs_error *err,
                            const char *msg)
{
    static const char what[] = "cannot write the results database";
    if (access(s->path, W_OK) != 0 && errno != ENOENT)
        return fs_error_set(err, "%s: %s: %s (the file is not writable: %s)",
                            s->path, what, msg, strerror(errno));
    char *dir = dir_of(s->path);
    int told = 0;
    if (dir && access(dir, W_OK | X_OK) != 0) {
        fs_error_set(err, "%s: %s: its directory %s is not writable (%s), "
                     "and SQLite keeps %s-wal and %s-shm there", s->path,
                     what, dir, strerror(errno), s->path, s->path);
        told = 1;
    }
    free(dir);
    return told ? -1 : fs_error_set(err, "%s: %s: %s", s->path, what, msg);
}

int fs_store_sql_error(const fs_store *s, fs_error *err, int rc,
                       const char *what)
{
    const char *msg = s->db && sqlite3_errcode(s->db) != SQLITE_OK
                          ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    int sys = s->db ? sqlite3_system_errno(s->db) : 0;
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED: {
        char waited[32];
        fs_format_duration(s->busy_ms / 1000.0, waited, sizeof waited);
        return fs_error_set(err, "%s: database is locked by another process "
                            "(waited %s; FLEETSIM_BUSY_TIMEOUT or run "
                            "--busy-timeout sets how long)", s->path,
                            waited);
    }
    case SQLITE_READONLY:
        return explain_readonly(s, err, msg);
    case SQLITE_NOTADB:
        return fs_error_set(err, "%s: not a fleetsim database (%s)",
                            s->path, sqlite3_errstr(SQLITE_NOTADB));
    case SQLITE_IOERR:
    case SQLITE_FULL:
        if (file_size_limit_hit || ((rc & 0xff) == SQLITE_IOERR &&
                                    sys == EFBIG))
            return fs_error_set(err, "%s: %s: %s (the file-size limit, "
                                "ulimit -f, is reached)", s->path, what,
                                strerror(EFBIG));
        /* SQLite keeps an errno for I/O errors only: a full disk is
         * SQLITE_FULL, "database or disk is full". */
        if ((rc & 0xff) == SQLITE_IOERR && sys)
            return fs_error_set(err, "%s: %s: %s", s->path, what,
                                strerror(sys));
        return fs_error_set(err, "%s: %s: %s", s->path, what, msg);
    case SQLITE_CANTOPEN:
        if (sys)
            return fs_error_set(err, "%s: %s: %s (%s)", s->path, what, msg,
                                strerror(sys));
        return fs_error_set(err, "%s: %s: %s", s->path, what, msg);
    default:
        return fs_error_set(err, "%s: %s: %s", s->path, what, msg);
    }
}

/* ---- small helpers ---------------------------------------------------- */

int fs_store_exec(fs_store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

int fs_store_query_int(fs_store *s, const char *sql, long long *out)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    } else if (rc == SQLITE_DONE) {
        *out = 0;
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return rc;
}

int fs_store_rollback(fs_store *s)
{
    if (s->db && !sqlite3_get_autocommit(s->db))
        return fs_store_exec(s, "ROLLBACK");
    return SQLITE_OK;
}

/* ---- opening ---------------------------------------------------------- */

/* Why a new database cannot be created at s->path, when its directory is
 * the reason: SQLite's errno is that of its last attempt, which after a
 * refused read-write open is a read-only open's "No such file". */
static int explain_cantopen(const fs_store *s, fs_error *err)
{
    struct stat st;
    if (stat(s->path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
        return 0;
    char *dir = dir_of(s->path);
    if (!dir)
        return 0;
    int told = 1;
    if (stat(dir, &st) != 0)
        fs_error_set(err, "%s: cannot create the results database: %s: %s",
                     s->path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        fs_error_set(err, "%s: cannot create the results database: %s is "
                     "not a directory", s->path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        fs_error_set(err, "%s: cannot create the results database: "
                     "directory %s is not writable (%s)", s->path, dir,
                     strerror(errno));
    else
        told = 0;
    free(dir);
    return told;
}

/* Opens read-write and makes the schema current.  A new file whose first
 * write failed in another process is removed by it (store_schema.c): we
 * then open the path again. */
static int open_readwrite(fs_store *s, int create, fs_error *err)
{
    for (int attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
        struct stat st;
        int existed = stat(s->path, &st) == 0;
        if (!existed && !create)
            return fs_error_set(err, "%s: no such database", s->path);
        if (!create && S_ISREG(st.st_mode) && st.st_size == 0)
            return fs_error_set(err, "%s: empty database, no fleetsim runs "
                                "yet", s->path);
        int rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE |
                                 (create ? SQLITE_OPEN_CREATE : 0), NULL);
        if ((rc & 0xff) == SQLITE_CANTOPEN && explain_cantopen(s, err))
            return -1;
        if (rc != SQLITE_OK)
            return fs_store_sql_error(s, err, rc, "cannot open the results "
                                      "database");
        sqlite3_busy_timeout(s->db, s->busy_ms);
        if (stat(s->path, &st) == 0) {
            s->dev = st.st_dev;
            s->ino = st.st_ino;
        }
        rc = fs_schema_ready(s, !existed, err);
        if (rc != FS_SCHEMA_RETRY)
            return rc;
        sqlite3_close(s->db);
        s->db = NULL;
    }
    return fs_error_set(err, "%s: cannot create the results database: "
                        "other processes keep removing it", s->path);
}

/* "file:" URI for path with SQLite's URI metacharacters escaped. */
static char *path_uri(const char *path, const char *query)
{
    size_t n = strlen(path), q = strlen(query);
    char *uri = malloc(5 + 3 * n + 1 + q + 1);
    if (!uri)
        return NULL;
    char *p = uri + sprintf(uri, "file:");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (isalnum(*c) || strchr("/-_.~", *c))
            *p++ = (char)*c;
        else
            p += sprintf(p, "%%%02X", *c);
    }
    sprintf(p, "?%s", query);
    return uri;
}

/* Reopens s->path as immutable: for a WAL database in a directory we may
 * not write, where SQLite cannot create the -shm file a reader needs.
 * Only when no -wal file exists, so there is nothing it could miss. */
static int reopen_immutable(fs_store *s)
{
    size_t n = strlen(s->path);
    char *wal = malloc(n + 5);
    if (!wal)
        return SQLITE_NOMEM;
    memcpy(wal, s->path, n);
    memcpy(wal + n, "-wal", 5);
    struct stat st;
    int has_wal = stat(wal, &st) == 0;
    free(wal);
    if (has_wal)
        return SQLITE_CANTOPEN;

    char *uri = path_uri(s->path, "immutable=1");
    if (!uri)
        return SQLITE_NOMEM;
    sqlite3_close(s->db);
    s->db = NULL;
    int rc = sqlite3_open_v2(uri, &s->db,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    return rc;
}

static int open_readonly(fs_store *s, fs_error *err)
{
    struct stat st;
    if (stat(s->path, &st) != 0) {
        if (errno == ENOENT)
            return fs_error_set(err, "%s: no such database (run `fleetsim "
                                "run` first)", s->path);
        return fs_error_set(err, "%s: cannot open the results database: %s",
                            s->path, strerror(errno));
    }
    if (S_ISDIR(st.st_mode))
        return fs_error_set(err, "%s: is a directory, not a results "
                            "database", s->path);

    int rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot open the results "
                                  "database");
    sqlite3_busy_timeout(s->db, s->busy_ms);

    long long version = 0;
    rc = fs_store_query_int(s, "PRAGMA user_version", &version);
    if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) {
        fs_store_sql_error(s, err, rc, "cannot read the results database");
        if (reopen_immutable(s) != SQLITE_OK)
            return -1;
        sqlite3_busy_timeout(s->db, s->busy_ms);
    }
    if (fs_schema_look(s, &version, err))
        return -1;
    fs_store_exec(s, "PRAGMA foreign_keys = ON");   /* on every connection */
    if (version == 0)
        return fs_error_set(err, "%s: empty database, no fleetsim runs yet "
                            "(run `fleetsim run` first)", s->path);
    if (version < FS_SCHEMA_VERSION)
        return fs_error_set(err, "%s: database schema version %lld is older "
                            "than this fleetsim (version %d); `fleetsim run` "
                            "with this --db upgrades it", s->path, version,
                            FS_SCHEMA_VERSION);
    return 0;
}


fs_store *fs_store_open(const char *path, int mode, fs_error *err)
{
    assert(path);
    fs_store *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        fs_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    s->readonly = mode == FS_STORE_READONLY;
    int rc = busy_timeout_ms(&s->busy_ms, err);
    if (rc == 0)
        rc = s->readonly ? open_readonly(s, err)
                         : open_readwrite(s, mode == FS_STORE_CREATE, err);
    if (rc) {
        fs_store_close(s);
        return NULL;
    }
    return s;
}

void fs_store_close(fs_store *s)
{
    if (!s)
        return;
    if (s->db) {
        fs_store_rollback(s);
        int rc = sqlite3_close(s->db);
        assert(rc == SQLITE_OK);   /* every statement is finalized */
        (void)rc;
    }
    free(s->path);
    free(s);
}

sqlite3 *fs_store_db(fs_store *s)
{
    return s->db;
}

const char *fs_store_path(const fs_store *s)
{
    return s->path;
}

void fs_store_fail_after(fs_store *s, long nrows)
{
    s->fail_after = nrows;
}

int fs_store_check_writable(fs_store *s, fs_error *err)
{
    assert(s);
    if (s->readonly)
        return fs_error_set(err, "%s: cannot write the results database: "
                            "opened read-only", s->path);
    /* Another process holding the lock now is no reason not to simulate:
     * the run waits for it when it is stored (the busy timeout), and is
     * kept elsewhere if it cannot be.  So this does not wait. */
    sqlite3_busy_timeout(s->db, 0);
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    sqlite3_busy_timeout(s->db, s->busy_ms);
    if ((rc & 0xff) == SQLITE_BUSY)
        return 0;
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot write the results "
                                  "database");
    fs_store_rollback(s);
    return 0;
}

/* ---- writing a run ---------------------------------------------------- */

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

static int insert_run(fs_store *s, const fs_results *r, long long *run_id)
{
    static const char sql[] =
        "INSERT INTO run (name, scenario, scenario_text, seed, replication,"
        " started_at, finished_at, fleetsim_version, start_date, horizon_s,"
        " months, requests, requests_dropped, latency_mean_s, latency_p50_s,"
        " latency_p99_s, wait_mean_s, slo_attainment, events)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?)";
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
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
    rc = step_row(st, rc);
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        *run_id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

static int insert_costs(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO cost_monthly (run_id, month, pool, pricing, cost_usd,"
        " gpu_hours) VALUES (?,?,?,?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->ncosts; i++) {
        const fs_cost_row *c = &r->costs[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(c, month), &rc);
        bind_text(st, 3, FIELD(c, pool), &rc);
        bind_text(st, 4, FIELD(c, pricing), &rc);
        bind_real(st, 5, c->cost_usd, &rc);
        bind_real(st, 6, c->gpu_hours, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_util(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO utilization (run_id, pool, t_s, instances_up,"
        " gpus_provisioned, gpus_busy, queue_len) VALUES (?,?,?,?,?,?,?)",
        -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nutil; i++) {
        const fs_util_row *u = &r->util[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, u->pool, FS_NAME_MAX, &rc);
        bind_real(st, 3, u->t_s, &rc);
        bind_real(st, 4, u->instances_up, &rc);
        bind_real(st, 5, u->gpus_provisioned, &rc);
        bind_real(st, 6, u->gpus_busy, &rc);
        bind_real(st, 7, u->queue_len, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_latency(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO latency (run_id, workload, count, mean_s, p50_s, p90_s,"
        " p95_s, p99_s, p999_s, slo_s, slo_attainment, ttft_p50_s,"
        " ttft_p99_s, tpot_p50_s, tpot_p99_s, arrivals, dropped, unfinished,"
        " wait_mean_s, mean_batch_size)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?)",
        -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(l, workload), &rc);
        bind_int(st, 3, l->count, &rc);
        bind_real(st, 4, l->mean_s, &rc);
        bind_real(st, 5, l->p50_s, &rc);
        bind_real(st, 6, l->p90_s, &rc);
        bind_real(st, 7, l->p95_s, &rc);
        bind_real(st, 8, l->p99_s, &rc);
        bind_real(st, 9, l->p999_s, &rc);
        bind_real(st, 10, l->slo_s, &rc);
        bind_real(st, 11, l->slo_attainment, &rc);
        bind_real(st, 12, l->ttft_p50_s, &rc);
        bind_real(st, 13, l->ttft_p99_s, &rc);
        bind_real(st, 14, l->tpot_p50_s, &rc);
        bind_real(st, 15, l->tpot_p99_s, &rc);
        bind_int(st, 16, l->arrivals, &rc);
        bind_int(st, 17, l->dropped, &rc);
        bind_int(st, 18, l->unfinished, &rc);
        bind_real(st, 19, l->wait_mean_s, &rc);
        bind_real(st, 20, l->mean_batch_size, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_pools(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO pool (run_id, pool, gpu, pricing, instance, price_usd_h,"
        " gpu_hours_provisioned, gpu_hours_busy, launches, interruptions)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(p, pool), &rc);
        bind_text(st, 3, FIELD(p, gpu), &rc);
        bind_text(st, 4, FIELD(p, pricing), &rc);
        bind_text(st, 5, FIELD(p, instance), &rc);
        bind_real(st, 6, p->price_usd_h, &rc);
        bind_real(st, 7, p->gpu_hours_provisioned, &rc);
        bind_real(st, 8, p->gpu_hours_busy, &rc);
        bind_int(st, 9, p->launches, &rc);
        bind_int(st, 10, p->interruptions, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_jobs(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO job (run_id, workload, job_id, submit_s, start_s, end_s,"
        " gpus, gpu_hours, interruptions, lost_gpu_hours, deadline_s,"
        " met_deadline) VALUES (?,?,?,?,?,?, ?,?,?,?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->njobs; i++) {
        const fs_job_row *j = &r->jobs[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(j, workload), &rc);
        bind_text(st, 3, FIELD(j, job_id), &rc);
        bind_real(st, 4, j->submit_s, &rc);
        bind_real(st, 5, j->start_s, &rc);
        bind_real(st, 6, j->end_s, &rc);
        bind_int(st, 7, j->gpus, &rc);
        bind_real(st, 8, j->gpu_hours, &rc);
        bind_int(st, 9, j->interruptions, &rc);
        bind_real(st, 10, j->lost_gpu_hours, &rc);
        bind_real(st, 11, j->deadline_s, &rc);
        if (rc == SQLITE_OK)
            rc = j->met_deadline < 0 ? sqlite3_bind_null(st, 12)
                                     : sqlite3_bind_int(st, 12,
                                                        j->met_deadline != 0);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
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
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot write the run");
    rc = insert_run(s, r, &id);
    if (rc == SQLITE_OK)
        rc = insert_costs(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_latency(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_util(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_jobs(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_pools(s, r, id);
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

/* ---- finding runs ----------------------------------------------------- */

/* Looks up one run id with a query taking one parameter: an integer when
 * text is NULL, else text.  *found is 0 when no row matches. */
static int lookup(fs_store *s, const char *sql, long long num,
                  const char *text, long long *id, int *found)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = text ? sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC)
              : sqlite3_bind_int64(st, 1, num);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    *found = rc == SQLITE_ROW;
    if (*found)
        *id = sqlite3_column_int64(st, 0);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

/* The message for a name that matches no run: the nearest name as a
 * likely typo, else the most recent names. */
static int unknown_name(fs_store *s, const char *name, fs_error *err)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "SELECT name FROM run GROUP BY name"
                                " ORDER BY max(run_id) DESC", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot read runs");
    size_t n = 0, cap = 0;
    char **names = NULL;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (n + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **p = realloc(names, ncap * sizeof *p);
            if (!p)
                break;
            names = p;
            cap = ncap;
        }
        if (!(names[n] = strdup(t ? t : "")))
            break;
        names[++n] = NULL;
    }
    sqlite3_finalize(st);

    const char *near = n ? fs_nearest_name(name, (const char *const *)names)
                         : NULL;
    if (near) {
        fs_error_set(err, "no run named '%s' in %s; did you mean '%s'?", name,
                     s->path, near);
    } else if (n == 0) {
        fs_error_set(err, "no run named '%s' in %s: it holds no runs yet",
                     name, s->path);
    } else {
        char list[640] = "";
        size_t len = 0;
        for (size_t i = 0; i < n && i < SUGGEST_NAMES && len < sizeof list;
             i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i ? ", " : "", names[i]);
        if (n > SUGGEST_NAMES && len < sizeof list)
            snprintf(list + len, sizeof list - len, ", ... (%zu names; see "
                     "`fleetsim runs`)", n);
        fs_error_set(err, "no run named '%s' in %s; runs: %s", name, s->path,
                     list);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return -1;
}

int fs_store_find_run(fs_store *s, const char *run, long *run_id,
                      fs_error *err)
{
    assert(s && run && run_id);
    static const char by_id[] = "SELECT run_id FROM run WHERE run_id = ?";
    /* The most recent run of that name, its lowest replication. */
    static const char by_name[] = "SELECT run_id FROM run WHERE name = ?"
                                  " ORDER BY replication ASC, run_id DESC"
                                  " LIMIT 1";
    if (!*run)
        return fs_error_set(err, "empty run name (give a run id or name; "
                            "see `fleetsim runs`)");
    long long id = 0;
    int found = 0, rc = SQLITE_OK;
    size_t digits = strspn(run, "0123456789");
    if (run[digits] == '\0') {
        errno = 0;
        long long num = strtoll(run, NULL, 10);
        if (errno == 0 && num <= LONG_MAX)
            rc = lookup(s, by_id, num, NULL, &id, &found);
        /* a run may also be named "2026" */
        if (rc == SQLITE_OK && !found)
            rc = lookup(s, by_name, 0, run, &id, &found);
        if (rc != SQLITE_OK)
            return fs_store_sql_error(s, err, rc, "cannot read runs");
        if (!found)
            return fs_error_set(err, "no run with id %s in %s", run,
                                s->path);
    } else {
        rc = lookup(s, by_name, 0, run, &id, &found);
        if (rc != SQLITE_OK)
            return fs_store_sql_error(s, err, rc, "cannot read runs");
        if (!found)
            return unknown_name(s, run, err);
    }
    *run_id = (long)id;
    return 0;
}

/* ---- reading summaries ------------------------------------------------ */

void fs_summary_free(fs_summary *sm)
{
    if (!sm)
        return;
    for (int i = 0; i < FS_SUMMARY_COLUMNS; i++) {
        free(sm->col[i]);
        sm->col[i] = NULL;
    }
}

int fs_store_summary(fs_store *s, long run_id, fs_summary *out, fs_error *err)
{
    assert(s && out);
    /* Name the columns, so their order is fs_summary_columns'. */
    char sql[1024];
    size_t len = (size_t)snprintf(sql, sizeof sql, "SELECT ");
    for (int i = 0; i < FS_SUMMARY_COLUMNS; i++)
        len += (size_t)snprintf(sql + len, sizeof sql - len, "%s%s",
                                i ? ", " : "", fs_summary_columns[i].name);
    snprintf(sql + len, sizeof sql - len,
             " FROM run_summary WHERE run_id = ?");
    assert(len < sizeof sql - 40);

    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(st, 1, run_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(st);
        return fs_error_set(err, "no run with id %ld in %s", run_id, s->path);
    }
    if (rc != SQLITE_ROW) {
        fs_store_sql_error(s, err, rc, "cannot read the run summary");
        sqlite3_finalize(st);
        return -1;
    }
    for (int i = 0; i < FS_SUMMARY_COLUMNS; i++) {
        const char *t = (const char *)sqlite3_column_text(st, i);
        if (t && !(out->col[i] = strdup(t))) {
            sqlite3_finalize(st);
            fs_summary_free(out);
            return fs_error_set(err, "%s: out of memory", s->path);
        }
    }
    sqlite3_finalize(st);
    return 0;
}

/* ---- listing runs ----------------------------------------------------- */

char *fs_format_thousands(double v, int decimals, char *buf, size_t size)
{
    assert(buf && size > 0 && decimals >= 0 && decimals <= 12);
    if (!isfinite(v)) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
        return buf;
    }
    char digits[400];
    snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
    const char *dot = strchr(digits, '.');
    size_t whole = dot ? (size_t)(dot - digits) : strlen(digits);
    /* "-0.00" reads as a loss: only signs of nonzero amounts */
    int negative = v < 0 && strspn(digits, "0.") != strlen(digits);

    char tmp[600];
    size_t n = 0;
    if (negative)
        tmp[n++] = '-';
    for (size_t i = 0; i < whole; i++) {
        if (i > 0 && (whole - i) % 3 == 0)
            tmp[n++] = ',';
        tmp[n++] = digits[i];
    }
    snprintf(tmp + n, sizeof tmp - n, "%s", dot ? dot : "");
    snprintf(buf, size, "%s", tmp);
    return buf;
}

#define LIST_COLUMNS 8

/* A text table: rows of LIST_COLUMNS cells, each owned. */
typedef struct list_table {
    char **cell;
    size_t nrows, cap;
} list_table;

static void list_table_free(list_table *t)
{
    for (size_t i = 0; i < t->nrows * LIST_COLUMNS; i++)
        free(t->cell[i]);
    free(t->cell);
}

static int list_table_add(list_table *t, char *const row[LIST_COLUMNS])
{
    if (t->nrows == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 16;
        char **p = realloc(t->cell, ncap * LIST_COLUMNS * sizeof *p);
        if (!p)
            return -1;
        t->cell = p;
        t->cap = ncap;
    }
    char **dst = t->cell + t->nrows * LIST_COLUMNS;
    for (int c = 0; c < LIST_COLUMNS; c++) {
        if (!(dst[c] = strdup(row[c]))) {
            while (c--)
                free(dst[c]);
            return -1;
        }
    }
    t->nrows++;
    return 0;
}

/* "2026-01-02T03:04:05Z" -> "2026-01-02 03:04" */
static void format_timestamp(const char *iso, char *buf, size_t size)
{
    if (!iso) {
        snprintf(buf, size, "-");
        return;
    }
    snprintf(buf, size, "%.16s", iso);
    if (strlen(buf) == 16 && buf[10] == 'T')
        buf[10] = ' ';
}

static void format_money_cell(sqlite3_stmt *st, int col, char *buf,
                              size_t size)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        snprintf(buf, size, "-");
    else
        fs_format_thousands(sqlite3_column_double(st, col), 2, buf, size);
}

int fs_store_list_runs(fs_store *s, FILE *out, fs_error *err)
{
    assert(s && out);
    static const char *const header[LIST_COLUMNS] = {
        "id", "name", "scenario", "seed", "rep", "finished (UTC)",
        "total cost $", "monthly run rate (730 h) $",
    };
    static const int right[LIST_COLUMNS] = { 1, 0, 0, 1, 1, 0, 1, 1 };

    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "SELECT r.run_id, r.name, r.scenario, r.seed, r.replication,"
        " r.finished_at, s.total_cost_usd, s.cost_per_month_usd"
        " FROM run r JOIN run_summary s ON s.run_id = r.run_id"
        " ORDER BY r.run_id", -1, &st, NULL);
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, "cannot list runs");

    list_table t = { 0 };
    int failed = list_table_add(&t, (char *const *)header);
    while (!failed && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        char id[24], seed[24], rep[24], fin[24], total[64], month[64];
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *scen = (const char *)sqlite3_column_text(st, 2);
        snprintf(id, sizeof id, "%lld", sqlite3_column_int64(st, 0));
        snprintf(seed, sizeof seed, "%lld", sqlite3_column_int64(st, 3));
        snprintf(rep, sizeof rep, "%lld", sqlite3_column_int64(st, 4));
        format_timestamp((const char *)sqlite3_column_text(st, 5), fin,
                         sizeof fin);
        format_money_cell(st, 6, total, sizeof total);
        format_money_cell(st, 7, month, sizeof month);
        /* escaped: a newline in a name must not break the line */
        char *ename = fs_text_escape(name ? name : "-");
        char *escen = fs_text_escape(scen ? scen : "-");
        char *row[LIST_COLUMNS] = { id, ename, escen, seed, rep, fin, total,
                                    month };
        failed = !ename || !escen || list_table_add(&t, row);
        free(ename);
        free(escen);
    }
    sqlite3_finalize(st);
    if (failed) {
        list_table_free(&t);
        return fs_error_set(err, "%s: out of memory listing runs", s->path);
    }
    if (rc != SQLITE_DONE) {
        list_table_free(&t);
        return fs_store_sql_error(s, err, rc, "cannot list runs");
    }
    if (t.nrows == 1) {
        fprintf(out, "no runs in %s yet\n", s->path);
        list_table_free(&t);
        return 0;
    }

    int width[LIST_COLUMNS] = { 0 };
    for (size_t r = 0; r < t.nrows; r++)
        for (int c = 0; c < LIST_COLUMNS; c++) {
            int w = (int)fs_text_width(t.cell[r * LIST_COLUMNS + c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < t.nrows; r++) {
        for (int c = 0; c < LIST_COLUMNS; c++) {
            const char *v = t.cell[r * LIST_COLUMNS + c];
            int last = c == LIST_COLUMNS - 1;
            /* printf pads bytes: widen by the bytes that take no column */
            int w = width[c] + (int)(strlen(v) - fs_text_width(v));
            fprintf(out, "%s%*s", c ? "  " : "",
                    right[c] ? w : (last ? 0 : -w), v);
        }
        fputc('\n', out);
    }
    list_table_free(&t);
    return ferror(out) ? fs_error_set(err, "cannot print the runs") : 0;
}
