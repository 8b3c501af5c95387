/* store_edit.c -- removing runs (`fleetsim rm`); see store.h.  (Copying
 * runs in from other databases, `import` and `merge`, is store_merge.c.)
 *
 * One transaction, so a database never holds half of a run:
 * - Removing deletes the run rows only; the child tables reference run ON
 *   DELETE CASCADE and every connection sets PRAGMA foreign_keys = ON, so
 *   their rows go with them (as they do for a DELETE typed into the
 *   sqlite3 shell with foreign keys on).  Every RUN is resolved before
 *   anything is deleted: one unknown RUN deletes nothing. */
#include "sim/store/store_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
