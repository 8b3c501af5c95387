/* billing.h -- turning instance lifetimes into monthly charges.
 *
 * A calendar cuts the horizon into calendar months from the scenario start
 * (UTC); a meter per pool accumulates dollars and GPU-hours per month.
 * Billing rules (DESIGN.md): on-demand per second from launch to
 * termination with a minimum per launch; reserved every hour of the horizon
 * whether used or not, its upfront payment spread evenly over the term's
 * months and a partial month charged for the hours it holds.  Meters move
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

/* Reserved: count instances for the whole horizon at hourly_usd, plus
 * upfront_usd per instance spread over term_months months, each month's
 * share pro-rated by the fraction of it the horizon holds. */
void fs_bill_reserved(fs_meter *m, const fs_calendar *cal, long count,
                      double hourly_usd, double upfront_usd, int term_months,
                      int gpus);

/* Rounds to the cent, half away from zero. */
double fs_round_cents(double usd);

#endif
