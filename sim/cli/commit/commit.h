/* commit.h -- `fleetsim commit`: what its files share.  The inputs
 * (sim/app/commit_inputs.h: the runs' hourly demand and roi's rates) and
 * the rows and cost lines of the answer (sim/app/commit_rows.h) are the
 * application's, which the report reads too; commit_out.c prints them. */
#ifndef FS_COMMIT_H
#define FS_COMMIT_H

#include <stddef.h>

#include <stdio.h>

#include "models/purchase/portfolio.h"
#include "sim/app/commit_block.h"
#include "sim/app/commit_inputs.h"
#include "sim/app/commit_rows.h"

enum { FS_COMMIT_TABLE, FS_COMMIT_CSV, FS_COMMIT_JSON, FS_COMMIT_MARKDOWN,
       FS_COMMIT_FOCUS };

/* The capacity blocks weighed for the runs' training pools. */
typedef struct fs_commit_blocks_list {
    fs_commit_block *b;
    size_t n;
} fs_commit_blocks_list;

/* Prints the portfolio, its cost and the comparisons in format fmt, with
 * the capacity blocks bl (NULL: none). */
void fs_commit_print(FILE *out, int fmt, const fs_commit_inputs *in,
                     const fs_pf_solution *sol,
                     const fs_commit_blocks_list *bl);

/* The blocks as portfolio rows into rows (at most bl->n) and, for those
 * recommended, cost lines into c (at most 5); each returns how many
 * (commit_block_out.c). */
size_t fs_commit_block_rows(const fs_commit_blocks_list *bl,
                            fs_commit_row *rows);
size_t fs_commit_block_costs(const fs_commit_blocks_list *bl,
                             fs_commit_cost *c);
/* Their own table under the table (md 0) or Markdown (md 1) output. */
void fs_commit_blocks_text(FILE *out, int md, const fs_commit_blocks_list *bl);
/* Their JSON array (a json_t *, new reference). */
void *fs_commit_blocks_json(const fs_commit_blocks_list *bl);

/* The buys as FOCUS 1.2 Purchase rows (commit_focus.c), bought at start
 * (seconds since the epoch, UTC). */
void fs_commit_print_focus(FILE *out, const fs_commit_inputs *in,
                           const fs_pf_solution *sol,
                           const fs_commit_blocks_list *bl, long long start);

#endif
