/* fuzz_scenario.c -- libFuzzer harness for the scenario parser: inih,
 * includes and --set handling (sim/config.c), the value grammar
 * (sim/grammar.c), the typed keys and the catalog lookups
 * (sim/scenario.c, models/).
 *
 * Each input is written to a file and loaded as a scenario, with one
 * --set override picked from a hash of the input so that that path runs
 * too.  The world is not built and nothing is simulated (fuzz_trace.c
 * covers the traces).  Any crash, sanitizer report, leak or hang is a bug:
 * a bad scenario must end in a message.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "sim/scenario/scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_catalog();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const sets[] = {
        NULL, "scenario.horizon=2h", "pool.p.count=3",
        "workload.w.arrivals=poisson(rate=1/s)", "scenario.seed=7",
        "workload.w.batch_max=4", "pool.p.price=1.5", "nosuch",
    };
    char path[400];
    fuzz_write("input.ini", data, size, path, sizeof path);
    uint32_t h = fuzz_hash(data, size);
    char *set[1] = {(char *)sets[h % 8]};
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, set, set[0] ? 1 : 0, &err);
    fs_scenario_free(sc);
    return 0;
}
