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
 * A reservation's upfront payment is billed as a purchase row in the
 * charge period it is paid: the first, and with renew = yes the one each
 * next term starts in (every 8,760 hours a year); each month's cost less the
 * reservation's hourly fee is the upfront's share, however billing
 * amortizes it, spread evenly by the hour over the month's usage rows as
 * amortized cost: billed cost excludes it, effective cost includes it.
 * The reserved instance-hours its instances were not up are its unused
 * rows (a scheduled pool), with their share of both.
 *
 * A commitment's unused part (a savings plan's PRICING-unused rows) is
 * spread over the periods by what each left of the commitment at the
 * committed rate.  A pool's list cost (store_savings.c) is spread over
 * months and periods by instance-hours, by largest remainder, so that
 * each row's list cost is its instance-hours at the list price within a
 * cent and the rows add up to the pool's list cost exactly. */
#include "sim/cli/export/export.h"

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

int fs_export_is_committed(const fs_export_pool *p)
{
    return p->category && !strcmp(p->category, "Committed");
}

int fs_export_spend_based(const fs_export_pool *p)
{
    return fs_export_is_committed(p) && p->term_months <= 0;
}

static int has_term(const fs_export_pool *p)
{
    return fs_export_is_committed(p) && p->term_months > 0;
}

/* Where the reservation's hours end: its term's end, or with renew
 * never (each term is bought again). */
static double term_end(const fs_export_run *r, const fs_export_pool *p)
{
    return p->renew ? r->cal.horizon_s : p->term_months / 12.0 * 8760 * 3600;
}

static long gpus_each(const fs_export_pool *p)
{
    return p->gpus_per_instance > 0 ? p->gpus_per_instance : 1;
}

/* A reservation's recurring fee in month m, in cents: its instances'
 * hourly rate for the hours of the month the horizon and the term hold
 * (8,760 hours a year); never more than the month's cost.  The rest of
 * the month's cost is the upfront's share, however billing amortizes it. */
static long long fee_cents(const fs_export_run *r, const fs_export_pool *p,
                           size_t m)
{
    double a = fmax(r->cal.bound[m], 0);
    double b = fmin(fmin(r->cal.bound[m + 1], r->cal.horizon_s),
                    term_end(r, p));
    long long fee = b > a ? llround(fs_round_cents((double)p->instances *
                                                   p->price_usd_h *
                                                   (b - a) / 3600) * 100)
                          : 0;
    return fee < 0 ? 0 : fee > p->cents[m] ? p->cents[m] : fee;
}

typedef struct month_work {
    size_t n;
    double *t0, *t1, *w, *frac;
    double *inst, *used, *unused_q;     /* instance-hours; unused quantity */
    long long *billed, *amort, *unused, *ubilled, *uamort;
    long long *list;                    /* each period's list cents */
} month_work;

/* The month's shares of the pool's list cost (by its instance-hours in
 * each month): out[m], adding up to p->list_cents. */
static int month_list(const fs_export_run *r, const fs_export_pool *p,
                      long long *out)
{
    size_t n = r->cal.nmonths;
    double *w = calloc(n + 1, sizeof *w), *frac = calloc(n + 1,
                                                         sizeof *frac);
    if (!w || !frac) {
        free(w);
        free(frac);
        return -1;
    }
    for (size_t m = 0; m < n; m++)
        w[m] = util_integral(p, fmax(r->cal.bound[m], 0),
                             fmin(r->cal.bound[m + 1], r->cal.horizon_s), 0);
    spread(p->list_cents, w, n, out, frac);
    free(w);
    free(frac);
    return 0;
}

/* Splits x into the part used (used of whole) and the rest. */
static long long split(long long *x, double used, double whole)
{
    long long part = whole > 0 ? llround((double)*x * used / whole) : *x;
    long long rest = *x - part;
    *x = part;
    return rest;
}

/* A reservation's periods: its fee and upfront share evenly by the hour;
 * the instance-hours it held up are used, the rest of the reserved
 * instance-hours unused, each with its share of the cost. */
