/* billing.c -- calendar months and billing meters; see billing.h. */
#include "models/purchase/billing.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int fs_calendar_init(fs_calendar *cal, time_t start, double horizon_s)
{
    cal->start = start;
    cal->horizon_s = horizon_s;
    cal->nmonths = 0;
    cal->bound = NULL;
    cal->label = NULL;
    struct tm tm;
    gmtime_r(&start, &tm);
    int year = tm.tm_year, mon = tm.tm_mon;
    size_t bcap = 0, lcap = 0;
    for (;;) {
        double *b = fs_vec_grow(cal->bound, &bcap, cal->nmonths + 2,
                                sizeof *b);
        if (b)
            cal->bound = b;
        char (*l)[12] = fs_vec_grow(cal->label, &lcap, cal->nmonths + 2,
                                    sizeof *l);
        if (l)
            cal->label = l;
        if (!b || !l) {
            fs_calendar_free(cal);
            return -1;
        }
        struct tm first = {.tm_year = year, .tm_mon = mon, .tm_mday = 1};
        double t = difftime(timegm(&first), start);
        cal->bound[cal->nmonths] = t;
        if (t >= horizon_s && cal->nmonths > 0)
            break;
        snprintf(cal->label[cal->nmonths], sizeof cal->label[0], "%04u-%02u",
                 (unsigned)(year + 1900) % 10000u, (unsigned)mon % 12u + 1u);
        cal->nmonths++;
        if (++mon == 12) {
            mon = 0;
            year++;
        }
    }
    assert(cal->bound[0] <= 0 && cal->bound[cal->nmonths] >= horizon_s);
    return 0;
}

void fs_calendar_free(fs_calendar *cal)
{
    free(cal->bound);
    free(cal->label);
    cal->bound = NULL;
    cal->label = NULL;
    cal->nmonths = 0;
}

size_t fs_calendar_month(const fs_calendar *cal, double t, int end_of_interval)
{
    size_t lo = 0, hi = cal->nmonths;   /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        int after = end_of_interval ? t > cal->bound[mid]
                                    : t >= cal->bound[mid];
        if (after)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double fs_calendar_month_fraction(const fs_calendar *cal, size_t m)
{
    double a = fmax(cal->bound[m], 0), b = fmin(cal->bound[m + 1],
                                                cal->horizon_s);
    return b > a ? (b - a) / (cal->bound[m + 1] - cal->bound[m]) : 0;
}

double fs_calendar_months(const fs_calendar *cal)
{
    double s = 0;
    for (size_t m = 0; m < cal->nmonths; m++)
        s += fs_calendar_month_fraction(cal, m);
    return s;
}

void fs_calendar_spread(const fs_calendar *cal, size_t m0, double t0,
                        double t, double rate, double *row)
{
    for (size_t m = m0; m < cal->nmonths; m++) {
        double a = t0 > cal->bound[m] ? t0 : cal->bound[m];
        double b = t < cal->bound[m + 1] ? t : cal->bound[m + 1];
        if (b > a)
            row[m] += (b - a) * rate;
        if (cal->bound[m + 1] >= t)
            break;
    }
}

int fs_meter_init(fs_meter *m, const fs_calendar *cal)
{
    m->nmonths = cal->nmonths;
    m->usd = calloc(cal->nmonths, sizeof *m->usd);
    m->gpu_hours = calloc(cal->nmonths, sizeof *m->gpu_hours);
    if (!m->usd || !m->gpu_hours) {
        fs_meter_free(m);
        return -1;
    }
    return 0;
}

void fs_meter_free(fs_meter *m)
{
    FS_FREE_ALL(m->usd, m->gpu_hours);
    m->usd = m->gpu_hours = NULL;
}

void fs_meter_charge_span(fs_meter *m, const fs_calendar *cal, double t0,
                          double t1, double usd_per_hour, int gpus)
{
    assert(t0 <= t1);
    if (t1 <= t0)
        return;
    for (size_t k = fs_calendar_month(cal, t0, 0); k < cal->nmonths; k++) {
        double a = fmax(t0, cal->bound[k]), b = fmin(t1, cal->bound[k + 1]);
        if (b > a) {
            double hours = (b - a) / 3600;
            m->usd[k] += hours * usd_per_hour;
            m->gpu_hours[k] += hours * gpus;
        }
        if (cal->bound[k + 1] >= t1)
            break;
    }
}

void fs_bill_on_demand(fs_meter *m, const fs_calendar *cal, double t0,
                       double t1, double usd_per_hour, int gpus, double min_s)
{
    fs_meter_charge_span(m, cal, t0, t1, usd_per_hour, gpus);
    if (t1 - t0 < min_s)
        m->usd[fs_calendar_month(cal, t1, 1)] +=
            (min_s - (t1 - t0)) / 3600 * usd_per_hour;
}

double fs_term_hours(int term_months)
{
    return 8760.0 * term_months / 12;
}

/* Where the reservation's charges end: the term's end, or the horizon. */
static double reserved_end(const fs_calendar *cal, int term_months,
                           int renew)
{
    double term_s = fs_term_hours(term_months) * 3600;
    if (term_s <= 0 || renew || term_s >= cal->horizon_s)
        return cal->horizon_s;
    return term_s;
}

void fs_bill_reserved(fs_meter *m, const fs_calendar *cal, long count,
                      double hourly_usd, double upfront_usd, int term_months,
                      int renew, int gpus)
{
    double hours = fs_term_hours(term_months), rate = hourly_usd;
    if (hours > 0 && upfront_usd > 0)
        rate += upfront_usd / hours;
    fs_meter_charge_span(m, cal, 0, reserved_end(cal, term_months, renew),
                         rate * (double)count, (int)(gpus * count));
}

double fs_reserved_amortized(const fs_calendar *cal, size_t m, long count,
                             double upfront_usd, int term_months, int renew)
{
    double hours = fs_term_hours(term_months);
    if (hours <= 0 || upfront_usd <= 0)
        return 0;
    double a = fmax(cal->bound[m], 0);
    double b = fmin(cal->bound[m + 1], reserved_end(cal, term_months, renew));
    return b > a ? (double)count * upfront_usd / hours * (b - a) / 3600 : 0;
}

void fs_reserved_cash(double *cash, const fs_calendar *cal, long count,
                      double upfront_usd, int term_months, int renew)
{
    double term_s = fs_term_hours(term_months) * 3600;
    if (upfront_usd <= 0 || term_s <= 0)
        return;
    for (double t = 0; t < cal->horizon_s; t += term_s) {
        cash[fs_calendar_month(cal, t, 0)] += (double)count * upfront_usd;
        if (!renew)
            break;
    }
}

double fs_meter_cents(const double *usd, size_t k)
{
    double before = 0;
    for (size_t i = 0; i < k; i++)
        before += usd[i];
    return fs_round_cents(fs_round_cents(before + usd[k]) -
                          fs_round_cents(before));
}

double fs_round_cents(double usd)
{
    return round(usd * 100) / 100;
}
