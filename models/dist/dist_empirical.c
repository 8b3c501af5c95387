/* dist_empirical.c -- reading the sample of an empirical(FILE)
 * distribution (dist_empirical.h) with libcsv. */
#include "models/dist/dist_empirical.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/csvin.h"
#include "sim/base/error.h"
#include "sim/base/vec.h"

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

int fs_empirical_resolve(const char *base_dir, const char *path, char *out,
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

typedef struct sample {
    const char *path;
    fs_empirical_words w;
    double *v;
    size_t n, cap;
} sample;

/* One row's value into s: 1 taken, 0 a header (a first row that is not a
 * number), -1 with why. */
static int one_value(sample *s, fs_csv *r, char *why, size_t whylen)
{
    const char *f = fs_csv_field(r, 0);
    long line = fs_csv_line(r);
    double v;
    if (fs_csv_number(f, &v))
        return line == 1 ? 0 : WHY("%s:%ld: '%s' is not a number of %s",
                                   s->path, line, f, s->w.unit);
    if (!(v > 0) || !isfinite(v))
        return WHY("%s:%ld: %s must be above 0 %s, got '%s'", s->path, line,
                   s->w.noun, s->w.unit, f);
    if (s->n == FS_EMPIRICAL_MAX)
        return WHY("%s:%ld: more than %d values; give a sample, or fit a "
                   "model", s->path, line, FS_EMPIRICAL_MAX);
    double *v2 = fs_vec_grow(s->v, &s->cap, s->n + 1, sizeof *v2);
    if (!v2)
        return WHY("out of memory reading %s", s->path);
    s->v = v2;
    v2[s->n++] = v;
    return 1;
}

int fs_empirical_read(const char *path, fs_empirical_words w,
                      double **values, size_t *n, char *why, size_t whylen)
{
    sample s = {path, w, NULL, 0, 0};
    fs_error err;
    fs_csv *r = fs_csv_open(path, &err);
    *values = NULL;
    *n = 0;
    if (!r)
        return WHY("empirical(): cannot open %s", path);
    size_t ncols = 0;
    int rc, bad = 0;
    while ((rc = fs_csv_next(r, &err)) == 1) {
        if (!ncols)
            ncols = fs_csv_nfields(r);
        if (fs_csv_nfields(r) != ncols) {   /* as the request readers */
            bad = WHY("%s:%ld: %zu fields where the first row has %zu",
                      path, fs_csv_line(r), fs_csv_nfields(r), ncols);
            break;
        }
        if (one_value(&s, r, why, whylen) < 0) {
            bad = -1;
            break;
        }
    }
    fs_csv_free(r);
    if (!bad && rc < 0)
        bad = WHY("%s", err.msg);
    if (!bad && s.n == 0)
        bad = WHY("empirical(): %s holds no values", path);
    if (bad) {
        free(s.v);
        return -1;
    }
    *values = s.v;
    *n = s.n;
    return 0;
}
