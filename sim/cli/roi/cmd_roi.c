/* cmd_roi.c -- `fleetsim roi [--db FILE] RUN [--pool POOL] [--term 1y|3y]
 * [--upfront none|partial|all] [--rate TERM:OPTION=PRICE]...
 * [--savings-plan] [--all] [--discount D] [--discount-rate R]
 * [--lookback D] [--format ...]`.
 *
 * Reads the options; sim/app/roi_run.c computes each pool's
 * recommendation and roi_out.c prints it (--all: roi_options.c, every
 * option in one table).  A pool that cannot be priced
 * is said so on stderr and skipped. */
#include "sim/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grammar.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/roi/roi_out.h"
#include "sim/app/roi_run.h"
#include "sim/store/store.h"

typedef struct roi_opts {
    const char *db, *run, *pool, *term, *upfront, *format, *lookback;
    const char *discount_rate, *discount, *owned;
    fs_purchase_terms owned_terms;   /* --owned's, read by the option */
    int plan, all;
    int fmt;
    int term_months, upfront_kind;     /* 0 none, 1 partial, 2 all */
    double rate, plan_discount, lookback_s;
    fs_roi_query q;           /* the quotes (--rate), read as they come */
} roi_opts;

static int pick(const char *v, const char *const *words, int *out)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(v, words[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

/* The option values, checked; FS_EXIT_OK or a usage exit. */
static int check_opts(roi_opts *o)
{
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const ups[] = {"none", "partial", "all", NULL};
    static const char *const fmts[] = {"table", "csv", "json", "markdown",
                                       NULL};
    char why[256];
    int t;
    if (!o->run)
        return fs_usage_error("roi", "which run? give RUN (an id or a name; "
                              "see `fleetsim runs`)");
    if (o->all && (o->term || o->upfront || o->plan))
        return fs_usage_error("roi", "--all shows every term, upfront "
                              "option and the savings plan: drop %s",
                              o->term ? "--term" : o->upfront ? "--upfront"
                              : "--savings-plan");
    if (o->owned && (o->all || o->plan || o->term || o->lookback))
        return fs_usage_error("roi", "--owned answers buy versus rent: "
                              "drop %s", o->all ? "--all" : o->plan
                              ? "--savings-plan" : o->term ? "--term"
                              : "--lookback");
    if (!o->term)
        o->term = "1y";
    if (!o->upfront)
        o->upfront = "none";
    if (pick(o->term, terms, &t))
        return fs_usage_error("roi", "--term: '%s' is not 1y or 3y", o->term);
    o->term_months = t ? 36 : 12;
    if (pick(o->upfront, ups, &o->upfront_kind))
        return fs_usage_error("roi", "--upfront: '%s' is not one of none, "
                              "partial, all", o->upfront);
    if (pick(o->format, fmts, &o->fmt))
        return fs_usage_error("roi", "--format: '%s' is not one of table, "
                              "csv, json, markdown", o->format);
    if (fs_parse_fraction(o->discount_rate, &o->rate, why, sizeof why) ||
        o->rate >= 1)
        return fs_usage_error("roi", "--discount-rate: '%s': %s",
                              o->discount_rate, o->rate >= 1 ? "a yearly "
                              "rate below 100%" : why);
    o->plan_discount = NAN;
    if (o->discount) {
        o->plan = 1;   /* a plan's discount: the plan it prices */
        if (fs_parse_fraction(o->discount, &o->plan_discount, why,
                              sizeof why) || o->plan_discount <= 0 ||
            o->plan_discount >= 1)
            return fs_usage_error("roi", "--discount: '%s': a fraction "
                                  "between 0 and 1 (0.37 or 37%%)",
                                  o->discount);
    }
    if (o->owned && fs_roi_owned_terms(o->owned, &o->owned_terms, why,
                                       sizeof why))
        return fs_usage_error("roi", "%s", why);
    o->lookback_s = -1;
    if (o->lookback && fs_parse_duration(o->lookback, &o->lookback_s, why,
                                         sizeof why))
        return fs_usage_error("roi", "--lookback: '%s': %s", o->lookback,
                              why);
    if (o->lookback && o->lookback_s < 3600)
        return fs_usage_error("roi", "--lookback: '%s' is shorter than an "
                              "hour: roi sizes against hour-by-hour demand "
                              "(give 1h or more, e.g. --lookback 7d)",
                              o->lookback);
    return FS_EXIT_OK;
}

/* --rate T:O=PRICE: a quote, read as it comes (each TERM:OPTION once). */
static int take_rate(const char *cmd, const char *opt, const char *v,
                     void *base)
{
    char why[256];
    if (fs_roi_parse_rate(v, &((roi_opts *)base)->q, why, sizeof why))
        return fs_usage_error(cmd, "%s: %s", opt, why);
    return 0;
}

const fs_option fs_options_roi[] = {
    OPT__DB_READ(roi_opts, db),
    OPT_STRING(0, "pool", roi_opts, pool, "POOL", "one pool only"),
    OPT_STRING(0, "term", roi_opts, term, "1y|3y",
               "the reservation's term (default 1y)"),
    OPT_STRING(0, "upfront", roi_opts, upfront, "none|partial|all",
               "the payment option (default none)"),
    OPT_CALLBACK_F(0, "rate", "T:O=PRICE",
                   "your quote, per instance of the pool (repeatable): "
                   "1y:none=2.10/h, 3y:all=40000 (the term's upfront), "
                   "1y:partial=6000+0.70/h (upfront + hourly); at most "
                   "$10000 an hour and $10000 for each hour of the term "
                   "upfront; each TERM:OPTION once", take_rate,
                   FS_OPTION_MULTI),
    OPT_BOOL(0, "savings-plan", roi_opts, plan,
             "recommend a savings plan's hourly commitment instead: the "
             "commitment c ($ an hour, buying c / (1 - D) of on-demand "
             "usage) of least cost"),
    OPT_STRING(0, "discount", roi_opts, discount, "D",
               "the plan's discount (0.37 or 37%; implies --savings-plan; "
               "default: the catalog's published plan rate for --term, "
               "else its reserved discount)"),
    OPT_BOOL(0, "all", roi_opts, all,
             "every option in one table per pool, cheapest first: 1y and "
             "3y x none/partial/all upfront and the savings plan (1y, 3y), "
             "each with its rate basis, upfront, monthly cost and saving, "
             "break-even and NPV; not with --term, --upfront or "
             "--savings-plan"),
    OPT_STRING(0, "discount-rate", roi_opts, discount_rate, "R",
               "yearly rate for the NPV of the monthly savings (default "
               "8%)"),
    OPT_STRING(0, "lookback", roi_opts, lookback, "D",
               "size against the last D of the run (default: all of it; "
               "under 1h or longer than the run: usage error)"),
    OPT_STRING(0, "owned", roi_opts, owned, "KEY=V,...",
               "buy versus rent: each pool as owned servers on these terms "
               "(an owned pool's keys: server_price=, energy_price= "
               "required; depreciation_years, maintenance, colocation, "
               "pue, host_share), its month at the run's utilization, the "
               "break-even utilization and months"),
    OPT__FORMAT(roi_opts, format),
    OPT_END(),
};

static int parse_args(int argc, char **argv, roi_opts *o)
{
    const char *runs[2];
    int n = 0;
    int rc = fs_parse_options_few("roi", argc, argv, fs_options_roi, o, runs,
                                  2, &n);
    if (rc == 0 && n > 1)
        rc = fs_usage_error("roi", "one RUN at a time ('%s' and '%s')",
                            runs[0], runs[1]);
    o->run = n ? runs[0] : NULL;
    return rc ? rc : check_opts(o);
}

/* Every pool's recommendation, printed; the exit status. */
static int roi_all(fs_store *s, const roi_opts *o, fs_error *err)
{
    long run;
    double horizon;
    if (fs_store_find_run(s, o->run, &run, err) ||
        fs_roi_run_horizon(s, run, &horizon, err))
        return FS_EXIT_FAIL;
    if (o->lookback_s > horizon * (1 + 1e-9)) {
        char h[32];
        fs_format_duration(horizon, h, sizeof h);
        return fs_usage_error("roi", "--lookback %s is longer than run %ld "
                              "(%s): give at most %s", o->lookback, run, h,
                              h);
    }
    if (o->owned)
        return fs_roi_print_owned(stdout, o->fmt, s, run, o->pool,
                                  &o->owned_terms, err) ? FS_EXIT_FAIL
                                                        : FS_EXIT_OK;
    fs_roi_query q = o->q;
    q.pool = o->pool;
    q.term_months = o->term_months;
    q.upfront_kind = o->upfront_kind;
    q.plan = o->plan;
    q.plan_discount = o->plan_discount;
    q.rate = o->rate;
    q.lookback_s = o->lookback_s;
    if (o->all) {
        size_t n = 0;
        if (fs_roi_print_options(stdout, o->fmt, s, run, &q, &n, err))
            return FS_EXIT_FAIL;
        if (n > 0)
            return FS_EXIT_OK;
    }
    fs_roi_pool *pools = NULL;
    size_t np = 0, nrows = 0, not_sold = 0;
    if (!o->all && fs_roi_for_run(s, run, &q, &pools, &np, err))
        return FS_EXIT_FAIL;
    if (np == 0) {
        if (o->pool)
            fs_error_set(err, "roi: --pool %s: run %ld has no such pool",
                         o->pool, run);
        else
            fs_error_set(err, "roi: run %ld has no pools", run);
        return FS_EXIT_FAIL;
    }
    fs_roi_row *rows = calloc(np, sizeof *rows);
    int rc = rows ? 0 : -1;
    if (!rows)
        fs_error_set(err, "out of memory");
    int table = !strcmp(o->format, "table") || !strcmp(o->format,
                                                       "markdown");
    for (size_t i = 0; i < np && rows; i++) {
        if (pools[i].ok)
            rows[nrows++] = pools[i].row;
        else if (pools[i].not_sold && table)
            not_sold += printf("pool %s: not sold: %s\n\n",
                               pools[i].row.pool, pools[i].note) > 0;
        else {
            not_sold += pools[i].not_sold;
            fprintf(stderr, "fleetsim roi: pool %s skipped: %s\n",
                    pools[i].row.pool, pools[i].note);
        }
    }
    if (rc >= 0 && nrows == 0 && not_sold == 0) {
        fs_error_set(err, "roi: no pool of run %ld could be priced (see "
                     "above)", run);
        rc = -1;
    }
    if (rc >= 0 && (nrows > 0 || !table))
        fs_roi_print(stdout, o->fmt, rows, nrows);
    free(rows);
    free(pools);
    return rc < 0 ? FS_EXIT_FAIL : FS_EXIT_OK;
}

int cmd_roi(int argc, char **argv)
{
    roi_opts o = {.db = FS_DEFAULT_DB, .format = "table",
                  .discount_rate = "8%"};
    fs_roi_query_default(&o.q);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    fs_error err;
    fs_store *s = fs_store_open(o.db, FS_STORE_READONLY, &err);
    if (!s)
        return fs_fail(err.msg);
    rc = roi_all(s, &o, &err);
    fs_store_close(s);
    if (rc == FS_EXIT_USAGE)
        return rc;   /* said already */
    if (rc)
        return fs_fail(err.msg);
    if (fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return FS_EXIT_OK;
}
