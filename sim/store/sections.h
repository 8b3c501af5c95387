/* sections.h -- the per-run row tables a comparison reads beside the
 * run_summary view (columns.h): a run's workloads, its pools and its cost
 * by pricing model, each column declared once with its label, its kind
 * and the SQL that reads it.
 *
 * In the store, as the run_summary columns are, because each column is
 * SQL over the schema: a schema change updates them here, and `compare`
 * (sim/cli/compare/), which prints them in four formats, never names a
 * table.  Values are kept as SQLite's text, as fs_store_summary keeps
 * them: csv and json print the numbers exactly as stored. */
#ifndef FS_SECTIONS_H
#define FS_SECTIONS_H

#include <stddef.h>
#include "sim/base/error.h"
#include "sim/store/columns.h"
#include "sim/store/store.h"

/* The per-run row tables, in the order they are printed. */
typedef enum fs_section {
    FS_SECTION_WORKLOADS,   /* JSON "workloads": one row per workload */
    FS_SECTION_POOLS,       /* JSON "pools": one row per pool */
    FS_SECTION_PRICING,     /* JSON "cost_by_pricing": one per pricing model */
    FS_SECTIONS
} fs_section;

typedef struct fs_section_column {
    const char *name;   /* JSON key, CSV metric */
    const char *label;  /* table row label; NULL: shown in a heading */
    fs_column_kind kind;   /* how it reads (sim/store/columns.h) */
    int delta;          /* compared with the baseline */
    const char *sql;    /* how fs_store_section_rows reads it (sections) */
    int optional;       /* the table leaves its row out when every run's
                           value is NULL (spot metrics of other pools) */
} fs_section_column;

typedef struct fs_section_def {
    const char *name;   /* JSON key of the array, CSV metric prefix */
    const char *title;  /* table heading: "TITLE KEY", or TITLE when flat */
    int flat;           /* one table row per key, showing column 1 */
    const char *from;   /* SQL after the column list; ?1 is the run id */
    const fs_section_column *cols;  /* cols[0] is the key */
    size_t ncols;
} fs_section_def;

extern const fs_section_def fs_sections[FS_SECTIONS];

/* Rows of one section as text, as SQLite gives them (NULL for NULL):
 * cell[r * ncols + c], column 0 the row's key (workload, pool or pricing
 * name) by which rows of two runs are matched. */
typedef struct fs_section_rows {
    size_t nrows;
    size_t ncols;
    char **cell;
} fs_section_rows;

/* Reads section sec of run run_id into rows (empty first): 0, or -1 with
 * err naming the database and the section; rows then holds nothing. */
int fs_store_section_rows(fs_store *s, long run_id, fs_section sec,
                          fs_section_rows *rows, fs_error *err);
void fs_section_rows_free(fs_section_rows *rows);

#endif
