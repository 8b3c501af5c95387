/* fuzz_spot.c -- libFuzzer harness for the spot readers: availability and
 * preemption traces (traces/spot_trace.c: the checking pass, the row
 * iterator with laps, lifetimes from drops), spot price traces
 * (models/purchase/spot_price.c) and empirical() lifetimes files
 * (models/dist/interruption.c).
 *
 * Each input is written to a file and read as all of them; the variant
 * (repeat, the horizon) is picked from a hash of the input, so seeds can
 * be plain CSV files.  Any crash, sanitizer report, leak or hang is a bug:
 * bad input must end in a message.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "traces/spot_trace.h"
#include "models/dist/interruption.h"
#include "models/purchase/spot_price.h"
#include "sim/base/rng.h"

#include <math.h>

#include <gsl/gsl_errno.h>

static gsl_rng *rng;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_dir();
    gsl_set_error_handler_off();
    rng = fs_rng_new(1, 0, "spot:fuzz");
    return 0;
}

/* A trace that opens yields rows in time order, laps included, each value
 * a whole number of instances within the bound. */
static void replay(const char *path, const char *column, uint32_t h)
{
    fs_error err;
    double horizon = (h & 1) ? 0 : (h & 2) ? 3600 : 1e9;
    int repeat = (h >> 2) & 1;
    fs_spot_trace *t = fs_spot_trace_open(path, column, horizon, repeat,
                                          &err);
    if (!t)
        return;
    double tm, v, prev = -1;
    for (int i = 0; i < 3000 && fs_spot_trace_next(t, &tm, &v, &err) == 1;
         i++) {
        if (!(tm >= prev) || !(v >= 0))
            abort();
        if (strcmp(column, "available") == 0 &&
            (v != floor(v) || v > FS_SPOT_TRACE_MAX_AVAILABLE))
            abort();
        prev = tm;
    }
    long line;
    (void)fs_spot_trace_max(t, &line);
    if (!(fs_spot_trace_lap(t) > 0) && fs_spot_trace_rows(t) > 0 &&
        fs_spot_trace_end(t) >= 0 && repeat)
        abort();    /* a lap of 0 would loop without time passing */
    fs_spot_trace_free(t);
}

static void lifetimes(const char *path)
{
    fs_lifetimes l;
    fs_error err;
    if (fs_spot_lifetimes(path, &l, &err) == 0) {
        for (size_t i = 0; i < l.n; i++)
            if (!(l.life[i] >= 0))
                abort();
        fs_lifetimes_free(&l);
    }
}

static void prices(const char *path)
{
    fs_spot_price sp;
    fs_error err;
    if (fs_spot_price_load(path, 100, &sp, &err) == 0) {
        double p = fs_spot_price_at(&sp, 10);
        double m = fs_spot_price_mean(&sp, 3600);
        if (!(p >= 0) || !(m >= 0))
            abort();
        fs_spot_price_free(&sp);
    }
}

static void empirical(const char *path, uint32_t h)
{
    fs_call call = {{0}};
    snprintf(call.name, sizeof call.name, "empirical");
    fs_call_arg *a = &call.args[call.nargs++];
    snprintf(a->value, sizeof a->value, "%s", path);
    fs_interruption it;
    memset(&it, 0, sizeof it);
    char why[2048];
    if (fs_interruption_parse(&call, fuzz_dir, &it, why, sizeof why) == 0) {
        gsl_rng_set(rng, h);
        for (int i = 0; i < 16; i++)
            if (!(fs_interruption_draw(&it, rng) > 0))
                abort();
        if (!(fs_interruption_mean(&it) > 0))
            abort();
    }
    fs_interruption_free(&it);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[400];
    fuzz_write("input.csv", data, size, path, sizeof path);
    uint32_t h = fuzz_hash(data, size);
    replay(path, "available", h);
    replay(path, "price", h);
    lifetimes(path);
    prices(path);
    empirical(path, h);
    return 0;
}
