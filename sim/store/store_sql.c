/* store_sql.c -- SQLite's result codes turned into messages, and the
 * small SQL helpers every store file shares; see store_impl.h.
 *
 * Apart from store.c (opening and closing) because the schema
 * (store_schema.c), which opening calls, uses them too: kept below both,
 * the store's files call down to it and never round a circle.  Every
 * message names the file and says what the user can do (store.c's header
 * says why). */
#include "sim/store/store_impl.h"
#include "sim/base/grammar.h"
#include "sim/base/vec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

char *fs_store_dir_of(const char *path)
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
    char *dir = fs_store_dir_of(s->path);
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

/* The next row of a read of rows into *arr (n of them, room for *cap),
 * zeroed; NULL when the array cannot grow. */
static void *row_add(void **arr, size_t *cap, size_t *n, size_t size)
{
    char *grown = fs_vec_grow(*arr, cap, *n + 1, size);
    if (!grown)
        return NULL;
    *arr = grown;
    void *row = grown + (*n)++ * size;
    memset(row, 0, size);
    return row;
}

void fs_store_text_col(sqlite3_stmt *st, int col, char *buf, size_t size)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, size, "%s", t ? (const char *)t : "");
}

/* The end of a read of rows into an array: finalizes st and turns the
 * last step's rc into SQLITE_OK after the last row, SQLITE_NOMEM when a
 * row was left (the array could not grow), or the step's error. */
static int rows_end(sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_ROW)
        rc = SQLITE_NOMEM;
    else if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

/* Every row of sql for run_id into *arr (n of them): SQLITE_OK, or the
 * error (SQLITE_NOMEM when the array could not grow), *arr then holding
 * the rows read so far. */
static int read_rows(fs_store *s, const char *sql, long run_id, size_t size,
                     fs_store_row_fn *row, void **arr, size_t *n)
{
    sqlite3_stmt *st;
    size_t cap = 0;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_bind_int64(st, 1, run_id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        void *item = row_add(arr, &cap, n, size);
        if (!item)
            break;
        row(st, item);
    }
    return rows_end(st, rc);
}

int fs_store_read_rows(fs_store *s, const char *sql, long run_id,
                       size_t size, fs_store_row_fn *row, void **out,
                       size_t *n, const char *what, fs_error *err)
{
    void *arr = NULL;
    *n = 0;
    int rc = read_rows(s, sql, run_id, size, row, &arr, n);
    if (rc != SQLITE_OK) {
        free(arr);
        *out = NULL;
        *n = 0;
        return fs_store_sql_error(s, err, rc, what);
    }
    *out = arr;
    return 0;
}

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
