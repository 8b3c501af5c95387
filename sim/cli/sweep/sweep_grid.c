/* sweep_grid.c -- the --vary axes of `fleetsim sweep`, its points and
 * their names.
 *
 * Point p (0-based) takes, on each axis, the value its digit gives when p
 * is written in the mixed radix of the axes' lengths, the last axis
 * fastest: --vary a=1,2 --vary b=x,y gives (1,x) (1,y) (2,x) (2,y), the
 * order of nested loops written in the order of the options. */
#include "sim/cli/sweep/sweep.h"
#include "sim/base/names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the reason into why; -1, for `return fs_sweep_why(...)`. */
int fs_sweep_why(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Appends the value s[0..n) to ax; 0, or -1 when out of memory. */
static int add_value(fs_sweep_axis *ax, const char *s, size_t n)
{
    char **v = realloc(ax->values, (size_t)(ax->nvalues + 1) * sizeof *v);
    if (!v)
        return -1;
    ax->values = v;
    if (!(v[ax->nvalues] = strndup(s, n)))
        return -1;
    ax->nvalues++;
    return 0;
}

/* Splits list at commas outside parentheses into ax's values. */
static int split_values(fs_sweep_axis *ax, const char *list, char *why,
                        size_t whylen)
{
    int depth = 0;
    const char *start = list;
    /* Unbalanced parentheses would split the list in the wrong places and
     * hand the scenario a confusing call: refuse them here. */
    for (const char *c = list; *c; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if (depth < 0)
            return fs_sweep_why(why, whylen, "%s: a ')' with no '(' before it "
                           "in '%s' (at '%s')", ax->key, list, c);
    }
    if (depth > 0)
        return fs_sweep_why(why, whylen, "%s: %d '(' not closed in '%s' (values "
                       "are split at commas outside parentheses)", ax->key,
                       depth, list);
    for (const char *c = list;; c++) {
        if (*c == '(')
            depth++;
        else if (*c == ')' && depth > 0)
            depth--;
        if (*c && (*c != ',' || depth > 0))
            continue;
        if (c == start)
            return fs_sweep_why(why, whylen, "%s: an empty value in '%s'",
                           ax->key, list);
        if (add_value(ax, start, (size_t)(c - start)))
            return fs_sweep_why(why, whylen, "out of memory");
        for (int i = 0; i + 1 < ax->nvalues; i++)
            if (strcmp(ax->values[i], ax->values[ax->nvalues - 1]) == 0)
                return fs_sweep_why(why, whylen, "%s: value '%s' listed twice",
                               ax->key, ax->values[i]);
        if (!*c)
            return 0;
        start = c + 1;
    }
}

int fs_sweep_add_axis(fs_sweep_grid *g, const char *arg, char *why,
                      size_t whylen)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return fs_sweep_why(why, whylen, "expected SECTION.KEY=V1,V2,..., got "
                       "'%s'", arg);
    const char *dot = memchr(arg, '.', (size_t)(eq - arg));
    if (!dot || dot == arg || dot + 1 == eq || eq[-1] == '.')
        return fs_sweep_why(why, whylen, "expected SECTION.KEY=V1,V2,... (e.g. "
                       "pool.gpu.count=1,2,4), got '%s'", arg);
    fs_sweep_axis *axes = realloc(g->axes,
                                  (size_t)(g->naxes + 1) * sizeof *axes);
    if (!axes)
        return fs_sweep_why(why, whylen, "out of memory");
    g->axes = axes;
    fs_sweep_axis *ax = &axes[g->naxes];
    memset(ax, 0, sizeof *ax);
    if (!(ax->key = strndup(arg, (size_t)(eq - arg))))
        return fs_sweep_why(why, whylen, "out of memory");
    g->naxes++;
    for (int i = 0; i + 1 < g->naxes; i++)
        if (strcmp(g->axes[i].key, ax->key) == 0)
            return fs_sweep_why(why, whylen, "%s is varied twice", ax->key);
    if (strcmp(ax->key, "scenario.name") == 0)
        return fs_sweep_why(why, whylen, "scenario.name cannot be varied: each "
                       "point is named NAME[KEY=VALUE,...]");
    return split_values(ax, eq + 1, why, whylen);
}

int fs_sweep_grid_finish(fs_sweep_grid *g, char *why, size_t whylen)
{
    if (g->naxes == 0)
        return fs_sweep_why(why, whylen, "what to vary? e.g. --vary "
                       "pool.gpu.count=1,2,4");
    g->npoints = 1;
    for (int a = 0; a < g->naxes; a++) {
        g->npoints *= g->axes[a].nvalues;
        if (g->npoints > FS_SWEEP_POINTS_MAX)
            return fs_sweep_why(why, whylen, "more than %d points; sweep fewer "
                           "values", FS_SWEEP_POINTS_MAX);
    }
    for (int a = 0; a < g->naxes; a++) {
        const char *key = g->axes[a].key, *last = strrchr(key, '.') + 1;
        g->axes[a].label = last;
        for (int b = 0; b < g->naxes; b++) {
            const char *other = strrchr(g->axes[b].key, '.') + 1;
            if (b != a && strcmp(other, last) == 0)
                g->axes[a].label = key;
        }
    }
    return 0;
}

void fs_sweep_grid_free(fs_sweep_grid *g)
{
    for (int a = 0; a < g->naxes; a++) {
        for (int i = 0; i < g->axes[a].nvalues; i++)
            free(g->axes[a].values[i]);
        free(g->axes[a].values);
        free(g->axes[a].key);
    }
    free(g->axes);
    memset(g, 0, sizeof *g);
}

const char *fs_sweep_value(const fs_sweep_grid *g, long p, int a)
{
    for (int b = g->naxes - 1; b > a; b--)
        p /= g->axes[b].nvalues;
    return g->axes[a].values[p % g->axes[a].nvalues];
}

char *fs_sweep_assignment(const fs_sweep_grid *g, long p, int a)
{
    char *s;
    if (asprintf(&s, "%s=%s", g->axes[a].key, fs_sweep_value(g, p, a)) < 0)
        return NULL;
    return s;
}

void fs_sweep_point_name(const fs_sweep_grid *g, const char *base, long p,
                         char *buf, size_t size)
{
    char full[4096];
    size_t n = (size_t)snprintf(full, sizeof full, "%s[", base);
    for (int a = 0; a < g->naxes && n < sizeof full; a++)
        n += (size_t)snprintf(full + n, sizeof full - n, "%s%s=%s",
                              a ? "," : "", g->axes[a].label,
                              fs_sweep_value(g, p, a));
    size_t max = size < FS_NAME_MAX ? size : FS_NAME_MAX;
    if (n + 1 < sizeof full && n + 2 <= max) {
        snprintf(buf, size, "%s]", full);
        return;
    }
    char suffix[32];
    int slen = snprintf(suffix, sizeof suffix, "~%ld]", p + 1);
    size_t cut = max - 1 - (size_t)slen;
    /* never inside a UTF-8 character: back up to a lead byte */
    while (cut > 0 && ((unsigned char)full[cut] & 0xC0) == 0x80)
        cut--;
    snprintf(buf, size, "%.*s%s", (int)cut, full, suffix);
}
