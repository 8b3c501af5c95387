/* store_edit.c -- removing runs (`fleetsim rm`) and importing them from
 * another fleetsim database (`fleetsim import`, for a run that was kept
 * aside); see store.h.
 *
 * Both are one transaction, so a database never holds half of a run:
 * - Removing deletes the run rows only; the child tables reference run ON
 *   DELETE CASCADE and every connection sets PRAGMA foreign_keys = ON, so
 *   their rows go with them (as they do for a DELETE typed into the
 *   sqlite3 shell with foreign keys on).  Every RUN is resolved before
 *   anything is deleted: one unknown RUN deletes nothing.
 * - Importing attaches the other file, copies its runs (new ids, mapped in
 *   a temporary table) and then every child row with its run's new id.
 *   The columns are read from the schema rather than listed here, so the
 *   copy follows the schema as it grows. */
#include "sim/store/store_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- removing --------------------------------------------------------- */

/* Deletes run id; says so on out.  A run listed twice is deleted once. */
static int remove_one(sqlite3_stmt *name_st, sqlite3_stmt *del_st, long id,
                      FILE *out)
{
    sqlite3_bind_int64(name_st, 1, id);
    int rc = sqlite3_step(name_st);
    if (rc == SQLITE_DONE) {         /* removed already: listed twice */
        sqlite3_reset(name_st);
        return SQLITE_OK;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_reset(name_st);
        return rc;
    }
    const char *name = (const char *)sqlite3_column_text(name_st, 0);
    fprintf(out, "removed run %ld (%s)\n", id, name ? name : "");
    sqlite3_reset(name_st);
    sqlite3_bind_int64(del_st, 1, id);
    rc = sqlite3_step(del_st);
    sqlite3_reset(del_st);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int fs_store_remove_runs(fs_store *s, char *const *runs, int n, FILE *out,
                         fs_error *err)
{
    static const char what[] = "cannot remove runs";
    if (s->readonly)
        return fs_error_set(err, "%s: %s: opened read-only", s->path, what);
    int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    if (rc != SQLITE_OK)
        return fs_store_sql_error(s, err, rc, what);

    /* Resolve every RUN first: an unknown one removes nothing. */
    long *ids = calloc((size_t)n + 1, sizeof *ids);
    if (!ids) {
        fs_store_rollback(s);
        return fs_error_set(err, "%s: out of memory", s->path);
    }
    for (int i = 0; i < n; i++)
        if (fs_store_find_run(s, runs[i], &ids[i], err)) {
            free(ids);
            fs_store_rollback(s);
            return -1;
        }

    /* What is removed is printed after the commit, so it is true. */
    char *said = NULL;
    size_t said_len = 0;
    FILE *msg = open_memstream(&said, &said_len);
    sqlite3_stmt *name_st = NULL, *del_st = NULL;
    rc = msg ? SQLITE_OK : SQLITE_NOMEM;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db, "SELECT name FROM run WHERE run_id = ?",
                                -1, &name_st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(s->db, "DELETE FROM run WHERE run_id = ?",
                                -1, &del_st, NULL);
    for (int i = 0; i < n && rc == SQLITE_OK; i++)
        rc = remove_one(name_st, del_st, ids[i], msg);
    sqlite3_finalize(name_st);
    sqlite3_finalize(del_st);
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "COMMIT");
    if (msg)
        fclose(msg);
    if (rc != SQLITE_OK) {
        fs_store_sql_error(s, err, rc, what);
        fs_store_rollback(s);
    } else {
        fputs(said ? said : "", out);
    }
    free(said);
    free(ids);
    return rc == SQLITE_OK ? 0 : -1;
}

/* ---- importing -------------------------------------------------------- */

/* The quoted columns of main.table, without run_id, comma-separated,
 * each prefixed with prefix ("" or "k."); sqlite3_free it. */
