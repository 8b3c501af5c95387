/* store_read.c -- reading runs back from the results database: resolving
 * RUN (an id or a name), a run's run_summary row, and the listing of
 * `fleetsim runs`; see store.h.
 *
 * Reads take no lock of their own beyond SQLite's snapshot, so `runs` and
 * `compare` work while a sweep writes.  A name that matches nothing gets
 * the nearest name as a likely typo, else the most recent names. */
#include "sim/store/store_impl.h"
#include "sim/base/textout.h"
#include "sim/base/vec.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUGGEST_NAMES 10               /* names listed for an unknown run */

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
        char **p = fs_vec_grow(names, &cap, n + 2, sizeof *p);
        if (!p)
            break;
        names = p;
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
    /* Name the columns, so their order is the declared order (columns.c). */
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
    /* one array item is a row of LIST_COLUMNS cells */
    char **p = fs_vec_grow(t->cell, &t->cap, t->nrows + 1,
                           LIST_COLUMNS * sizeof *p);
    if (!p)
        return -1;
    t->cell = p;
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
