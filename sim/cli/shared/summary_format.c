/* summary_format.c -- the numbers of a run's summary as people read them:
 * money ("$12,345.67") and seconds ("850ms", "3.4m"); see summary.h.
 *
 * Apart from summary.c, which prints the LLM lines through
 * summary_llm.c: both (and the sweep table) format through this file and
 * call down to it, never round a circle. */
#include "sim/cli/shared/summary.h"

#include <math.h>
#include <string.h>

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

void fs_format_seconds(double s, char *buf, size_t len)
{
    if (isnan(s))
        snprintf(buf, len, "-");
    else if (s < 1)
        snprintf(buf, len, "%.3gms", s * 1e3);
    else if (s < 120)
        snprintf(buf, len, "%.3gs", s);
    else if (s < 7200)
        snprintf(buf, len, "%.3gm", s / 60);
    else
        snprintf(buf, len, "%.3gh", s / 3600);
}