static char *column_list(fs_store *s, const char *table, const char *prefix,
                         int *rc)
{
    sqlite3_stmt *st;
    *rc = sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info(?1,"
                             " 'main') WHERE name <> 'run_id' ORDER BY cid",
                             -1, &st, NULL);
    if (*rc != SQLITE_OK)
        return NULL;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_str *list = sqlite3_str_new(s->db);
    int n = 0;
    while ((*rc = sqlite3_step(st)) == SQLITE_ROW)
        sqlite3_str_appendf(list, "%s%s\"%w\"", n++ ? ", " : "", prefix,
                            (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    *rc = *rc == SQLITE_DONE ? sqlite3_str_errcode(list) : *rc;
    char *text = sqlite3_str_finish(list);
    if (*rc == SQLITE_OK && !text)
        *rc = SQLITE_NOMEM;
    return text;
}

/* Copies the runs of kept into main, recording old -> new ids in
 * temp.fs_import_map, in run_id order. */
static int copy_runs(fs_store *s)
{
    int rc;
    char *cols = column_list(s, "run", "", &rc);
    char *sql = cols ? sqlite3_mprintf(
        "CREATE TEMP TABLE fs_import_map(old INTEGER PRIMARY KEY,"
        " new INTEGER NOT NULL);"
        "INSERT INTO temp.fs_import_map (old, new)"
        " SELECT run_id, (SELECT coalesce(max(run_id), 0) FROM main.run)"
        "  + row_number() OVER (ORDER BY run_id) FROM kept.run;"
        "INSERT INTO main.run (run_id, %s) SELECT m.new, %s FROM kept.run"
        " JOIN temp.fs_import_map m ON m.old = kept.run.run_id"
        " ORDER BY m.new;", cols, cols) : NULL;
    if (cols && !sql)
        rc = SQLITE_NOMEM;
    if (sql)
        rc = fs_store_exec(s, sql);
    sqlite3_free(sql);
    sqlite3_free(cols);
    return rc;
}

/* Copies the rows of one child table, each with its run's new id. */
static int copy_rows(fs_store *s, const char *table)
{
    int rc;
    char *cols = column_list(s, table, "", &rc);
    char *kcols = cols ? column_list(s, table, "k.", &rc) : NULL;
    char *sql = kcols ? sqlite3_mprintf(
        "INSERT INTO main.\"%w\" (run_id, %s) SELECT m.new, %s"
        " FROM kept.\"%w\" k JOIN temp.fs_import_map m ON m.old = k.run_id"
        " ORDER BY k.rowid", table, cols, kcols, table) : NULL;
    if (kcols && !sql)
        rc = SQLITE_NOMEM;
    if (sql)
        rc = fs_store_exec(s, sql);
    sqlite3_free(sql);
    sqlite3_free(kcols);
    sqlite3_free(cols);
    return rc;
}

/* Refuses to import a database into itself (every run twice). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
           && sa.st_ino == sb.st_ino;
}

int fs_store_import(fs_store *s, const char *from, FILE *out, fs_error *err)
{
    static const char what[] = "cannot import runs";
    if (s->readonly)
        return fs_error_set(err, "%s: %s: opened read-only", s->path, what);
    if (same_file(from, s->path))
        return fs_error_set(err, "%s: is the database itself; nothing to "
                            "import", from);
    /* The other file must be a complete fleetsim database of our version:
     * opening it read-only checks that, with its own messages. */
    fs_store *src = fs_store_open(from, FS_STORE_READONLY, err);
    if (!src)
        return -1;
    fs_store_close(src);

    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db, "ATTACH DATABASE ?1 AS kept", -1, &st,
                                NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        sqlite3_finalize(st);
    }
    if (rc != SQLITE_OK) {
        fs_error_set(err, "%s: %s: %s", from, what, sqlite3_errmsg(s->db));
        return -1;
    }
    long long first = 0, count = 0;
    rc = fs_store_exec(s, "BEGIN IMMEDIATE");
    if (rc == SQLITE_OK)
        rc = fs_store_query_int(s, "SELECT coalesce(max(run_id), 0) + 1"
                                " FROM main.run", &first);
    if (rc == SQLITE_OK)
        rc = fs_store_query_int(s, "SELECT count(*) FROM kept.run", &count);
    if (rc == SQLITE_OK)
        rc = copy_runs(s);
    for (int i = 0; rc == SQLITE_OK && fs_store_child_tables[i]; i++)
        rc = copy_rows(s, fs_store_child_tables[i]);
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "DROP TABLE temp.fs_import_map");
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "COMMIT");
    if (rc != SQLITE_OK) {
        fs_store_sql_error(s, err, rc, what);
        fs_store_rollback(s);
    }
    fs_store_exec(s, "DETACH DATABASE kept");
    if (rc != SQLITE_OK)
        return -1;
    if (count == 1)
        fprintf(out, "imported 1 run from %s into %s as run %lld\n", from,
                s->path, first);
    else if (count > 1)
        fprintf(out, "imported %lld runs from %s into %s as runs %lld-%lld\n",
                count, from, s->path, first, first + count - 1);
    else
        fprintf(out, "imported 0 runs: %s holds none\n", from);
    return 0;
}
