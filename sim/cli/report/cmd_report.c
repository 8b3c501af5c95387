/* cmd_report.c -- `fleetsim report [--db FILE] [--baseline RUN]
 * [--levers] [--portfolio] [--risk B] [--horizon H] [--discount-rate R]
 * --out review.html|review.md RUN...`: one budget review of the
 * runs (tables of sim/cli/report/report_data.c, written by report_html.c
 * or report_md.c); --levers first makes the runs that isolate each change
 * of the run the top savings attribute (report_levers.c).  The
 * review is written through sim/base/outfile.h; Markdown's charts go beside
 * it as STEM-CHART.svg, each written the same way.  Usage errors exit 2;
 * a run that is not there or a write error exit 1 with one line. */
#include "sim/cli/commands.h"
#include "sim/base/outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/shared/commit_args.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/report/report.h"
#include "sim/cli/shared/run_args.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"

typedef struct report_args {
    const char *db, *out, *baseline;
    const char *risk, *horizon, *discount;   /* commit's, for the portfolio */
    fs_run_args r;
    int md, levers, portfolio;
    fs_commit_opts pf;
} report_args;

const fs_option fs_options_report[] = {
    OPT_STRING(0, "db", report_args, db, "FILE",
               "the results database"),
    OPT_STRING(0, "baseline", report_args, baseline, "RUN",
               "the run the others are weighed against (default the first "
               "RUN)"),
    OPT_BOOL(0, "levers", report_args, levers,
             "first run the baseline's scenario once per change, that "
             "change alone, and attribute the savings by them"),
    OPT_STRING_F(0, "out", report_args, out, "FILE.html|FILE.md",
                 "the report; its extension gives the format",
                 FS_OPTION_REQUIRED),
    OPT_BOOL(0, "portfolio", report_args, portfolio,
             "add the commitment portfolio (what `fleetsim commit` on the "
             "runs buys) and its chart, solving its program; commit's "
             "options below imply it"),
    OPT_COMMIT_ARGS(report_args),
    OPT_END(),
};

static int parse(int argc, char **argv, report_args *a)
{
    int rc = fs_run_args_parse("report", argc, argv, fs_options_report, a,
                               &a->r);
    if (rc)
        return rc;
    if (!a->out)
        return fs_usage_error("report", "where to? --out FILE.html or "
                              "FILE.md");
    const char *dot = strrchr(a->out, '.');
    if (!dot || (strcmp(dot, ".html") && strcmp(dot, ".md")))
        return fs_usage_error("report", "--out %s: the file name must end in "
                              ".html or .md (the format)", a->out);
    a->md = strcmp(dot, ".md") == 0;
    if (a->r.n == 0)
        return fs_run_args_none("report");
    char why[256];
    if (fs_commit_args_read(a->risk, a->horizon, a->discount, &a->pf, why,
                            sizeof why)) {
        fs_print_line("fleetsim report: ", why);
        return FS_EXIT_FAIL;
    }
    a->portfolio |= a->risk || a->horizon || a->discount;
    return -1;
}

/* The run's name, with " #ID" when another of the runs has the same. */
static int run_names(fs_store *s, const long *ids, fs_report *r,
                     fs_error *err)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->nruns; i++) {
        char name[512];
        if (fs_store_run_name(s, ids[i], name, sizeof name, err))
            return -1;
        r->run_names[i] = strdup(name[0] ? name : "?");
        rc = r->run_names[i] ? 0 : fs_error_set(err, "out of memory");
    }
    for (size_t i = 0; rc == 0 && i < r->nruns; i++) {
        int dup = 0;
        for (size_t j = 0; j < r->nruns; j++)
            dup |= j != i && ids[j] != ids[i] &&
                   strcmp(r->run_names[j], r->run_names[i]) == 0 &&
                   !strchr(r->run_names[j], '#');
        if (!dup)
            continue;
        size_t n = strlen(r->run_names[i]) + 32;
        char *s2 = malloc(n);
        if (!s2)
            return fs_error_set(err, "out of memory");
        snprintf(s2, n, "%s #%ld", r->run_names[i], ids[i]);
        free(r->run_names[i]);
        r->run_names[i] = s2;
    }
    return rc;
}

