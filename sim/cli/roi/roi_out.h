/* roi_out.h -- what `fleetsim roi` prints: one recommendation per pool
 * (fs_roi_row, roi_run.h), as a table, CSV, JSON or Markdown (roi_out.c). */
#ifndef FS_ROI_OUT_H
#define FS_ROI_OUT_H

#include <stdio.h>
#include "sim/cli/shared/roi_run.h"

enum { FS_ROI_TABLE, FS_ROI_CSV, FS_ROI_JSON, FS_ROI_MARKDOWN };

void fs_roi_print(FILE *out, int format, const fs_roi_row *rows, size_t n);

#endif
