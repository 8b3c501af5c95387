/* budget.h -- budgets as guardrails: a limit in dollars per 730-hour
 * month for a whole run or for one tag (team:ml), its text form, and the
 * check of a spend against it.
 *
 *   12000/month, $12000/month, 12000    the whole run's
 *   team:ml=8000/month, env:prod=20000  tagged (the scenario's budgets =)
 *
 * The check is pure arithmetic over figures the caller brings (a run's
 * 730-hour run rate; a forecast's month), so that `run`, the report and a
 * forecast judge a budget the same way.  Months are 730-hour months
 * (8,760 / 12, as cloud bills scale a run rate), never calendar months:
 * a 7-day run is judged on its rate, not on its partial month.
 *
 *   team:ml=8000/calendar-month, 9000/calendar-month
 *
 * is the other period: a limit on each calendar month's own bill (its
 * 28 to 31 days of hours, as the cloud invoices it), judged month by
 * month over a run that spans months; its budget rows name the month
 * (fs_budget_row_month). */
#ifndef FS_BUDGET_H
#define FS_BUDGET_H

#include <stddef.h>

#define FS_BUDGETS_MAX 32
#define FS_BUDGET_SCOPE_MAX 192   /* "KEY:VALUE", with its NUL */

typedef struct fs_budget {
    char scope[FS_BUDGET_SCOPE_MAX];   /* "" the whole run, else KEY:VALUE */
    double limit_usd;                  /* per month, above 0 */
    int calendar;                      /* 1: per calendar month's bill;
                                          0: per 730-hour run rate */
} fs_budget;

/* The source a calendar-month budget row carries: "calendar-month
 * YYYY-MM" (FS_BUDGET_CALENDAR then the month). */
#define FS_BUDGET_CALENDAR "calendar-month "

/* "12000/month" (or without /month, with or without $) into *usd: a
 * finite amount above 0.  0, or -1 with why set. */
int fs_budget_parse_amount(const char *s, double *usd, char *why,
                           size_t whylen);
/* The same, accepting "/calendar-month" too (then *calendar = 1). */
int fs_budget_parse_period(const char *s, double *usd, int *calendar,
                           char *why, size_t whylen);
/* The month "YYYY-MM" a budget row's source names (a calendar-month
 * budget's), or NULL for a run-rate budget's source. */
const char *fs_budget_row_month(const char *source);
/* "team:ml=8000/month, env:prod=20000" into out[0..*n): each item
 * KEY:VALUE=AMOUNT, a tag at most once a period.  0, or -1 with why naming the
 * item. */
int fs_budget_parse_list(const char *s, fs_budget *out, int max, int *n,
                         char *why, size_t whylen);

/* The check: 1 when spend is over limit (then *overrun = spend - limit,
 * rounded to the cent), 0 when within (*overrun = 0).  A spend equal to
 * the limit is within it. */
int fs_budget_check(double limit_usd, double spend_usd, double *overrun);

#endif
