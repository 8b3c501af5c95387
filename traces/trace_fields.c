/* trace_fields.c -- the field parsers the trace formats share (declared
 * in arrivals_impl.h): exact date-times (integer nanoseconds, no floating
 * point), plain decimals of a time unit, seconds and counts, without strtod
 * or sscanf on the common path, since they run once per field of every
 * row of every trace; and the one reader of a row's time, service and token
 * fields that every format uses. */
#include "traces/arrivals_impl.h"
#include "sim/base/grammar.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

/* ---- Field parsers ------------------------------------------------------ */

/* Reads 1..max digits; the number of digits read, 0 if none. */
static int read_digits(const char **s, int max, int *out)
{
    int v = 0, n = 0;
    while (n < max && **s >= '0' && **s <= '9') {
        v = v * 10 + (**s - '0');
        (*s)++;
        n++;
    }
    *out = v;
    return n;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
    static const int dim[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 ? 28 + leap : dim[m - 1];
}

int fs_field_datetime_ns(const char *s, int64_t *ns, const char **what)
{
    static const char *const shape =
        "not a date-time YYYY-MM-DD HH:MM:SS[.fraction]";
    int y, mo, d, h, mi, sec;
    if (!*s)
        return *what = "empty", -1;
    if (read_digits(&s, 4, &y) != 4 || *s++ != '-' ||
        !read_digits(&s, 2, &mo) || *s++ != '-' ||
        !read_digits(&s, 2, &d) || (*s != ' ' && *s != 'T'))
        return *what = shape, -1;
    s++;
    if (!read_digits(&s, 2, &h) || *s++ != ':' ||
        !read_digits(&s, 2, &mi) || *s++ != ':' ||
        !read_digits(&s, 2, &sec))
        return *what = shape, -1;
    int64_t frac = 0;
    if (*s == '.') {
        s++;
        int nd = 0;
        for (; *s >= '0' && *s <= '9'; s++, nd++)
            if (nd < 9)
                frac = frac * 10 + (*s - '0');
        if (nd == 0)
            return *what = shape, -1;
        for (; nd < 9; nd++)
            frac *= 10;
    }
    if (*s == 'Z')
        s++;
    if (*s)
        return *what = shape, -1;
    if (y < 1678 || y > 2261)
        return *what = "year outside 1678..2261", -1;
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
        return *what = "no such date", -1;
    if (h > 23 || mi > 59 || sec > 59)
        return *what = "no such time of day", -1;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
                   sec;
    *ns = secs * 1000000000 + frac;
    return 0;
}

int fs_field_decimal_ns(const char *s, int64_t unit_ns, int64_t *ns,
                        const char **what)
{
    assert(unit_ns > 0 && unit_ns <= 1000000000);
    const char *p = s;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    uint64_t ip = 0;
    int nd = 0, overflow = 0;
    for (; *p >= '0' && *p <= '9'; p++, nd++) {
        if (ip > (UINT64_MAX - 9) / 10)
            overflow = 1;
        else
            ip = ip * 10 + (uint64_t)(*p - '0');
    }
    uint64_t frac = 0, scale = 1;
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++, nd++)
            if (scale < 1000000000) {
                frac = frac * 10 + (uint64_t)(*p - '0');
                scale *= 10;
            }
    }
    if (!*s)
        return *what = "empty", -1;
    if (nd == 0 || (*p && *p != 'e' && *p != 'E'))
        return *what = "not a number", -1;
    if (*p) {   /* an exponent: rare, let strtod round it */
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (*end || errno == ERANGE || !isfinite(v))
            return *what = "not a number", -1;
        v *= (double)unit_ns;
        if (!(fabs(v) < 9.2e18))
            return *what = "out of range", -1;
        *ns = llround(v);
        return 0;
    }
    uint64_t fns = (frac * (uint64_t)unit_ns + scale / 2) / scale;
    if (overflow || ip > (uint64_t)(INT64_MAX - fns) / (uint64_t)unit_ns)
        return *what = "out of range", -1;
    int64_t v = (int64_t)(ip * (uint64_t)unit_ns + fns);
    *ns = neg ? -v : v;
    return 0;
}