/* Writes text to path (sim/base/outfile.h). */
static int write_file(const char *path, const char *text, fs_error *err)
{
    return fs_outfile_write(path, text, strlen(text), err);
}

/* Markdown's charts beside the .md: STEM-CHART.svg; names[i] the link. */
static int write_md_charts(const char *out, const fs_report *r,
                           char **names, fs_error *err)
{
    size_t stem = strlen(out) - 3;
    const char *slash = strrchr(out, '/');
    size_t base = slash ? (size_t)(slash - out) + 1 : 0;
    for (size_t i = 0; i < r->ncharts; i++) {
        if (!r->charts[i].svg)
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%.*s-%s.svg", (int)stem, out,
                     r->charts[i].name) >= (int)sizeof path)
            return fs_error_set(err, "%s: the name is too long", out);
        if (write_file(path, r->charts[i].svg, err))
            return -1;
        names[i] = strdup(path + base);
        if (!names[i])
            return fs_error_set(err, "out of memory");
    }
    return 0;
}

static int write_review(const report_args *a, const fs_report *r,
                        fs_error *err)
{
    char **files = calloc(r->ncharts + 1, sizeof *files);
    if (!files)
        return fs_error_set(err, "out of memory");
    int rc = a->md ? write_md_charts(a->out, r, files, err) : 0;
    fs_outfile out = {0};
    if (rc == 0 && fs_outfile_open(&out, a->out, err) == 0) {
        errno = 0;
        int w = fs_report_write(r, a->md ? &fs_report_md : &fs_report_html,
                                files, out.f);
        int e = errno ? errno : EIO;   /* the write that failed set it */
        rc = w ? fs_error_set(err, "%s: cannot write: %s", a->out,
                              strerror(e))
               : fs_outfile_commit(&out, err);
    } else if (rc == 0) {
        rc = -1;
    }
    fs_outfile_abort(&out);
    for (size_t i = 0; i < r->ncharts; i++)
        free(files[i]);
    free(files);
    return rc;
}

static int report(report_args *a)
{
    fs_error err;
    fs_store *s = fs_run_args_open(a->db, &a->r, &err);
    if (!s)
        return fs_fail(err.msg);
    fs_report r = {0};
    const long *ids = a->r.ids;
    long base = ids[0];
    r.nruns = (size_t)a->r.n;
    r.portfolio = a->portfolio ? &a->pf : NULL;
    r.run_names = calloc(r.nruns, sizeof *r.run_names);
    int rc = r.run_names ? 0 : fs_error_set(&err, "out of memory");
    if (rc == 0 && a->baseline)
        rc = fs_store_find_run(s, a->baseline, &base, &err);
    if (rc == 0)
        rc = run_names(s, ids, &r, &err);
    if (rc == 0) {
        for (size_t i = 0; i < r.nruns && !r.baseline_name; i++)
            if (ids[i] == base)
                r.baseline_name = strdup(r.run_names[i]);
        if (!r.baseline_name)
            r.baseline_name = strdup(a->baseline);
        rc = r.baseline_name ? 0 : fs_error_set(&err, "out of memory");
    }
    long *made = NULL;
    size_t nmade = 0;
    if (rc == 0 && a->levers)
        rc = fs_report_levers(s, a->db, ids, r.nruns, base, &made, &nmade,
                              &err);
    r.lever_ids = made;
    r.nlever_ids = nmade;
    if (rc == 0)
        rc = fs_report_gather(s, ids, r.nruns, base, &r, &err);
    if (rc == 0)
        rc = write_review(a, &r, &err);
    fs_report_free(&r);
    free(made);
    fs_store_close(s);
    return rc ? fs_fail(err.msg) : FS_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
    report_args a = {.db = FS_DEFAULT_DB};
    int rc = parse(argc, argv, &a);
    if (rc < 0)
        rc = report(&a);
    fs_run_args_free(&a.r);
    return rc;
}
