/* report_roi.c -- the budget review's reservation recommendation: for
 * each run and pool, what `fleetsim roi` recommends with its defaults
 * (1-year term, no upfront, hour-by-hour demand over the whole run, 8% a
 * year), through sim/app/roi_run.c (the ri-breakeven chart makes the
 * same call, so the two agree to the cent).  A pool that cannot be priced, or a
 * run sampled more coarsely than hourly, gets a note row instead: the
 * report never fails for it.  A pool already bought reserved (or on a
 * savings plan) is never recommended a reservation: its row says "already
 * reserved" and its realised saving.  Each recommendation that saves is an
 * option the executive summary may show beside its top savings. */
#include "sim/cli/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/app/roi_run.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"
#include "models/purchase/purchase.h"

#define NCOLS 12

static const char *const head_roi[NCOLS] = {
    "Run", "Pool", "Recommended count", "Without a reservation, a month",
    "With the reservation, a month", "Savings, a month", "Savings (%)",
    "Break-even (months)", "Reservation used", "Daily-average count",
    "Daily-average sizing's cost, a month", "Note"};

static int add(fs_rtable *t, fs_error *err, const char *text)
{
    return fs_rtable_add(t, text, err);
}

static const char *usd(double v, char *buf, size_t size)
{
    return fs_report_money(v, 0, buf, size);
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

/* The pool's bill without a reservation, labelled by its purchase option
 * ("$730.00 (all on demand)", "$212.40 (all on spot, as paid)"). */
static const char *bill_cell(double v, const char *pricing, char *buf,
                             size_t size)
{
    const fs_purchase_option *o = fs_purchase_find(pricing);
    char m[64];
    snprintf(buf, size, "%s (%s)", usd(v, m, sizeof m),
             o ? o->bill_label : pricing);
    return buf;
}

static int pool_row(fs_rtable *t, const char *run, const fs_roi_row *w,
                    const char *pricing, fs_error *err)
{
    const fs_roi_result *r = &w->r;
    char c[6][64];
    snprintf(c[0], sizeof c[0], "%ld", r->count);
    snprintf(c[1], sizeof c[1], "%.1f%%", r->savings_pct);
    if (r->count <= 0)      /* nothing to reserve: nothing breaks even */
        snprintf(c[2], sizeof c[2], "— (nothing to reserve)");
    else if (isnan(r->break_even_months))
        snprintf(c[2], sizeof c[2], "not within the %d-month term",
                 r->months);
    else if (r->break_even_months == 0 && r->upfront_cost == 0)
        snprintf(c[2], sizeof c[2], "at once (no upfront)");
    else
        snprintf(c[2], sizeof c[2], "%.1f", r->break_even_months);
    if (isnan(r->utilization))
        snprintf(c[3], sizeof c[3], "— (nothing reserved)");
    else
        snprintf(c[3], sizeof c[3], "%.1f%%", 100 * r->utilization);
    snprintf(c[4], sizeof c[4], "%ld", r->daily_count);
    char a[160], b[64], s[64], d[64];
    return add(t, err, run) || add(t, err, w->pool) || add(t, err, c[0]) ||
           add(t, err, bill_cell(r->on_demand_monthly, pricing, a,
                                 sizeof a)) ||
           add(t, err, usd(r->with_monthly, b, sizeof b)) ||
           add(t, err, usd(r->savings_monthly, s, sizeof s)) ||
           add(t, err, c[1]) || add(t, err, c[2]) || add(t, err, c[3]) ||
           add(t, err, c[4]) ||
           add(t, err, usd(r->daily_monthly, d, sizeof d)) ||
           add(t, err, "") ? -1 : 0;
}

/* The pool's stored pricing (its purchase option's name) into buf. */
static void pool_pricing(fs_store *s, long id, const char *pool, char *buf,
                         size_t size)
{
    fs_error err;
    fs_store_pool_pricing(s, id, pool, buf, size, &err);
}

/* The realised saving of a pool already committed: its list cost (the
 * instance-hours it ran at the on-demand list price) less its amortized
 * bill, over the whole run, to the cent (fs_store_pool_savings: the figure
 * the run summary prints and the FOCUS export's ListCost - EffectiveCost
 * adds up to), into *total; its 730-hour run rate into *monthly.  -1 when
 * the pool has no list price (or the store cannot say). */
static int realised_saving(fs_store *s, long id, const char *pool,
                           double *total, double *monthly)
{
    fs_pool_saving *v = NULL;
    size_t n = 0;
    fs_error err;
    int rc = -1;
    if (fs_store_pool_savings(s, id, &v, &n, &err))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].pool, pool) && v[i].has_list) {
            *total = (double)v[i].saving_cents / 100;
            rc = 0;
        }
    free(v);
    double horizon = 0;
    char start[40];
    if (rc == 0)
        fs_store_run_start(s, id, start, sizeof start, &horizon, &err);
    *monthly = horizon > 0 ? *total * 730 * 3600 / horizon : NAN;
    return rc;
}

