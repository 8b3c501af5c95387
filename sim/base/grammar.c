/* grammar.c -- parsing the value grammar of scenario keys (see grammar.h).
 *
 * Hand-written because the grammar is tiny and its messages matter: each
 * parser says what it expected in the user's terms ("a duration such as
 * 90s, 15m, 4h or 30d"), and the caller adds file, line and key. */
#include "sim/base/grammar.h"
#include "sim/base/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

/* Copies s without leading/trailing blanks into buf; 0 if it fits. */
static int trim_copy(const char *s, char *buf, size_t len)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= len)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return 0;
}

/* Parses a leading non-negative finite number; *end gets the rest. */
static int leading_number(const char *s, double *out, const char **end)
{
    errno = 0;
    char *e;
    double v = strtod(s, &e);
    if (e == s || errno == ERANGE)
        return -1;
    /* strtod accepts "nan", "inf" and hex; a scenario value never means those. */
    for (const char *p = s; p < e; p++)
        if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E')
            return -1;
    *out = v;
    *end = e;
    return 0;
}

/* Trims s into buf and reads the number it starts with (*end: the rest,
 * inside buf); -1 if s is blank, too long or starts with no number. */
static int trimmed_number(const char *s, char *buf, size_t len, double *v,
                          const char **end)
{
    if (trim_copy(s, buf, len) || buf[0] == '\0')
        return -1;
    return leading_number(buf, v, end);
}

int fs_parse_number(const char *s, double *out, char *why, size_t whylen)
{
    char buf[128];
    const char *end;
    double v;
    if (trimmed_number(s, buf, sizeof buf, &v, &end) || *end != '\0')
        return WHY("expected a number, got '%s'", s);
    if (!isfinite(v))
        return WHY("expected a finite number, got '%s'", s);
    if (v < 0)
        return WHY("must not be negative, got '%s'", s);
    *out = v;
    return 0;
}

int fs_parse_duration(const char *s, double *seconds, char *why,
                      size_t whylen)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"ms", 1e-3}, {"s", 1}, {"sec", 1}, {"m", 60}, {"min", 60},
        {"h", 3600}, {"d", 86400}, {"w", 604800}, {"", 1},
    };
    char buf[128];
    const char *end;
    double v;
    if (trimmed_number(s, buf, sizeof buf, &v, &end))
        goto bad;
    while (isspace((unsigned char)*end))
        end++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) == 0) {
            v *= units[i].scale;
            if (!isfinite(v))
                goto bad;
            if (v < 0)
                return WHY("a duration must not be negative, got '%s'", s);
            if (v > FS_DURATION_MAX)
                return WHY("a duration must be at most 3650d (10 years), "
                           "got '%s'", s);
            *seconds = v;
            return 0;
        }
    }
bad:
    return WHY("expected a duration such as 250ms, 90s, 15m, 4h, 30d or 2w, "
               "got '%s'", s);
}

/* An optional k/M/G multiplier after a count: "1.5k", "2M". */
static void apply_multiplier(double *out, const char **end)
{
    switch (**end) {
    case 'k': case 'K': *out *= 1e3; (*end)++; break;
    case 'M': *out *= 1e6; (*end)++; break;
    case 'G': *out *= 1e9; (*end)++; break;
    default: break;
    }
}

int fs_parse_rate(const char *s, double *per_second, char *why,
                  size_t whylen)
{
    char buf[128];
    const char *end;
    double v;
    if (trimmed_number(s, buf, sizeof buf, &v, &end))
        goto bad;
    apply_multiplier(&v, &end);
    while (isspace((unsigned char)*end))
        end++;
    double per = 1;
    if (*end == '/') {
        double d;
        char dwhy[8];
        const char *unit = end + 1;
        /* "/s" "/m" "/h" "/d": a unit alone is one of it. */
        char one[32];
        if (isdigit((unsigned char)*unit) || *unit == '.')
            snprintf(one, sizeof one, "%s", unit);
        else
            snprintf(one, sizeof one, "1%s", unit);
        if (fs_parse_duration(one, &d, dwhy, sizeof dwhy) || d <= 0)
            goto bad;
        per = d;
    } else if (*end != '\0') {
        goto bad;
    }
    v /= per;
    if (!isfinite(v))
        goto bad;
    if (v < 0)
        return WHY("a rate must not be negative, got '%s'", s);
    *per_second = v;
    return 0;
bad:
    return WHY("expected a rate such as 3.2/s, 100/m, 5000/h or 1M/d, "
               "got '%s'", s);
}

