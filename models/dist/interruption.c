/* interruption.c -- the interruption models of interruption.h: parsing
 * (distributions, empirical lifetimes files included, through dist.c) and
 * drawing lifetimes with GSL. */
#include "models/dist/interruption.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

static int parse_file_form(const fs_call *c, const char *base_dir,
                           fs_interruption *it, char *why, size_t whylen)
{
    static const char *const k_emp[] = {"path", NULL};
    static const char *const k_trace[] = {"path", "repeat", NULL};
    int trace = strcmp(c->name, "trace") == 0;
    if (fs_call_check_keys(c, trace ? k_trace : k_emp, why, whylen))
        return -1;
    const char *p = fs_call_get(c, "path");
    if (!p)
        p = fs_call_positional(c, 0);
    if (!p || !p[0])
        return WHY("%s() needs a file, e.g. %s", c->name,
                   trace ? "trace(traces/sample/spot/us-east-1f_v100_1.csv)"
                         : "empirical(lifetimes.csv)");
    if (fs_empirical_resolve(base_dir, p, it->path, sizeof it->path))
        return WHY("%s(): path too long", c->name);
    if (!trace) {   /* the shared empirical distribution (dist.c) */
        static const fs_empirical_words w = {"a lifetime", "seconds", 0};
        it->kind = FS_INTERRUPT_EMPIRICAL;
        return fs_dist_parse_in(c, base_dir, w, &it->dist, why, whylen);
    }
    it->kind = FS_INTERRUPT_TRACE;
    const char *rep = fs_call_get(c, "repeat");
    char w[160];
    if (rep && fs_parse_bool(rep, &it->repeat, w, sizeof w))
        return WHY("trace(): repeat: %s", w);
    return 0;
}

int fs_interruption_parse(const fs_call *c, const char *base_dir,
                          fs_interruption *it, char *why, size_t whylen)
{
    memset(it, 0, sizeof *it);
    if (strcmp(c->name, "empirical") == 0 || strcmp(c->name, "trace") == 0)
        return parse_file_form(c, base_dir, it, why, whylen);
    if (strcmp(c->name, "none") == 0)
        return 0;
    if (strcmp(c->name, "exponential") && strcmp(c->name, "weibull") &&
        strcmp(c->name, "lognormal"))
        return WHY("'%s' is not one of exponential(mean=), weibull(shape=, "
                   "scale=), lognormal(mu=, sigma=), empirical(FILE), "
                   "trace(FILE[, repeat=yes]), none()", c->name);
    it->kind = FS_INTERRUPT_DIST;
    return fs_dist_parse(c, &it->dist, why, whylen);
}

void fs_interruption_free(fs_interruption *it)
{
    fs_dist_free(&it->dist);
}

double fs_interruption_draw(const fs_interruption *it, gsl_rng *r)
{
    switch (it->kind) {
    case FS_INTERRUPT_DIST:
    case FS_INTERRUPT_EMPIRICAL:
        return fs_dist_draw(&it->dist, r);
    default:
        return INFINITY;
    }
}

double fs_interruption_mean(const fs_interruption *it)
{
    switch (it->kind) {
    case FS_INTERRUPT_DIST:
    case FS_INTERRUPT_EMPIRICAL:
        return fs_dist_mean(&it->dist);
    case FS_INTERRUPT_TRACE:
        return NAN;
    default:
        return INFINITY;
    }
}
