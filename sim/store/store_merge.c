/* store_merge.c -- copying runs from other fleetsim databases into this
 * one: `fleetsim merge INTO.db PART.db...` (the parts of a sharded sweep)
 * and `fleetsim import KEPT.db` (a run kept aside); see store.h.
 *
 * Why it is built this way:
 * - Every part is opened and checked before anything is written: a file
 *   that is not SQLite, not fleetsim's, damaged or from a newer fleetsim
 *   is refused by name and the target is not touched (not even created).
 *   A part of an older schema is copied to a temporary file and migrated
 *   there; the part itself is never modified.
 * - All parts are copied in ONE transaction: a failure half-way (a part
 *   whose pages turn out to be corrupt, a full disk) leaves the target as
 *   it was.  Parts are read through their own connections (ATTACH is not
 *   allowed inside a transaction, and is limited to ten files).
 * - A run carries a stable identity, run.uid (schema version 6), kept when
 *   it is copied: a run whose uid the target holds already is skipped, so
 *   merging or importing the same file twice changes nothing.
 * - Runs get new ids (consecutive per part, in the part's run_id order);
 *   every other column is copied as it is, the columns read from the
 *   target's schema rather than listed here, so the copy follows the
 *   schema as it grows. */
#include "sim/store/store_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One part: the file named, and the store it is read through (the file
 * itself, or a migrated temporary copy). */
typedef struct part {
    const char *path;
    fs_store *src;
    char copy[4096];        /* the temporary copy; "" when none */
} part;

/* Old -> new run ids of one part, old ascending. */
typedef struct id_map {
    long long *old, *new_;
    size_t n, cap;
} id_map;

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

static void remove_copy(part *p)
{
    static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
    char name[sizeof p->copy + 16];
    for (size_t i = 0; p->copy[0] && i < 4; i++) {
        snprintf(name, sizeof name, "%s%s", p->copy, suffixes[i]);
        unlink(name);
    }
    p->copy[0] = '\0';
}

/* The schema version and application id of path, read without writing;
 * 0/0 when it cannot be read (fs_store_open then says why). */
static void peek_version(const char *path, long long *version,
                         long long *app)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st;
    *version = *app = 0;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(db, "SELECT user_version, application_id FROM"
                              " pragma_user_version, pragma_application_id",
                              -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            *version = sqlite3_column_int64(st, 0);
            *app = sqlite3_column_int64(st, 1);
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
}

/* Copies the part at p->path to a temporary file (SQLite's backup, a
 * consistent snapshot) and migrates the copy. */
