/* cmd_forecast.c -- `fleetsim forecast RUN... [--months N] [--level L]
 * [--budget USD] [--format table|csv|json|markdown]`: the bill of each of
 * the next N months (730 hours each, after the runs' horizon) with its
 * interval, from each run's bill per 730 hours and the growth rate it drew
 * (`growth = G ± S`, schema version 20), grown as traffic grows
 * (models/purchase/forecast.h).  The budget review's "next quarter".  The
 * runs' budgets and --budget are judged on each month
 * (forecast_budget.c): over one, exit status 3, as `run` does. */
#include "sim/cli/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grammar.h"
#include "sim/cli/forecast/forecast.h"
#include "sim/cli/shared/options_common.h"
#include "sim/cli/shared/parse_options.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"

typedef struct forecast_opts {
    int months;                 /* --months: 1..FC_MONTHS_MAX */
    const char *level;          /* --level, parsed by parse_choices */
    const char *format, *db;
    double budget;              /* --budget: $ per 730-hour month; 0: none */
} forecast_opts;

/* --budget USD[/month] (fs_take_budget). */
static int take_budget(const char *cmd, const char *opt, const char *v,
                       void *base)
{
    return fs_take_budget(cmd, opt, v, &((forecast_opts *)base)->budget);
}

const fs_option fs_options_forecast[] = {
    OPT_INT(0, "months", forecast_opts, months, "N",
            "months of 730 hours to forecast after the runs (default 3)",
            1, FS_FC_MONTHS_MAX),
    OPT__DB_READ(forecast_opts, db),
    OPT_STRING(0, "level", forecast_opts, level, "L",
               "the interval's level, e.g. 90% (default)"),
    OPT_CALLBACK(0, "budget", "USD",
                 "the whole run's budget, dollars per 730-hour month "
                 "(12000 or 12000/month), beside the runs' own: a month "
                 "whose forecast is over one prints a Markdown summary "
                 "and exits 3", take_budget),
    OPT__FORMAT(forecast_opts, format),
    OPT_END(),
};

/* Run name or id `name` into *r: its horizon, run rate and growth. */
static int read_run(fs_store *s, const char *name, long *id, fs_fc_run *r,
                    fs_error *err)
{
    char start[32];
    fs_run_growth g;
    double horizon_s = 0;
    if (fs_store_find_run(s, name, id, err) ||
        fs_store_run_start(s, *id, start, sizeof start, &horizon_s, err) ||
        fs_store_run_growth(s, *id, &g, err))
        return -1;
    r->horizon_h = horizon_s / 3600;
    r->bill_month = fs_store_summary_value(s, *id, "cost_per_month_usd");
    r->growth = g.rate;
    r->growth_mean = g.mean;
    r->growth_spread = g.spread;
    if (!(r->horizon_h > 0) || r->bill_month != r->bill_month)
        return fs_error_set(err, "forecast: run %ld has no horizon or no "
                            "bill to grow", *id), -1;
    if (fs_store_pool_growth_bills(s, *id, &r->part_bill, &r->part_growth,
                                   &r->nparts, err))
        return -1;
    for (size_t i = 0; i < r->nparts; i++)   /* per 730 h, as bill_month */
        r->part_bill[i] *= 730.0 / r->horizon_h;
    return 0;
}

/* 0; 1 when a month is over a budget; -1 with err. */
static int forecast_runs(fs_store *s, char **names, int n,
                         const forecast_opts *o, int fmt, double level,
                         fs_error *err)
{
    fs_fc_run *runs = calloc((size_t)n, sizeof *runs);
    long *ids = calloc((size_t)n, sizeof *ids);
    fs_fc_month *m = calloc((size_t)o->months, sizeof *m);
    fs_fc_budgets *bs = calloc(1, sizeof *bs);
    int rc = runs && ids && m && bs ? 0 : fs_error_set(err, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++)
        rc = read_run(s, names[i], &ids[i], &runs[i], err);
    if (rc == 0)
        rc = fs_fc_budgets_judge(s, ids, runs, (size_t)n, o->months,
                                 o->budget, bs, err);
    if (rc == 0) {
        fs_fc_forecast(runs, (size_t)n, o->months, level, m);
        fs_fc_answer a = {(size_t)n, ids, runs, o->months, level, m, bs};
        fs_forecast_print(stdout, fmt, &a);
        rc = bs->over ? 1 : 0;
    }
    for (int i = 0; runs && i < n; i++) {
        free(runs[i].part_bill);
        free(runs[i].part_growth);
    }
    free(runs);
    free(ids);
    free(m);
    free(bs);
    return rc;
}

static int parse_choices(const forecast_opts *o, int *fmt, double *level)
{
    static const char *const fmts[] = {"table", "csv", "json", "markdown",
                                       NULL};
    char why[256], msg[400];
    for (*fmt = 0; fmts[*fmt] && strcmp(fmts[*fmt], o->format);)
        (*fmt)++;
    if (!fmts[*fmt]) {
        snprintf(msg, sizeof msg, "forecast: --format: '%s' is not one of "
                 "table, csv, json, markdown", o->format);
        return fs_fail(msg);
    }
    if (fs_parse_fraction(o->level, level, why, sizeof why) ||
        !(*level > 0 && *level < 1)) {
        snprintf(msg, sizeof msg, "forecast: --level: '%s' is not a share "
                 "between 0 and 100%% (e.g. 90%%)", o->level);
        return fs_fail(msg);
    }
    return -1;
}

int cmd_forecast(int argc, char **argv)
{
    forecast_opts o = {.months = 3, .level = "90%", .format = "table",
                       .db = FS_DEFAULT_DB};
    char **names = calloc((size_t)argc + 1, sizeof *names);
    int n = 0, fmt = 0;
    double level = 0.9;
    if (!names)
        return fs_fail("out of memory");
    int rc = fs_parse_options_few("forecast", argc, argv, fs_options_forecast,
                                  &o, (const char **)names, argc + 1, &n);
    if (rc == 0 && n == 0)
        rc = fs_fail("forecast: which runs? give RUN... (ids or names; see "
                     "`fleetsim runs`)");
    if (rc == 0)
        rc = parse_choices(&o, &fmt, &level);
    if (rc >= 0) {
        free(names);
        return rc;
    }
    fs_error err;
    fs_store *s = fs_store_open(o.db, FS_STORE_READONLY, &err);
    if (!s) {
        free(names);
        return fs_fail(err.msg);
    }
    rc = forecast_runs(s, names, n, &o, fmt, level, &err);
    fs_store_close(s);
    free(names);
    if (rc < 0)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc ? FS_EXIT_BUDGET : FS_EXIT_OK;
}
