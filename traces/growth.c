/* growth.c -- `growth = 4%/month`: traffic that compounds from the start.
 *
 * The rate at t seconds from the start is the stream's own rate times
 * f(t) = (1 + g)^(t / month), month = 730 hours (the month of the run
 * rates, so that month k's share is exactly (1 + g)^k times month 0's).
 * Drawn exactly and deterministically by thinning: the stream is opened
 * with its rates (or its trace's copies, rate_scale) multiplied by
 * f(horizon), the largest factor over the horizon, and each arrival at t
 * is kept with probability f(t) / f(horizon), from the spec's generator.
 * For a Poisson, diurnal or MMPP process that is the same process with
 * its rate multiplied by f(t) (Lewis and Shedler); for a trace, each row
 * is replicated or thinned to rate_scale f(t) copies on average, as
 * rate_scale does.  growth = 0 opens the stream untouched.
 *
 * `growth = 5%/month ± 3%`: each replication draws its rate once
 * (fs_growth_draw) from a normal of that mean and standard deviation
 * truncated to 0..FS_GROWTH_MAX (a rate below 0 is a shrinking fleet the
 * key does not take), by rejection: a draw outside is drawn again, which
 * is exactly the truncated law. */
#include "traces/arrivals_impl.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct grown {
    fs_arrivals base;
    fs_arrivals *inner;
    gsl_rng *rng;
    double log_rate;    /* ln(1 + g) per second */
    double max_log;     /* ln f(horizon) */
    double avg;         /* mean of f / f(horizon) over the horizon */
} grown;

static int grown_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    grown *g = (grown *)a;
    for (;;) {
        int rc = fs_arrivals_next(g->inner, out, err);
        if (rc <= 0)
            return rc;
        double keep = exp(g->log_rate * out->t - g->max_log);
        if (gsl_rng_uniform(g->rng) < keep)
            return 1;
    }
}

static void grown_free(fs_arrivals *a)
{
    grown *g = (grown *)a;
    fs_arrivals_free(g->inner);
    free(g);
}

static double grown_mean_rate(const fs_arrivals *a)
{
    const grown *g = (const grown *)a;
    return fs_arrivals_mean_rate(g->inner) * g->avg;
}

static void grown_stats(const fs_arrivals *a, fs_trace_stats *out)
{
    fs_arrivals_stats(((const grown *)a)->inner, out);
}

static double grown_expected(const fs_arrivals *a, double *extra)
{
    const grown *g = (const grown *)a;
    double x = 0, n = fs_arrivals_expected(g->inner, &x);
    *extra = x + n * (1 - g->avg);
    return n * g->avg;
}

static const fs_arrivals_ops grown_ops = {
    grown_next, grown_free, grown_mean_rate, grown_stats, grown_expected,
};

fs_arrivals *fs_growth_open(const fs_arrivals_spec *spec,
                            fs_arrivals *(*open)(const fs_arrivals_spec *,
                                                 fs_error *),
                            fs_error *err)
{
    const fs_spec_key *k = &spec->growth_key;
    double g = spec->growth;
    if (!(g >= 0 && g <= FS_GROWTH_MAX))
        return fs_error_at(err, k->file, k->line, k->key, "must be from 0 "
                           "to %g%%/month, got %g%%/month",
                           FS_GROWTH_MAX * 100, g * 100), NULL;
    double log_rate = log1p(g) / FS_GROWTH_MONTH_S;
    double max_log = log_rate * spec->horizon_s;
    double fmax = exp(max_log);
    double scale = spec->rate_scale * fmax;
    if (!(scale <= FS_GROWTH_SCALE_MAX))
        return fs_error_at(err, k->file, k->line, k->key, "%g%%/month over "
                           "the horizon multiplies the traffic by %.4g "
                           "(times rate_scale %g): more than %g; shorten "
                           "the horizon or lower the growth", g * 100, fmax,
                           spec->rate_scale, FS_GROWTH_SCALE_MAX), NULL;
    fs_arrivals_spec inner_spec = *spec;
    inner_spec.growth = 0;
    inner_spec.rate_scale = scale;
    grown *w = calloc(1, sizeof *w);
    if (!w) {
        fs_arrivals_error(spec, err, "out of memory");
        return NULL;
    }
    w->inner = open(&inner_spec, err);
    if (!w->inner) {
        free(w);
        return NULL;
    }
    w->base.ops = &grown_ops;
    w->rng = spec->rng;
    w->log_rate = log_rate;
    w->max_log = max_log;
    /* (1/H) integral of e^(a t - a H) dt over [0, H] */
    w->avg = max_log > 0 ? -expm1(-max_log) / max_log : 1;
    return &w->base;
}

double fs_growth_draw(double mean, double sd, gsl_rng *rng)
{
    if (!(sd > 0))
        return mean;
    /* mean lies in 0..FS_GROWTH_MAX, so a draw lands inside with
     * probability above 1/3 even at the widest spread; the bound on tries
     * only keeps a broken generator from looping. */
    for (int i = 0; i < 10000; i++) {
        double g = mean + gsl_ran_gaussian(rng, sd);
        if (g >= 0 && g <= FS_GROWTH_MAX)
            return g;
    }
    return mean;
}
