/* summary_format.c -- the numbers of a run's summary as people read them:
 * money ("$12,345.67") and durations ("850ms", "0.1 s", "188.4 ns"); see
 * summary.h.
 *
 * Every duration that run, sweep, compare, plan and the report print goes
 * through here, so that none reads as an exponent ("1.884e-07 s"): a
 * latency under a millisecond is given in microseconds or nanoseconds, and
 * one under a nanosecond as "< 1 ns".  The value is rounded to the digits
 * shown before its unit is chosen, so that 0.9997 s reads "1s", never
 * "1e+03ms".
 *
 * Apart from summary.c, which prints the LLM lines through
 * summary_llm.c: both (and the sweep table) format through this file and
 * call down to it, never round a circle. */
#include "sim/app/summary.h"
#include "sim/store/store.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void fs_format_money(double usd, char *buf, size_t len)
{
    char digits[64];
    snprintf(digits, sizeof digits, "%.2f", fabs(usd));
    char *dot = strchr(digits, '.');
    size_t intlen = (size_t)(dot - digits);
    char out[96];
    size_t o = 0;
    if (usd < 0)
        out[o++] = '-';
    out[o++] = '$';
    for (size_t i = 0; i < intlen; i++) {
        if (i > 0 && (intlen - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    snprintf(out + o, sizeof out - o, "%s", dot);
    snprintf(buf, len, "%s", out);
}

/* v rounded to digits significant digits (0 stays 0). */
static double round_sig(double v, int digits)
{
    if (v == 0 || !isfinite(v))
        return v;
    double f = pow(10, digits - 1 - (int)floor(log10(fabs(v))));
    return round(v * f) / f;
}

static void trim_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '.')
        s[--n] = '\0';
    if (strcmp(s, "-0") == 0)
        strcpy(s, "0");
}

void fs_format_sig(double v, char *buf, size_t size)
{
    double a = fabs(v);
    if (a >= 1000 || a == 0 || !isfinite(v)) {
        fs_format_thousands(v, 0, buf, size);
        return;
    }
    int decimals = 3 - (int)floor(log10(a));
    if (decimals > 9)
        decimals = 9;
    snprintf(buf, size, "%.*f", decimals, v);
    trim_zeros(buf);
}

/* The sub-second units, largest first: below a second the summary reads
 * milliseconds; below a millisecond, people read both forms in these. */
static const struct { double s; const char *unit; } small[] = {
    { 1e-3, "ms" }, { 1e-6, "us" }, { 1e-9, "ns" },
};
#define NSMALL (sizeof small / sizeof small[0])

/* v in unit, 3 significant digits ("%.3g" would write 1e+03 from 999.5
 * up: hours from then on read whole). */
static void compact(double v, const char *unit, char *buf, size_t len)
{
    if (fabs(v) >= 999.5)
        snprintf(buf, len, "%.0f%s", v, unit);
    else
        snprintf(buf, len, "%.3g%s", v, unit);
}

void fs_format_seconds(double s, char *buf, size_t len)
{
    double r = round_sig(s, 3), a = fabs(r);
    if (isnan(s))
        snprintf(buf, len, "-");
    else if (a >= 7200)
        compact(s / 3600, "h", buf, len);
    else if (a >= 120)
        compact(s / 60, "m", buf, len);
    else if (a >= 1)
        compact(s, "s", buf, len);
    else if (a == 0)
        snprintf(buf, len, "0ms");
    else if (a < small[NSMALL - 1].s)
        snprintf(buf, len, "%s<1ns", r < 0 ? "-" : "");
    else
        for (size_t u = 0; u < NSMALL; u++)
            if (a >= small[u].s) {
                compact(r / small[u].s, small[u].unit, buf, len);
                break;
            }
}

void fs_format_latency(double s, char *buf, size_t len)
{
    double r = round_sig(s, 4), a = fabs(r);
    char num[64];
    if (isnan(s)) {
        snprintf(buf, len, "-");
        return;
    }
    if (a >= small[0].s || a == 0) {
        fs_format_sig(a >= 1000 ? s : r, num, sizeof num);
        snprintf(buf, len, "%s s", num);
        return;
    }
    if (a < small[NSMALL - 1].s) {
        snprintf(buf, len, "%s< 1 ns", r < 0 ? "-" : "");
        return;
    }
    for (size_t u = 1; u < NSMALL; u++)
        if (a >= small[u].s) {
            fs_format_sig(r / small[u].s, num, sizeof num);
            snprintf(buf, len, "%s %s", num, small[u].unit);
            return;
        }
}

void fs_month_days(const char *month, const char *start, double horizon,
                   double *run, int *days)
{
    int y, m, d = 1, hh = 0, mm = 0;
    struct tm t0 = {0}, t1 = {0}, ts = {0};
    *run = NAN;
    *days = 0;
    if (!month || sscanf(month, "%d-%d", &y, &m) != 2)
        return;
    t0.tm_year = y - 1900;
    t0.tm_mon = m - 1;
    t0.tm_mday = 1;
    t1 = t0;
    t1.tm_mon++;
    time_t a = timegm(&t0), b = timegm(&t1);
    *days = (int)lround((double)(b - a) / 86400);
    if (!start || sscanf(start, "%d-%d-%d %d:%d", &y, &m, &d, &hh, &mm) < 3)
        return;
    ts.tm_year = y - 1900;
    ts.tm_mon = m - 1;
    ts.tm_mday = d;
    ts.tm_hour = hh;
    ts.tm_min = mm;
    double s0 = (double)timegm(&ts), s1 = s0 + horizon;
    double lo = fmax(s0, (double)a), hi = fmin(s1, (double)b);
    *run = hi > lo ? (hi - lo) / 86400 : 0;
}

void fs_format_month(const char *month, const char *start, double horizon,
                     char *buf, size_t len)
{
    double run;
    int days;
    fs_month_days(month, start, horizon, &run, &days);
    if (isnan(run) || days <= 0 || run >= days - 1e-9)
        snprintf(buf, len, "%s", month ? month : "?");
    else if (run < 1 - 1e-9)
        snprintf(buf, len, "%s (%.3g hours of %d days)", month, run * 24,
                 days);
    else
        snprintf(buf, len, "%s (%.3g of %d days)", month, run, days);
}
