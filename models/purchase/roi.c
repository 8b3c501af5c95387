/* roi.c -- reserved-instance and savings-plan ROI (roi.h).
 *
 * A reserved instance costs hourly + upfront / (730 x term months) every
 * hour, used or not; demand above the reservation is bought on demand.
 * The cost of reserving k is convex in k, but k only runs to the peak, so
 * every k is tried: clear, and cheap next to reading the demand.
 * Monthly figures are 730-hour run rates: the n hours' cost x 730 / n. */
#include "models/purchase/roi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/grammar.h"

static double amortized_hourly(const fs_roi_prices *p)
{
    return p->hourly + p->upfront / (FS_ROI_MONTH_H * p->term_months);
}

double fs_roi_cost(const double *demand, size_t n, long k,
                   const fs_roi_prices *p)
{
    double over = 0;
    for (size_t h = 0; h < n; h++)
        if (demand[h] > (double)k)
            over += demand[h] - (double)k;
    return (double)k * amortized_hourly(p) * (double)n + over * p->on_demand;
}

static long peak_count(const double *demand, size_t n)
{
    double peak = 0;
    for (size_t h = 0; h < n; h++)
        if (demand[h] > peak)
            peak = demand[h];
    /* a sample average a rounding above a whole number is that number */
    return (long)ceil(peak - 1e-9);
}

long fs_roi_best(const double *demand, size_t n, const fs_roi_prices *p)
{
    long best = 0, peak = peak_count(demand, n);
    double best_cost = fs_roi_cost(demand, n, 0, p);
    for (long k = 1; k <= peak; k++) {
        double c = fs_roi_cost(demand, n, k, p);
        if (c < best_cost * (1 - 1e-12)) {
            best = k;
            best_cost = c;
        }
    }
    return best;
}

void fs_roi_daily_average(const double *demand, size_t n, double *out)
{
    for (size_t d = 0; d < n; d += 24) {
        size_t end = d + 24 < n ? d + 24 : n;
        double sum = 0;
        for (size_t h = d; h < end; h++)
            sum += demand[h];
        for (size_t h = d; h < end; h++)
            out[h] = sum / (double)(end - d);
    }
}

static double demand_sum(const double *demand, size_t n)
{
    double s = 0;
    for (size_t h = 0; h < n; h++)
        s += demand[h];
    return s;
}

/* The month-by-month saving against all on demand: the monthly run rate of
 * the cash saved (no amortization), the upfront paid in month 1; the NPV
 * discounts month m (0-based) by (1 + rate)^(m/12), and break-even is when
 * the savings have repaid the upfront. */
static void cash_flows(fs_roi_result *r, const fs_roi_prices *p,
                       double upfront, double cash_saving)
{
    r->months = p->term_months > FS_ROI_MAX_MONTHS ? FS_ROI_MAX_MONTHS
                                                   : p->term_months;
    r->npv = 0;
    for (int m = 0; m < r->months; m++) {
        r->cash_flow[m] = cash_saving - (m == 0 ? upfront : 0);
        r->amortized_flow[m] = cash_saving - upfront / r->months;
        r->npv += r->cash_flow[m] / pow(1 + p->discount_rate, m / 12.0);
    }
    if (upfront <= 0)
        r->break_even_months = cash_saving > 0 ? 0 : NAN;
    else if (cash_saving > 0 && upfront / cash_saving <= r->months)
        r->break_even_months = upfront / cash_saving;
    else
        r->break_even_months = NAN;
}

static void fill_common(fs_roi_result *r, double on_demand_cost,
                        double with_cost, size_t n)
{
    double scale = FS_ROI_MONTH_H / (double)n;
    r->on_demand_monthly = on_demand_cost * scale;
    r->with_monthly = with_cost * scale;
    r->savings_monthly = r->on_demand_monthly - r->with_monthly;
    r->savings_pct = r->on_demand_monthly > 0
        ? 100 * r->savings_monthly / r->on_demand_monthly : 0;
}

void fs_roi_recommend(const double *demand, size_t n,
                      const fs_roi_prices *p, fs_roi_result *r)
{
    long k = fs_roi_best(demand, n, p);
    double used = 0;
    for (size_t h = 0; h < n; h++)
        used += demand[h] < (double)k ? demand[h] : (double)k;
    r->count = k;
    r->commitment = 0;
    r->daily_commitment = 0;
    r->upfront_cost = (double)k * p->upfront;
    r->recurring_monthly = (double)k * p->hourly * FS_ROI_MONTH_H;
    fill_common(r, demand_sum(demand, n) * p->on_demand,
                fs_roi_cost(demand, n, k, p), n);
    r->utilization = k > 0 ? used / ((double)k * (double)n) : NAN;
    double amortized = r->upfront_cost / p->term_months;
    cash_flows(r, p, r->upfront_cost, r->savings_monthly + amortized);

    double *daily = malloc(n * sizeof *daily);
    r->daily_count = -1;
    r->daily_monthly = NAN;
    if (daily) {
        fs_roi_daily_average(demand, n, daily);
        r->daily_count = fs_roi_best(daily, n, p);
        r->daily_monthly = fs_roi_cost(demand, n, r->daily_count, p) *
                           FS_ROI_MONTH_H / (double)n;
        free(daily);
    }
}

