/* store_tables.h -- the child tables of a run as data: each table's
 * columns, the field of fs_results' rows each stores and how.  Declared
 * once in store_tables.c; store_write.c makes each INSERT (or the UPDATE
 * of the LLM columns) from them and binds every row column by column.
 * Internal to sim/store/. */
#ifndef FS_STORE_TABLES_H
#define FS_STORE_TABLES_H

#include "sim/fleet/run/results.h"

#include <stddef.h>

/*
 * Each child table of a run is a list of columns, each naming its SQL
 * column, the field of the row it stores and how (its kind); the INSERT
 * (or the UPDATE of the LLM columns) is made from the list, and every row
 * of fs_results' array is bound column by column.  Adding a column is one
 * line in store_tables.c (and its migration in store_migrations.c). */

typedef enum fs_store_col_kind {
    COL_TEXT,       /* char field[N]; "" is NULL */
    COL_NAME,       /* const char *, at most FS_NAME_MAX bytes */
    COL_INT,        /* int or long */
    COL_REAL,       /* double; NaN is NULL */
    COL_POSITIVE,   /* double; NULL unless above 0 */
    COL_RENEW,      /* int stored as a real; NULL when below 0 */
    COL_BOOL,       /* int: 0 or 1, NULL when below 0 */
} fs_store_col_kind;

typedef struct fs_store_col {
    const char *sql;
    fs_store_col_kind kind;
    size_t off, size;
} fs_store_col;

#define COL(T, kind, sql, f) {sql, kind, offsetof(T, f), sizeof ((T *)0)->f}

/* A child table: its columns, and where fs_results holds its rows.  An
 * LLM update (key set) writes its columns into rows the inserts made,
 * found by run_id and the key column.  keep, where set, says which rows
 * are written (NULL: every row). */
typedef struct fs_store_table {
    const char *name;
    const fs_store_col *cols;
    size_t ncols;
    size_t rows_off, count_off, row_size;
    const fs_store_col *key;        /* UPDATE ... WHERE run_id AND key */
    int (*keep)(const void *row);
} fs_store_table;

#define ROWS(field, n, T) offsetof(fs_results, field), \
                          offsetof(fs_results, n), sizeof (T)
#define NCOLS(a) (sizeof (a) / sizeof *(a))

extern const fs_store_table fs_store_tables[];
extern const size_t fs_store_ntables;

#endif
