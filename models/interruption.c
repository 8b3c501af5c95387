/* interruption.c -- the interruption models of interruption.h: parsing
 * (distributions through dist.c, an empirical lifetimes file read here
 * with libcsv) and drawing lifetimes with GSL. */
#include "models/interruption.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/csvin.h"
#include "sim/base/error.h"
#include "sim/base/vec.h"

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

/* path against base_dir unless absolute; -1 when too long. */
static int resolve(const char *base_dir, const char *path, char *out,
                   size_t len)
{
    int n;
    if (path[0] == '/' || !base_dir || !base_dir[0] ||
        strcmp(base_dir, ".") == 0)
        n = snprintf(out, len, "%s", path);
    else
        n = snprintf(out, len, "%s/%s", base_dir, path);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* One row's lifetime into it: 1 taken, 0 a header (a first row that is
 * not a number), -1 with why.  The row stays readable: the caller frees
 * the reader after the message is written. */
static int one_lifetime(fs_interruption *it, size_t *cap, fs_csv *r,
                        char *why, size_t whylen)
{
    const char *f = fs_csv_field(r, 0);
    long line = fs_csv_line(r);
    double v;
    if (fs_csv_number(f, &v))
        return line == 1 ? 0 : WHY("%s:%ld: '%s' is not a number of seconds",
                                   it->path, line, f);
    if (!(v > 0))
        return WHY("%s:%ld: a lifetime must be above 0 seconds, got '%s'",
                   it->path, line, f);
    if (it->nlifetimes == FS_EMPIRICAL_MAX)
        return WHY("%s:%ld: more than %d lifetimes; give a sample, or fit a "
                   "model with fleetsim trace fit", it->path, line,
                   FS_EMPIRICAL_MAX);
    double *l = fs_vec_grow(it->lifetimes, cap, it->nlifetimes + 1,
                            sizeof *l);
    if (!l)
        return WHY("out of memory reading %s", it->path);
    it->lifetimes = l;
    l[it->nlifetimes++] = v;
    return 1;
}

/* The first column of every row: positive seconds; a first row that is
 * not a number is a header. */
static int read_lifetimes(fs_interruption *it, char *why, size_t whylen)
{
    fs_error err;
    fs_csv *r = fs_csv_open(it->path, &err);
    if (!r)
        return WHY("empirical(): cannot open %s", it->path);
    size_t cap = 0, ncols = 0;
    int rc, bad = 0;
    while (!bad && (rc = fs_csv_next(r, &err)) == 1) {
        if (!ncols)
            ncols = fs_csv_nfields(r);
        if (fs_csv_nfields(r) != ncols) {   /* as the request readers */
            bad = WHY("%s:%ld: %zu fields where the first row has %zu",
                      it->path, fs_csv_line(r), fs_csv_nfields(r), ncols);
            break;
        }
        bad = one_lifetime(it, &cap, r, why, whylen) < 0;
    }
    fs_csv_free(r);
    if (bad)
        return -1;
    if (rc < 0)
        return WHY("%s", err.msg);
    if (it->nlifetimes == 0)
        return WHY("empirical(): %s holds no lifetimes", it->path);
    return 0;
}

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
    if (resolve(base_dir, p, it->path, sizeof it->path))
        return WHY("%s(): path too long", c->name);
    if (!trace) {
        it->kind = FS_INTERRUPT_EMPIRICAL;
        return read_lifetimes(it, why, whylen);
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
    free(it->lifetimes);
    it->lifetimes = NULL;
    it->nlifetimes = 0;
}

double fs_interruption_draw(const fs_interruption *it, gsl_rng *r)
{
    switch (it->kind) {
    case FS_INTERRUPT_DIST:
        return fs_dist_draw(&it->dist, r);
    case FS_INTERRUPT_EMPIRICAL:
        return it->lifetimes[gsl_rng_uniform_int(r, it->nlifetimes)];
    default:
        return INFINITY;
    }
}

double fs_interruption_mean(const fs_interruption *it)
{
    switch (it->kind) {
    case FS_INTERRUPT_DIST:
        return fs_dist_mean(&it->dist);
    case FS_INTERRUPT_EMPIRICAL: {
        double s = 0;
        for (size_t i = 0; i < it->nlifetimes; i++)
            s += it->lifetimes[i];
        return s / (double)it->nlifetimes;
    }
    case FS_INTERRUPT_TRACE:
        return NAN;
    default:
        return INFINITY;
    }
}
