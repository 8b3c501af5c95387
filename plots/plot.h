/* plot.h -- charts of stored runs, drawn by gnuplot.
 *
 * Each chart is a gnuplot template (plots/NAME.gp) and a C function that
 * writes its data.  fs_plot_render makes a private temporary directory
 * (mkdtemp), writes there the chart's data (numbers only), the names of
 * runs, pools and workloads as data (names.tsv, never gnuplot text) and a
 * preamble (terminal, output file, the names read into gnuplot string
 * arrays), runs gnuplot on preamble + template as
 * a child process (no shell), and removes the directory.  The output
 * terminal follows out_path's extension: .png (pngcairo), .svg, .pdf
 * (pdfcairo).  The same data gives the same bytes: the PDF's creation date
 * is fixed.  Templates are found in $FLEETSIM_PLOTS, else the installed
 * data directory, else the source tree's plots/. */
#ifndef FS_PLOT_H
#define FS_PLOT_H

#include <stddef.h>
#include "sim/app/commit_inputs.h"
#include "sim/base/error.h"
#include "sim/store/store.h"

/* What fs_plot_render failed on, beyond err's message. */
enum {
    FS_PLOT_OK = 0,
    FS_PLOT_FAIL = -1,         /* no such run, nothing to draw, I/O, gnuplot */
    FS_PLOT_NO_GNUPLOT = -2,   /* gnuplot is not on PATH */
    FS_PLOT_UNKNOWN_CHART = -3,
    FS_PLOT_BAD_OUTPUT = -4,   /* the extension is not png, svg or pdf */
};

/* One chart request.  baseline: a run id for `savings` (0: the first
 * run); pool: the pool of `ri-breakeven` (NULL: each run's first
 * on-demand pool, else its first pool); term_years 1 or 3 (0: 1). */
typedef struct fs_plot_request {
    const char *chart;
    const long *run_ids;
    size_t nruns;
    long baseline;
    const char *pool;
    int term_years;
    const char *out_path;
    /* portfolio-cost: the portfolio already solved (the report's, with
     * its options), drawn as it is; NULL: solved here, the runs alone
     * (`plot`).  portfolio_off: not asked for (a report without
     * --portfolio): the chart is not drawn and no program solved. */
    const fs_commit_inputs *portfolio_in;
    const fs_pf_solution *portfolio_sol;
    int portfolio_off;
} fs_plot_request;

/* Draws the chart into out_path.  Returns FS_PLOT_OK or one of the codes
 * above with err set (one line, no "fleetsim: " prefix). */
int fs_plot_render_request(fs_store *s, const fs_plot_request *rq,
                           fs_error *err);

/* The same with the defaults for pool and term: the entry point for other
 * commands (the report). */
int fs_plot_render(fs_store *s, const char *chart, const long *run_ids,
                   size_t n, long baseline, const char *out_path,
                   fs_error *err);

/* The charts, in the order they are listed: names[i] for i < count. */
size_t fs_plot_chart_count(void);
const char *fs_plot_chart_name(size_t i);
const char *fs_plot_chart_summary(size_t i);
/* Whether the report leaves chart i out when it cannot be drawn. */
int fs_plot_chart_optional(size_t i);
/* Every chart's name and help lines, as `fleetsim help plot` lists them
 * (the name in a column, the lines beside it), into buf. */
void fs_plot_chart_help_list(char *buf, size_t size);

/* "monthly-cost, utilization, ..." into buf. */
void fs_plot_chart_list(char *buf, size_t size);

/* The directory of the templates (see above). */
const char *fs_plot_template_dir(void);

#endif
