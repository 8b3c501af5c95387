/* compare_impl.h -- what the compare formats share (compare_values.c):
 * the metrics of each section, the comparison with the baseline, and how
 * values look in a table.  Internal to compare_*.c. */
#ifndef FS_COMPARE_IMPL_H
#define FS_COMPARE_IMPL_H

#include <stddef.h>

#include "sim/cli/compare/compare.h"
#include "sim/store/columns.h"

/* Column c of run_summary (fs_summary_columns): its name, label and
 * kind, compared with the baseline unless text or an id. */
fs_section_column fs_cmp_summary_column(int c);

/* 1 when the run's unfinished_share is over FS_OVERLOADED_SHARE
 * (sim/store/columns.h). */
int fs_cmp_overloaded(const fs_summary *r);

/* The run the others are compared with, when baseline >= 0. */
static inline int fs_cmp_is_delta_run(size_t i, int baseline)
{
    return baseline >= 0 && i != (size_t)baseline;
}

/* Row r of a section's rows, as an array of ncols cells. */
static inline char *const *fs_cmp_row(const fs_section_rows *rows, size_t r)
{
    return rows->cell + r * rows->ncols;
}

/* The row of rows whose key is key, or NULL. */
char *const *fs_cmp_find_row(const fs_section_rows *rows, const char *key);

/* The keys of a section over all runs, each once, in order of first
 * appearance: a malloc'd array of borrowed strings (*n of them), or NULL
 * with *n = 0 (none, or out of memory: *failed set). */
const char **fs_cmp_keys(const fs_compare_run *runs, size_t n,
                         fs_section sec, size_t *nkeys, int *failed);

/* The walk over a section that every format makes: per key (fs_cmp_keys'
 * order, ki its index) on_key, when not NULL; then per metric column
 * c >= 1 on_metric, with value[i] and has[i] of every run i (has[i] 0: run
 * i lacks the key's row; value[i] NULL: it or its cell is absent).  value
 * and has hold n entries, the caller's.  A callback's negative return ends
 * the walk with -1; on_metric's positive return ends that key's columns. */
typedef int (*fs_cmp_key_fn)(void *ctx, const fs_section_def *sec,
                             size_t ki, const char *key);
typedef int (*fs_cmp_metric_fn)(void *ctx, const fs_section_def *sec,
                                const char *key, size_t c,
                                const char *const *value, const int *has);
int fs_cmp_walk_section(const fs_compare_run *runs, size_t n,
                        fs_section which, const char **value, int *has,
                        fs_cmp_key_fn on_key, fs_cmp_metric_fn on_metric,
                        void *ctx);

/* The change of value against base: 1 with *abs, *has_pct and *pct set,
 * or 0 when the two do not compare (not both numbers, or not compared). */
int fs_cmp_delta(const fs_section_column *c, const char *value, const char *base,
                 double *abs, double *pct, int *has_pct);

/* How a format writes a change d (and pct, when has_pct) into dbuf and
 * pbuf, both "" on entry. */
typedef void (*fs_cmp_delta_fmt)(const fs_section_column *c, double d,
                                 int has_pct, double pct, char *dbuf,
                                 size_t dsize, char *pbuf, size_t psize);
/* Run i's change against the baseline (value[i] and has[i] as in the
 * section walk) into dbuf and pbuf as fmt writes it; both "" when either
 * run lacks the row or the two do not compare. */
void fs_cmp_run_delta(const fs_section_column *c, const char *const *value,
                      const int *has, size_t i, int baseline,
                      fs_cmp_delta_fmt fmt, char *dbuf, size_t dsize,
                      char *pbuf, size_t psize);

/* A raw number for csv and json. */
void fs_cmp_format_raw(double d, char *buf, size_t size);

/* True when s follows JSON's number grammar (SQLite's numbers do). */
int fs_cmp_json_number(const char *s);

/* 1 with *v set when the whole of s spells a finite number, else 0
 * (NULL and "" are no number: a NULL cell). */
int fs_cmp_number(const char *s, double *v);

/* A value as the table shows it: "-" for NULL, units for numbers, text
 * escaped.  malloc'd; NULL when out of memory. */
char *fs_cmp_format_value(const fs_section_column *c, const char *text);

/* The same, with its flag after it (fs_cmp_flag): the table and markdown
 * flag an overloaded run or workload, and a missed SLO, so. */
char *fs_cmp_format_flagged(const fs_section_column *c, const char *text);
/* " OVERLOADED" when c is unfinished_share and v is over
 * FS_OVERLOADED_SHARE; " SLO MISSED" when c is slo_attainment and v is
 * under FS_SLO_MET_SHARE (sim/store/columns.h); else "". */
const char *fs_cmp_flag(const fs_section_column *c, double v);
/* 1 when a workload of run missed its SLO (its slo_missed row is yes). */
int fs_cmp_slo_missed(const fs_compare_run *run);

/* A change as the table shows it ("+$20.00", "-0.012 s", "+5.00 pp"), and
 * the relative change ("+25.0%", "0.0%", "" without one). */
void fs_cmp_format_change(const fs_section_column *c, double d, char *buf,
                          size_t size);
void fs_cmp_format_pct(int has_pct, double pct, char *buf, size_t size);

/* "quickstart #3", raw (names repeat across replications, ids do not);
 * malloc'd, NULL when out of memory. */
char *fs_cmp_run_label(const fs_summary *r);

int fs_cmp_write_table(FILE *out, int markdown, const fs_compare_run *runs,
                       size_t n, int baseline);
int fs_cmp_write_csv(FILE *out, const fs_compare_run *runs, size_t n,
                     int baseline);
int fs_cmp_write_json(FILE *out, const fs_compare_run *runs, size_t n,
                      int baseline);

#endif
