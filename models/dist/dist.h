/* dist.h -- distributions of durations: service demands (the generic
 * service models of service_dist.c) and, later, times to interruption.
 *
 * The family models/dist/ (lowest of models/, beside catalog/):
 * distributions: of durations (this file, dist_empirical.h), of times to
 * interruption (interruption.h), and the fits of spot lifetimes
 * (lifetime_fit.h).
 *
 * Parsed from the call grammar: const(50ms), exponential(mean=1s),
 * lognormal(mean=2s, sigma=0.5) or lognormal(mu=0.3, sigma=0.5),
 * weibull(shape=0.8, scale=20h), empirical(FILE) (a sample, one value a
 * row: dist_empirical.h).  Draws use GSL's variate generators on a
 * caller-owned stream.
 *
 * Parameters are bounded so that every draw is a usable duration: every
 * duration argument is at most FS_DURATION_MAX (grammar.h); lognormal's
 * sigma at most FS_LOGNORMAL_SIGMA_MAX (beyond it nearly every draw is 0s
 * and a few astronomically large) and its median e^mu between 1us and
 * FS_DURATION_MAX; weibull's shape within [FS_WEIBULL_SHAPE_MIN,
 * FS_WEIBULL_SHAPE_MAX] (a shape near 0 draws 0s or infinities). */
#ifndef FS_DIST_H
#define FS_DIST_H

#include <stddef.h>
#include <gsl/gsl_rng.h>
#include "sim/base/grammar.h"
#include "sim/base/rng.h"
#include "sim/base/error.h"
#include "models/dist/dist_empirical.h"

#define FS_LOGNORMAL_SIGMA_MAX 4.0
#define FS_LOGNORMAL_MEDIAN_MIN 1e-6    /* seconds */
#define FS_WEIBULL_SHAPE_MIN 0.1
#define FS_WEIBULL_SHAPE_MAX 100.0

typedef enum fs_dist_kind {
    FS_DIST_CONST,
    FS_DIST_EXPONENTIAL,
    FS_DIST_LOGNORMAL,
    FS_DIST_WEIBULL,
    FS_DIST_EMPIRICAL,
} fs_dist_kind;

typedef struct fs_dist {
    fs_dist_kind kind;
    double a, b;   /* const: value; exp: mean; lognormal: mu, sigma;
                      weibull: shape, scale; empirical: the mean */
    double *values;   /* empirical: the sample, owned (fs_dist_free) */
    size_t n;
} fs_dist;

/* Parses one of the forms above; durations take units (50ms, 1s, 20h).
 * empirical(FILE) resolves FILE against base_dir (the scenario's
 * directory; NULL: as given) and reads it now, w naming its values in
 * messages; fs_dist_parse reads seconds. */
int fs_dist_parse_in(const fs_call *c, const char *base_dir,
                     fs_empirical_words w, fs_dist *d, char *why,
                     size_t whylen);
int fs_dist_parse(const fs_call *c, fs_dist *d, char *why, size_t whylen);

/* Frees an empirical sample (a no-op for the other kinds). */
void fs_dist_free(fs_dist *d);

/* One draw, in seconds: the exponential inline (a service demand or an
 * interarrival on every request of the event path), the others in
 * dist.c. */
double fs_dist_draw_other(const fs_dist *d, gsl_rng *r);
static inline double fs_dist_draw(const fs_dist *d, gsl_rng *r)
{
    if (d->kind == FS_DIST_EXPONENTIAL)
        return fs_rng_exponential(r, d->a);
    return fs_dist_draw_other(d, r);
}

/* The mean of a draw. */
double fs_dist_mean(const fs_dist *d);

/* The least value a draw can take: const's value, an empirical sample's
 * smallest, 0 for the others (their support starts at 0). */
double fs_dist_min(const fs_dist *d);

/* A required duration argument of a call, keyed, or unnamed at position
 * pos (-1: keyed only): "NAME() needs KEY=" or "NAME(): KEY: why".  The
 * models that read durations from a call share it for one wording. */
int fs_dist_duration_arg(const fs_call *c, const char *key, int pos,
                         double *out, char *why, size_t whylen);

#endif
