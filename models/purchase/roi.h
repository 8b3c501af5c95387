/* roi.h -- reserved-instance and savings-plan ROI: the arithmetic.
 *
 * Given a pool's demand hour by hour (instances in use, a real number per
 * hour, each hour weighted alike) and its prices, chooses how many
 * instances to reserve (or, for a savings plan, the hourly commitment) so
 * that the cost of the reservation plus on-demand for the demand above it
 * is least, and reports it as 730-hour monthly run rates.  No SQLite and no
 * catalog here: the command (sim/cli/roi/cmd_roi.c) reads those. */
#ifndef FS_ROI_H
#define FS_ROI_H

#include <stddef.h>

#define FS_ROI_MONTH_H 730.0    /* hours in a run-rate month */
#define FS_ROI_MAX_MONTHS 36

typedef struct fs_roi_prices {
    double on_demand;       /* $ per instance-hour */
    double hourly;          /* reserved recurring $ per instance-hour */
    double upfront;         /* $ per reserved instance for the whole term */
    int term_months;        /* 12 or 36 */
    double discount_rate;   /* a year, for the NPV: 0.08 */
} fs_roi_prices;

typedef struct fs_roi_result {
    long count;                 /* instances reserved (or 0) */
    double commitment;          /* savings plan: $ per hour (else 0) */
    double upfront_cost;        /* count x upfront */
    double recurring_monthly;   /* count x hourly x 730 */
    double on_demand_monthly;   /* all on demand, 730-h run rate */
    double with_monthly;        /* with the reservation, upfront amortized */
    double savings_monthly;     /* on_demand_monthly - with_monthly */
    double savings_pct;         /* of on_demand_monthly (0 when that is 0) */
    double break_even_months;   /* upfront / monthly net cash saving; NaN
                                   when it never breaks even in the term */
    double utilization;         /* reserved hours used / reserved hours;
                                   NaN with nothing reserved */
    double npv;                 /* of cash_flow at discount_rate */
    long daily_count;           /* what daily averages would choose */
    double daily_commitment;    /* savings plan: the same, $ an hour */
    double daily_monthly;       /* its cost on the hourly demand (730 h) */
    int months;                 /* term months in cash_flow */
    double cash_flow[FS_ROI_MAX_MONTHS];   /* the cash view: saving per
                                              month, upfront paid in
                                              month 1 */
    double amortized_flow[FS_ROI_MAX_MONTHS];  /* the amortized view: the
                                              upfront spread over the
                                              term's hours, 730 a month */
} fs_roi_result;

/* Cost over the n hours of reserving k instances and buying the rest of
 * each hour's demand on demand (upfront amortized over the term's hours,
 * 730 per month). */
double fs_roi_cost(const double *demand, size_t n, long k,
                   const fs_roi_prices *p);

/* The k in 0..ceil(peak) of least cost (the smallest among equals). */
long fs_roi_best(const double *demand, size_t n, const fs_roi_prices *p);

/* The whole recommendation for demand[0..n) (n > 0). */
void fs_roi_recommend(const double *demand, size_t n,
                      const fs_roi_prices *p, fs_roi_result *r);

/* A savings plan: commit c $ an hour, which buys c / (1 - discount) $ of
 * on-demand-priced usage; the rest at on-demand.  Cost over the n hours of
 * commitment c. */
double fs_roi_plan_cost(const double *demand, size_t n, double c,
                        double on_demand, double discount);
/* The commitment of least cost: one of the hours' discounted spends. */
double fs_roi_plan_best(const double *demand, size_t n, double on_demand,
                        double discount);
/* The plan's recommendation in r (count 0, commitment set, no upfront;
 * utilization = commitment used / committed). */
void fs_roi_plan_recommend(const double *demand, size_t n, double discount,
                           const fs_roi_prices *p, fs_roi_result *r);

/* A reservation quote's price for upfront kind (0 none, 1 partial, 2
 * all), in the money grammar: none "2.10/h" (hourly, "/h" required), all
 * "40000" (the term's upfront), partial "6000+0.70/h".  The hourly rate is
 * at most max_hourly, the upfront at most max_hourly for each hour of a
 * term of `years`.  0 with *hourly and *upfront set (per instance), or -1
 * with why. */
int fs_roi_parse_quote(int kind, int years, double max_hourly,
                       const char *value, double *hourly, double *upfront,
                       char *why, size_t len);

/* Averages demand over each day (24 hours; a last partial day over its
 * hours) into out[0..n). */
void fs_roi_daily_average(const double *demand, size_t n, double *out);

#endif