static void term_periods(const fs_export_run *r, const fs_export_pool *p,
                         size_t m, month_work *mw)
{
    long long fee = fee_cents(r, p, m);
    for (size_t i = 0; i < mw->n; i++)
        mw->w[i] = mw->t1[i] - mw->t0[i];
    spread(fee, mw->w, mw->n, mw->billed, mw->frac);
    spread(p->cents[m] - fee, mw->w, mw->n, mw->amort, mw->frac);
    double end = term_end(r, p);
    for (size_t i = 0; i < mw->n; i++) {
        double held = fmax(0, fmin(mw->t1[i], end) - mw->t0[i]);
        double reserved = (double)p->instances * held / 3600;
        mw->used[i] = fmin(mw->inst[i], reserved);
        mw->unused_q[i] = reserved - mw->used[i];
        if (mw->unused_q[i] < 1e-9 * reserved)
            mw->unused_q[i] = 0;
        mw->ubilled[i] = split(&mw->billed[i], mw->used[i], reserved);
        mw->uamort[i] = split(&mw->amort[i], mw->used[i], reserved);
        mw->unused[i] = mw->ubilled[i] + mw->uamort[i];
    }
}

/* Any other pool's periods: its cost by the GPU-seconds it held up; a
 * spend commitment's unused dollars by what each hour left of it
 * (commitment - instance-hours at the committed rate). */
static void usage_periods(const fs_export_pool *p, size_t m, month_work *mw)
{
    int spend = fs_export_spend_based(p) && p->commitment_usd_h > 0;
    for (size_t i = 0; i < mw->n; i++) {
        mw->w[i] = mw->inst[i];
        mw->used[i] = mw->inst[i];
        mw->uamort[i] = mw->amort[i] = 0;
    }
    spread(p->cents[m], mw->w, mw->n, mw->billed, mw->frac);
    /* (a run stored before schema 6 has no commitment: evenly) */
    for (size_t i = 0; i < mw->n; i++)
        mw->w[i] = spend ? fmax(0, p->commitment_usd_h *
                                       (mw->t1[i] - mw->t0[i]) / 3600 -
                                   mw->inst[i] * p->contracted_usd_h)
                         : mw->t1[i] - mw->t0[i];
    spread(p->unused_cents[m], mw->w, mw->n, mw->unused, mw->frac);
    for (size_t i = 0; i < mw->n; i++) {
        mw->ubilled[i] = mw->unused[i];
        mw->unused_q[i] = (double)mw->unused[i] / 100;
    }
}

/* The upfront payments falling in month m: one purchase row in the
 * charge period each term starts in (every term's with renew). */
static int emit_purchases(const fs_export_run *r, const fs_export_pool *p,
                          size_t m, const month_work *mw,
                          fs_export_emit emit, void *ctx)
{
    long long upfront = llround((double)p->instances * p->upfront_usd * 100);
    double hours = p->term_months / 12.0 * 8760 * (double)p->instances;
    double term_s = p->term_months / 12.0 * 8760 * 3600;
    for (double t = 0; term_s > 0 && t < r->cal.horizon_s; t += term_s) {
        for (size_t i = 0; i < mw->n; i++) {
            if (t < mw->t0[i] || t >= mw->t1[i])
                continue;
            fs_export_row buy = {r, p, m, mw->t0[i], mw->t1[i],
                                 FS_EXPORT_PURCHASE, 0, 0, hours, hours,
                                 upfront, 0, upfront, 0};
            if (emit(ctx, &buy))
                return -1;
        }
        if (!p->renew)
            break;
    }
    return 0;
}

