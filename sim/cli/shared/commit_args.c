/* commit_args.c -- the values of --risk, --horizon and --discount-rate
 * (commit_args.h), as `commit` and `report` take them. */
#include "sim/cli/shared/commit_args.h"

#include <stdio.h>
#include <string.h>

#include "sim/base/grammar.h"

/* "unused<=10%@p90": the bound (a fraction) and the percentile of runs
 * (p1..p100).  0, or -1 with why. */
static int parse_risk(const char *v, double *bound, double *quantile,
                      char *why, size_t len)
{
    char frac[64];
    const char *at = strchr(v, '@');
    int pct = 0, used = 0;
    if (strncmp(v, "unused<=", 8) || !at || (size_t)(at - v - 8) >=
        sizeof frac) {
        snprintf(why, len, "'%s' is not unused<=BOUND@pN "
                 "(e.g. unused<=10%%@p90)", v);
        return -1;
    }
    snprintf(frac, sizeof frac, "%.*s", (int)(at - v - 8), v + 8);
    if (fs_parse_fraction(frac, bound, why, len) || *bound < 0 ||
        *bound > 1) {
        snprintf(why, len, "'%s': the bound '%s' is not a share between 0 "
                 "and 100%% (e.g. 10%%)", v, frac);
        return -1;
    }
    if (sscanf(at + 1, "p%d%n", &pct, &used) != 1 || at[1 + used] ||
        pct < 1 || pct > 100) {
        snprintf(why, len, "'%s': the percentile '%s' is not p1..p100 "
                 "(e.g. p90)", v, at + 1);
        return -1;
    }
    *quantile = pct / 100.0;
    return 0;
}

/* "1y", "3y", "18m": months, 1 to 120.  0, or -1 with why. */
static int parse_horizon(const char *v, int *months, char *why, size_t len)
{
    int n = 0, used = 0;
    char unit = 0;
    if (sscanf(v, "%d%c%n", &n, &unit, &used) != 2 || v[used] ||
        (unit != 'y' && unit != 'm') || n < 1 ||
        (*months = unit == 'y' ? 12 * n : n) > 120) {
        snprintf(why, len, "'%s' is not 1y, 3y or Nm (N months, at most "
                 "120)", v);
        return -1;
    }
    return 0;
}

int fs_commit_args_read(const char *risk, const char *horizon,
                        const char *discount, fs_commit_opts *o, char *why,
                        size_t len)
{
    char what[200];
    *o = (fs_commit_opts){0};
    o->risk = risk != NULL;
    if (risk && parse_risk(risk, &o->risk_bound, &o->risk_quantile, what,
                           sizeof what))
        return snprintf(why, len, "--risk: %s", what), -1;
    if (horizon && parse_horizon(horizon, &o->horizon_months, what,
                                 sizeof what))
        return snprintf(why, len, "--horizon: %s", what), -1;
    if (discount && (fs_parse_fraction(discount, &o->discount_rate, what,
                                       sizeof what) ||
                     !(o->discount_rate >= 0 && o->discount_rate < 1)))
        return snprintf(why, len, "--discount-rate: '%s' is not a rate a "
                        "year from 0%% to 100%% (e.g. 8%%)", discount), -1;
    return 0;
}
