/* report.h -- the budget review of `fleetsim report`: its tables and
 * charts gathered once (report_data.c), written as HTML (report_html.c)
 * or Markdown (report_md.c). */
#ifndef FS_CLI_REPORT_H
#define FS_CLI_REPORT_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include "sim/app/commit_inputs.h"
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
    int optional;          /* left out of the review when it has no rows */
} fs_rtable;

#define FS_REPORT_TABLES 10

/* One chart: the <svg> element's text (from "<svg" on), or a note saying
 * why it could not be drawn. */
typedef struct fs_rchart {
    const char *name;
    const char *summary;
    char *svg;
    char *note;
} fs_rchart;

/* A saving: one line of the top savings (what one change saves of the
 * baseline-to-run difference), or an option beyond the runs (a
 * reservation `roi` recommends for a run's pool). */
typedef struct fs_rsaving {
    double monthly;     /* USD per 730-hour month */
    long run_id;        /* the run it is about (options) */
    char key[300];      /* what it is about (run, pool): one each */
    char text[1200];    /* one plain sentence, names as they are */
} fs_rsaving;

/* Appends to the strings v[0..*n) (room *cap, grown as fs_vec_grow
 * does) one formatted as vprintf does: 0, or -1 with err.  The cells of a
 * table and the lines of the brief are both such lists (report_table.c). */
int fs_report_vappend(char ***v, size_t *n, size_t *cap, fs_error *err,
                      const char *fmt, va_list ap);

/* A growable list of sentences. */
typedef struct fs_rlines {
    char **v;
    size_t n, cap;
} fs_rlines;

/* The executive summary (report_brief.c): a headline, an at-a-glance
 * table (one row per run), the top savings and the risks, in words.  The
 * top savings (report_savings.c) attribute one run's difference to the
 * baseline per change: the lines add up to that difference, never more;
 * ceilings (a pool's idle cost) and options (reservations) follow apart,
 * each pool once, never added to them. */
typedef struct fs_rbrief {
    fs_rlines headline;
    fs_rtable glance;
    fs_rlines savings_intro;   /* what the run changes, before the list */
    fs_rsaving *savings;       /* per change, largest first */
    size_t nsavings, cap;
    fs_rlines further;         /* ceilings and options, not added up */
    fs_rsaving *options;       /* reservation candidates (report_roi.c) */
    size_t noptions, ocap;
    fs_rlines risks;
} fs_rbrief;

typedef struct fs_report {
    char **run_names;
    size_t nruns;
    char *baseline_name;
    const long *lever_ids;     /* runs `report --levers` made: used for */
    size_t nlever_ids;         /* the attribution, not shown as runs */
    fs_rbrief brief;
    fs_rtable tables[FS_REPORT_TABLES];
    fs_rchart *charts;
    size_t ncharts;
    /* The commitment portfolio (report_portfolio.c): commit's options
     * (`report --portfolio`, --risk, --horizon, --discount-rate); NULL:
     * not asked for, so no section, no chart and no program solved.  Its
     * one solve, which the portfolio-cost chart draws too. */
    const fs_commit_opts *portfolio;
    fs_commit_inputs pf_in;
    fs_pf_solution pf_sol;
    int pf_solved;             /* pf_sol holds the answer */
} fs_report;

/* Reads everything about runs ids[0..n) (base: the baseline's id) from s
 * and draws the charts.  Returns 0, or -1 with err set. */
int fs_report_gather(fs_store *s, const long *ids, size_t n, long base,
                     fs_report *r, fs_error *err);
void fs_report_free(fs_report *r);

/* Names table t: its title, one-sentence intro and ncols header cells
 * (report_table.c). */
void fs_rtable_setup(fs_rtable *t, const char *title, const char *intro,
                     int ncols, const char *const *head);

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

/* A reservation candidate about key (a run and pool) of run run_id:
 * kept unless a larger one about the same key is there.  0, or -1 with
 * err. */
