/* fuzz_values.c -- libFuzzer harness for single values as a user types
 * them: `--set SECTION.KEY=VALUE` and `--vary SECTION.KEY=V1,V2,...`
 * (sim/scenario/config.c, sim/cli/sweep/sweep_grid.c), and the window and time
 * zone keys (sim/scenario/scenario_window.c, sim/base/tz.c), whose
 * openings are then walked over the horizon (sim/fleet/pool/window.c).
 *
 * The input's first line is the value; a hash of it picks the key it is
 * given to, in a small valid scenario with a window.  Any crash, sanitizer
 * report, leak or hang is a bug.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/pool/window.h"
#include "sim/cli/sweep/sweep.h"

#include <math.h>

#ifndef FS_SRC_CATALOG_DIR
#define FS_SRC_CATALOG_DIR "models/catalog"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_dir();
    setenv("FLEETSIM_CATALOG", FS_SRC_CATALOG_DIR, 1);
    return 0;
}

static const char base[] =
    "[scenario]\nstart = 2026-03-07 10:00\nhorizon = 20d\n"
    "timezone = America/New_York\n"
    "[window.w]\nevery = 1d\nopen = 09:00\nduration = 8h\n"
    "[window.o]\ndays = mon-fri\nopen = 09:00\nclose = 17:00\n"
    "[pool.p]\ngpu = L4\ncount = 2\nprice = 1\nschedule = w\n"
    "[pool.q]\ngpu = L4\ncount = 1\nprice = 1\nschedule = o\n"
    "[workload.x]\npools = p, q\narrivals = poisson(rate=1/s)\n"
    "service = exponential(mean=1s)\n";

static const char *const keys[] = {
    "scenario.timezone", "scenario.start", "window.w.every",
    "window.w.open", "window.w.duration", "window.o.days", "window.o.open",
    "window.o.close", "pool.p.schedule", "scenario.horizon",
    "workload.x.arrivals", "workload.x.service", "pool.p.count",
    "scenario.include", "pool.p.price", NULL,
};

/* The windows of a loaded scenario, walked over the horizon: openings in
 * order, each closing after it opens. */
static void walk(const fs_scenario *sc)
{
    for (size_t i = 0; i < sc->nwindows; i++) {
        const fs_window_conf *w = &sc->windows[i];
        double anchor = fs_window_anchor(w, sc->timezone, sc->start);
        double after = 0, o, c;
        for (int k = 0; k < 200 && after < sc->horizon_s; k++) {
            fs_window_next(w, sc->timezone, sc->start, anchor, after, &o, &c);
            if (!(c > o) || !(c > after))
                abort();
            after = c;
        }
    }
}

static void vary(const char *value, uint32_t h)
{
    char arg[1200];
    snprintf(arg, sizeof arg, "%s=%s", keys[(h >> 4) % 15], value);
    fs_sweep_grid g;
    memset(&g, 0, sizeof g);
    char why[1024];
    if (fs_sweep_add_axis(&g, arg, why, sizeof why) == 0 &&
        fs_sweep_grid_finish(&g, why, sizeof why) == 0)
        for (long p = 0; p < g.npoints && p < 8; p++) {
            char *a = fs_sweep_assignment(&g, p, 0);
            free(a);
        }
    fs_sweep_grid_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char value[1024];
    size_t n = 0;
    while (n < size && n < sizeof value - 1 && data[n] != '\n')
        n++;
    memcpy(value, data, n);
    value[n] = 0;
    if (strlen(value) != n)
        return 0;            /* a NUL cannot reach a command line */
    uint32_t h = fuzz_hash(data, size);
    char path[400], set[1200];
    fuzz_write("input.ini", (const uint8_t *)base, sizeof base - 1, path,
               sizeof path);
    snprintf(set, sizeof set, "%s=%s", keys[h % 15], value);
    char *sets[1] = {set};
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, sets, 1, &err);
    if (!sc) {
        /* without the --set, the value as a line of the file */
        char text[4096];
        int len = snprintf(text, sizeof text, "%s%s\n", base, value);
        if (len > 0 && (size_t)len < sizeof text)
            fuzz_write("input.ini", (const uint8_t *)text, (size_t)len, path,
                       sizeof path);
        sc = fs_scenario_load(path, NULL, 0, &err);
    }
    if (sc)
        walk(sc);
    fs_scenario_free(sc);
    vary(value, h);
    return 0;
}
