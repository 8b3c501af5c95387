/* store.c -- the results database (SQLite): opening and closing it; see
 * store.h.
 *
 * How the store is built, and why:
 * - This file opens a database (read-write, creating it if asked, or
 *   read-only) and sets the busy timeout.  Turning SQLite's result codes
 *   into messages, and the small helpers every store file shares
 *   (store_impl.h), are store_sql.c's, below this file and the schema's
 *   (which opening calls).  Writing a run is in store_write.c, reading runs back
 *   (finding, summaries, the listing) in store_read.c, the schema in
 *   store_schema.c, removing and importing runs in store_edit.c, keeping a
 *   run its database cannot take in store_keep.c.
 * - The busy timeout is long by default (FS_BUSY_TIMEOUT_DEFAULT_S): a
 *   run that has finished simulating waits for the other runs of a sweep
 *   to store theirs rather than being thrown away.
 * - Every message names the file (users keep several databases) and says
 *   what the user can do: which directory is read-only, which limit was
 *   reached, how long we waited and which knob sets it. */
#include "sim/store/store_impl.h"
#include "sim/base/csvin.h"
#include "sim/base/grammar.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- opening ---------------------------------------------------------- */

int fs_store_check_regular(const char *path, fs_error *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    if (S_ISDIR(st.st_mode))
        return fs_error_set(err, "%s: is a directory, not a results "
                            "database", path);
    return fs_error_set(err, "%s: not a regular file (%s), not a results "
                        "database", path, fs_file_kind(st.st_mode));
}

/* Why a new database cannot be created at s->path, when its directory is
 * the reason: SQLite's errno is that of its last attempt, which after a
 * refused read-write open is a read-only open's "No such file". */
static int explain_cantopen(const fs_store *s, fs_error *err)
{
    struct stat st;
    if (stat(s->path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR))
        return 0;
    char *dir = fs_store_dir_of(s->path);
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
        if (existed && fs_store_check_regular(s->path, err))
            return -1;
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

/* Whether path + suffix ("-wal") exists and holds something: 1, 0 (no
 * such file, or an empty one), or -1 out of memory. */
static int beside_exists(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    char *name = malloc(n + k + 1);
    if (!name)
        return -1;
    memcpy(name, path, n);
    memcpy(name + n, suffix, k + 1);
    struct stat st;
    int has = lstat(name, &st) == 0 && (!S_ISREG(st.st_mode) ||
                                         st.st_size > 0);
    free(name);
    return has;
}

/* Reopens s->path as immutable: for a WAL database we may not write,
 * where SQLite would otherwise create the -shm (and -wal) files a reader
 * needs, owned by us and left behind, or fail where it cannot.  Only when
 * no -wal file exists, so there is nothing it could miss: a writer in WAL
 * mode keeps one while it has the file open (empty until it writes). */
static int reopen_immutable(fs_store *s)
{
    int has_wal = beside_exists(s->path, "-wal");
    if (has_wal)
        return has_wal < 0 ? SQLITE_NOMEM : SQLITE_CANTOPEN;

    char *uri = path_uri(s->path, "mode=ro&immutable=1");
    if (!uri)
        return SQLITE_NOMEM;
    sqlite3_close(s->db);
    s->db = NULL;
    int rc = sqlite3_open_v2(uri, &s->db,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    free(uri);
    return rc;
}

/* A database we may not write, read without creating anything beside
 * it (a read-only connection would create -wal and -shm files, owned by
 * the reader, that it cannot remove: issue 26).  No -wal: immutable.  A
 * -wal and its -shm: a read-only connection uses both as they are.  A
 * -wal without its -shm: refused, as reading it would create the -shm. */
static int open_unwritable(fs_store *s, fs_error *err)
{
    int wal = beside_exists(s->path, "-wal");
    int shm = beside_exists(s->path, "-shm");
    if (wal < 0 || shm < 0)
        return SQLITE_NOMEM;
    if (!wal)
        return reopen_immutable(s);
    if (shm)
        return sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READONLY, NULL);
    fs_error_set(err, "%s: cannot read this database without writing beside "
                 "it: its -wal file holds changes (a fleetsim writing it, "
                 "or one that stopped) and its -shm file is missing; open it "
                 "once as a user who may write it and its directory", s->path);
    return SQLITE_READONLY;
}

/* A reader.  Where the file and its directory are writable, a read-write
 * connection that may only query: as the last connection it checkpoints
 * and removes the -wal and -shm files on close, which a read-only
 * connection cannot (it left them behind, empty, after every `runs`).
 * Elsewhere open_unwritable. */
static int open_reader(fs_store *s, fs_error *err)
{
    char *dir = strdup(s->path);
    if (!dir)
        return SQLITE_NOMEM;
    char *slash = strrchr(dir, '/');
    const char *d = slash ? (slash == dir ? "/" : (*slash = 0, dir)) : ".";
    int writable = access(s->path, W_OK) == 0 && access(d, W_OK) == 0;
    free(dir);
    if (writable) {
        int rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE,
                                 NULL);
        if (rc == SQLITE_OK &&
            sqlite3_exec(s->db, "PRAGMA query_only = ON", NULL, NULL,
                         NULL) == SQLITE_OK)
            return SQLITE_OK;
        sqlite3_close(s->db);
        s->db = NULL;
    }
    return open_unwritable(s, err);
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
    if (fs_store_check_regular(s->path, err))
        return -1;

    fs_error why = {{0}};
    int rc = open_reader(s, &why);
    if (rc != SQLITE_OK && why.msg[0])
        return fs_error_set(err, "%s", why.msg);
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

/* Closing a connection whose file was removed from its path neither
 * checkpoints nor deletes the -wal and -shm by name (SQLite checks that the
 * file is unmoved first), so a database made at the path since is safe:
 * test_store's remove_if_no_run pins it. */
int fs_store_reopen(fs_store *s, fs_error *err)
{
    assert(s && !s->readonly);
    if (s->db) {
        fs_store_rollback(s);
        sqlite3_close(s->db);
        s->db = NULL;
    }
    return open_readwrite(s, 1, err);
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
