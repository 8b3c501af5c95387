/* compare.h -- run summaries side by side, as `fleetsim compare` prints
 * them (cmd_compare.c).
 *
 * Separate from the command so that the formats can be tested on
 * summaries made in memory, without a database or a process. */
#ifndef FS_COMPARE_H
#define FS_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "store.h"

typedef enum fs_compare_format {
    FS_COMPARE_TABLE,       /* aligned text, one row per metric */
    FS_COMPARE_CSV,         /* raw numbers, one row per run_summary column */
    FS_COMPARE_JSON,        /* an array of run_summary objects */
    FS_COMPARE_MARKDOWN,    /* the table, as a GitHub table */
} fs_compare_format;

/* "table", "csv", "json" or "markdown"; 0, or -1 for anything else. */
int fs_compare_parse_format(const char *name, fs_compare_format *out);

/* Writes runs[0..n) to out in fmt.  baseline is the index in runs of the
 * run the others are measured against (deltas, absolute and percent), or
 * -1 for none.  Returns 0, or -1 when out reports an error. */
int fs_compare_write(FILE *out, fs_compare_format fmt,
                     const fs_summary *runs, size_t n, int baseline);

#endif
