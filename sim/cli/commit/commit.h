/* commit.h -- `fleetsim commit`: what its files share.  The inputs
 * (sim/app/commit_inputs.h: the runs' hourly demand and roi's rates) and
 * the rows and cost lines of the answer (sim/app/commit_rows.h) are the
 * application's, which the report reads too; commit_out.c prints them. */
#ifndef FS_COMMIT_H
#define FS_COMMIT_H

#include <stddef.h>

#include <stdio.h>

#include "models/purchase/portfolio.h"
#include "sim/app/commit_inputs.h"

enum { FS_COMMIT_TABLE, FS_COMMIT_CSV, FS_COMMIT_JSON, FS_COMMIT_MARKDOWN,
       FS_COMMIT_FOCUS };

/* Prints the portfolio, its cost and the comparisons in format fmt. */
void fs_commit_print(FILE *out, int fmt, const fs_commit_inputs *in,
                     const fs_pf_solution *sol);

/* The buys as FOCUS 1.2 Purchase rows (commit_focus.c), bought at start
 * (seconds since the epoch, UTC). */
void fs_commit_print_focus(FILE *out, const fs_commit_inputs *in,
                           const fs_pf_solution *sol, long long start);

#endif
