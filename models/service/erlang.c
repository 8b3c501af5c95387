/* erlang.c -- the M/M/c closed forms (see erlang.h). */
#include "models/service/erlang.h"

#include <math.h>

double fs_erlang_c(long c, double a)
{
    if (c < 1 || a >= (double)c)
        return 1;
    if (a <= 0)
        return 0;
    /* B(k) = a B(k-1) / (k + a B(k-1)) (Erlang B, stable recursion);
     * C = c B / (c - a (1 - B)). */
    double b = 1;
    for (long k = 1; k <= c; k++)
        b = a * b / ((double)k + a * b);
    return (double)c * b / ((double)c - a * (1 - b));
}

double fs_mmc_wait_tail(long c, double lambda, double mu, double t)
{
    double theta = (double)c * mu - lambda;
    if (theta <= 0)
        return 1;
    return fs_erlang_c(c, lambda / mu) * exp(-theta * t);
}

double fs_mmc_wait_mean(long c, double lambda, double mu)
{
    double theta = (double)c * mu - lambda;
    return theta <= 0 ? INFINITY : fs_erlang_c(c, lambda / mu) / theta;
}

/* P(T > t) = (1 - C) e^{-mu t} + C P(E_theta + E_mu > t), the last the
 * hypoexponential tail (theta e^{-mu t} - mu e^{-theta t}) / (theta - mu),
 * or (1 + mu t) e^{-mu t} when theta = mu. */
double fs_mmc_sojourn_tail(long c, double lambda, double mu, double t)
{
    double theta = (double)c * mu - lambda;
    if (theta <= 0)
        return 1;
    double C = fs_erlang_c(c, lambda / mu);
    double both;
    if (fabs(theta - mu) < 1e-9 * mu)
        both = (1 + mu * t) * exp(-mu * t);
    else
        both = (theta * exp(-mu * t) - mu * exp(-theta * t)) / (theta - mu);
    return (1 - C) * exp(-mu * t) + C * both;
}

double fs_mmc_sojourn_quantile(long c, double lambda, double mu, double q)
{
    if ((double)c * mu <= lambda)
        return INFINITY;
    double lo = 0, hi = 1 / mu;
    while (fs_mmc_sojourn_tail(c, lambda, mu, hi) > 1 - q)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (fs_mmc_sojourn_tail(c, lambda, mu, mid) > 1 - q)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double fs_mmc_wait_quantile(long c, double lambda, double mu, double q)
{
    double theta = (double)c * mu - lambda;
    if (theta <= 0)
        return INFINITY;
    double C = fs_erlang_c(c, lambda / mu);
    return C <= 1 - q ? 0 : log(C / (1 - q)) / theta;
}