static int reserved_row(fs_store *s, long id, fs_rtable *t, const char *run,
                        const fs_roi_row *w, const char *pricing,
                        fs_error *err)
{
    char note[300], m[64], a[64];
    double saved, monthly;
    const fs_purchase_option *o = fs_purchase_find(pricing);
    const char *what = o ? o->label : pricing;
    if (realised_saving(s, id, w->pool, &saved, &monthly))
        snprintf(note, sizeof note, "already %s: no reservation "
                 "recommended (realised saving: unknown, the catalog has no "
                 "on-demand list price for it)", what);
    else
        snprintf(note, sizeof note, "already %s: no reservation "
                 "recommended; realised saving %s over the run (its list "
                 "cost at on-demand prices less its amortized bill), %s a "
                 "month (730 h)", what, fs_report_money(saved, 0, m,
                 sizeof m), fs_report_money(monthly, 1, a, sizeof a));
    return note_row(t, run, w->pool, note, err);
}

/* A recommendation that saves, as an option for the summary (shown for
 * the run the summary attributes, apart from its savings). */
static int candidate(fs_report *r, long id, const char *run,
                     const fs_roi_row *w, fs_error *err)
{
    const fs_roi_result *x = &w->r;
    char m[64], key[300];
    if (x->count <= 0 || !(x->savings_monthly > 0.005))
        return 0;
    snprintf(key, sizeof key, "%s\x1f%s", run, w->pool);
    return fs_rbrief_option(&r->brief, id, key, x->savings_monthly, err,
                            "Option: reserve %ld instance%s of pool %s (%s) "
                            "of run %s for 1 year, no upfront, as `fleetsim "
                            "roi` recommends: would save a further %s a "
                            "month (%.1f%% of the pool's on-demand cost, "
                            "730-hour run rate).",
                            x->count, x->count == 1 ? "" : "s", w->pool,
                            w->gpu, run, fs_report_money(x->savings_monthly,
                            1, m, sizeof m), x->savings_pct);
}

static int run_rows(fs_store *s, long id, const char *run, fs_report *r,
                    fs_error *err)
{
    fs_rtable *t = &r->tables[5];
    fs_roi_query q;
    fs_roi_query_default(&q);
    q.coarse_as_note = 1;
    fs_roi_pool *pools = NULL;
    size_t np = 0;
    fs_error why;
    if (fs_roi_for_run(s, id, &q, &pools, &np, &why))
        return note_row(t, run, "—", why.msg, err);
    if (np == 0)
        return note_row(t, run, "—", "the run has no pools", err);
    int rc = 0;
    for (size_t i = 0; i < np && rc == 0; i++) {
        char pricing[32];
        const fs_roi_row *w = &pools[i].row;
        pool_pricing(s, id, w->pool, pricing, sizeof pricing);
        const fs_purchase_option *o = fs_purchase_find(pricing);
        int committed = o && o->commitment != FS_COMMIT_NONE;
        if (pools[i].ok && committed)
            rc = reserved_row(s, id, t, run, w, pricing, err);
        else if (pools[i].ok)
            rc = pool_row(t, run, w, pricing, err) ||
                 (!(o && o->interruptible) &&
                  candidate(r, id, run, w, err)) ? -1 : 0;
        else
            rc = note_row(t, run, w->pool, pools[i].note, err);
    }
    free(pools);
    return rc;
}

int fs_report_gather_roi(fs_store *s, const long *ids, size_t n,
                         fs_report *r, fs_error *err)
{
    fs_rtable_setup(&r->tables[5], "Reservation recommendation (1-year, "
                    "no upfront, hour-by-hour demand)",
                    "What `fleetsim roi` recommends for each pool with its "
                    "defaults (whole run, 8% a year), monthly figures at 730 "
                    "hours; beside it, what daily-average demand would "
                    "choose and what that costs on the hourly demand.",
                    NCOLS, head_roi);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = run_rows(s, ids[i], r->run_names[i], r, err);
    return rc;
}
