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

/* A saving the runs show, for the executive summary's top three. */
typedef struct fs_rsaving {
    double monthly;     /* USD per 730-hour month */
    char key[300];      /* what it is about (run, pool): one saving each,
                           the largest, so that none is counted twice */
    char text[900];     /* one plain sentence, names as they are */
} fs_rsaving;

/* A growable list of sentences. */
typedef struct fs_rlines {
    char **v;
    size_t n, cap;
} fs_rlines;

/* The executive summary (report_brief.c): a headline, an at-a-glance
 * table (one row per run), the top savings and the risks, in words. */
typedef struct fs_rbrief {
    fs_rlines headline;
    fs_rtable glance;
    fs_rsaving *savings;       /* candidates; the best three are shown */
    size_t nsavings, cap;
    fs_rlines risks;
} fs_rbrief;

typedef struct fs_report {
    char **run_names;
    size_t nruns;
    char *baseline_name;
    fs_rbrief brief;
    fs_rtable tables[FS_REPORT_TABLES];
    fs_rchart *charts;
    size_t ncharts;
} fs_report;

/* Reads everything about runs ids[0..n) (base: the baseline's id) from s
 * and draws the charts.  Returns 0, or -1 with err set. */
int fs_report_gather(fs_store *s, const long *ids, size_t n, long base,
                     fs_report *r, fs_error *err);
void fs_report_free(fs_report *r);

/* Appends one cell (row-major) to t: 0, or -1 with err (report_table.c;
 * fs_rtable_addf formats it as printf does). */
int fs_rtable_add(fs_rtable *t, const char *text, fs_error *err);
int fs_rtable_addf(fs_rtable *t, fs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Money as a reader reads it: "$1,234.56", "-$12.30"; with whole set,
 * amounts of $1,000 and more lose their cents ("$1,234"). */
const char *fs_report_money(double usd, int whole, char *buf, size_t size);

/* Appends a printf-formatted sentence: 0, or -1 with err. */
int fs_rlines_add(fs_rlines *l, fs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A saving candidate for the summary about key (a run and pool): kept
 * unless a larger one about the same key is there.  0, or -1 with err. */
int fs_rbrief_saving(fs_rbrief *b, const char *key, double monthly,
                     fs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The executive summary of runs ids[0..n) against base (report_brief.c),
 * after the tables (it reads the reservation candidates report_roi.c
 * added).  0, or -1 with err. */
int fs_report_gather_brief(fs_store *s, const long *ids, size_t n,
                           long base, fs_report *r, fs_error *err);
void fs_rbrief_free(fs_rbrief *b);

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