double fs_roi_plan_cost(const double *demand, size_t n, double c,
                        double on_demand, double discount)
{
    double covered = c / (1 - discount), over = 0;
    for (size_t h = 0; h < n; h++) {
        double spend = demand[h] * on_demand;
        if (spend > covered)
            over += spend - covered;
    }
    return c * (double)n + over;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The cost is convex and piecewise linear in c, with its corners where the
 * commitment covers exactly one hour's spend: sorted, the cost at the
 * corner of the j-th smallest spend s_j is n c + sum_{i>j} (s_i - s_j). */
double fs_roi_plan_best(const double *demand, size_t n, double on_demand,
                        double discount)
{
    double *s = malloc(n * sizeof *s);
    if (!s)
        return 0;
    for (size_t h = 0; h < n; h++)
        s[h] = demand[h] * on_demand;
    qsort(s, n, sizeof *s, by_value);
    double above = demand_sum(demand, n) * on_demand;   /* sum s_i */
    double best_c = 0, best_cost = above;
    for (size_t j = 0; j < n; j++) {
        above -= s[j];                      /* sum of s_i, i > j */
        double c = s[j] * (1 - discount);
        double cost = c * (double)n + above - s[j] * (double)(n - 1 - j);
        if (cost < best_cost * (1 - 1e-12)) {
            best_cost = cost;
            best_c = c;
        }
    }
    free(s);
    return best_c;
}

void fs_roi_plan_recommend(const double *demand, size_t n, double discount,
                           const fs_roi_prices *p, fs_roi_result *r)
{
    double c = fs_roi_plan_best(demand, n, p->on_demand, discount);
    double covered = c / (1 - discount), used = 0;
    for (size_t h = 0; h < n; h++) {
        double spend = demand[h] * p->on_demand;
        used += spend < covered ? spend : covered;
    }
    r->count = 0;
    r->commitment = c;
    r->upfront_cost = 0;
    r->recurring_monthly = c * FS_ROI_MONTH_H;
    fill_common(r, demand_sum(demand, n) * p->on_demand,
                fs_roi_plan_cost(demand, n, c, p->on_demand, discount), n);
    r->utilization = c > 0 ? used / (covered * (double)n) : NAN;
    cash_flows(r, p, 0, r->savings_monthly);
    r->daily_count = -1;
    r->daily_commitment = NAN;
    r->daily_monthly = NAN;
    double *daily = malloc(n * sizeof *daily);
    if (daily) {
        fs_roi_daily_average(demand, n, daily);
        r->daily_commitment = fs_roi_plan_best(daily, n, p->on_demand,
                                               discount);
        r->daily_monthly = fs_roi_plan_cost(demand, n, r->daily_commitment,
                                            p->on_demand, discount) *
                           FS_ROI_MONTH_H / (double)n;
        free(daily);
    }
}

/* An hourly rate: money that ends in "/h". */
static int hourly(const char *v, double *out, char *why, size_t len)
{
    size_t n = strlen(v);
    if (n < 2 || strcmp(v + n - 2, "/h") != 0) {
        snprintf(why, len, "'%s' is no hourly rate: write it as 2.10/h", v);
        return -1;
    }
    return fs_parse_money(v, out, why, len);
}

/* An upfront payment: money without "/h". */
static int upfront(const char *v, double *out, char *why, size_t len)
{
    size_t n = strlen(v);
    if (n >= 2 && strcmp(v + n - 2, "/h") == 0) {
        snprintf(why, len, "'%s' is an hourly rate, but this option's price "
                 "is the upfront payment for the whole term (40000)", v);
        return -1;
    }
    return fs_parse_money(v, out, why, len);
}

/* A quote's figures within the bounds of the price keys: the hourly rate
 * at most max_hourly, the upfront at most that rate for each hour of the
 * term (upfront_price's bound), so that no figure can overflow a sum. */
static int quote_bounded(const char *value, int years, double max_hourly,
                         double hourly_usd, double upfront_usd, char *why,
                         size_t len)
{
    double hours = 24.0 * 365 * years;
    if (hourly_usd > max_hourly)
        snprintf(why, len, "'%s': an hourly rate of at most $%.0f per "
                 "instance", value, max_hourly);
    else if (upfront_usd > max_hourly * hours)
        snprintf(why, len, "'%s': an upfront of at most $%.0f per instance "
                 "for a %dy term ($%.0f an hour for each of its %.0f hours)",
                 value, max_hourly * hours, years, max_hourly, hours);
    else
        return 0;
    return -1;
}

int fs_roi_parse_quote(int kind, int years, double max_hourly,
                       const char *value, double *hourly_usd,
                       double *upfront_usd, char *why, size_t len)
{
    char v[128];
    int rc;
    *hourly_usd = *upfront_usd = 0;
    if (snprintf(v, sizeof v, "%s", value) >= (int)sizeof v || !v[0]) {
        snprintf(why, len, "give the price");
        return -1;
    }
    if (kind == 0)
        rc = hourly(v, hourly_usd, why, len);
    else if (kind == 2)
        rc = upfront(v, upfront_usd, why, len);
    else {
        char *plus = strchr(v, '+');
        if (!plus) {
            snprintf(why, len, "'%s': partial upfront is UPFRONT+HOURLY, "
                     "e.g. 6000+0.70/h", value);
            return -1;
        }
        *plus = '\0';
        rc = upfront(v, upfront_usd, why, len);
        if (rc == 0)
            rc = hourly(plus + 1, hourly_usd, why, len);
    }
    if (rc == 0 && *hourly_usd == 0 && *upfront_usd == 0) {
        snprintf(why, len, "'%s': a reservation that costs nothing", value);
        rc = -1;
    }
    if (rc == 0)
        rc = quote_bounded(value, years, max_hourly, *hourly_usd, *upfront_usd, why,
                           len);
    return rc;
}
