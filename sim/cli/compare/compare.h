/* compare.h -- runs side by side, as `fleetsim compare` prints them.
 *
 * A run is its run_summary row plus three small tables of rows: one per
 * workload (requests, latency percentiles, mean wait, SLO attainment), one
 * per pool (pricing, GPU-hours, utilization, cost) and one per pricing
 * model (cost).  A run-level p99 blends workloads whose latencies differ
 * by orders of magnitude, so the per-workload rows are what a reader
 * checks an SLO against.
 *
 * Reading (compare_rows.c) is separate from writing (compare_table.c,
 * compare_csv.c, compare_json.c), so that the formats can be tested on
 * runs made in memory, without a database or a process. */
#ifndef FS_COMPARE_H
#define FS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "sim/base/error.h"
#include "sim/store/store.h"
#include "sim/store/sections.h"

typedef enum fs_compare_format {
    FS_COMPARE_TABLE,       /* aligned text, one row per metric */
    FS_COMPARE_CSV,         /* raw numbers, one row per metric */
    FS_COMPARE_JSON,        /* an array of run_summary objects */
    FS_COMPARE_MARKDOWN,    /* the table, as a GitHub table */
} fs_compare_format;

typedef struct fs_compare_run {
    fs_summary summary;
    fs_section_rows rows[FS_SECTIONS];
} fs_compare_run;

/* "table", "csv", "json" or "markdown"; 0, or -1 for anything else. */
int fs_compare_parse_format(const char *name, fs_compare_format *out);

/* Reads run run_id: its summary and its rows.  On failure *out holds
 * nothing to free. */
int fs_compare_read_run(fs_store *s, long run_id, fs_compare_run *out,
                        fs_error *err);
void fs_compare_run_free(fs_compare_run *r);

/* The number of columns of a section's rows (key included). */
size_t fs_compare_section_columns(fs_section sec);

/* Writes runs[0..n) to out in fmt.  baseline is the index in runs of the
 * run the others are measured against (deltas, absolute and percent, for
 * the summary and for every row the baseline also has), or -1 for none.
 * Returns 0, or -1 when out reports an error or memory runs out. */
int fs_compare_write_runs(FILE *out, fs_compare_format fmt,
                          const fs_compare_run *runs, size_t n, int baseline);

/* The same for summaries alone (no rows). */
int fs_compare_write(FILE *out, fs_compare_format fmt,
                     const fs_summary *runs, size_t n, int baseline);

#endif
