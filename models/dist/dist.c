/* dist.c -- parsing and drawing the distributions of dist.h with GSL. */
#include "models/dist/dist.h"
#include "sim/base/rng.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

static const char *const dist_names[] = {"const", "exponential",
                                         "lognormal", "weibull",
                                         "empirical", NULL};

/* The text of argument key, or of positional pos (if >= 0) when key is
 * not named; NULL with "NAME() needs key=" when neither is given. */
static const char *arg_text(const fs_call *c, const char *key, int pos,
                            char *why, size_t whylen)
{
    const char *v = fs_call_get(c, key);
    if (!v && pos >= 0)
        v = fs_call_positional(c, pos);
    if (!v)
        snprintf(why, whylen, "%s() needs %s=", c->name, key);
    return v;
}

int fs_dist_duration_arg(const fs_call *c, const char *key, int pos,
                         double *out, char *why, size_t whylen)
{
    const char *v = arg_text(c, key, pos, why, whylen);
    if (!v)
        return -1;
    char w[160];
    if (fs_parse_duration(v, out, w, sizeof w))
        return WHY("%s(): %s: %s", c->name, key, w);
    return 0;
}

/* A distribution's scale argument: a duration, or for a distribution of
 * counts (w.count: tokens) a plain number, a unit refused (const(5s) is
 * not 5 tokens). */
static int scale_arg(const fs_call *c, const char *key, int pos,
                     fs_empirical_words w, double *out, char *why,
                     size_t whylen)
{
    if (!w.count)
        return fs_dist_duration_arg(c, key, pos, out, why, whylen);
    const char *v = arg_text(c, key, pos, why, whylen);
    if (!v)
        return -1;
    char m[160];
    if (fs_parse_number(v, out, m, sizeof m) == 0)
        return *out <= FS_DURATION_MAX ? 0
               : WHY("%s(): %s: at most %.0f %s, got '%s'", c->name, key,
                     FS_DURATION_MAX, w.unit, v);
    char *end;
    if (strtod(v, &end) >= 0 && end != v && *end &&
        isalpha((unsigned char)*end))
        return WHY("%s(): %s: a number of %s takes no unit, got '%s'",
                   c->name, key, w.unit, v);
    return WHY("%s(): %s: a number of %s %s", c->name, key, w.unit, m);
}

static int number_arg(const fs_call *c, const char *key, double *out,
                      int allow_negative, char *why, size_t whylen)
{
    const char *v = fs_call_get(c, key);
    if (!v)
        return WHY("%s() needs %s=", c->name, key);
    char w[160];
    if (allow_negative && v[0] == '-') {
        if (fs_parse_number(v + 1, out, w, sizeof w))
            return WHY("%s(): %s: %s", c->name, key, w);
        *out = -*out;
        return 0;
    }
    if (fs_parse_number(v, out, w, sizeof w))
        return WHY("%s(): %s: %s", c->name, key, w);
    return 0;
}

/* empirical(FILE): the file read now; d->a its mean. */
static int parse_empirical(const fs_call *c, const char *base_dir,
                           fs_empirical_words w, fs_dist *d, char *why,
                           size_t whylen)
{
    static const char *const k_emp[] = {"path", NULL};
    d->kind = FS_DIST_EMPIRICAL;
    if (fs_call_check_keys(c, k_emp, why, whylen))
        return -1;
    const char *p = fs_call_get(c, "path");
    if (!p)
        p = fs_call_positional(c, 0);
    if (!p || !p[0])
        return WHY("empirical() needs a file, e.g. empirical(sample.csv)");
    char path[1024];
    if (fs_empirical_resolve(base_dir, p, path, sizeof path))
        return WHY("empirical(): path too long");
    if (fs_empirical_read(path, w, &d->values, &d->n, why, whylen))
        return -1;
    double s = 0;
    for (size_t i = 0; i < d->n; i++)
        s += d->values[i];
    d->a = s / (double)d->n;
    return 0;
}

int fs_dist_parse(const fs_call *c, fs_dist *d, char *why, size_t whylen)
{
    fs_empirical_words w = {"a value", "seconds", 0};
    return fs_dist_parse_in(c, NULL, w, d, why, whylen);
}

void fs_dist_free(fs_dist *d)
{
    free(d->values);
    d->values = NULL;
    d->n = 0;
}

