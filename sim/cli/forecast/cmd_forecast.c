/* cmd_forecast.c -- `fleetsim forecast RUN... [--months N] [--level L]
 * [--format table|csv|json|markdown]`: the bill of each of the next N
 * months (730 hours each, after the runs' horizon) with its interval,
 * from each run's bill per 730 hours and the growth rate it drew
 * (`growth = G ± S`, schema version 20), grown as traffic grows
 * (models/purchase/forecast.h).  The budget review's "next quarter". */
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

#define FC_MONTHS_MAX 120

typedef struct forecast_opts {
    int months;                 /* --months: 1..FC_MONTHS_MAX */
    const char *level;          /* --level, parsed by parse_choices */
    const char *format, *db;
} forecast_opts;

const fs_option fs_options_forecast[] = {
    OPT_INT(0, "months", forecast_opts, months, "N",
            "months of 730 hours to forecast after the runs (default 3)",
            1, FC_MONTHS_MAX),
    OPT__DB_READ(forecast_opts, db),
    OPT_STRING(0, "level", forecast_opts, level, "L",
               "the interval's level, e.g. 90% (default)"),
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
    return 0;
}

static int forecast_runs(fs_store *s, char **names, int n,
                         const forecast_opts *o, int fmt, double level,
                         fs_error *err)
{
    fs_fc_run *runs = calloc((size_t)n, sizeof *runs);
    long *ids = calloc((size_t)n, sizeof *ids);
    fs_fc_month *m = calloc((size_t)o->months, sizeof *m);
    int rc = runs && ids && m ? 0 : fs_error_set(err, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++)
        rc = read_run(s, names[i], &ids[i], &runs[i], err);
    if (rc == 0) {
        fs_fc_forecast(runs, (size_t)n, o->months, level, m);
        fs_fc_answer a = {(size_t)n, ids, runs, o->months, level, m};
        fs_forecast_print(stdout, fmt, &a);
    }
    free(runs);
    free(ids);
    free(m);
    return rc ? -1 : 0;
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
    if (rc)
        return fs_fail(err.msg);
    return fflush(stdout) != 0 ? fs_fail("cannot write to standard output")
                               : FS_EXIT_OK;
}
