/* test_format.c -- durations as run, compare and the report print them
 * (sim/app/summary_format.c): the unit picked for each magnitude,
 * rounding that never spills into an exponent ("1e+03ms"), and no exponent
 * anywhere from a picosecond to a year. */
#include "tests/check.h"
#include "sim/app/summary.h"

/* Whether s holds an exponent: a digit followed by e+ or e-. */
static int has_exponent(const char *s)
{
    for (; *s; s++)
        if (s[0] >= '0' && s[0] <= '9' && (s[1] == 'e' || s[1] == 'E') &&
            (s[2] == '+' || s[2] == '-'))
            return 1;
    return 0;
}

static const char *lat(double v)
{
    static char b[64];
    fs_format_latency(v, b, sizeof b);
    return b;
}

static const char *col(double v)
{
    static char b[64];
    fs_format_seconds(v, b, sizeof b);
    return b;
}

int main(void)
{
    /* the report and compare: seconds from 1 ms up, 4 significant digits */
    CHECK(strcmp(lat(1.884e-07), "188.4 ns") == 0);  /* issue 25's wait */
    CHECK(strcmp(lat(0.1), "0.1 s") == 0);
    CHECK(strcmp(lat(63.4), "63.4 s") == 0);
    CHECK(strcmp(lat(45), "45 s") == 0);
    CHECK(strcmp(lat(12345), "12,345 s") == 0);
    CHECK(strcmp(lat(0), "0 s") == 0);
    CHECK(strcmp(lat(2.5e-4), "250 us") == 0);
    CHECK(strcmp(lat(-1.5e-6), "-1.5 us") == 0);
    CHECK(strcmp(lat(5e-10), "< 1 ns") == 0);
    CHECK(strcmp(lat(9.99996e-4), "0.001 s") == 0);   /* rounded first */
    CHECK(strcmp(lat(NAN), "-") == 0);

    /* run's and sweep's columns: 3 significant digits, compact units */
    CHECK(strcmp(col(1.884e-07), "188ns") == 0);
    CHECK(strcmp(col(0.85), "850ms") == 0);
    CHECK(strcmp(col(0.9997), "1s") == 0);          /* not "1e+03ms" */
    CHECK(strcmp(col(9.996e-4), "1ms") == 0);       /* not "1e+03us" */
    CHECK(strcmp(col(1.25), "1.25s") == 0);
    CHECK(strcmp(col(204), "3.4m") == 0);
    CHECK(strcmp(col(7560), "2.1h") == 0);
    CHECK(strcmp(col(5e6), "1389h") == 0);          /* not "1.39e+03h" */
    CHECK(strcmp(col(0), "0ms") == 0);
    CHECK(strcmp(col(3e-10), "<1ns") == 0);
    CHECK(strcmp(col(NAN), "-") == 0);

    /* no exponent from 1 ps to 3 years, either form, either sign */
    int bad = 0;
    for (double v = 1e-12; v < 1e8; v *= 1.0137) {
        for (int sign = -1; sign <= 1; sign += 2) {
            bad += has_exponent(lat(sign * v));
            bad += has_exponent(col(sign * v));
        }
    }
    CHECK(bad == 0);
    return check_report("format");
}
