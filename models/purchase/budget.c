/* budget.c -- budgets' text forms and the check of a spend against one;
 * see budget.h. */
#include "models/purchase/budget.h"
#include "sim/base/grammar.h"
#include "sim/base/tags.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

int fs_budget_parse_amount(const char *s, double *usd, char *why,
                           size_t whylen)
{
    int calendar = 0;
    if (fs_budget_parse_period(s, usd, &calendar, why, whylen))
        return -1;
    if (calendar)
        return WHY("'%s': a per-calendar-month budget is a scenario's "
                   "(budget = or budgets =); this one is dollars per "
                   "730-hour month, e.g. 12000/month", s);
    return 0;
}

const char *fs_budget_row_month(const char *source)
{
    size_t n = strlen(FS_BUDGET_CALENDAR);
    return source && strncmp(source, FS_BUDGET_CALENDAR, n) == 0
           ? source + n : NULL;
}

int fs_budget_parse_period(const char *s, double *usd, int *calendar,
                           char *why, size_t whylen)
{
    *calendar = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *slash = strchr(buf, '/');
    if (slash) {
        const char *unit = slash + 1;
        while (*unit == ' ')
            unit++;
        *calendar = strcmp(unit, "calendar-month") == 0;
        if (strcmp(unit, "month") != 0 && !*calendar)
            return WHY("'%s': a budget is dollars per 730-hour month "
                       "(12000/month) or per calendar month "
                       "(12000/calendar-month)", s);
        *slash = '\0';
    }
    char w[160];
    if (fs_parse_money(buf, usd, w, sizeof w))
        return WHY("'%s': expected dollars per month such as 12000/month "
                   "(%s)", s, w);
    if (!(*usd > 0))
        return WHY("'%s': a budget must be above $0", s);
    return 0;
}

/* One item "KEY:VALUE=AMOUNT" into b. */
static int parse_item(const char *item, fs_budget *b, char *why,
                      size_t whylen)
{
    const char *eq = strchr(item, '=');
    const char *colon = strchr(item, ':');
    if (!eq || !colon || colon > eq)
        return WHY("'%s': expected TAG:VALUE=AMOUNT/month, e.g. "
                   "team:ml=8000/month", item);
    char tag[FS_TAGS_MAX], norm[FS_TAGS_MAX], w[160];
    snprintf(tag, sizeof tag, "%.*s", (int)(eq - item), item);
    if (strchr(tag, ',') || fs_tags_parse(tag, norm, w, sizeof w))
        return WHY("'%s': the tag: %s", item, strchr(tag, ',')
                   ? "one KEY:VALUE" : w);
    if (strlen(norm) >= sizeof b->scope)
        return WHY("'%s': the tag is too long", item);
    snprintf(b->scope, sizeof b->scope, "%s", norm);
    return fs_budget_parse_period(eq + 1, &b->limit_usd, &b->calendar, why,
                                  whylen);
}

int fs_budget_parse_list(const char *s, fs_budget *out, int max, int *n,
                         char *why, size_t whylen)
{
    char buf[2048];
    if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf)
        return WHY("too long (at most %zu bytes)", sizeof buf - 1);
    *n = 0;
    for (char *save = NULL, *it = strtok_r(buf, ",", &save); it;
         it = strtok_r(NULL, ",", &save)) {
        while (*it == ' ')
            it++;
        if (*n >= max)
            return WHY("more than %d budgets", max);
        if (parse_item(it, &out[*n], why, whylen))
            return -1;
        for (int k = 0; k < *n; k++)
            if (strcmp(out[k].scope, out[*n].scope) == 0 &&
                out[k].calendar == out[*n].calendar)
                return WHY("'%s': a second budget for %s a %s", it,
                           out[k].scope, out[k].calendar ? "calendar month"
                           : "730-hour month");
        ++*n;
    }
    if (*n == 0)
        return WHY("expected TAG:VALUE=AMOUNT/month, ... e.g. "
                   "team:ml=8000/month");
    return 0;
}

int fs_budget_check(double limit_usd, double spend_usd, double *overrun)
{
    double over = round((spend_usd - limit_usd) * 100) / 100;
    *overrun = over > 0 ? over : 0;
    return over > 0;
}
