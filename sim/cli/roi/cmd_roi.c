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
    const char *discount_rate, *discount;
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

static int parse_args(int argc, char **argv, roi_opts *o)
{
    static const char *const options[] = {
        "--db", "--pool", "--term", "--upfront", "--savings-plan",
        "--discount", "--discount-rate", "--lookback", "--format", "--rate",
        "--all", "--help", NULL};
    struct { const char *name; const char **v; } vals[] = {
        {"--db", &o->db}, {"--pool", &o->pool}, {"--term", &o->term},
        {"--upfront", &o->upfront}, {"--discount-rate", &o->discount_rate},
        {"--discount", &o->discount}, {"--lookback", &o->lookback},
        {"--format", &o->format},
    };
    for (int i = 1; i < argc; i++) {
        int taken = 0;
        for (size_t j = 0; j < sizeof vals / sizeof vals[0] && !taken; j++) {
            taken = fs_option_value("roi", argc, argv, &i, vals[j].name,
                                    vals[j].v);
            if (taken < 0)
                return FS_EXIT_USAGE;
        }
        if (taken)
            continue;
        const char *quote = NULL;
        taken = fs_option_value("roi", argc, argv, &i, "--rate", &quote);
        if (taken < 0)
            return FS_EXIT_USAGE;
        if (taken) {
            char why[256];
            if (fs_roi_parse_rate(quote, &o->q, why, sizeof why))
                return fs_usage_error("roi", "--rate: %s", why);
            continue;
        }
        if (fs_is_help(argv[i])) {
            fputs(fs_help_text("roi"), stdout);
            return -1;
        }
        if (strcmp(argv[i], "--savings-plan") == 0)
            o->plan = 1;
        else if (strcmp(argv[i], "--all") == 0)
            o->all = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return fs_unknown_option("roi", argv[i], options);
        else if (o->run)
            return fs_usage_error("roi", "one RUN at a time ('%s' and '%s')",
                                  o->run, argv[i]);
        else
            o->run = argv[i];
    }
    return check_opts(o);
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
        return rc < 0 ? FS_EXIT_OK : rc;
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
