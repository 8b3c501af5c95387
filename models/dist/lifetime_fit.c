/* lifetime_fit.c -- exponential and Weibull maximum-likelihood fits of
 * lifetimes with right censoring (lifetime_fit.h).
 *
 * Exponential: mean = total exposure / events.
 * Weibull (shape k, scale s), r events among n lifetimes t_i: the
 * likelihood is maximal where
 *   g(k) = sum_i t_i^k ln t_i / sum_i t_i^k - 1/k - (1/r) sum_events ln t_i
 * is 0 (all i, censored included, in the first sums), solved with GSL's
 * Brent root finder; then s = (sum_i t_i^k / r)^(1/k).  The times are
 * divided by their largest first so that t^k cannot overflow. */
#include "models/dist/lifetime_fit.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sort.h>

typedef struct wb_data {
    const double *t;          /* scaled to at most 1 */
    const unsigned char *c;
    size_t n, r;
    double mean_log_events;
} wb_data;

static double shape_equation(double k, void *p)
{
    const wb_data *d = p;
    double s0 = 0, s1 = 0;
    for (size_t i = 0; i < d->n; i++) {
        double tk = pow(d->t[i], k);
        s0 += tk;
        s1 += tk * log(d->t[i]);
    }
    return s1 / s0 - 1 / k - d->mean_log_events;
}

static int solve_shape(wb_data *d, double *k)
{
    gsl_function f = {shape_equation, d};
    double lo = 0.02, hi = 50;
    if (shape_equation(lo, d) * shape_equation(hi, d) > 0)
        return -1;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    int rc = -1;
    if (s && gsl_root_fsolver_set(s, &f, lo, hi) == GSL_SUCCESS) {
        for (int it = 0; it < 200; it++) {
            if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
                break;
            lo = gsl_root_fsolver_x_lower(s);
            hi = gsl_root_fsolver_x_upper(s);
            if (gsl_root_test_interval(lo, hi, 0, 1e-10) == GSL_SUCCESS) {
                *k = gsl_root_fsolver_root(s);
                rc = 0;
                break;
            }
        }
    }
    if (s)
        gsl_root_fsolver_free(s);
    gsl_set_error_handler(old);
    return rc;
}

static double exp_cdf(double x, double mean, double unused)
{
    (void)unused;
    return gsl_cdf_exponential_P(x, mean);
}

static double weibull_cdf(double x, double shape, double scale)
{
    return gsl_cdf_weibull_P(x, scale, shape);
}

double fs_ks_statistic(const double *life, const unsigned char *censored,
                       size_t n, double (*cdf)(double, double, double),
                       double a, double b)
{
    double *x = malloc((n ? n : 1) * sizeof *x);
    size_t m = 0;
    if (!x)
        return NAN;
    for (size_t i = 0; i < n; i++)
        if (!censored || !censored[i])
            x[m++] = life[i];
    gsl_sort(x, 1, m);
    double d = 0;
    for (size_t i = 0; i < m; i++) {
        double f = cdf(x[i], a, b);
        double hi = (double)(i + 1) / (double)m - f;
        double lo = f - (double)i / (double)m;
        if (hi > d)
            d = hi;
        if (lo > d)
            d = lo;
    }
    free(x);
    return d;
}

int fs_fit_lifetimes(const double *life, const unsigned char *censored,
                     size_t n, fs_lifetime_fit *out)
{
    double total = 0, tmax = 0;
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        total += life[i];
        if (life[i] > tmax)
            tmax = life[i];
        r += !censored || !censored[i];
    }
    out->events = r;
    if (r < 2 || !(tmax > 0))
        return -1;
    out->exp_mean = total / (double)r;
    out->exp_ks = fs_ks_statistic(life, censored, n, exp_cdf, out->exp_mean,
                                  0);
    double *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    wb_data d = {t, censored, n, r, 0};
    for (size_t i = 0; i < n; i++) {
        t[i] = life[i] / tmax;
        if (!censored || !censored[i])
            d.mean_log_events += log(t[i]) / (double)r;
    }
    double k;
    int rc = solve_shape(&d, &k);
    if (rc == 0) {
        double s0 = 0;
        for (size_t i = 0; i < n; i++)
            s0 += pow(t[i], k);
        out->weibull_shape = k;
        out->weibull_scale = tmax * pow(s0 / (double)r, 1 / k);
        out->weibull_ks = fs_ks_statistic(life, censored, n, weibull_cdf, k,
                                          out->weibull_scale);
    }
    free(t);
    return rc;
}