int fs_rbrief_option(fs_rbrief *b, long run_id, const char *key,
                     double monthly, fs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The executive summary of runs ids[0..n) against base (report_brief.c):
 * the headline, at a glance and the risks.  0, or -1 with err. */
int fs_report_gather_brief(fs_store *s, const long *ids, size_t n,
                           long base, fs_report *r, fs_error *err);
void fs_rbrief_free(fs_rbrief *b);

/* The top savings, ceilings and options of runs ids[0..n) against base,
 * with r->lever_ids as further runs to attribute by (report_savings.c),
 * after the reservation table (it reads the options report_roi.c added).
 * 0, or -1 with err. */
int fs_report_gather_savings(fs_store *s, const long *ids, size_t n,
                             long base, fs_report *r, fs_error *err);

/* The run of ids[0..n) whose difference to base the top savings
 * attribute, into *target (0: none changes base's scenario).  0, or -1
 * with err. */
int fs_report_savings_target(fs_store *s, const long *ids, size_t n,
                             long base, long *target, fs_error *err);

/* `report --levers`: runs base's scenario once for each change the
 * target makes (fs_report_savings_target), with that change alone, same
 * seed and replication, into db, named "BASE+SECTION:KIND"; a stored run
 * of that name and change is used again.  Their ids into *out (malloc'd,
 * *nout of them).  A change that cannot be applied alone (it removes a
 * key) is said on stderr and left to the combined line.  0, or -1 with
 * err (report_levers.c). */
int fs_report_levers(fs_store *s, const char *db, const long *ids, size_t n,
                     long base, long **out, size_t *nout, fs_error *err);

/* The ceilings (each pool's idle cost, beside what a stored `plan` run
 * achieves) and the reservation options of run id, named name
 * (report_ceiling.c).  0, or -1 with err. */
int fs_report_gather_further(fs_store *s, long id, const char *name,
                             fs_report *r, fs_error *err);

/* Table 7: the runs' storage and transfer lines with the bill and their
 * total, left out (no title) when no run has any; and a risk line per
 * budget exceeded (report_extra.c).  0, or -1 with err. */
int fs_report_gather_extra(fs_store *s, const long *ids, size_t n,
                           fs_report *r, fs_error *err);
/* Tables 8 and 9, when r->portfolio asks for them and the runs hold a
 * pool a commitment could cover: `commit`'s portfolio of the runs with
 * those options and its cost lines (report_portfolio.c), the solve kept
 * in r->pf_in and r->pf_sol.  0, or -1 with err (the solver failed, or
 * the options do not fit the runs). */
int fs_report_gather_portfolio(fs_store *s, const long *ids, size_t n,
                               fs_report *r, fs_error *err);
void fs_report_portfolio_free(fs_report *r);
/* Table 6, where runs have it: what served their LLM requests (prefix
 * cache hits, P/D KV transfers, cold starts, speculative decoding's
 * tokens a step) per workload and pool (report_serving.c). */
int fs_report_gather_serving(fs_store *s, const long *ids, size_t n,
                             fs_report *r, fs_error *err);

/* Table 5: each pool's reservation recommendation of runs ids[0..n)
 * (report_roi.c); a pool or run that cannot be sized gets a note row. */
int fs_report_gather_roi(fs_store *s, const long *ids, size_t n,
                         fs_report *r, fs_error *err);

/* A format of the review: its opening (head), how it escapes a name and
 * writes the brief, a table and a chart (file: the chart's image beside
 * the review, or NULL), and its text after the runs line, before the
 * charts and at the end.  HTML (report_html.c): one self-contained page,
 * every name escaped, the charts inline.  Markdown (report_md.c): GitHub
 * tables, each chart an image link to its file. */
typedef struct fs_report_format {
    void (*head)(FILE *out);
    const char *after_runs, *charts, *tail;
    void (*esc)(FILE *out, const char *s);
    void (*brief)(FILE *out, const fs_rbrief *b);
    void (*table)(FILE *out, const fs_rtable *t);
    void (*chart)(FILE *out, const fs_rchart *c, const char *file);
} fs_report_format;

extern const fs_report_format fs_report_html, fs_report_md;

/* Writes the review to out in format f, in the order both share: head,
 * "Runs: A, B. Baseline: A.", the brief, the tables, the charts
 * (chart_files[i] chart i's file, NULL where it has none).  0, or -1 on
 * a write error (report_table.c). */
int fs_report_write(const fs_report *r, const fs_report_format *f,
                    char *const *chart_files, FILE *out);

#endif
