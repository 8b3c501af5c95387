/* compare_rows.c -- reading a run for `fleetsim compare`: its run_summary
 * row (store.c) and its per-workload, per-pool and per-pricing rows.
 *
 * The queries are built from the sections' column tables
 * (compare_values.c), so that what is read and what is printed cannot
 * drift apart.  Values are kept as SQLite's text, as fs_store_summary
 * keeps them: csv and json print the numbers exactly as stored. */
#include "sim/cli/compare/compare_impl.h"
#include "sim/base/vec.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static void rows_free(fs_compare_rows *rows)
{
    for (size_t i = 0; i < rows->nrows * rows->ncols; i++)
        free(rows->cell[i]);
    free(rows->cell);
    memset(rows, 0, sizeof *rows);
}

void fs_compare_run_free(fs_compare_run *r)
{
    if (!r)
        return;
    fs_summary_free(&r->summary);
    for (int s = 0; s < FS_COMPARE_SECTIONS; s++)
        rows_free(&r->rows[s]);
}

/* "SELECT a, b, ... FROM ..." for section sec; malloc'd. */
static char *section_sql(const fs_cmp_section *sec)
{
    size_t len = strlen("SELECT ") + strlen(sec->from) + 2;
    for (size_t c = 0; c < sec->ncols; c++)
        len += strlen(sec->cols[c].sql) + 2;
    char *sql = malloc(len);
    if (!sql)
        return NULL;
    strcpy(sql, "SELECT ");
    for (size_t c = 0; c < sec->ncols; c++) {
        if (c)
            strcat(sql, ", ");
        strcat(sql, sec->cols[c].sql);
    }
    strcat(sql, " ");
    strcat(sql, sec->from);
    return sql;
}

/* Appends the current row of st to rows; SQLITE_NOMEM when out of memory. */
static int add_row(fs_compare_rows *rows, size_t *cap, sqlite3_stmt *st)
{
    /* rows of ncols cells: one array item is one row */
    char **p = fs_vec_grow(rows->cell, cap, rows->nrows + 1,
                           rows->ncols * sizeof *p);
    if (!p)
        return SQLITE_NOMEM;
    rows->cell = p;
    char **row = rows->cell + rows->nrows * rows->ncols;
    memset(row, 0, rows->ncols * sizeof *row);
    rows->nrows++;      /* counted now, so that rows_free frees its cells */
    for (size_t c = 0; c < rows->ncols; c++) {
        const char *t = (const char *)sqlite3_column_text(st, (int)c);
        if (t && !(row[c] = strdup(t)))
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static int read_section(sqlite3 *db, long run_id, fs_compare_section which,
                        fs_compare_rows *rows)
{
    const fs_cmp_section *sec = &fs_cmp_sections[which];
    rows->ncols = sec->ncols;
    char *sql = section_sql(sec);
    if (!sql)
        return SQLITE_NOMEM;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_bind_int64(st, 1, run_id);
    size_t cap = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        rc = add_row(rows, &cap, st);
    if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

int fs_compare_read_run(fs_store *s, long run_id, fs_compare_run *out,
                        fs_error *err)
{
    memset(out, 0, sizeof *out);
    if (fs_store_summary(s, run_id, &out->summary, err))
        return -1;
    sqlite3 *db = fs_store_db(s);
    for (int sec = 0; sec < FS_COMPARE_SECTIONS; sec++) {
        int rc = read_section(db, run_id, (fs_compare_section)sec,
                              &out->rows[sec]);
        if (rc != SQLITE_OK) {
            const char *path = sqlite3_db_filename(db, "main");
            fs_error_set(err, "%s: cannot read the %s rows of run %ld: %s",
                         path && *path ? path : "results database",
                         fs_cmp_sections[sec].name, run_id,
                         rc == SQLITE_NOMEM ? sqlite3_errstr(rc)
                                            : sqlite3_errmsg(db));
            fs_compare_run_free(out);
            return -1;
        }
    }
    return 0;
}