int fs_parse_money(const char *s, double *usd, char *why, size_t whylen)
{
    char buf[128];
    if (trim_copy(s, buf, sizeof buf))
        return WHY("expected an amount in dollars, got '%s'", s);
    const char *p = buf[0] == '$' ? buf + 1 : buf;
    char num[128];
    snprintf(num, sizeof num, "%s", p);
    /* "4.10/h" is accepted as the hourly rate it states. */
    size_t n = strlen(num);
    if (n > 2 && strcmp(num + n - 2, "/h") == 0)
        num[n - 2] = '\0';
    double v;
    const char *end;
    if (num[0] == '\0' || leading_number(num, &v, &end) || *end != '\0' ||
        !isfinite(v))
        return WHY("expected an amount in dollars such as 4.10 or $4.10, "
                   "got '%s'", s);
    if (v < 0)
        return WHY("an amount must not be negative, got '%s'", s);
    *usd = v;
    return 0;
}

int fs_parse_fraction(const char *s, double *out, char *why, size_t whylen)
{
    char buf[128];
    const char *end;
    double v;
    if (trimmed_number(s, buf, sizeof buf, &v, &end))
        goto bad;
    if (*end == '%') {
        v /= 100;
        end++;
    }
    if (*end != '\0' || !isfinite(v))
        goto bad;
    if (v < 0 || v > 1)
        return WHY("expected a fraction between 0 and 1 (or 0%% to 100%%), "
                   "got '%s'", s);
    *out = v;
    return 0;
bad:
    return WHY("expected a fraction such as 0.7 or 70%%, got '%s'", s);
}

int fs_parse_count(const char *s, long *out, char *why, size_t whylen)
{
    char buf[64];
    if (trim_copy(s, buf, sizeof buf) || buf[0] == '\0')
        return WHY("expected a whole number, got '%s'", s);
    errno = 0;
    char *end;
    long v = strtol(buf, &end, 10);
    if (*end != '\0' || errno == ERANGE)
        return WHY("expected a whole number, got '%s'", s);
    if (v < 0)
        return WHY("must not be negative, got '%s'", s);
    *out = v;
    return 0;
}

int fs_parse_bool(const char *s, int *out, char *why, size_t whylen)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    char buf[16];
    if (trim_copy(s, buf, sizeof buf) == 0) {
        for (int i = 0; i < 4; i++) {
            if (strcasecmp(buf, yes[i]) == 0) { *out = 1; return 0; }
            if (strcasecmp(buf, no[i]) == 0) { *out = 0; return 0; }
        }
    }
    return WHY("expected yes or no, got '%s'", s);
}

int fs_parse_utc_time(const char *s, long long *t, char *why, size_t whylen)
{
    int y, m, d, hh = 0, mm = 0, n = 0;
    if ((sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && s[n] == '\0') ||
        (sscanf(s, "%4d-%2d-%2d %2d:%2d%n", &y, &m, &d, &hh, &mm, &n) == 5 &&
         s[n] == '\0')) {
        struct tm tm = {0}, back;
        tm.tm_year = y - 1900;
        tm.tm_mon = m - 1;
        tm.tm_mday = d;
        tm.tm_hour = hh;
        tm.tm_min = mm;
        time_t v = timegm(&tm);
        gmtime_r(&v, &back);
        /* timegm normalizes 02-30 into March: a date that does not come
         * back as written does not exist */
        if (back.tm_year == y - 1900 && back.tm_mon == m - 1 &&
            back.tm_mday == d && hh < 24 && mm < 60 && y >= 1970) {
            *t = (long long)v;
            return 0;
        }
    }
    return WHY("expected a date YYYY-MM-DD (UTC), optionally followed by "
               "HH:MM, got '%s'", s);
}

