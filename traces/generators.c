/* generators.c -- synthetic arrival processes.
 *
 *   poisson(rate=3.2/s)
 *       homogeneous Poisson: exponential gaps of mean 1/rate.
 *   diurnal(peak=10/s, trough=2/s, peak_hour=14)
 *       nonhomogeneous Poisson whose rate follows the hour of day h:
 *       trough + (peak - trough) (1 + cos(2 pi (h - peak_hour) / 24)) / 2,
 *       drawn by thinning (Lewis and Shedler) against a bound per minute
 *       of the day (below).  peak_hour defaults to 14.
 *   mmpp(high=20/s, low=2/s, high_for=5m, low_for=30m)
 *       two-state Markov-modulated Poisson: Poisson at the rate of the
 *       current state, which lasts an exponential time of the given mean;
 *       it starts in the low state.
 * rate_scale multiplies every rate (3 = three times the traffic, same
 * shape).  Every draw comes from the spec's generator, so a seed fixes the
 * stream.  No arrival is returned at or after the horizon.
 *
 * Degenerate parameters are refused at open rather than looped on: more
 * than FS_STEPS_MAX arrivals (or candidates, or MMPP state changes) over
 * the horizon cannot be simulated, and past that the gaps also fall below
 * what the clock (a double) resolves, so time would stop advancing. */
#include "traces/arrivals_impl.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include "sim/base/rng.h"

typedef int (*parse_fn)(const char *, double *, char *, size_t);

/* Keyed arguments only, and only the known ones. */
static int check_call(const fs_arrivals_spec *spec, const char *const *keys,
                      const char *example, fs_error *err)
{
    const char *pos = fs_call_positional(spec->call, 0);
    if (pos)
        return fs_arrivals_error(spec, err, "%s: unnamed argument '%s': "
                                 "name it, e.g. %s", spec->call->name, pos,
                                 example);
    char why[256];
    if (fs_call_check_keys(spec->call, keys, why, sizeof why))
        return fs_arrivals_error(spec, err, "%s", why);
    return 0;
}

/* Reads key= with parse; required when def is NAN. */
static int param(const fs_arrivals_spec *spec, const char *key,
                 parse_fn parse, double def, const char *example,
                 double *out, fs_error *err)
{
    const char *v = fs_call_get(spec->call, key);
    if (!v) {
        if (isnan(def))
            return fs_arrivals_error(spec, err, "%s: missing %s=, e.g. %s",
                                     spec->call->name, key, example);
        *out = def;
        return 0;
    }
    char why[192];
    if (parse(v, out, why, sizeof why))
        return fs_arrivals_error(spec, err, "%s: %s: %s", spec->call->name,
                                 key, why);
    return 0;
}

/* rate_scale: a positive multiplier of the generator's rates. */
static int check_scale(const fs_arrivals_spec *spec, fs_error *err)
{
    if (spec->rate_scale > 0 && isfinite(spec->rate_scale))
        return 0;
    return fs_arrivals_error(spec, err, "%s: rate_scale must be above 0, "
                             "got %g", spec->call->name, spec->rate_scale);
}

/* A process whose rates are all 0 sends no request: refused rather than
 * run as an empty simulation.  what names the rate(s). */
static int check_some_rate(const fs_arrivals_spec *spec, double rate,
                           const char *what, fs_error *err)
{
    if (rate > 0)
        return 0;
    return fs_arrivals_error(spec, err, "%s: %s must be above 0 (no request "
                             "would arrive)", spec->call->name, what);
}

/* rate (per second) over the horizon is at most FS_STEPS_MAX steps. */
static int check_steps(const fs_arrivals_spec *spec, const char *what,
                       double per_s, fs_error *err)
{
    double n = per_s * spec->horizon_s;
    if (!(n > FS_STEPS_MAX))
        return 0;
    char h[32];
    fs_format_duration(spec->horizon_s, h, sizeof h);
    return fs_arrivals_error(spec, err, "%s: %s: %g/s over %s is %.3g "
                             "arrivals, more than fleetsim can simulate (at "
                             "most 2^40, about 1.1e12, per workload)",
                             spec->call->name, what, per_s, h, n);
}

static void fill(fs_arrival *out, double t)
{
    out->t = t;
    out->service_s = -1;
    out->tokens_in = out->tokens_out = -1;
    out->hashes = NULL;
    out->nhashes = out->hash_tokens = 0;
}

static void generator_free(fs_arrivals *a)
{
    free(a);
}

