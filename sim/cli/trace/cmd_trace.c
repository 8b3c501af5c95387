/* cmd_trace.c -- `fleetsim trace fit|stats FILE`: spot preemption traces
 * (t_seconds,available) turned into instance lifetimes
 * (traces/spot_trace.h), and maximum-likelihood exponential and Weibull
 * fits of them (models/dist/lifetime_fit.h) with the Kolmogorov-Smirnov
 * statistic of each and the `interruption = ...` line to paste into a
 * spot pool. */
#include "sim/cli/commands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/shared/help.h"
#include "models/dist/lifetime_fit.h"
#include "traces/spot_trace.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of the lifetimes that ended (n > 0). */
static double median_ended(const fs_lifetimes *l)
{
    double *x = malloc(l->n * sizeof *x);
    size_t m = 0;
    if (!x)
        return NAN;
    for (size_t i = 0; i < l->n; i++)
        if (!l->censored[i])
            x[m++] = l->life[i];
    qsort(x, m, sizeof *x, cmp_double);
    double med = m == 0 ? NAN : m % 2 ? x[m / 2]
                                      : (x[m / 2 - 1] + x[m / 2]) / 2;
    free(x);
    return med;
}

static void print_stats(const char *path, const fs_lifetimes *l)
{
    double sum = 0;
    size_t ended = l->n - l->ncensored;
    for (size_t i = 0; i < l->n; i++)
        if (!l->censored[i])
            sum += l->life[i];
    printf("trace: %s\n", path);
    printf("  span %.0fs (%.2f days), %ld preemptions, %zu lifetimes ended, "
           "%zu still running at the end (censored)\n", l->span_s,
           l->span_s / 86400, l->drops, ended, l->ncensored);
    if (ended)
        printf("  lifetimes that ended: mean %.0fs (%.2fh), median %.0fs\n",
               sum / (double)ended, sum / (double)ended / 3600,
               median_ended(l));
}

static int print_fit(const fs_lifetimes *l)
{
    fs_lifetime_fit f;
    if (fs_fit_lifetimes(l->life, l->censored, l->n, &f))
        return fs_fail("trace fit: fewer than 2 lifetimes end in the trace "
                       "(or the Weibull fit did not converge): nothing to "
                       "fit");
    double crit = 1.36 / sqrt((double)f.events);
    printf("\nmaximum-likelihood fits (censored lifetimes counted), "
           "Kolmogorov-Smirnov D against the %zu ended lifetimes\n"
           "(D above %.3f: rejected at 5%%):\n", f.events, crit);
    printf("  exponential  mean = %.0fs (%.2fh)                  D = %.3f\n",
           f.exp_mean, f.exp_mean / 3600, f.exp_ks);
    printf("  weibull      shape = %.3f, scale = %.0fs (%.2fh)   D = %.3f\n",
           f.weibull_shape, f.weibull_scale, f.weibull_scale / 3600,
           f.weibull_ks);
    int weibull = f.weibull_ks < f.exp_ks;
    printf("\nbest fit (smaller D): %s; paste into the [pool.NAME] of a spot "
           "pool:\n", weibull ? "weibull" : "exponential");
    if (weibull)
        printf("interruption = weibull(shape=%.3f, scale=%.0fs)\n",
               f.weibull_shape, f.weibull_scale);
    else
        printf("interruption = exponential(mean=%.0fs)\n", f.exp_mean);
    return FS_EXIT_OK;
}

const fs_option fs_options_trace[] = {   /* no options */
    OPT_END(),
};

int cmd_trace(int argc, char **argv)
{
    const char *args[3] = {NULL, NULL, NULL};
    int n = 0;
    int rc = fs_parse_options_few("trace", argc, argv, fs_options_trace, NULL,
                                  args, 3, &n);
    if (rc == 0 && n > 2)
        rc = fs_usage_error("trace", "unexpected argument '%s'", args[2]);
    if (rc)
        return rc;
    const char *action = args[0], *path = args[1];
    if (!action || (strcmp(action, "fit") && strcmp(action, "stats")))
        return fs_usage_error("trace", "expected fit or stats, then a "
                              "preemption trace FILE (t_seconds,available)");
    if (!path)
        return fs_usage_error("trace", "%s needs a trace FILE "
                              "(t_seconds,available)", action);
    fs_lifetimes l;
    fs_error err;
    if (fs_spot_lifetimes(path, &l, &err))
        return fs_fail(err.msg);
    print_stats(path, &l);
    rc = strcmp(action, "fit") == 0 ? print_fit(&l) : FS_EXIT_OK;
    fs_lifetimes_free(&l);
    if (rc == FS_EXIT_OK && fflush(stdout) != 0)
        return fs_fail("cannot write to standard output");
    return rc;
}
