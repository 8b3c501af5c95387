/* forecast.c -- the monthly bill after a run, grown by its drawn rate
 * (forecast.h), and its interval: Student's t on the log of the bills
 * across runs (GSL's gsl_cdf_tdist_Pinv), or the growth law's quantiles
 * for a single run (gsl_cdf_ugaussian_Pinv). */
#include "models/purchase/forecast.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

double fs_fc_mean_factor(double g, double from_h, double to_h)
{
    double a = log1p(g) / FS_FC_MONTH_H;   /* per hour */
    double len = to_h - from_h;
    if (!(a * len > 1e-12))
        return exp(a * from_h);
    /* (1/len) integral of e^(a t) over [from, to] */
    return exp(a * from_h) * expm1(a * len) / (a * len);
}

double fs_fc_growth(const fs_fc_run *r, int month, double g)
{
    double from = r->horizon_h + FS_FC_MONTH_H * (month - 1);
    return fs_fc_mean_factor(g, from, from + FS_FC_MONTH_H) /
           fs_fc_mean_factor(g, 0, r->horizon_h);
}

double fs_fc_bill(const fs_fc_run *r, int month, double g)
{
    if (r->nparts == 0)
        return r->bill_month * fs_fc_growth(r, month, g);
    double rest = r->bill_month, own = 0;
    for (size_t i = 0; i < r->nparts; i++) {
        rest -= r->part_bill[i];
        own += r->part_bill[i] * fs_fc_growth(r, month, r->part_growth[i]);
    }
    return rest * fs_fc_growth(r, month, g) + own;
}

/* The rate at quantile p of a normal (mean, sd) truncated to 0..1. */
static double growth_quantile(double mean, double sd, double p)
{
    double lo = gsl_cdf_ugaussian_P((0 - mean) / sd);
    double hi = gsl_cdf_ugaussian_P((1 - mean) / sd);
    return mean + sd * gsl_cdf_ugaussian_Pinv(lo + p * (hi - lo));
}

/* Two runs or more: the prediction interval on the log of the bills. */
static void interval_runs(const fs_fc_run *runs, size_t n, double level,
                          fs_fc_month *m)
{
    double *y = malloc(n * sizeof *y), sum = 0;
    if (!y)
        return;
    for (size_t i = 0; i < n; i++) {
        double b = fs_fc_bill(&runs[i], m->month, runs[i].growth);
        sum += b;
        y[i] = log(fmax(b, 1e-300));
    }
    m->mean = sum / (double)n;
    double mu = gsl_stats_mean(y, 1, n), s = gsl_stats_sd_m(y, 1, n, mu);
    double t = gsl_cdf_tdist_Pinv(0.5 + level / 2, (double)(n - 1));
    double half = t * s * sqrt(1 + 1.0 / (double)n);
    m->low = exp(mu - half);
    m->high = exp(mu + half);
    m->method = "prediction interval over the runs (log of the bill, t)";
    free(y);
}

void fs_fc_forecast(const fs_fc_run *runs, size_t n, int months,
                    double level, fs_fc_month *out)
{
    for (int k = 0; k < months; k++) {
        fs_fc_month *m = &out[k];
        m->month = k + 1;
        m->from_h = (n ? runs[0].horizon_h : 0) + FS_FC_MONTH_H * k;
        m->to_h = m->from_h + FS_FC_MONTH_H;
        m->low = m->high = NAN;
        m->method = "none (one run, no spread)";
        m->mean = n ? fs_fc_bill(&runs[0], m->month, runs[0].growth) : 0;
        if (n >= 2)
            interval_runs(runs, n, level, m);
        else if (n == 1 && runs[0].growth_spread > 0) {
            const fs_fc_run *r = &runs[0];
            double p = (1 - level) / 2;
            m->low = fs_fc_bill(r, m->month, growth_quantile(
                r->growth_mean, r->growth_spread, p));
            m->high = fs_fc_bill(r, m->month, growth_quantile(
                r->growth_mean, r->growth_spread, 1 - p));
            m->method = "the growth law's quantiles (one run)";
        }
    }
}
