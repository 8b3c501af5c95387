/* cmd_plot.c -- `fleetsim plot [--db FILE] --chart NAME --out FILE RUN...`:
 * draws one chart of stored runs with gnuplot (plots/plot.h does the
 * work).  Options: --baseline RUN (savings), --pool POOL and --term 1y|3y
 * (ri-breakeven).  Usage errors (unknown chart, output that is not .png,
 * .svg or .pdf) exit 2; a run that is not there, nothing to draw, or no
 * gnuplot exit 1 with one line. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plots/plot.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"

typedef struct plot_args {
    const char *db, *chart, *out, *baseline, *pool, *term;
    fs_run_args r;
} plot_args;

const fs_option fs_options_plot[] = {
    OPT__DB_READ(plot_args, db),
    OPT_STRING_F(0, "chart", plot_args, chart, "NAME",
                 "the chart (see below)", FS_OPTION_REQUIRED),
    OPT_STRING_F(0, "out", plot_args, out, "FILE.png|svg|pdf",
                 "the image; its extension gives the format",
                 FS_OPTION_REQUIRED),
    OPT_STRING(0, "baseline", plot_args, baseline, "RUN",
               "savings: the run the others are weighed against (default "
               "the first RUN)"),
    OPT_STRING(0, "pool", plot_args, pool, "POOL",
               "ri-breakeven: the pool (default the on-demand pool with "
               "the largest bill)"),
    OPT_STRING(0, "term", plot_args, term, "1y|3y",
               "ri-breakeven: the reservation's term (default 1y)"),
    OPT_END(),
};

/* Fills a from argv; returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, plot_args *a)
{
    int rc = fs_run_args_parse("plot", argc, argv, fs_options_plot, a, &a->r);
    return rc ? rc : -1;
}

/* Checks what needs no database; returns -1 when all is well. */
static int check(const plot_args *a, int *term_years)
{
    char list[512];
    fs_plot_chart_list(list, sizeof list);
    if (!a->chart)
        return fs_usage_error("plot", "which chart? --chart NAME, one of: "
                              "%s", list);
    size_t i = 0;
    while (i < fs_plot_chart_count() &&
           strcmp(fs_plot_chart_name(i), a->chart) != 0)
        i++;
    if (i == fs_plot_chart_count())
        return fs_usage_error("plot", "unknown chart '%s'; the charts: %s",
                              a->chart, list);
    if (!a->out)
        return fs_usage_error("plot", "where to? --out FILE.png, .svg or "
                              ".pdf");
    const char *dot = strrchr(a->out, '.');
    if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg") &&
                 strcmp(dot, ".pdf")))
        return fs_usage_error("plot", "--out %s: the file name must end in "
                              ".png, .svg or .pdf (the format)", a->out);
    *term_years = 1;
    if (a->term && strcmp(a->term, "1y") && strcmp(a->term, "3y"))
        return fs_usage_error("plot", "--term %s: 1y or 3y", a->term);
    if (a->term)
        *term_years = a->term[0] - '0';
    if (a->r.n == 0)
        return fs_run_args_none("plot");
    return -1;
}

static int draw(plot_args *a, int term_years)
{
    fs_error err;
    long base = 0;
    fs_store *s = fs_run_args_open(a->db, &a->r, &err);
    int rc = s ? 0 : -1;
    if (rc == 0 && a->baseline)
        rc = fs_store_find_run(s, a->baseline, &base, &err);
    if (rc == 0) {
        fs_plot_request rq = {a->chart, a->r.ids, (size_t)a->r.n, base,
                              a->pool, term_years, a->out, NULL, NULL, 0};
        rc = fs_plot_render_request(s, &rq, &err);
    }
    fs_store_close(s);
    return rc ? fs_fail(err.msg) : FS_EXIT_OK;
}

int cmd_plot(int argc, char **argv)
{
    plot_args a = {.db = FS_DEFAULT_DB};
    int term_years = 1;
    int rc = parse(argc, argv, &a);
    if (rc < 0)
        rc = check(&a, &term_years);
    if (rc < 0)
        rc = draw(&a, term_years);
    fs_run_args_free(&a.r);
    return rc;
}