static int migrate_copy(part *p, fs_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(p->copy, sizeof p->copy, "%s/fleetsim-merge-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(p->copy);
    if (fd < 0) {
        int e = errno;
        p->copy[0] = '\0';
        return fs_error_set(err, "%s: cannot make a temporary copy to "
                            "migrate it: %s", p->path, strerror(e));
    }
    close(fd);
    sqlite3 *from = NULL, *to = NULL;
    int rc = sqlite3_open_v2(p->path, &from, SQLITE_OPEN_READONLY, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_open_v2(p->copy, &to, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
        rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(to);
        rc = sqlite3_backup_finish(b) == SQLITE_OK && rc == SQLITE_DONE
             ? SQLITE_OK : (rc == SQLITE_DONE ? SQLITE_ERROR : rc);
    }
    if (rc != SQLITE_OK)
        fs_error_set(err, "%s: cannot copy it to migrate it: %s", p->path,
                     sqlite3_errstr(rc));
    sqlite3_close(from);
    sqlite3_close(to);
    fs_error e;
    fs_store *s = rc == SQLITE_OK ? fs_store_open(p->copy, FS_STORE_EXISTING,
                                                  &e) : NULL;
    if (rc == SQLITE_OK && !s) {
        /* The message names our copy: the user knows only the part. */
        size_t n = strlen(p->copy);
        const char *why = e.msg;
        if (strncmp(why, p->copy, n) == 0 && strncmp(why + n, ": ", 2) == 0)
            why += n + 2;
        fs_error_set(err, "%s: cannot migrate it: %s", p->path, why);
        rc = SQLITE_ERROR;
    }
    fs_store_close(s);
    return rc == SQLITE_OK ? 0 : -1;
}

/* Opens part p for reading, refusing it by name when it is not a usable
 * fleetsim database, or is the target itself. */
static int open_part(part *p, const char *target, fs_error *err)
{
    if (fs_store_check_regular(p->path, err))
        return -1;
    if (same_file(p->path, target))
        return fs_error_set(err, "%s: is the database itself; nothing to "
                            "copy", p->path);
    long long version, app;
    peek_version(p->path, &version, &app);
    if (version > 0 && version < FS_SCHEMA_VERSION &&
        app == FS_APPLICATION_ID && migrate_copy(p, err))
        return -1;
    p->src = fs_store_open(p->copy[0] ? p->copy : p->path,
                           FS_STORE_READONLY, err);
    if (!p->src && p->copy[0]) {     /* name the part, not our copy */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        fs_error_set(err, "%s (migrated from %s)", msg, p->path);
    }
    return p->src ? 0 : -1;
}

static void close_part(part *p)
{
    fs_store_close(p->src);
    p->src = NULL;
    remove_copy(p);
}

/* The quoted columns of main.table without run_id, comma-separated, and
 * their number; sqlite3_free it. */
static char *column_list(fs_store *s, const char *table, int *ncols, int *rc)
{
    sqlite3_stmt *st;
    *ncols = 0;
    *rc = sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info(?1,"
                             " 'main') WHERE name <> 'run_id' ORDER BY cid",
                             -1, &st, NULL);
    if (*rc != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_str *list = sqlite3_str_new(s->db);
    while ((*rc = sqlite3_step(st)) == SQLITE_ROW)
        sqlite3_str_appendf(list, "%s\"%w\"", (*ncols)++ ? ", " : "",
                            (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    *rc = *rc == SQLITE_DONE ? sqlite3_str_errcode(list) : *rc;
    char *text = sqlite3_str_finish(list);
    if (*rc == SQLITE_OK && !text)
        *rc = SQLITE_NOMEM;
    return text;
}

/* "?, ?, ..." for n parameters; sqlite3_free it. */
static char *params(int n)
{
    sqlite3_str *q = sqlite3_str_new(NULL);
    for (int i = 0; i < n; i++)
        sqlite3_str_appendall(q, i ? ", ?" : "?");
    return sqlite3_str_finish(q);
}

static int map_add(id_map *m, long long old, long long new_)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        long long *o = realloc(m->old, cap * sizeof *o);
        if (!o)
            return SQLITE_NOMEM;
        m->old = o;
        long long *n = realloc(m->new_, cap * sizeof *n);
        if (!n)
            return SQLITE_NOMEM;
        m->new_ = n;
        m->cap = cap;
    }
    m->old[m->n] = old;
    m->new_[m->n++] = new_;
    return SQLITE_OK;
}

/* The new id of old run id, or 0 when that run is not copied. */
static long long map_find(const id_map *m, long long old)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->old[mid] < old)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->old[lo] == old ? m->new_[lo] : 0;
}

/* Statements of one copy: read from the part, insert into the target, and
 * (runs only) look the uid up. */
typedef struct copier {
    sqlite3_stmt *sel, *ins, *has;
    int ncols;
    int uid_col;            /* runs: the uid's index among the columns */
} copier;

static void copier_free(copier *c)
{
    sqlite3_finalize(c->sel);
    sqlite3_finalize(c->ins);
    sqlite3_finalize(c->has);
}

/* Prepares the copy of table from p into s.  The part's own errors are
 * said with its name by the caller. */
static int copier_prepare(fs_store *s, part *p, const char *table,
                          copier *c, int *src_failed)
{
    int rc;
    memset(c, 0, sizeof *c);
    c->uid_col = -1;
    *src_failed = 0;
    char *cols = column_list(s, table, &c->ncols, &rc);
    char *q = cols ? params(c->ncols) : NULL;
    char *sel = q ? sqlite3_mprintf("SELECT run_id, %s FROM \"%w\" ORDER BY"
                                    " %s", cols, table,
                                    strcmp(table, "run") ? "rowid"
                                                         : "run_id") : NULL;
    char *ins = sel ? sqlite3_mprintf("INSERT INTO main.\"%w\" (run_id, %s)"
                                      " VALUES (?, %s)", table, cols, q)
                    : NULL;
    if (cols && !ins)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK) {
        rc = sqlite3_prepare_v2(p->src->db, sel, -1, &c->sel, NULL);
        *src_failed = rc != SQLITE_OK;
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db, ins, -1, &c->ins, NULL);
    if (rc == SQLITE_OK && strcmp(table, "run") == 0) {
        rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM main.run WHERE uid = ?",
                                -1, &c->has, NULL);
        for (int k = 0; k < c->ncols; k++)
            if (strcmp(sqlite3_column_name(c->sel, k + 1), "uid") == 0)
                c->uid_col = k;
    }
    sqlite3_free(cols);
    sqlite3_free(q);
    sqlite3_free(sel);
    sqlite3_free(ins);
    return rc;
}