int fs_dist_parse_in(const fs_call *c, const char *base_dir,
                     fs_empirical_words w, fs_dist *d, char *why,
                     size_t whylen)
{
    static const char *const k_const[] = {"value", NULL};
    static const char *const k_exp[] = {"mean", NULL};
    static const char *const k_logn[] = {"mean", "mu", "sigma", NULL};
    static const char *const k_weib[] = {"shape", "scale", NULL};
    memset(d, 0, sizeof *d);
    const char *n = c->name;
    if (strcmp(n, "empirical") == 0)
        return parse_empirical(c, base_dir, w, d, why, whylen);
    if (strcmp(n, "const") == 0) {
        d->kind = FS_DIST_CONST;
        if (fs_call_check_keys(c, k_const, why, whylen))
            return -1;
        return scale_arg(c, "value", 0, w, &d->a, why, whylen);
    }
    if (strcmp(n, "exponential") == 0) {
        d->kind = FS_DIST_EXPONENTIAL;
        if (fs_call_check_keys(c, k_exp, why, whylen) ||
            scale_arg(c, "mean", 0, w, &d->a, why, whylen))
            return -1;
        if (d->a <= 0)
            return WHY("exponential(): mean must be positive");
        return 0;
    }
    if (strcmp(n, "lognormal") == 0) {
        d->kind = FS_DIST_LOGNORMAL;
        if (fs_call_check_keys(c, k_logn, why, whylen) ||
            number_arg(c, "sigma", &d->b, 0, why, whylen))
            return -1;
        if (d->b > FS_LOGNORMAL_SIGMA_MAX)
            return WHY("lognormal(): sigma must be at most %g, got '%s'",
                       FS_LOGNORMAL_SIGMA_MAX, fs_call_get(c, "sigma"));
        if (fs_call_get(c, "mu")) {
            if (number_arg(c, "mu", &d->a, 1, why, whylen))
                return -1;
            double lo = log(FS_LOGNORMAL_MEDIAN_MIN);
            double hi = log(FS_DURATION_MAX);
            if (d->a < lo || d->a > hi)
                return WHY("lognormal(): mu must be between %.1f and %.1f (a "
                           "median e^mu between 1us and 3650d), got '%s'",
                           ceil(lo * 10) / 10, floor(hi * 10) / 10,
                           fs_call_get(c, "mu"));
        } else {
            double mean;
            if (!fs_call_get(c, "mean"))
                return WHY("lognormal() needs mean= (%s) or mu= (log-%s), "
                           "and sigma=", w.unit, w.unit);
            if (scale_arg(c, "mean", -1, w, &mean, why, whylen))
                return -1;
            if (mean <= 0)
                return WHY("lognormal(): mean must be positive");
            d->a = log(mean) - d->b * d->b / 2;   /* E[X] = exp(mu+s^2/2) */
        }
        return 0;
    }
    if (strcmp(n, "weibull") == 0) {
        d->kind = FS_DIST_WEIBULL;
        if (fs_call_check_keys(c, k_weib, why, whylen) ||
            number_arg(c, "shape", &d->a, 0, why, whylen) ||
            scale_arg(c, "scale", -1, w, &d->b, why, whylen))
            return -1;
        if (d->a < FS_WEIBULL_SHAPE_MIN || d->a > FS_WEIBULL_SHAPE_MAX)
            return WHY("weibull(): shape must be between %g and %g, got '%s'",
                       FS_WEIBULL_SHAPE_MIN, FS_WEIBULL_SHAPE_MAX,
                       fs_call_get(c, "shape"));
        if (d->b <= 0)
            return WHY("weibull(): scale must be positive");
        return 0;
    }
    const char *near = fs_nearest_name(n, dist_names);
    if (near)
        return WHY("unknown distribution '%s' (did you mean '%s'?)", n, near);
    return WHY("unknown distribution '%s' (const, exponential, lognormal, "
               "weibull, empirical)", n);
}

double fs_dist_draw_other(const fs_dist *d, gsl_rng *r)
{
    switch (d->kind) {
    case FS_DIST_CONST: return d->a;
    case FS_DIST_EXPONENTIAL: return fs_rng_exponential(r, d->a);
    case FS_DIST_LOGNORMAL: return gsl_ran_lognormal(r, d->a, d->b);
    case FS_DIST_WEIBULL: return gsl_ran_weibull(r, d->b, d->a);
    case FS_DIST_EMPIRICAL:
        return d->values[gsl_rng_uniform_int(r, d->n)];
    }
    return 0;
}

double fs_dist_min(const fs_dist *d)
{
    double m = d->kind == FS_DIST_CONST ? d->a : 0;
    for (size_t i = 0; d->kind == FS_DIST_EMPIRICAL && i < d->n; i++)
        m = i == 0 || d->values[i] < m ? d->values[i] : m;
    return m;
}

double fs_dist_mean(const fs_dist *d)
{
    switch (d->kind) {
    case FS_DIST_CONST: return d->a;
    case FS_DIST_EXPONENTIAL: return d->a;
    case FS_DIST_LOGNORMAL: return exp(d->a + d->b * d->b / 2);
    case FS_DIST_WEIBULL: return d->b * tgamma(1 + 1 / d->a);
    case FS_DIST_EMPIRICAL: return d->a;
    }
    return 0;
}
