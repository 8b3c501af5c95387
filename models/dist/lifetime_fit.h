/* lifetime_fit.h -- maximum-likelihood fits of spot instance lifetimes
 * (fleetsim trace fit): exponential and Weibull, with right-censored
 * lifetimes (instances still alive when the observation ends) counted in
 * the likelihood, and the Kolmogorov-Smirnov statistic of each fit against
 * the observed (uncensored) lifetimes. */
#ifndef FS_LIFETIME_FIT_H
#define FS_LIFETIME_FIT_H

#include <stddef.h>

typedef struct fs_lifetime_fit {
    double exp_mean;              /* seconds */
    double exp_ks;
    double weibull_shape, weibull_scale;   /* scale in seconds */
    double weibull_ks;
    size_t events;                /* uncensored lifetimes */
} fs_lifetime_fit;

/* life[i] > 0 seconds; censored[i] (NULL: none) marks those still alive.
 * 0, or -1 when fewer than 2 lifetimes end (nothing to fit) or the
 * Weibull shape equation has no root in [0.02, 50]. */
int fs_fit_lifetimes(const double *life, const unsigned char *censored,
                     size_t n, fs_lifetime_fit *out);

/* The Kolmogorov-Smirnov statistic sup |F_n - F| of the uncensored
 * lifetimes against the CDF cdf(x, a, b). */
double fs_ks_statistic(const double *life, const unsigned char *censored,
                       size_t n, double (*cdf)(double, double, double),
                       double a, double b);

#endif
