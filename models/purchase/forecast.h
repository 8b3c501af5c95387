/* forecast.h -- the bill over the months after a run, grown by the run's
 * own growth rate (`growth = G ± S`, drawn per replication), and its
 * interval across the runs: what `fleetsim forecast` prints and what
 * `commit --horizon` scales each future month's demand by.
 *
 * A month is 730 hours (the month of growth = and of the run rate), not a
 * calendar month.  Traffic at t hours from the run's start is (1 + g)^(t
 * / 730) times its rate at the start; the bill is taken to follow the
 * traffic (a fleet sized to its demand, as an autoscaled one is), so month
 * m's bill is the run's bill per 730 hours times the mean of that factor
 * over the month over its mean over the run. */
#ifndef FS_FORECAST_H
#define FS_FORECAST_H

#include <stddef.h>

#define FS_FC_MONTH_H 730.0

/* The mean of (1 + g)^(t / 730) over t in [from_h, to_h] hours. */
double fs_fc_mean_factor(double g, double from_h, double to_h);

/* One run: its horizon, its bill per 730 hours over it (the run rate),
 * the rate it drew and the law it drew from (spread 0: none). */
typedef struct fs_fc_run {
    double horizon_h, bill_month;
    double growth, growth_mean, growth_spread;
    /* The pools with their own growth = (nparts of them; 0: none): each
     * one's part of bill_month, grown by its own drawn rate; the rest of
     * the bill grows by the run's rate. */
    size_t nparts;
    double *part_bill, *part_growth;
} fs_fc_run;

/* Month m (1 = the 730 hours after the run's horizon) of run r at rate g:
 * its growth over the run (the mean factor over the month over its mean
 * over the run; a budget's run rate is grown by it), and its bill (the
 * run rate times that; the parts of pools with their own growth each by
 * its own rate, the rest at g). */
double fs_fc_growth(const fs_fc_run *r, int month, double g);
double fs_fc_bill(const fs_fc_run *r, int month, double g);

typedef struct fs_fc_month {
    int month;
    double from_h, to_h;      /* hours from the runs' start */
    double mean;              /* the runs' mean bill */
    double low, high;         /* the interval; NaN when none */
    const char *method;       /* how the interval was made */
} fs_fc_month;

/* The forecast of months 1..months at the level (0.9: a 90% interval)
 * into out[0..months).  Two runs or more: a prediction interval for one
 * more replication, on the log of the bill (a bill is positive and grows
 * by a factor): exp(mean +- t(n-1) s sqrt(1 + 1/n)), from the runs' drawn
 * rates and their bills.  One run with a spread: the bill at the law's
 * quantiles (the normal truncated to 0..1, as drawn).  Else none. */
void fs_fc_forecast(const fs_fc_run *runs, size_t n, int months,
                    double level, fs_fc_month *out);

#endif
