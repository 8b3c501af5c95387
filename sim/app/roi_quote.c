/* roi_quote.c -- the rates a user quotes to `fleetsim roi` (--rate
 * TERM:OPTION=PRICE), read with the project's money grammar: a negotiated
 * rate stands in for the catalog's, and a pool the catalog cannot price is
 * priced from it.
 *
 *   1y:none=2.10/h           no upfront: an hourly rate ("/h" required)
 *   3y:all=40000             all upfront: the payment for the whole term
 *   1y:partial=6000+0.70/h   partial: the upfront, then the hourly rate
 *
 * Each figure is per instance of the pool. */
#include "sim/app/roi_run.h"

#include <stdio.h>
#include <string.h>

#include "models/purchase/roi.h"
#include "sim/scenario/scenario_limits.h"

static int pick(const char *v, size_t n, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && strncmp(v, words[i], n) == 0)
            return i;
    return -1;
}

int fs_roi_parse_rate(const char *arg, fs_roi_query *q, char *why,
                      size_t len)
{
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const kinds[] = {"none", "partial", "all", NULL};
    const char *colon = strchr(arg, ':'), *eq = strchr(arg, '=');
    if (!colon || !eq || eq < colon) {
        snprintf(why, len, "'%s' is not TERM:OPTION=PRICE (1y:none=2.10/h, "
                 "3y:all=40000, 1y:partial=6000+0.70/h)", arg);
        return -1;
    }
    int term = pick(arg, (size_t)(colon - arg), terms);
    int kind = pick(colon + 1, (size_t)(eq - colon - 1), kinds);
    if (term < 0) {
        snprintf(why, len, "'%.*s' is not a term: 1y or 3y",
                 (int)(colon - arg), arg);
        return -1;
    }
    if (kind < 0) {
        snprintf(why, len, "'%.*s' is not an upfront option: none, partial "
                 "or all", (int)(eq - colon - 1), colon + 1);
        return -1;
    }
    char v[128];
    if (snprintf(v, sizeof v, "%s", eq + 1) >= (int)sizeof v || !v[0]) {
        snprintf(why, len, "'%s': give the price after '='", arg);
        return -1;
    }
    fs_roi_quote *o = &q->quote[term][kind];
    if (o->set) {   /* the last would win without a word */
        snprintf(why, len, "%.*s is given twice", (int)(eq - arg), arg);
        return -1;
    }
    int rc = fs_roi_parse_quote(kind, term ? 3 : 1, FS_MAX_PRICE, v,
                                &o->hourly, &o->upfront, why, len);
    o->set = rc == 0;
    return rc;
}
