/* error.c -- building error messages and "did you mean" suggestions. */
#include "sim/base/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int fs_error_set(fs_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int fs_error_at(fs_error *err, const char *file, int line, const char *key,
                const char *fmt, ...)
{
    if (!err)
        return -1;
    size_t n = 0;
    char *m = err->msg;
    size_t cap = sizeof err->msg;
    if (file && line > 0)
        n = (size_t)snprintf(m, cap, "%s:%d: ", file, line);
    else if (file)
        n = (size_t)snprintf(m, cap, "%s: ", file);
    if (n < cap && key)
        n += (size_t)snprintf(m + n, cap - n, "%s: ", key);
    if (n < cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m + n, cap - n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int fs_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 255 || lb > 255)
        return (int)(la > lb ? la : lb);
    int row[256];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) !=
                       tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *fs_nearest_name(const char *name, const char *const *candidates)
{
    const char *best = NULL;
    int best_d = 1 << 30;
    for (const char *const *c = candidates; *c; c++) {
        int d = fs_edit_distance(name, *c);
        if (d < best_d) {
            best_d = d;
            best = *c;
        }
    }
    /* An abbreviation ("expo" for "exponential") is a plausible slip. */
    size_t nl = strlen(name);
    for (const char *const *c = candidates; nl >= 3 && *c; c++)
        if (strncasecmp(*c, name, nl) == 0)
            return *c;
    /* A plausible typo: at most a third of the longer name, at least 1. */
    size_t len = strlen(name);
    if (best) {
        size_t bl = strlen(best);
        if (bl > len)
            len = bl;
    }
    int limit = (int)(len / 3) > 2 ? (int)(len / 3) : 2;
    return best_d <= limit ? best : NULL;
}