int fs_field_seconds(const char *s, double *out, const char **what)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
                                 1e15, 1e16, 1e17, 1e18};
    const char *p = s;
    uint64_t m = 0;
    int nd = 0, nf = 0;
    for (; *p >= '0' && *p <= '9' && nd < 18; p++, nd++)
        m = m * 10 + (uint64_t)(*p - '0');
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9' && nd < 18; p++, nd++, nf++)
            m = m * 10 + (uint64_t)(*p - '0');
    }
    if (nd > 0 && *p == '\0') {
        /* m and 10^nf are both exact doubles: one correctly rounded
         * division gives what strtod would (Clinger's fast path). */
        if (m < (UINT64_C(1) << 53)) {
            *out = (double)m / p10[nf];
            if (*out > FS_DURATION_MAX)
                return *what = "more than 3650 days (a request that never "
                               "finishes)", -1;
            return 0;
        }
    }
    if (!*s)
        return *what = "empty", -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end)
        return *what = "not a number", -1;
    if (isnan(v))
        return *what = "not a number (NaN)", -1;
    if (!isfinite(v) || errno == ERANGE)
        return *what = "out of range", -1;
    if (v < 0)
        return *what = "negative", -1;
    if (v > FS_DURATION_MAX)
        return *what = "more than 3650 days (a request that never "
                       "finishes)", -1;
    *out = v;
    return 0;
}

int fs_field_count(const char *s, int *out, const char **what)
{
    const char *p = s;
    long v = 0;
    if (!*p)
        return *what = "empty", -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > INT_MAX)
            return *what = "out of range", -1;
    }
    if (p > s && *p == '.') {   /* "63.0", as pandas writes counts */
        for (p++; *p == '0'; p++)
            ;
        if (*p >= '1' && *p <= '9')
            return *what = "not a whole number", -1;
    }
    if (p > s && !*p) {
        *out = (int)v;
        return 0;
    }
    if (*s == '-' && s[1] >= '0' && s[1] <= '9')
        return *what = "negative", -1;
    if (strcasecmp(s, "nan") == 0)
        return *what = "not a number (NaN)", -1;
    return *what = "not a whole number", -1;
}

/* ---- A row's fields ------------------------------------------------------ */

int fs_trace_parse_fields(const fs_trace_cols *cols, const fs_csv *row,
                          fs_trace_row *out, fs_row_problem *why)
{
    const char *what;
    const char *t = fs_csv_field(row, (size_t)cols->time);
    int rc = cols->time_unit_ns
                 ? fs_field_decimal_ns(t, cols->time_unit_ns, &out->t_ns, &what)
                 : fs_field_datetime_ns(t, &out->t_ns, &what);
    if (rc) {
        why->col = cols->time;
        goto bad;
    }
    out->service_s = -1;
    out->tokens_in = out->tokens_out = -1;
    if (cols->service >= 0 &&
        fs_field_seconds(fs_csv_field(row, (size_t)cols->service),
                         &out->service_s, &what)) {
        why->col = cols->service;
        goto bad;
    }
    if (cols->tokens_in >= 0 &&
        fs_field_count(fs_csv_field(row, (size_t)cols->tokens_in),
                       &out->tokens_in, &what)) {
        why->col = cols->tokens_in;
        goto bad;
    }
    if (cols->tokens_out >= 0 &&
        fs_field_count(fs_csv_field(row, (size_t)cols->tokens_out),
                       &out->tokens_out, &what)) {
        why->col = cols->tokens_out;
        goto bad;
    }
    return FS_ROW_OK;
bad:
    snprintf(why->what, sizeof why->what, "%s", what);
    return FS_ROW_BAD;
}