static int pool_month(const fs_export_run *r, const fs_export_pool *p,
                      size_t m, long long list_m, month_work *mw,
                      fs_export_emit emit, void *ctx)
{
    double gpus = (double)gpus_each(p);
    if (p->cents[m] == 0 && p->unused_cents[m] == 0 &&
        !util_integral(p, mw->t0[0], mw->t1[mw->n - 1], 0))
        return 0;
    for (size_t i = 0; i < mw->n; i++)
        mw->inst[i] = util_integral(p, mw->t0[i], mw->t1[i], 0) / 3600 / gpus;
    if (has_term(p))
        term_periods(r, p, m, mw);
    else
        usage_periods(p, m, mw);
    /* the list cost: the month's list cents by the instance-hours used in
     * each period, so that each row's share is its instance-hours x the
     * list price, rounded up or down (the writer states the price to
     * more decimals on a row rounded the other way: FOCUS wants ListCost
     * = ListUnitPrice x PricingQuantity); priced at list, or with no list
     * price known, what it cost */
    for (size_t i = 0; i < mw->n; i++)
        mw->w[i] = mw->used[i];
    int listed = p->has_list && strcmp(p->category, "Standard");
    spread(listed ? list_m : 0, mw->w, mw->n, mw->list, mw->frac);
    if (has_term(p) && p->upfront_usd > 0 && p->instances > 0 &&
        emit_purchases(r, p, m, mw, emit, ctx))
        return -1;
    int committed = fs_export_is_committed(p), spend =
        fs_export_spend_based(p);
    for (size_t i = 0; i < mw->n; i++) {
        double hours = (mw->t1[i] - mw->t0[i]) / 3600;
        long long eff = mw->billed[i] + mw->amort[i];
        double qty = listed || !(p->list_usd_h > 0) ? mw->used[i]
                     : (double)eff / 100 / p->list_usd_h;
        double cq = !committed ? NAN : spend
            ? fmax(0, p->commitment_usd_h * hours - mw->unused_q[i])
            : mw->used[i];
        fs_export_row row = {
            r, p, m, mw->t0[i], mw->t1[i], FS_EXPORT_USAGE,
            util_integral(p, mw->t0[i], mw->t1[i], 0) / 3600,
            util_integral(p, mw->t0[i], mw->t1[i], 1) / 3600, qty, cq,
            mw->billed[i], eff, listed ? mw->list[i] : eff, mw->amort[i]};
        if (emit(ctx, &row))
            return -1;
        if (!committed || !(mw->unused_q[i] > 0) || mw->unused[i] == 0)
            continue;
        fs_export_row un = {
            r, p, m, mw->t0[i], mw->t1[i], FS_EXPORT_UNUSED, 0, 0,
            mw->unused_q[i], mw->unused_q[i], mw->ubilled[i],
            mw->unused[i], mw->unused[i], mw->uamort[i]};
        if (emit(ctx, &un))
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

static void work_free(month_work *mw)
{
    double *d[] = {mw->t0, mw->t1, mw->w, mw->frac, mw->inst, mw->used,
                   mw->unused_q};
    long long *c[] = {mw->billed, mw->amort, mw->unused, mw->ubilled,
                      mw->uamort, mw->list};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        free(c[i]);
}

static int work_alloc(month_work *mw, size_t most)
{
    double **d[] = {&mw->t0, &mw->t1, &mw->w, &mw->frac, &mw->inst,
                    &mw->used, &mw->unused_q};
    long long **c[] = {&mw->billed, &mw->amort, &mw->unused, &mw->ubilled,
                       &mw->uamort, &mw->list};
    int ok = 1;
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        ok &= (*d[i] = calloc(most, sizeof **d[i])) != NULL;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        ok &= (*c[i] = calloc(most, sizeof **c[i])) != NULL;
    return ok ? 0 : -1;
}

int fs_export_rows(const fs_export_run *r, double period, fs_export_emit emit,
                   void *ctx)
{
    size_t most = 1, nm = r->cal.nmonths;
    for (size_t m = 0; m < nm; m++) {
        size_t n = month_periods(&r->cal, m, period, NULL, NULL);
        most = n > most ? n : most;
    }
    month_work mw = {0};
    long long *list = calloc((nm + 1) * (r->npools + 1), sizeof *list);
    int rc = list && !work_alloc(&mw, most) ? 0 : -1;
    for (size_t i = 0; !rc && i < r->npools; i++)
        rc = month_list(r, &r->pools[i], list + i * (nm + 1));
    for (size_t m = 0; !rc && m < nm; m++) {
        mw.n = month_periods(&r->cal, m, period, mw.t0, mw.t1);
        for (size_t i = 0; !rc && mw.n && i < r->npools; i++)
            rc = pool_month(r, &r->pools[i], m, list[i * (nm + 1) + m], &mw,
                            emit, ctx);
    }
    work_free(&mw);
    free(list);
    return rc;
}
