/* cmd_commit.c -- `fleetsim commit RUN... [--db FILE]
 * [--risk unused<=10%@p90] [--horizon 1y|3y|Nm] [--discount-rate R]
 * [--lp FILE] [--format table|csv|json|markdown]`.
 *
 * The commitment portfolio over every pool of the runs at once: reads
 * them (commit_inputs.c), solves one mixed-integer program
 * (models/purchase/portfolio.h) and prints it (commit_out.c).  The
 * options are read by one function, parse_opts, so that a table-driven
 * parser can take it over. */
#include "sim/cli/commands.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grammar.h"
#include "sim/cli/commit/commit.h"
#include "sim/cli/shared/commit_args.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/shared/parse_options.h"
#include "sim/store/store_query.h"

typedef struct commit_opts {
    const char *db, *risk, *lp, *format, *horizon, *discount;
    fs_commit_opts opts;   /* what the three above say */
    char **runs;
    int nruns, fmt;
} commit_opts;

/* A bad value or a missing operand: one line naming the option, exit
 * status 1 (the work cannot be done), as for an unknown run. */
static int bad_input(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static int bad_input(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fs_print_line("fleetsim commit: ", msg);
    return FS_EXIT_FAIL;
}

const fs_option fs_options_commit[] = {
    OPT__DB_READ(commit_opts, db),
    OPT_COMMIT_ARGS(commit_opts),
    OPT_STRING(0, "lp", commit_opts, lp, "FILE",
               "also write the model in CPLEX LP format"),
    OPT__FORMAT_AND(commit_opts, format, "focus", "focus: the buys as FOCUS "
                    "1.2 Purchase rows; the others as for every command"),
    OPT_END(),
};

/* Every option and operand, checked: -1 to go on, else the exit status. */
static int parse_opts(int argc, char **argv, commit_opts *o)
{
    static const char *const fmts[] = {"table", "csv", "json", "markdown",
                                       "focus", NULL};
    o->runs = calloc((size_t)argc + 1, sizeof *o->runs);
    if (!o->runs)
        return fs_fail("out of memory");
    int rc = fs_parse_options_few("commit", argc, argv, fs_options_commit, o,
                                  (const char **)o->runs, argc + 1,
                                  &o->nruns);
    if (rc)
        return rc;
    if (o->nruns == 0)
        return bad_input("which runs? give RUN... (ids or names; see "
                         "`fleetsim runs`)");
    for (o->fmt = 0; fmts[o->fmt] && strcmp(fmts[o->fmt], o->format);)
        o->fmt++;
    if (!fmts[o->fmt])
        return bad_input("--format: '%s' is not one of table, csv, json, "
                         "markdown, focus", o->format);
    char why[256];
    if (fs_commit_args_read(o->risk, o->horizon, o->discount, &o->opts, why,
                            sizeof why))
        return bad_input("%s", why);
    return -1;
}

/* The buys as FOCUS rows, bought on the first run's start date. */
static int print_focus(fs_store *s, const fs_commit_inputs *in,
                       const fs_pf_solution *sol,
                       const fs_commit_blocks_list *bl, fs_error *err)
{
    char date[32], why[256];
    double horizon;
    long long start;
    if (fs_store_run_start(s, in->run_ids[0], date, sizeof date, &horizon,
                           err))
        return -1;
    if (fs_parse_utc_time(date, &start, why, sizeof why))
        return fs_error_set(err, "run %ld: start_date: %s", in->run_ids[0],
                            why);
    fs_commit_print_focus(stdout, in, sol, bl, start);
    return 0;
}

static int commit_solve(fs_store *s, const commit_opts *o, fs_error *err)
{
    fs_commit_inputs in;
    fs_pf_solution sol = {0};
    char why[256];
    if (fs_commit_inputs_read(s, o->runs, (size_t)o->nruns, &in, err)) {
        fs_commit_inputs_free(&in);
        return FS_EXIT_FAIL;
    }
    if (fs_commit_inputs_apply(&in, &o->opts, err)) {
        fs_commit_inputs_free(&in);
        return FS_EXIT_FAIL;
    }
    fs_commit_blocks_list bl = {0};
    int rc = fs_pf_solve(&in.problem, o->lp, &sol, why, sizeof why);
    if (rc)
        fs_error_set(err, "commit: %s", why);
    else if (fs_commit_blocks(s, &in, &bl.b, &bl.n, err))
        rc = -1;   /* the training pools' capacity blocks */
    else if (o->fmt == FS_COMMIT_FOCUS)
        rc = print_focus(s, &in, &sol, &bl, err);
    else
        fs_commit_print(stdout, o->fmt, &in, &sol, &bl);
    free(bl.b);
    fs_pf_solution_free(&sol);
    fs_commit_inputs_free(&in);
    return rc ? FS_EXIT_FAIL : FS_EXIT_OK;
}

int cmd_commit(int argc, char **argv)
{
    commit_opts o = {.db = FS_DEFAULT_DB, .format = "table"};
    int rc = parse_opts(argc, argv, &o);
    if (rc >= 0) {
        free(o.runs);
        return rc;
    }
    fs_error err;
    fs_store *s = fs_store_open(o.db, FS_STORE_READONLY, &err);
    if (!s) {
        free(o.runs);
        return fs_fail(err.msg);
    }
    rc = commit_solve(s, &o, &err);
    fs_store_close(s);
    free(o.runs);
    if (rc)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return FS_EXIT_OK;
}
