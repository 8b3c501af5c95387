/* columns.h -- the run_summary view's columns, declared once.
 *
 * Each column has its name, the SQL that computes it over one row `r` of
 * table run, how its values read (money, hours, ...) and a label.  The
 * view is created from this table (fs_summary_view_sql), the schema check
 * and fs_store_summary read these names, `fleetsim compare` labels and
 * formats its rows by them in all four formats, and the man page's list
 * of columns is generated from them. */
#ifndef FS_STORE_COLUMNS_H
#define FS_STORE_COLUMNS_H

#include <stddef.h>

/* How a value reads; `fleetsim compare` formats by it. */
typedef enum fs_column_kind {
    FS_COL_TEXT,        /* shown as is (escaped), a JSON string */
    FS_COL_ID,          /* an integer label: shown as is, never compared */
    FS_COL_MONEY,       /* dollars */
    FS_COL_HOURS,       /* GPU-hours */
    FS_COL_RATIO,       /* a fraction, shown as a percentage */
    FS_COL_COUNT,       /* an integer count */
    FS_COL_NUMBER,      /* a plain quantity (mean batch size): two decimals */
    FS_COL_SECONDS,     /* a latency */
    FS_COL_DURATION,    /* a span of simulated time */
} fs_column_kind;

typedef struct fs_column {
    const char *name;   /* "total_cost_usd": view column, JSON key */
    const char *sql;    /* its value for one run r (child tables by run_id) */
    fs_column_kind kind;
    const char *label;  /* compare's row label; NULL: in the run heading */
    const char *help;   /* one line for the man page, no final period */
} fs_column;

/* A run (or workload) with a larger share of its requests unfinished at
 * the horizon or dropped (unfinished_share) is overloaded: its latency
 * percentiles, over finished requests only, understate what users waited.
 * run, compare, sweep, plot and report all flag it from this one figure. */
#define FS_OVERLOADED_SHARE 0.01
#define FS_OVERLOADED_STR_(x) #x
#define FS_OVERLOADED_STR(x) FS_OVERLOADED_STR_(x)
#define FS_OVERLOADED_SQL FS_OVERLOADED_STR(FS_OVERLOADED_SHARE)   /* "0.01" */

/* A workload meets its latency objective when at least this share of its
 * finished requests is within it: the percentile slo_p99 names (99%); an
 * llm workload's slo_ttft and slo_tpot are read as p99 objectives too.
 * Under it the workload missed its SLO: run, compare and report flag it
 * from this one figure, as clearly as overload.  NaN (no SLO): no miss. */
#define FS_SLO_MET_SHARE 0.99
#define FS_SLO_MET_SQL FS_OVERLOADED_STR(FS_SLO_MET_SHARE)          /* "0.99" */
static inline int fs_slo_missed(double attainment)
{
    return attainment < FS_SLO_MET_SHARE;
}

#define FS_SUMMARY_COLUMNS 29
/* In the view's column order (the contract's). */
extern const fs_column fs_summary_columns[FS_SUMMARY_COLUMNS];

/* "money", "hours", ...: the kind's name in `fleetsim help columns`. */
const char *fs_column_kind_name(fs_column_kind kind);

/* True when values of the kind compare with a baseline (not text, not
 * ids). */
int fs_column_kind_compares(fs_column_kind kind);

/* "CREATE VIEW run_summary AS SELECT ... FROM run r": malloc'd, NULL when
 * out of memory. */
char *fs_summary_view_sql(void);

/* "run_id, name, ...": the view's column names, comma-separated, into buf
 * (at most size bytes with the NUL); returns the length it needs, as
 * snprintf does. */
size_t fs_summary_column_list(char *buf, size_t size);

#endif