int fs_parse_call(const char *s, fs_call *out, char *why, size_t whylen)
{
    char buf[2048];
    memset(out, 0, sizeof *out);
    if (trim_copy(s, buf, sizeof buf) || buf[0] == '\0')
        return WHY("expected NAME or NAME(key=value, ...), got '%s'", s);
    char *p = buf;
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '-')
        n++;
    if (n == 0 || n >= sizeof out->name)
        return WHY("expected NAME or NAME(key=value, ...), got '%s'", s);
    memcpy(out->name, p, n);
    p += n;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0')
        return 0;
    size_t len = strlen(p);
    if (*p != '(' || p[len - 1] != ')')
        return WHY("expected NAME(key=value, ...) with balanced parentheses, "
                   "got '%s'", s);
    p[len - 1] = '\0';
    p++;
    /* Split on top-level commas. */
    while (*p) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (out->nargs == FS_CALL_MAX_ARGS)
            return WHY("too many arguments in '%s' (at most %d)", s,
                       FS_CALL_MAX_ARGS);
        fs_call_arg *a = &out->args[out->nargs];
        char *eq = strchr(p, '=');
        if (eq) {
            *eq = '\0';
            if (trim_copy(p, a->key, sizeof a->key) || a->key[0] == '\0')
                return WHY("an argument of '%s' has no name before '='", s);
            if (trim_copy(eq + 1, a->value, sizeof a->value))
                return WHY("argument '%s' of '%s' is too long", a->key, s);
        } else if (trim_copy(p, a->value, sizeof a->value)) {
            return WHY("an argument of '%s' is too long", s);
        }
        if (a->value[0] == '\0' && !(a->key[0] == '\0' && !comma &&
                                     out->nargs == 0))
            return WHY("empty argument in '%s'", s);
        if (a->key[0] && fs_call_get(out, a->key))
            return WHY("argument '%s' given twice in '%s'", a->key, s);
        if (a->value[0] != '\0')
            out->nargs++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

/* Length of the UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    size_t n = p[0] >= 0xC2 && p[0] <= 0xDF ? 2
             : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
             : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4
                                            : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F) ||
        (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
        return 0;
    return n;
}

int fs_check_name(const char *s, size_t size, char *why, size_t whylen)
{
    size_t len = strlen(s);
    if (len == 0)
        return WHY("must not be empty");
    if (len >= size)
        return WHY("is %zu bytes long; at most %zu", len, size - 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_len(p);
        if (n == 0)
            return WHY("is not valid UTF-8");
        if (n == 1 && (*p < 0x20 || *p == 0x7F))
            return WHY("must not contain control characters");
        p += n;
    }
    return 0;
}

const char *fs_call_get(const fs_call *c, const char *key)
{
    for (int i = 0; i < c->nargs; i++)
        if (strcmp(c->args[i].key, key) == 0)
            return c->args[i].value;
    return NULL;
}

const char *fs_call_positional(const fs_call *c, int i)
{
    for (int k = 0; k < c->nargs; k++)
        if (c->args[k].key[0] == '\0' && i-- == 0)
            return c->args[k].value;
    return NULL;
}

int fs_call_check_keys(const fs_call *c, const char *const *allowed,
                       char *why, size_t whylen)
{
    for (int i = 0; i < c->nargs; i++) {
        const char *k = c->args[i].key;
        if (k[0] == '\0')
            continue;
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            ok |= strcmp(*a, k) == 0;
        if (ok)
            continue;
        const char *near = fs_nearest_name(k, allowed);
        size_t n = (size_t)snprintf(why, whylen, "%s() has no argument '%s'",
                                    c->name, k);
        if (near && n < whylen)
            snprintf(why + n, whylen - n, " (did you mean '%s'?)", near);
        else if (n < whylen) {
            n += (size_t)snprintf(why + n, whylen - n, "; it takes");
            for (const char *const *a = allowed; *a && n < whylen; a++)
                n += (size_t)snprintf(why + n, whylen - n, " %s", *a);
        }
        return -1;
    }
    return 0;
}

void fs_format_duration(double seconds, char *buf, size_t len)
{
    static const struct { const char *unit; double scale; } units[] = {
        {"w", 604800}, {"d", 86400}, {"h", 3600}, {"m", 60}, {"s", 1},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        double q = seconds / units[i].scale;
        if (q >= 1 && fabs(q - round(q)) < 1e-9) {
            snprintf(buf, len, "%.0f%s", q, units[i].unit);
            return;
        }
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        double q = seconds / units[i].scale;
        if (q >= 1) {
            snprintf(buf, len, "%.3g%s", q, units[i].unit);
            return;
        }
    }
    snprintf(buf, len, "%.3gms", seconds * 1e3);
}
