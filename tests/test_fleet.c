/* test_fleet.c -- the instance table of a pool, driven directly (no
 * workloads, no events): starting N instances examines O(N) slots, not
 * O(N^2); a launch reuses the lowest free slot, as it always has, so that
 * runs stay bit-identical; and the horizon bills instances still up without
 * the per-launch minimum. */
#include "tests/check.h"
#include "sim/fleet/fleet.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Loads scenario text through a temporary file; NULL after printing the
 * error. */
static fs_scenario *load(const char *text)
{
    char path[] = "/tmp/fleetsim-fleet-XXXXXX.ini";
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        return NULL;
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, NULL, 0, &err);
    if (!sc)
        printf("  error: %s\n", err.msg);
    unlink(path);
    return sc;
}

/* A world of pools only: enough for fleet.c, which never looks at
 * workloads when a pool serves none. */
typedef struct world {
    fs_sim sim;
    fs_pool pools[2];
    fs_error err;
} world;

static int world_init(world *w, const fs_scenario *sc)
{
    memset(w, 0, sizeof *w);
    w->sim.sc = sc;
    w->sim.err = &w->err;
    w->sim.engine = fs_engine_new();
    if (!w->sim.engine ||
        fs_calendar_init(&w->sim.cal, sc->start, sc->horizon_s))
        return -1;
    w->sim.pools = w->pools;
    for (size_t i = 0; i < sc->npools && i < 2; i++) {
        w->sim.npools++;
        if (fs_pool_init(&w->pools[i], &w->sim, &sc->pools[i]))
            return -1;
    }
    return 0;
}

static void world_free(world *w)
{
    for (size_t i = 0; i < w->sim.npools; i++)
        fs_pool_free(&w->pools[i]);
    fs_calendar_free(&w->sim.cal);
    fs_engine_free(w->sim.engine);
}

int main(void)
{
    enum { N = 20000 };
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nstart = 2026-01-01\nhorizon = 30s\n"
             "[pool.big]\ngpu = L4\nprice = 36.00\ncount = %d\n"
             "[pool.small]\ngpu = L4\nprice = 36.00\n"
             "autoscale = queue(target=1)\nmin = 0\nmax = 8\n"
             "provision_delay = 0s\n"
             "[workload.w]\npools = big, small\n"
             "arrivals = poisson(rate=1/s)\nservice = const(1s)\n", N);
    fs_scenario *sc = load(text);
    CHECK(sc != NULL);
    world w;
    if (!sc || world_init(&w, sc)) {
        CHECK(!"world built");
        fs_scenario_free(sc);
        return check_report("fleet");
    }

    /* Defect: every start scanned the table from slot 0 for a free one,
     * N^2/2 slots for N instances (a million never finished). */
    fs_pool *big = &w.pools[0];
    fs_pool_start(big);
    CHECK(big->launched == N && big->up == N);
    printf("  %d instances started examining %ld slots\n", N,
           big->free_slots.probes);
    CHECK(big->free_slots.probes <= 2L * N);

    /* Lowest free slot first.  Slots 0-5 up; 4 and 5 busy, so scale-in
     * terminates the idle 3 and 2 and leaves holes below busy slots. */
    fs_pool *small = &w.pools[1];
    for (int i = 0; i < 6; i++)
        CHECK(fs_pool_launch(small) == 0);
    CHECK(small->up == 6);
    small->inst[4].busy = small->inst[5].busy = 1;
    fs_pool_shrink(small, 2);
    CHECK(small->inst[2].state == FS_INSTANCE_FREE);
    CHECK(small->inst[3].state == FS_INSTANCE_FREE);
    CHECK(small->up == 4);
    small->inst[4].busy = small->inst[5].busy = 0;
    fs_pool_shrink(small, 1);                    /* the highest idle: 5 */
    CHECK(small->inst[5].state == FS_INSTANCE_FREE);
    CHECK(fs_pool_launch(small) == 0);           /* takes 2 */
    CHECK(small->inst[2].state == FS_INSTANCE_UP);
    CHECK(small->inst[3].state == FS_INSTANCE_FREE);
    CHECK(fs_pool_launch(small) == 0);           /* then 3 */
    CHECK(small->inst[3].state == FS_INSTANCE_UP);
    CHECK(fs_pool_launch(small) == 0);           /* then 5, not 6 */
    CHECK(small->inst[5].state == FS_INSTANCE_UP);
    CHECK(small->inst[6].state == FS_INSTANCE_FREE);
    CHECK(fs_pool_launch(small) == 0);
    CHECK(fs_pool_launch(small) == 0);
    CHECK(small->up == 8);
    CHECK(fs_pool_launch(small) == -1);          /* full at max = 8 */
    CHECK(small->up == 8 && small->launches == 11);

    /* The 30 s horizon bills 30 s, not the 60 s minimum: $36/h is $0.30
     * per instance.  (The three instances shrunk at t = 0 did pay the
     * minimum: 3 x $0.60.) */
    fs_pool_finish(big);
    fs_pool_finish(small);
    CHECK(fs_round_cents(big->meter.usd[0]) == N * 0.30);
    CHECK(fs_round_cents(small->meter.usd[0]) == 4.20)   /* 8 x 0.30 + 3 x 0.60 */;
    printf("  30 s horizon: %d instances bill $%.2f, 8 + 3 shrunk $%.2f\n",
           N, big->meter.usd[0], small->meter.usd[0]);

    world_free(&w);
    fs_scenario_free(sc);
    return check_report("fleet");
}