/* 1 when the target holds the run of the current row already. */
static int already_there(copier *c, int *rc)
{
    if (c->uid_col < 0 || sqlite3_column_type(c->sel, c->uid_col + 1) ==
        SQLITE_NULL)
        return 0;
    *rc = sqlite3_bind_value(c->has, 1,
                             sqlite3_column_value(c->sel, c->uid_col + 1));
    int found = *rc == SQLITE_OK && sqlite3_step(c->has) == SQLITE_ROW;
    sqlite3_reset(c->has);
    return found;
}

/* Inserts the current row with run id id. */
static int insert_row(copier *c, long long id)
{
    int rc = sqlite3_bind_int64(c->ins, 1, id);
    for (int k = 0; rc == SQLITE_OK && k < c->ncols; k++)
        rc = sqlite3_bind_value(c->ins, k + 2,
                                sqlite3_column_value(c->sel, k + 1));
    if (rc == SQLITE_OK)
        rc = sqlite3_step(c->ins);
    sqlite3_reset(c->ins);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Copies one table of part p; for the runs, fills m and counts skipped. */
static int copy_table(fs_store *s, part *p, const char *table, id_map *m,
                      long *skipped, int *src_failed)
{
    copier c;
    int rc = copier_prepare(s, p, table, &c, src_failed);
    int is_run = c.has != NULL;
    long long next = 0;
    if (rc == SQLITE_OK && is_run)
        rc = fs_store_query_int(s, "SELECT coalesce(max(run_id), 0) + 1"
                                " FROM main.run", &next);
    int step;
    while (rc == SQLITE_OK && (step = sqlite3_step(c.sel)) == SQLITE_ROW) {
        long long old = sqlite3_column_int64(c.sel, 0);
        if (is_run) {
            if (already_there(&c, &rc)) {
                ++*skipped;
                continue;
            }
            if (rc == SQLITE_OK && (rc = insert_row(&c, next)) == SQLITE_OK)
                rc = map_add(m, old, next++);
        } else {
            long long id = map_find(m, old);
            if (id)
                rc = insert_row(&c, id);
        }
    }
    if (rc == SQLITE_OK && step != SQLITE_DONE) {
        rc = step;
        *src_failed = 1;
    }
    copier_free(&c);
    return rc;
}

/* Copies the runs of p not yet in s, and their rows; says what on msg. */
static int copy_part(fs_store *s, part *p, const char *verb, FILE *msg,
                     long *copied, fs_error *err)
{
    id_map m = {0};
    long skipped = 0;
    int src_failed = 0;
    int rc = copy_table(s, p, "run", &m, &skipped, &src_failed);
    for (int i = 0; rc == SQLITE_OK && fs_store_child_tables[i]; i++)
        rc = copy_table(s, p, fs_store_child_tables[i], &m, &skipped,
                        &src_failed);
    if (rc != SQLITE_OK) {
        if (src_failed)
            fs_error_set(err, "%s: cannot read its runs: %s (nothing was "
                         "%s)", p->path, sqlite3_errmsg(p->src->db), verb);
        else
            fs_store_sql_error(s, err, rc, "cannot copy the runs");
    } else {
        if (m.n == 1)
            fprintf(msg, "%s 1 run from %s into %s as run %lld", verb,
                    p->path, s->path, m.new_[0]);
        else if (m.n > 1)
            fprintf(msg, "%s %zu runs from %s into %s as runs %lld-%lld",
                    verb, m.n, p->path, s->path, m.new_[0],
                    m.new_[m.n - 1]);
        else if (skipped)
            fprintf(msg, "%s 0 runs from %s: %s holds them already", verb,
                    p->path, s->path);
        else
            fprintf(msg, "%s 0 runs: %s holds none", verb, p->path);
        if (m.n && skipped)
            fprintf(msg, " (%ld %s there already)", skipped,
                    skipped == 1 ? "was" : "were");
        fputc('\n', msg);
        *copied += (long)m.n;
    }
    free(m.old);
    free(m.new_);
    return rc == SQLITE_OK ? 0 : -1;
}

/* Copies the parts, opened, into s in one transaction. */
static int copy_all(fs_store *s, part *ps, int n, const char *verb,
                    FILE *out, fs_error *err)
{
    char *said = NULL;
    size_t said_len = 0;
    FILE *msg = open_memstream(&said, &said_len);
    if (!msg)
        return fs_error_set(err, "%s: out of memory", s->path);
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK) {
        fclose(msg);
        free(said);
        return fs_store_sql_error(s, err, rc, "cannot copy the runs");
    }
    int failed = 0;
    long copied = 0;
    for (int i = 0; i < n && !failed; i++)
        failed = copy_part(s, &ps[i], verb, msg, &copied, err);
    if (!failed && (rc = fs_store_exec(s, "COMMIT")) != SQLITE_OK)
        failed = fs_store_sql_error(s, err, rc, "cannot copy the runs");
    if (failed)
        fs_store_rollback(s);
    fclose(msg);
    if (!failed) {
        fputs(said ? said : "", out);
        if (n > 1)
            fprintf(out, "%s %ld runs from %d files into %s\n", verb, copied,
                    n, s->path);
    }
    free(said);
    return failed ? -1 : 0;
}

