/* fuzz_quotes.c -- libFuzzer harness for rate quotes: `roi --rate
 * TERM:OPTION=PRICE` (sim/cli/shared/roi_quote.c) and a pool's
 * reserved_1y, reserved_1y_partial, ..., reserved_3y_all keys
 * (sim/scenario/scenario_pool.c), both read by fs_roi_parse_quote
 * (models/purchase/roi.c).
 *
 * The input's first line is given as a --rate argument (twice: the second
 * must be refused), as the price of each upfront kind, and (one input in
 * four, picked by a hash: loading a scenario costs a hundred parses)
 * through --set as the quote key the hash picks, in a small valid
 * scenario.  A
 * quote that is taken must be finite, not negative and within the
 * bounds (FS_MAX_PRICE an hour, that for each hour of the term upfront).
 * Any crash, sanitizer report, leak, hang or out-of-bound price taken is
 * a bug.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "models/purchase/roi.h"
#include "sim/app/roi_run.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_limits.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_catalog();
    return 0;
}

static void check_bounds(double hourly, double upfront, int years)
{
    if (!isfinite(hourly) || !isfinite(upfront) || hourly < 0 ||
        upfront < 0 || hourly > FS_MAX_PRICE ||
        upfront > FS_MAX_PRICE * 8760.0 * years * (1 + 1e-12))
        abort();
}

static void as_rate(const char *value)
{
    fs_roi_query q;
    char why[1024];
    fs_roi_query_default(&q);
    if (fs_roi_parse_rate(value, &q, why, sizeof why) != 0)
        return;
    int taken = 0;
    for (int t = 0; t < 2; t++)
        for (int k = 0; k < 3; k++)
            if (q.quote[t][k].set) {
                check_bounds(q.quote[t][k].hourly, q.quote[t][k].upfront,
                             t ? 3 : 1);
                taken++;
            }
    if (taken != 1 || fs_roi_parse_rate(value, &q, why, sizeof why) == 0)
        abort();   /* one quote taken; the same again refused */
}

static void as_quote(const char *value)
{
    char why[1024];
    for (int kind = 0; kind < 3; kind++)
        for (int years = 1; years <= 3; years += 2) {
            double h = -1, up = -1;
            if (fs_roi_parse_quote(kind, years, FS_MAX_PRICE, value, &h, &up,
                                   why, sizeof why) == 0)
                check_bounds(h, up, years);
        }
}

static const char base[] =
    "[scenario]\nstart = 2026-01-01\nhorizon = 1h\n"
    "[pool.p]\ninstance = aws:g6.xlarge\ncount = 2\n"
    "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n"
    "service = exponential(mean=1s)\n";

static void in_scenario(const char *value, uint32_t h)
{
    static const char *const keys[] = {
        "reserved_1y", "reserved_1y_partial", "reserved_1y_all",
        "reserved_3y", "reserved_3y_partial", "reserved_3y_all"};
    char key[64];
    snprintf(key, sizeof key, "pool.p.%s", keys[h % 6]);
    fs_error err;
    fs_scenario_free(fuzz_load_set(base, key, value, &err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char value[1024];
    if (fuzz_first_line(data, size, value, sizeof value) < 0)
        return 0;
    as_rate(value);
    const char *eq = strchr(value, '=');
    as_quote(eq ? eq + 1 : value);
    uint32_t h = fuzz_hash(data, size);
    if ((h >> 16) % 4 == 0)
        in_scenario(eq ? eq + 1 : value, h);
    return 0;
}
