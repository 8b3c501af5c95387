/* roi_out.h -- what `fleetsim roi` prints: one recommendation per pool
 * (fs_roi_row, roi_run.h), as a table, CSV, JSON or Markdown (roi_out.c). */
#ifndef FS_ROI_OUT_H
#define FS_ROI_OUT_H

#include <stdio.h>
#include "sim/app/roi_run.h"
#include "sim/app/roi_owned.h"

enum { FS_ROI_TABLE, FS_ROI_CSV, FS_ROI_JSON, FS_ROI_MARKDOWN };

void fs_roi_print(FILE *out, int format, const fs_roi_row *rows, size_t n);

/* The purchase option a recommendation buys: the registry's option that
 * commits to a count (a reservation) or, for a plan, to dollars an hour. */
const char *fs_roi_pricing(const fs_roi_row *w);
/* "$1,234.56" into buf (returned), "-" for NaN: the table's money. */
const char *fs_roi_money(double v, char *buf, size_t len);
/* What a recommendation buys: "reserve N", or a plan's "commit $X/h". */
void fs_roi_buys(int plan, double commitment, long count, char *buf,
                 size_t len);

/* `roi --all` (roi_options.c): every term and upfront option and the
 * savings plan (1y, 3y) for each pool of run, base's other settings
 * kept, one table per pool, cheapest first.  *npools: the pools (0: none
 * such).  0, or -1 with err. */
int fs_roi_print_options(FILE *out, int format, fs_store *s, long run,
                         const fs_roi_query *base, size_t *npools,
                         fs_error *err);

/* roi --owned: buy versus rent for each pool of run (or pool) on terms
 * t, in format (0 table, 1 csv, 2 json, 3 markdown; roi_owned_out.c).
 * 0, or -1 with err. */
int fs_roi_print_owned(FILE *out, int format, fs_store *s, long run,
                       const char *pool, const fs_purchase_terms *t,
                       fs_error *err);

#endif
