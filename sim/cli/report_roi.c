/* report_roi.c -- the budget review's reservation recommendation: for
 * each run and pool, what `fleetsim roi` recommends with its defaults
 * (1-year term, no upfront, hour-by-hour demand over the whole run, 8% a
 * year), through sim/cli/roi_run.c.  A pool that cannot be priced, or a
 * run sampled more coarsely than hourly, gets a note row instead: the
 * report never fails for it. */
#include "sim/cli/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/cli/roi_run.h"

#define NCOLS 12

static const char *const head_roi[NCOLS] = {
    "Run", "Pool", "Recommended count", "On demand (USD/month)",
    "With reservation (USD/month)", "Savings (USD/month)", "Savings (%)",
    "Break-even (months)", "Reservation utilization", "Daily-average count",
    "Daily-average cost (USD/month)", "Note"};

static int add(fs_rtable *t, fs_error *err, const char *text)
{
    return fs_rtable_add(t, text, err);
}

static const char *usd(double v, char *buf, size_t size)
{
    return fs_format_thousands(v, 2, buf, size);
}

/* A row that only says why: dashes in the figures' cells. */
static int note_row(fs_rtable *t, const char *run, const char *pool,
                    const char *note, fs_error *err)
{
    if (add(t, err, run) || add(t, err, pool))
        return -1;
    for (int c = 2; c < NCOLS - 1; c++)
        if (add(t, err, "—"))
            return -1;
    return add(t, err, note);
}

static int pool_row(fs_rtable *t, const char *run, const fs_roi_row *w,
                    fs_error *err)
{
    const fs_roi_result *r = &w->r;
    char c[6][64];
    snprintf(c[0], sizeof c[0], "%ld", r->count);
    snprintf(c[1], sizeof c[1], "%.1f%%", r->savings_pct);
    if (isnan(r->break_even_months))
        snprintf(c[2], sizeof c[2], "not within the %d-month term",
                 r->months);
    else
        snprintf(c[2], sizeof c[2], "%.1f", r->break_even_months);
    if (isnan(r->utilization))
        snprintf(c[3], sizeof c[3], "— (nothing reserved)");
    else
        snprintf(c[3], sizeof c[3], "%.1f%%", 100 * r->utilization);
    snprintf(c[4], sizeof c[4], "%ld", r->daily_count);
    char a[64], b[64], s[64], d[64];
    return add(t, err, run) || add(t, err, w->pool) || add(t, err, c[0]) ||
           add(t, err, usd(r->on_demand_monthly, a, sizeof a)) ||
           add(t, err, usd(r->with_monthly, b, sizeof b)) ||
           add(t, err, usd(r->savings_monthly, s, sizeof s)) ||
           add(t, err, c[1]) || add(t, err, c[2]) || add(t, err, c[3]) ||
           add(t, err, c[4]) ||
           add(t, err, usd(r->daily_monthly, d, sizeof d)) ||
           add(t, err, "") ? -1 : 0;
}

static int run_rows(fs_store *s, long id, const char *run, fs_rtable *t,
                    fs_error *err)
{
    fs_roi_query q;
    fs_roi_query_default(&q);
    q.coarse_as_note = 1;
    fs_roi_pool *pools = NULL;
    size_t np = 0;
    fs_error why;
    if (fs_roi_for_run(fs_store_db(s), id, &q, &pools, &np, &why))
        return note_row(t, run, "—", why.msg, err);
    if (np == 0)
        return note_row(t, run, "—", "the run has no pools", err);
    int rc = 0;
    for (size_t i = 0; i < np && rc == 0; i++)
        rc = pools[i].ok ? pool_row(t, run, &pools[i].row, err)
                         : note_row(t, run, pools[i].row.pool,
                                    pools[i].note, err);
    free(pools);
    return rc;
}

int fs_report_gather_roi(fs_store *s, const long *ids, size_t n,
                         fs_report *r, fs_error *err)
{
    fs_rtable *t = &r->tables[5];
    t->title = "Reservation recommendation (1-year, no upfront, "
               "hour-by-hour demand)";
    t->intro = "What `fleetsim roi` recommends for each pool with its "
               "defaults (whole run, 8% a year), monthly figures at 730 "
               "hours; beside it, what daily-average demand would choose "
               "and what that costs on the hourly demand.";
    t->ncols = NCOLS;
    t->head = head_roi;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = run_rows(s, ids[i], r->run_names[i], t, err);
    return rc;
}