/* A zeroed generator of size bytes, whose first member is the fs_arrivals
 * with ops; NULL with err filled when out of memory.  Every generator
 * draws from the run's stream, so a spec without one is a bug. */
static void *generator_new(const fs_arrivals_spec *spec,
                           const fs_arrivals_ops *ops, size_t size,
                           fs_error *err)
{
    assert(spec->rng);
    fs_arrivals *a = calloc(1, size);
    if (!a) {
        fs_arrivals_error(spec, err, "out of memory");
        return NULL;
    }
    a->ops = ops;
    return a;
}

/* ---- poisson ------------------------------------------------------------ */

typedef struct poisson {
    fs_arrivals base;
    gsl_rng *rng;
    double rate, t, horizon;
    double mean;   /* 1 / rate, divided once: the interarrival's mean */
} poisson;

static int poisson_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    (void)err;
    poisson *g = (poisson *)a;
    if (!(g->rate > 0) || !(g->t < g->horizon))
        return 0;
    g->t += fs_rng_exponential(g->rng, g->mean);
    if (!(g->t < g->horizon))
        return 0;
    fill(out, g->t);
    return 1;
}

static double poisson_mean_rate(const fs_arrivals *a)
{
    return ((const poisson *)a)->rate;
}

static double poisson_expected(const fs_arrivals *a, double *extra)
{
    const poisson *g = (const poisson *)a;
    *extra = 0;
    return g->rate * g->horizon;
}

static const fs_arrivals_ops poisson_ops = {
    poisson_next, generator_free, poisson_mean_rate, NULL, poisson_expected,
};

fs_arrivals *fs_poisson_open(const fs_arrivals_spec *spec, fs_error *err)
{
    static const char *const keys[] = {"rate", NULL};
    static const char *const example = "poisson(rate=3.2/s)";
    double rate;
    if (check_call(spec, keys, example, err) ||
        param(spec, "rate", fs_parse_rate, NAN, example, &rate, err) ||
        check_some_rate(spec, rate, "rate", err) || check_scale(spec, err) ||
        check_steps(spec, "rate", rate * spec->rate_scale, err))
        return NULL;
    rate *= spec->rate_scale;
    poisson *g = generator_new(spec, &poisson_ops, sizeof *g, err);
    if (!g)
        return NULL;
    *g = (poisson){{&poisson_ops}, spec->rng, rate, 0, spec->horizon_s, 1 / rate};
    return &g->base;
}

/* ---- diurnal ------------------------------------------------------------ */

/* Thinning against a per-minute bound instead of the day's peak: the day
 * is cut into DIURNAL_BINS minutes, each with the largest and smallest
 * rate the curve takes in it.  Candidates come at the minute's largest
 * rate (a candidate past the minute's end is dropped and drawing restarts
 * at the next minute, which the memoryless exponential allows), and one
 * is kept with probability rate(t) / largest.  Below the minute's
 * smallest rate it is kept without evaluating the curve (a squeeze), so
 * cos and fmod run on about 1 candidate in 400 rather than on every one,
 * and about 1.003 candidates are drawn per arrival instead of peak / mean
 * (1.67 for peak=10/s, trough=2/s).  The process is the same exact
 * nonhomogeneous Poisson process as thinning at the peak rate. */
#define DIURNAL_BINS 1440
#define DIURNAL_BIN_S 60.0

typedef struct diurnal {
    fs_arrivals base;
    gsl_rng *rng;
    double peak, trough, peak_hour, start_hour, t, horizon;
    int bin;                  /* the minute of day the clock is in */
    double first_end;         /* when the first minute ends (s) */
    uint64_t bins_passed;     /* minute ends passed since the start */
    double bin_end;           /* first_end + bins_passed minutes */
    double hi[DIURNAL_BINS], lo[DIURNAL_BINS];   /* rate bounds (/s) */
} diurnal;

/* The rate at hour of day h. */
static double diurnal_rate_at(const diurnal *g, double h)
{
    const double two_pi = 6.283185307179586;
    return g->trough + (g->peak - g->trough) *
                           (1 + cos(two_pi * (h - g->peak_hour) / 24)) / 2;
}

/* The rate at t seconds from the start. */
static double diurnal_rate(const diurnal *g, double t)
{
    return diurnal_rate_at(g, fmod(g->start_hour + t / 3600, 24));
}

/* Whether hour x (mod 24) lies in [a, b], hours of one minute. */
static int hour_within(double x, double a, double b)
{
    x = fmod(x, 24);
    if (x < 0)
        x += 24;
    return (x >= a && x <= b) || (x + 24 >= a && x + 24 <= b);
}