int fs_store_merge(const char *target, char *const *paths, int n,
                   FILE *out, fs_error *err)
{
    part *ps = calloc((size_t)n + 1, sizeof *ps);
    if (!ps)
        return fs_error_set(err, "out of memory");
    int failed = 0;
    for (int i = 0; i < n && !failed; i++) {
        ps[i].path = paths[i];
        failed = open_part(&ps[i], target, err);
    }
    fs_store *s = NULL;
    struct stat st;
    int existed = stat(target, &st) == 0;
    if (!failed) {
        s = fs_store_open(target, FS_STORE_CREATE, err);
        failed = !s;
    }
    if (!failed)
        failed = copy_all(s, ps, n, "merged", out, err);
    fs_store_close(s);
    if (failed && s && !existed) {
        /* a part found damaged while copying: the target we created
         * holds nothing; leave no file behind */
        part t = {.path = target};
        snprintf(t.copy, sizeof t.copy, "%s", target);
        remove_copy(&t);
    }
    for (int i = 0; i < n; i++)
        close_part(&ps[i]);
    free(ps);
    return failed ? -1 : 0;
}

int fs_store_import(fs_store *s, const char *from, FILE *out, fs_error *err)
{
    if (s->readonly)
        return fs_error_set(err, "%s: cannot import runs: opened read-only",
                            s->path);
    part p = {.path = from};
    int failed = open_part(&p, s->path, err);
    if (!failed)
        failed = copy_all(s, &p, 1, "imported", out, err);
    close_part(&p);
    return failed ? -1 : 0;
}
