/* test_engine_fail.c -- a run whose engine cannot schedule an event fails
 * cleanly, wherever that happens.
 *
 * A small scenario that schedules every kind of event the fleet has
 * (arrivals, completions, batch deadlines, autoscaler decisions, the end
 * of provisioning, metrics samples) is run again and again, the k-th
 * fs_engine_at made to fail (fs_engine_fail_after) for every k until the
 * run has no k-th schedule left.  Each failed run must return -1 with an
 * "out of memory scheduling ..." message and free everything (ASan and
 * LSan watch); one unchecked result would let the run succeed early. */
#include "tests/check.h"
#include "tests/simulate.h"

#include <string.h>

static const char *const scenario =
    "[scenario]\nhorizon = 2m\nseed = 5\nmetrics_interval = 10s\n"
    "[pool.fixed]\ngpu = L4\nprice = 1.00\ncount = 1\n"
    "[pool.grow]\ngpu = L4\nprice = 1.00\nautoscale = queue(target=1)\n"
    "min = 0\nmax = 3\nprovision_delay = 10s\nautoscale_interval = 5s\n"
    "cooldown = 10s\n"
    "[workload.w]\npools = fixed, grow\narrivals = poisson(rate=2/s)\n"
    "service = exponential(mean=1s)\nbatch_max = 2\nbatch_wait = 100ms\n";

/* The kinds of schedule, by the message a failure of each gives. */
static const char *const kinds[] = {
    "out of memory scheduling arrivals",
    "out of memory scheduling completions",
    "out of memory scheduling a batch deadline of workload w",
    "out of memory scheduling the autoscaler of pool grow",
    "out of memory scheduling an instance of pool grow",
    "out of memory scheduling the metrics sample",
};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

/* One run with the schedule after the first k failing (k < 0: none). */
static int run(const fs_scenario *sc, long k, fs_error *err, long *events,
               long *ran_ahead)
{
    fs_results out;
    fs_world w;
    fs_results_init(&out);
    int rc = fs_world_init(&w, sc, 0, &out, err);
    if (rc == 0) {
        fs_engine_fail_after(w.sim.engine, k);
        rc = fs_world_start(&w);
    }
    if (rc == 0)
        rc = fs_world_run(&w);
    if (rc == 0 && events) {
        *events = out.events;
        *ran_ahead = (long)w.sim.engine->ran_ahead;
    }
    fs_world_free(&w);
    fs_results_free(&out);
    return rc;
}

int main(void)
{
    fs_scenario *sc = check_load(scenario);
    if (!sc) {
        CHECK(!"scenario loads");
        return check_report("engine_fail");
    }
    fs_error err;
    long events = 0, ran_ahead = 0;
    CHECK(run(sc, -1, &err, &events, &ran_ahead) == 0);

    long seen[NKINDS] = {0}, k, bad = 0;
    for (k = 0; k < 100000; k++) {
        if (run(sc, k, &err, NULL, NULL) == 0)
            break;
        int kind = -1;
        for (int i = 0; i < NKINDS; i++)
            if (strcmp(err.msg, kinds[i]) == 0)
                kind = i;
        if (kind < 0 && bad++ < 5)
            printf("  schedule %ld: unexpected message: %s\n", k, err.msg);
        else if (kind >= 0)
            seen[kind]++;
    }
    printf("  %ld events; a run fails cleanly at each of its %ld schedules:",
           events, k);
    for (int i = 0; i < NKINDS; i++)
        printf(" %ld", seen[i]);
    printf("\n");
    CHECK(bad == 0);
    /* Every event run was scheduled, but for the arrivals run ahead of
     * the loop (fs_engine_run_ahead), so a run that ends early skipped a
     * failure: an unchecked result. */
    CHECK(ran_ahead < events);
    CHECK(k > events - ran_ahead);
    for (int i = 0; i < NKINDS; i++)
        if (!CHECK(seen[i] > 0))
            printf("     never failed: %s\n", kinds[i]);

    fs_scenario_free(sc);
    return check_report("engine_fail");
}