/* Each minute's bounds: the cosine is monotone between its peak and its
 * trough, so the extremes are at the ends unless the minute holds one;
 * widened by a part in 1e9 so rounding in cos never crosses them. */
static void diurnal_bounds(diurnal *g)
{
    for (int b = 0; b < DIURNAL_BINS; b++) {
        double a = b / 60.0, z = (b + 1) / 60.0;
        double ra = diurnal_rate_at(g, a), rz = diurnal_rate_at(g, z);
        double hi = fmax(ra, rz), lo = fmin(ra, rz);
        if (hour_within(g->peak_hour, a, z))
            hi = g->peak;
        if (hour_within(g->peak_hour + 12, a, z))
            lo = g->trough;
        g->hi[b] = hi * (1 + 1e-9);
        g->lo[b] = lo * (1 - 1e-9);
    }
    double s = g->start_hour * 60;   /* minutes into the day */
    g->bin = (int)floor(s) % DIURNAL_BINS;
    g->first_end = (floor(s) + 1 - s) * DIURNAL_BIN_S;
    g->bins_passed = 0;
    g->bin_end = g->first_end;
}

static void diurnal_next_bin(diurnal *g)
{
    g->t = g->bin_end;
    g->bin = (g->bin + 1) % DIURNAL_BINS;
    g->bins_passed++;
    g->bin_end = g->first_end + (double)g->bins_passed * DIURNAL_BIN_S;
}

static int diurnal_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    (void)err;
    diurnal *g = (diurnal *)a;
    if (!(g->peak > 0))
        return 0;
    while (g->t < g->horizon) {
        double hi = g->hi[g->bin];
        double cand = hi > 0 ? g->t + fs_rng_exponential(g->rng, 1 / hi)
                             : INFINITY;
        if (!(cand < g->bin_end)) {
            diurnal_next_bin(g);
            continue;
        }
        g->t = cand;
        if (!(g->t < g->horizon))
            break;
        double u = fs_rng_uniform_pos(g->rng) * hi;
        if (u < g->lo[g->bin] || u < diurnal_rate(g, g->t)) {
            fill(out, g->t);
            return 1;
        }
    }
    return 0;
}

static double diurnal_mean_rate(const fs_arrivals *a)
{
    const diurnal *g = (const diurnal *)a;
    return (g->peak + g->trough) / 2;
}

/* Besides the arrivals: the candidates thinned out (each minute's bound
 * above the curve) and one draw dropped at each minute's end. */
static double diurnal_expected(const fs_arrivals *a, double *extra)
{
    const diurnal *g = (const diurnal *)a;
    double n = diurnal_mean_rate(a) * g->horizon, hi = 0;
    for (int b = 0; b < DIURNAL_BINS; b++)
        hi += g->hi[b];
    hi /= DIURNAL_BINS;
    *extra = fmax(0, hi * g->horizon - n) + g->horizon / DIURNAL_BIN_S;
    return n;
}

static const fs_arrivals_ops diurnal_ops = {
    diurnal_next, generator_free, diurnal_mean_rate, NULL, diurnal_expected,
};

fs_arrivals *fs_diurnal_open(const fs_arrivals_spec *spec, fs_error *err)
{
    static const char *const keys[] = {"peak", "trough", "peak_hour", NULL};
    static const char *const example =
        "diurnal(peak=10/s, trough=2/s, peak_hour=14)";
    double peak = 0, trough = 0, peak_hour = 14;
    if (check_call(spec, keys, example, err) ||
        param(spec, "peak", fs_parse_rate, NAN, example, &peak, err) ||
        param(spec, "trough", fs_parse_rate, NAN, example, &trough, err) ||
        param(spec, "peak_hour", fs_parse_number, 14, example, &peak_hour,
              err) ||
        check_some_rate(spec, peak + trough, "peak", err) ||
        check_scale(spec, err))
        return NULL;
    if (trough > peak) {
        fs_arrivals_error(spec, err, "diurnal: trough (%g/s) is above peak "
                          "(%g/s)", trough, peak);
        return NULL;
    }
    if (check_steps(spec, "peak", peak * spec->rate_scale, err))
        return NULL;
    if (peak_hour >= 24) {
        fs_arrivals_error(spec, err, "diurnal: peak_hour: expected an hour "
                          "of day from 0 to 24, got '%s'",
                          fs_call_get(spec->call, "peak_hour"));
        return NULL;
    }
    peak *= spec->rate_scale;
    trough *= spec->rate_scale;
    diurnal *g = generator_new(spec, &diurnal_ops, sizeof *g, err);
    if (!g)
        return NULL;
    g->rng = spec->rng;
    g->peak = peak;
    g->trough = trough;
    g->peak_hour = peak_hour;
    g->start_hour = fmod(spec->start_hour, 24);
    g->horizon = spec->horizon_s;
    diurnal_bounds(g);
    return &g->base;
}

