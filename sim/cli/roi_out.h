/* roi_out.h -- what `fleetsim roi` prints: one recommendation per pool, as
 * a table, CSV, JSON or Markdown (roi_out.c). */
#ifndef FS_ROI_OUT_H
#define FS_ROI_OUT_H

#include <stdio.h>
#include "models/roi.h"

typedef struct fs_roi_row {
    char pool[256];
    char gpu[64];
    const char *term;        /* "1y" | "3y" */
    const char *upfront;     /* "none" | "partial" | "all" */
    int plan;                /* a savings plan (commitment) */
    double discount;         /* the plan's discount */
    double on_demand_usd_h;  /* the prices it used, and where from */
    double reserved_usd_h;
    char price_source[256];
    const char *rate_basis;  /* the reserved rate: "quote", "published",
                                "derived"; the plan's discount: "--discount",
                                "published", "reserved discount" */
    int vs_spot;             /* a spot pool: the alternative is its spot
                                bill as paid, not on demand */
    double hours;            /* demand hours it sized against */
    fs_roi_result r;
} fs_roi_row;

enum { FS_ROI_TABLE, FS_ROI_CSV, FS_ROI_JSON, FS_ROI_MARKDOWN };

void fs_roi_print(FILE *out, int format, const fs_roi_row *rows, size_t n);

#endif
