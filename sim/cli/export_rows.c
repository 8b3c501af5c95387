/* export_rows.c -- a run's bill cut into charge periods; see export.h.
 *
 * fleetsim bills per second (on-demand, with a minimum per launch) and a
 * reservation by the hour, into calendar months: cost_monthly holds the
 * bill to the cent.  An hourly or daily bill is derived from it, not
 * recomputed: each pool-month's cents are spread over its periods in
 * proportion to the GPU-seconds provisioned in each (the utilization
 * table's gpus_provisioned, which counts an instance from its launch, as
 * billing does), a reservation's evenly over the hours it holds, and the
 * cents are rounded by largest remainder, so the periods of a pool-month
 * add up to its cost_monthly row exactly.  (A launch's minimum charge is
 * thus spread over the month's usage, not put in the hour it ended.)
 *
 * A reservation's upfront payment is billed once, in the first month, as
 * a purchase row; each month's share of it (count x upfront / term months
 * x the fraction of the month the horizon holds, as fs_bill_reserved
 * charges it) is spread over that month's usage rows as amortized cost:
 * billed cost excludes it, effective cost includes it. */
#include "sim/cli/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Integral of a utilization field over [a, b), from samples that each
 * hold their average over (previous t, t]. */
static double util_integral(const fs_export_pool *p, double a, double b,
                            int busy)
{
    double sum = 0, prev = 0;
    size_t lo_i = 0, hi_i = p->nutil;     /* the first sample ending past a */
    while (lo_i < hi_i) {
        size_t mid = (lo_i + hi_i) / 2;
        if (p->util[mid].t <= a)
            lo_i = mid + 1;
        else
            hi_i = mid;
    }
    if (lo_i > 0)
        prev = p->util[lo_i - 1].t;
    for (size_t i = lo_i; i < p->nutil; i++) {
        const fs_export_util *u = &p->util[i];
        double lo = fmax(prev, a), hi = fmin(u->t, b);
        if (hi > lo)
            sum += (busy ? u->busy : u->gpus) * (hi - lo);
        prev = u->t;
        if (prev >= b)
            break;
    }
    return sum;
}

/* Splits cents over n weights by largest remainder: out adds up to
 * cents.  With no weight, everything goes to the last period. */
static void spread(long long cents, const double *w, size_t n,
                   long long *out, double *frac)
{
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += w[i];
    memset(out, 0, n * sizeof *out);
    if (n == 0)
        return;
    if (total <= 0) {
        out[n - 1] = cents;
        return;
    }
    long long given = 0;
    for (size_t i = 0; i < n; i++) {
        double exact = (double)cents * (w[i] / total);
        out[i] = (long long)floor(exact);
        frac[i] = exact - (double)out[i];
        given += out[i];
    }
    /* hand out what is left, one cent at a time, largest remainder first
     * (the earliest period on a tie) */
    while (given < cents) {
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            if (frac[i] > frac[best])
                best = i;
        out[best]++;
        frac[best] = -1;
        given++;
    }
}

static int is_reserved(const fs_export_pool *p)
{
    return !strcmp(p->pricing, "reserved");
}

/* The upfront's share of month m, in cents. */
static long long amortized_cents(const fs_export_run *r,
                                 const fs_export_pool *p, size_t m)
{
    if (p->upfront_usd <= 0 || p->term_months <= 0)
        return 0;
    /* by the term's hours (billing.c); renewal is not read here yet */
    return llround(fs_round_cents(fs_reserved_amortized(
                       &r->cal, m, p->instances, p->upfront_usd,
                       p->term_months, 0)) * 100);
}

typedef struct month_work {
    size_t n;
    double *t0, *t1, *w, *frac;
    long long *billed, *amort;
} month_work;

static int pool_month(const fs_export_run *r, const fs_export_pool *p,
                      size_t m, month_work *mw, fs_export_emit emit,
                      void *ctx)
{
    long long amort = amortized_cents(r, p, m);
    if (amort > p->cents[m])
        amort = p->cents[m];
    if (p->cents[m] == 0 && !util_integral(p, mw->t0[0], mw->t1[mw->n - 1],
                                           0))
        return 0;
    for (size_t i = 0; i < mw->n; i++)
        mw->w[i] = is_reserved(p) ? mw->t1[i] - mw->t0[i]
                                  : util_integral(p, mw->t0[i], mw->t1[i], 0);
    spread(p->cents[m] - amort, mw->w, mw->n, mw->billed, mw->frac);
    spread(amort, mw->w, mw->n, mw->amort, mw->frac);
    if (m == 0 && is_reserved(p) && p->upfront_usd > 0 && p->instances > 0) {
        fs_export_row buy = {r, p, m, mw->t0[0], mw->t1[0], 0, 0,
                             llround((double)p->instances * p->upfront_usd *
                                     100), 0, 1};
        if (emit(ctx, &buy))
            return -1;
    }
    for (size_t i = 0; i < mw->n; i++) {
        fs_export_row row = {
            r, p, m, mw->t0[i], mw->t1[i],
            util_integral(p, mw->t0[i], mw->t1[i], 0) / 3600,
            util_integral(p, mw->t0[i], mw->t1[i], 1) / 3600,
            mw->billed[i], mw->amort[i], 0};
        if (emit(ctx, &row))
            return -1;
    }
    return 0;
}

/* The periods of month m: from its start (or 0) to its end (or the
 * horizon), cut at every UTC hour or day. */
static size_t month_periods(const fs_calendar *cal, size_t m, double period,
                            double *t0, double *t1)
{
    double a = fmax(cal->bound[m], 0), end = fmin(cal->bound[m + 1],
                                                  cal->horizon_s);
    /* periods on the UTC clock (whole hours, days from midnight), also
     * when the scenario starts at another time of day */
    double off = fmod((double)cal->start, period);
    size_t n = 0;
    while (a < end) {
        double b = fmin((floor((a + off) / period) + 1) * period - off, end);
        if (t0) {
            t0[n] = a;
            t1[n] = b;
        }
        n++;
        a = b;
    }
    return n;
}

int fs_export_rows(const fs_export_run *r, double period, fs_export_emit emit,
                   void *ctx)
{
    size_t most = 1;
    for (size_t m = 0; m < r->cal.nmonths; m++) {
        size_t n = month_periods(&r->cal, m, period, NULL, NULL);
        most = n > most ? n : most;
    }
    month_work mw = {0};
    mw.t0 = malloc(most * sizeof *mw.t0);
    mw.t1 = malloc(most * sizeof *mw.t1);
    mw.w = malloc(most * sizeof *mw.w);
    mw.frac = malloc(most * sizeof *mw.frac);
    mw.billed = malloc(most * sizeof *mw.billed);
    mw.amort = malloc(most * sizeof *mw.amort);
    int rc = mw.t0 && mw.t1 && mw.w && mw.frac && mw.billed && mw.amort
                 ? 0 : -1;
    for (size_t m = 0; !rc && m < r->cal.nmonths; m++) {
        mw.n = month_periods(&r->cal, m, period, mw.t0, mw.t1);
        for (size_t i = 0; !rc && mw.n && i < r->npools; i++)
            rc = pool_month(r, &r->pools[i], m, &mw, emit, ctx);
    }
    free(mw.t0);
    free(mw.t1);
    free(mw.w);
    free(mw.frac);
    free(mw.billed);
    free(mw.amort);
    return rc;
}