/* ---- mmpp --------------------------------------------------------------- */

typedef struct mmpp {
    fs_arrivals base;
    gsl_rng *rng;
    double rate[2];      /* [0] low, [1] high */
    double mean_for[2];  /* mean sojourn in each state, seconds */
    int state;
    double state_end;    /* when the current state ends */
    double t, horizon;
} mmpp;

static int mmpp_next(fs_arrivals *a, fs_arrival *out, fs_error *err)
{
    (void)err;
    mmpp *g = (mmpp *)a;
    if (!(g->rate[0] > 0) && !(g->rate[1] > 0))
        return 0;
    while (g->t < g->horizon) {
        double r = g->rate[g->state];
        /* Memoryless: a candidate past the switch is simply dropped. */
        double cand = r > 0 ? g->t + fs_rng_exponential(g->rng, 1 / r)
                            : INFINITY;
        if (cand < g->state_end) {
            g->t = cand;
            if (!(g->t < g->horizon))
                break;
            fill(out, g->t);
            return 1;
        }
        g->t = g->state_end;
        g->state = !g->state;
        g->state_end = g->t + fs_rng_exponential(g->rng,
                                                 g->mean_for[g->state]);
    }
    return 0;
}

static double mmpp_mean_rate(const fs_arrivals *a)
{
    const mmpp *g = (const mmpp *)a;
    return (g->rate[1] * g->mean_for[1] + g->rate[0] * g->mean_for[0]) /
           (g->mean_for[1] + g->mean_for[0]);
}

/* Arrivals at the long-run rate; a state change every half cycle. */
static double mmpp_expected(const fs_arrivals *a, double *extra)
{
    const mmpp *g = (const mmpp *)a;
    *extra = 2 * g->horizon / (g->mean_for[0] + g->mean_for[1]);
    return mmpp_mean_rate(a) * g->horizon;
}

static const fs_arrivals_ops mmpp_ops = {
    mmpp_next, generator_free, mmpp_mean_rate, NULL, mmpp_expected,
};

fs_arrivals *fs_mmpp_open(const fs_arrivals_spec *spec, fs_error *err)
{
    static const char *const keys[] = {"high", "low", "high_for", "low_for",
                                       NULL};
    static const char *const example =
        "mmpp(high=20/s, low=2/s, high_for=5m, low_for=30m)";
    double high, low, high_for, low_for;
    if (check_call(spec, keys, example, err) ||
        param(spec, "high", fs_parse_rate, NAN, example, &high, err) ||
        param(spec, "low", fs_parse_rate, NAN, example, &low, err) ||
        param(spec, "high_for", fs_parse_duration, NAN, example, &high_for,
              err) ||
        param(spec, "low_for", fs_parse_duration, NAN, example, &low_for,
              err) ||
        check_some_rate(spec, high + low, "high or low", err) ||
        check_scale(spec, err))
        return NULL;
    if (!(high_for > 0) || !(low_for > 0)) {
        fs_arrivals_error(spec, err, "mmpp: %s: must be longer than 0",
                          high_for > 0 ? "low_for" : "high_for");
        return NULL;
    }
    if (check_steps(spec, "high", high * spec->rate_scale, err) ||
        check_steps(spec, "low", low * spec->rate_scale, err))
        return NULL;
    double changes = 2 * spec->horizon_s / (high_for + low_for);
    if (changes > FS_STEPS_MAX) {
        char h[32];
        fs_format_duration(spec->horizon_s, h, sizeof h);
        fs_arrivals_error(spec, err, "mmpp: high_for and low_for: a cycle of "
                          "%gs on average is too short for a horizon of %s: "
                          "%.3g state changes (at most 2^40, about 1.1e12)",
                          high_for + low_for, h, changes);
        return NULL;
    }
    mmpp *g = generator_new(spec, &mmpp_ops, sizeof *g, err);
    if (!g)
        return NULL;
    g->rng = spec->rng;
    g->rate[0] = low * spec->rate_scale;
    g->rate[1] = high * spec->rate_scale;
    g->mean_for[0] = low_for;
    g->mean_for[1] = high_for;
    g->state = 0;
    g->state_end = fs_rng_exponential(g->rng, low_for);
    g->horizon = spec->horizon_s;
    return &g->base;
}
