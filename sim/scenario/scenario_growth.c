/* scenario_growth.c -- `growth = 5%/month`, or with its uncertainty
 * `growth = 5%/month ± 3%` (also `+-`): the mean rate a month and the
 * standard deviation of the rate each replication draws (traces/growth.c,
 * fs_growth_draw: a normal truncated to 0..FS_GROWTH_MAX).  The spread
 * takes the rate's units: `3%`, `3%/month` or `0.03`.  A workload's grows
 * its traffic; a pool's (the same grammar) its demand over the long view
 * only (`commit --horizon`, `forecast`), overriding the workloads'. */
#include "sim/scenario/scenario_impl.h"
#include "traces/arrivals.h"

#include <stdio.h>
#include <string.h>

/* "4%/month", "0.04/month" (per_month: the /month is required) or the
 * spread's "3%", "3%/month", "0.03" into *g, a fraction.  0, or -1. */
static int growth_rate(const char *v, size_t n, int per_month, double *g,
                       char *why, size_t len)
{
    char text[64], num[64];
    while (n > 0 && v[n - 1] == ' ')
        n--;
    while (n > 0 && *v == ' ')
        v++, n--;
    if (n >= sizeof text)
        return snprintf(why, len, "too long"), -1;
    memcpy(text, v, n);
    text[n] = '\0';
    char *slash = strchr(text, '/');
    if ((per_month && !slash) || (slash && strcmp(slash, "/month") != 0))
        return snprintf(why, len, "expected a growth per month, e.g. "
                        "4%%/month or 0.04/month, and its spread as "
                        "'± 3%%'"), -1;
    if (slash)
        *slash = '\0';
    size_t k = strlen(text);
    int pct = k > 0 && text[k - 1] == '%';
    snprintf(num, sizeof num, "%.*s", (int)(k - pct), text);
    if (fs_parse_number(num, g, why, len))
        return -1;
    if (pct)
        *g /= 100;
    return 0;
}

/* Where the spread starts: after "±" or "+-"; NULL when none. */
static const char *spread_mark(const char *v, size_t *mark_len)
{
    const char *pm = strstr(v, "\xc2\xb1"), *ascii = strstr(v, "+-");
    *mark_len = 2;
    return pm ? pm : ascii;
}

/* The section's growth = into *g (the mean a month) and *sd (the
 * spread): 0 both when not set; 0, or -1 with file:line:key. */
static int parse_growth(fs_reader *rd, fs_config_entry *e, double *g_out,
                        double *sd_out)
{
    *g_out = *sd_out = 0;
    if (!e)
        return 0;
    char why[256];
    size_t mlen;
    const char *v = e->value, *mark = spread_mark(v, &mlen);
    size_t n = mark ? (size_t)(mark - v) : strlen(v);
    double g, sd = 0;
    if (growth_rate(v, n, 1, &g, why, sizeof why) ||
        (mark && growth_rate(mark + mlen, strlen(mark + mlen), 0, &sd, why,
                             sizeof why)))
        return fs_rd_bad(rd, e, "%s", why);
    if (!(g >= 0 && g <= FS_GROWTH_MAX)) {
        snprintf(why, sizeof why, "must be from 0%%/month to %g%%/month, "
                 "got '%s'", FS_GROWTH_MAX * 100, v);
        return fs_rd_bad(rd, e, "%s", why);
    }
    if (!(sd >= 0 && sd <= FS_GROWTH_MAX)) {
        snprintf(why, sizeof why, "the spread after ± must be from 0%% to "
                 "%g%%, got '%s'", FS_GROWTH_MAX * 100, v);
        return fs_rd_bad(rd, e, "%s", why);
    }
    *g_out = g;
    *sd_out = sd;
    return 0;
}

int fs_scenario_parse_growth(fs_reader *rd, fs_workload_conf *w)
{
    w->growth_entry = fs_rd_entry(rd, "growth");
    return parse_growth(rd, (fs_config_entry *)w->growth_entry, &w->growth,
                        &w->growth_spread);
}

/* A pool's growth = (the same grammar): its demand's over the long view
 * only, overriding the workloads' there; the simulated traffic is the
 * workloads'. */
int fs_scenario_parse_pool_growth(fs_reader *rd, fs_pool_conf *p)
{
    p->growth_entry = fs_rd_entry(rd, "growth");
    return parse_growth(rd, (fs_config_entry *)p->growth_entry, &p->growth,
                        &p->growth_spread);
}
