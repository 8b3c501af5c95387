/* billing.h -- turning instance lifetimes into monthly charges.
 *
 * A calendar cuts the horizon into calendar months from the scenario start
 * (UTC); a meter per pool accumulates dollars and GPU-hours per month.
 * Billing rules (DESIGN.md): on-demand per second from launch to
 * termination with a minimum per launch; reserved every hour of the horizon
 * of its term whether used or not, its upfront payment spread evenly over
 * the term's hours (8760 a year: the amortized view cloud consoles show),
 * nothing after the term unless it renews.  Meters move
 * when instances change state, never by polling.  The purchase options
 * (purchase.h) call these: the calendar and the sums live here once, what
 * an option charges for which event lives in its own file. */
#ifndef FS_BILLING_H
#define FS_BILLING_H

#include <stddef.h>
#include <time.h>

typedef struct fs_calendar {
    time_t start;          /* UTC epoch of the scenario start */
    double horizon_s;
    size_t nmonths;        /* months the horizon touches */
    double *bound;         /* nmonths + 1 month starts, seconds from start;
                              bound[0] <= 0, bound[nmonths] >= horizon */
    char (*label)[12];     /* "YYYY-MM" per month */
} fs_calendar;

int fs_calendar_init(fs_calendar *cal, time_t start, double horizon_s);
void fs_calendar_free(fs_calendar *cal);
/* Index of the month holding time t (an instant at a boundary belongs to
 * the month it ends when end_of_interval, else to the one it starts). */
size_t fs_calendar_month(const fs_calendar *cal, double t, int end_of_interval);
/* Fraction of month m inside [0, horizon]. */
double fs_calendar_month_fraction(const fs_calendar *cal, size_t m);
/* Sum of those fractions: the calendar months the horizon covers. */
double fs_calendar_months(const fs_calendar *cal);
/* Adds rate times the seconds of [t0, t) inside each month to row[m],
 * from month m0 (the one holding t0) on. */
void fs_calendar_spread(const fs_calendar *cal, size_t m0, double t0,
                        double t, double rate, double *row);

typedef struct fs_meter {
    size_t nmonths;
    double *usd;           /* per month */
    double *gpu_hours;     /* per month */
} fs_meter;

int fs_meter_init(fs_meter *m, const fs_calendar *cal);
void fs_meter_free(fs_meter *m);

/* Charges usd_per_hour for every second of [t0, t1), split across months,
 * and gpus GPU-hours per hour. */
void fs_meter_charge_span(fs_meter *m, const fs_calendar *cal, double t0,
                          double t1, double usd_per_hour, int gpus);

/* On-demand: one launch from t0 to t1 at usd_per_hour, with at least
 * min_s seconds billed (the shortfall is charged in the month it ends);
 * min_s = 0 for an instance the horizon cuts off, not a termination. */
void fs_bill_on_demand(fs_meter *m, const fs_calendar *cal, double t0,
                       double t1, double usd_per_hour, int gpus,
                       double min_s);

/* The hours of a commitment term of term_months months: 8760 a year (a
 * year is 365 days; AWS defines a 1-year term as 31,536,000 s). */
double fs_term_hours(int term_months);

/* Reserved: count instances at hourly_usd plus upfront_usd per instance
 * spread evenly over the term's hours, for every hour of the term inside
 * the horizon (term_months 0: the whole horizon, no upfront).  Nothing is
 * charged after the term unless renew: then each next term is bought at
 * the same terms. */
void fs_bill_reserved(fs_meter *m, const fs_calendar *cal, long count,
                      double hourly_usd, double upfront_usd, int term_months,
                      int renew, int gpus);

/* The amortized view of month m: the share of count x upfront_usd that
 * falls in its hours inside the term (and the horizon). */
double fs_reserved_amortized(const fs_calendar *cal, size_t m, long count,
                             double upfront_usd, int term_months, int renew);

/* The cash view: the upfront payments count x upfront_usd, in the month
 * each term starts (month 0, then every term while renew and inside the
 * horizon), added to cash[0..nmonths). */
void fs_reserved_cash(double *cash, const fs_calendar *cal, long count,
                      double upfront_usd, int term_months, int renew);

/* Month k's charge in whole cents, rounded so that the months add up: the
 * running total to the end of month k rounded, less the running total to
 * the end of month k - 1 rounded.  Each month is within a cent of its
 * exact charge, and a $12,000 term spread over its months sums to
 * $12,000.00 (rounding each month alone can drift by a cent a month). */
double fs_meter_cents(const double *usd, size_t k);

/* Rounds to the cent, half away from zero. */
double fs_round_cents(double usd);

#endif
