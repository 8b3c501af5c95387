/* report.h -- the budget review of `fleetsim report`: its tables and
 * charts gathered once (report_data.c), written as HTML (report_html.c)
 * or Markdown (report_md.c). */
#ifndef FS_CLI_REPORT_H
#define FS_CLI_REPORT_H

#include <stdio.h>
#include <stddef.h>
#include "sim/base/error.h"
#include "sim/store/store.h"

/* One table: ncols header cells, then nrows rows of ncols cells (text,
 * already formatted; never NULL). */
typedef struct fs_rtable {
    const char *title;
    const char *intro;     /* one sentence under the title */
    int ncols;
    const char *const *head;
    size_t nrows, ncells, cap;
    char **cells;          /* nrows * ncols */
} fs_rtable;

#define FS_REPORT_TABLES 6

/* One chart: the <svg> element's text (from "<svg" on), or a note saying
 * why it could not be drawn. */
typedef struct fs_rchart {
    const char *name;
    const char *summary;
    char *svg;
    char *note;
} fs_rchart;

typedef struct fs_report {
    char **run_names;
    size_t nruns;
    char *baseline_name;
    fs_rtable tables[FS_REPORT_TABLES];
    fs_rchart *charts;
    size_t ncharts;
} fs_report;

/* Reads everything about runs ids[0..n) (base: the baseline's id) from s
 * and draws the charts.  Returns 0, or -1 with err set. */
int fs_report_gather(fs_store *s, const long *ids, size_t n, long base,
                     fs_report *r, fs_error *err);
void fs_report_free(fs_report *r);

/* Appends one cell (row-major) to t: 0, or -1 with err. */
int fs_rtable_add(fs_rtable *t, const char *text, fs_error *err);

/* Table 5: each pool's reservation recommendation of runs ids[0..n)
 * (report_roi.c); a pool or run that cannot be sized gets a note row. */
int fs_report_gather_roi(fs_store *s, const long *ids, size_t n,
                         fs_report *r, fs_error *err);

/* Writes the review to out.  HTML: one self-contained page, every name
 * escaped, the charts inline.  Markdown: GitHub tables, each chart an
 * image link to chart_files[i] (a file name beside the .md; NULL where a
 * chart has a note instead).  Return 0, or -1 on a write error. */
int fs_report_write_html(const fs_report *r, FILE *out);
int fs_report_write_md(const fs_report *r, char *const *chart_files,
                       FILE *out);

#endif
