/* test_fleet.c -- a pool's capacity, driven directly: starting N instances
 * examines O(N) slots, not O(N^2); a launch reuses the lowest free slot, as
 * it always has, so that runs stay bit-identical; release gives back
 * provisioning, then idle, then held instances, which drain until their
 * last hold goes; subscribers hear every event, in subscription order;
 * server shapes give servers per instance and busy GPUs; and the horizon
 * bills instances still up without the per-launch minimum. */
#include "tests/check.h"
#include "tests/simulate.h"
#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/shape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A subscriber that writes what it hears: "aU3@60 " is subscriber a told
 * that slot 3 is up at t = 60; P provisioning, U up, N notice, and a
 * lowercase letter for down, the state the instance went down from. */
typedef struct recorder {
    char tag;           /* 'a' or 'b': which subscriber */
    char *log;          /* shared by both */
    size_t cap;
} recorder;

static void record(recorder *r, char ev, fs_capacity *cap, int inst)
{
    size_t n = strlen(r->log);
    snprintf(r->log + n, r->cap - n, "%c%c%d@%g ", r->tag, ev, inst,
             fs_capacity_now(cap));
}

static void rec_prov(void *c, fs_capacity *cap, int i)
{
    record(c, 'P', cap, i);
}

static void rec_up(void *c, fs_capacity *cap, int i)
{
    record(c, 'U', cap, i);
}

static void rec_notice(void *c, fs_capacity *cap, int i)
{
    record(c, 'N', cap, i);
}

/* DOWN is told while the instance still shows its last state. */
static void rec_down(void *c, fs_capacity *cap, int i)
{
    record(c, "frpudn"[cap->inst[i].state], cap, i);
}

/* INTERRUPTED is told in state NOTICE, holds still counted. */
static void rec_interrupted(void *c, fs_capacity *cap, int i)
{
    record(c, cap->inst[i].state == FS_INSTANCE_NOTICE ? 'I' : '?', cap, i);
}

static const fs_capacity_listener recorder_listener = {
    .name = "recorder",
    .on = {
        [FS_CAPACITY_PROVISIONING] = rec_prov,
        [FS_CAPACITY_UP] = rec_up,
        [FS_CAPACITY_NOTICE] = rec_notice,
        [FS_CAPACITY_DOWN] = rec_down,
        [FS_CAPACITY_INTERRUPTED] = rec_interrupted,
    },
};

/* The life cycle on a bare capacity with two subscribers. */
static void check_events(void)
{
    fs_engine *e = fs_engine_new();
    fs_capacity cap;
    char log[1024] = "";
    recorder a = {'a', log, sizeof log}, b = {'b', log, sizeof log};
    CHECK(fs_capacity_init(&cap, e, 3, 60) == 0);
    CHECK(fs_capacity_subscribe(&cap, &recorder_listener, &a) == 0);
    CHECK(fs_capacity_subscribe(&cap, &recorder_listener, &b) == 0);
    CHECK(fs_capacity_start(&cap, 1) == 1);          /* slot 0, up at once */
    CHECK(fs_capacity_launch(&cap, 5) == 2);         /* 1 and 2; then full */
    CHECK(cap.launched == 3 && cap.up == 1 && cap.launches == 3);
    CHECK_CONTAINS(log, "aP0@0 bP0@0 aU0@0 bU0@0 aP1@0 bP1@0 aP2@0 bP2@0 ");
    log[0] = 0;
    fs_engine_run(e, 60.5);                          /* provisioned at 60 */
    CHECK(strcmp(log, "aU1@60 bU1@60 aU2@60 bU2@60 ") == 0);
    CHECK(cap.up == 3 && fs_capacity_active(&cap) == 3);

    /* Hold 2 and 1; release 2: slot 0 (idle) goes, then 2 drains. */
    log[0] = 0;
    fs_capacity_hold(&cap, 2);
    fs_capacity_hold(&cap, 1);
    fs_capacity_hold(&cap, 2);
    CHECK(fs_capacity_release(&cap, 2) == 2);
    CHECK(strcmp(log, "au0@60.5 bu0@60.5 aN2@60.5 bN2@60.5 ") == 0);
    CHECK(cap.inst[0].state == FS_INSTANCE_FREE);
    CHECK(cap.inst[2].state == FS_INSTANCE_DRAINING);
    CHECK(!fs_capacity_takes_work(&cap, 2) && fs_capacity_takes_work(&cap, 1));
    CHECK(cap.launched == 2 && cap.up == 2 && cap.draining == 1);
    CHECK(fs_capacity_active(&cap) == 1);
    /* The drain ends with the last hold, not the first. */
    log[0] = 0;
    fs_capacity_unhold(&cap, 2);
    CHECK(cap.inst[2].state == FS_INSTANCE_DRAINING && log[0] == 0);
    fs_capacity_unhold(&cap, 2);
    CHECK(strcmp(log, "ad2@60.5 bd2@60.5 ") == 0);
    CHECK(cap.inst[2].state == FS_INSTANCE_FREE);
    CHECK(cap.launched == 1 && cap.up == 1 && cap.draining == 0);
    /* An unhold on an instance that is up leaves it up. */
    fs_capacity_unhold(&cap, 1);
    CHECK(cap.inst[1].state == FS_INSTANCE_UP);

    /* Provisioning ones go first, newest first, and never come up. */
    log[0] = 0;
    CHECK(fs_capacity_launch(&cap, 2) == 2);         /* slots 0 and 2 */
    CHECK(fs_capacity_release(&cap, 1) == 1);
    CHECK(strcmp(log, "aP0@60.5 bP0@60.5 aP2@60.5 bP2@60.5 "
                      "ap2@60.5 bp2@60.5 ") == 0);
    CHECK(cap.inst[0].state == FS_INSTANCE_PROVISIONING);
    CHECK(fs_capacity_release(&cap, 5) == 2);        /* 0, then 1 */
    CHECK(cap.launched == 0 && cap.up == 0);
    log[0] = 0;
    fs_engine_run(e, 1000);                          /* cancelled: no up */
    CHECK(log[0] == 0);

    /* A failed schedule launches nothing and frees the slot again. */
    fs_engine_fail_after(e, 0);
    CHECK(fs_capacity_launch(&cap, 1) == -1);
    CHECK(cap.launched == 0 && cap.launches == 5 && log[0] == 0);
    CHECK(fs_capacity_launch(&cap, 1) == 1 && cap.inst[0].state ==
          FS_INSTANCE_PROVISIONING);
    fs_capacity_free(&cap);
    fs_engine_free(e);
}

/* Spot: a notice stops new work at once and takes the instance, held
 * work and all, when it ends; a notice of 0 takes it at once; a draining
 * instance can be interrupted too; nothing is launched in its place. */
static void check_interrupt(void)
{
    fs_engine *e = fs_engine_new();
    fs_capacity cap;
    char log[1024] = "";
    recorder a = {'a', log, sizeof log};
    CHECK(fs_capacity_init(&cap, e, 4, 0) == 0);
    CHECK(fs_capacity_subscribe(&cap, &recorder_listener, &a) == 0);
    CHECK(fs_capacity_start(&cap, 4) == 4);
    fs_engine_run(e, 10);
    log[0] = 0;
    fs_capacity_hold(&cap, 1);
    CHECK(fs_capacity_interrupt(&cap, 1, 120) == 0);
    CHECK(strcmp(log, "aN1@10 ") == 0);
    CHECK(cap.inst[1].state == FS_INSTANCE_NOTICE);
    CHECK(!fs_capacity_takes_work(&cap, 1));
    CHECK(fs_capacity_notice_left(&cap, 1) == 120);
    CHECK(isinf(fs_capacity_notice_left(&cap, 0)));
    CHECK(cap.noticed == 1 && fs_capacity_active(&cap) == 3);
    /* Running out of work does not end a notice early. */
    fs_capacity_unhold(&cap, 1);
    CHECK(cap.inst[1].state == FS_INSTANCE_NOTICE);
    fs_capacity_hold(&cap, 0);
    fs_capacity_hold(&cap, 2);
    fs_capacity_hold(&cap, 2);
    CHECK(fs_capacity_release(&cap, 1) == 1);        /* 3 idle: goes */
    CHECK(fs_capacity_release(&cap, 1) == 1);        /* 2 held: drains */
    CHECK(cap.draining == 1);
    CHECK(fs_capacity_interrupt(&cap, 2, 0) == 0);   /* no notice */
    CHECK(cap.draining == 0 && cap.noticed == 1);
    CHECK(cap.inst[2].state == FS_INSTANCE_FREE);
    CHECK_CONTAINS(log, "aN2@10 aI2@10 an2@10 ");
    CHECK(cap.interruptions == 1);
    log[0] = 0;
    fs_engine_run(e, 200);
    CHECK(strcmp(log, "aI1@130 an1@130 ") == 0);
    CHECK(cap.inst[1].state == FS_INSTANCE_FREE);
    CHECK(cap.interruptions == 2 && cap.launched == 1 && cap.noticed == 0);
    CHECK(cap.up == 1 && fs_capacity_active(&cap) == 1);
    /* A failed schedule leaves the instance up. */
    fs_engine_fail_after(e, 0);
    CHECK(fs_capacity_interrupt(&cap, 0, 30) == -1);
    CHECK(cap.inst[0].state == FS_INSTANCE_UP && cap.noticed == 0);
    fs_capacity_free(&cap);
    fs_engine_free(e);
}

static void check_shapes(void)
{
    fs_pool_conf conf;
    memset(&conf, 0, sizeof conf);
    conf.gpus_per_instance = 8;
    conf.gpus_per_server = 2;
    conf.gpu.memory_gb = 80;
    fs_server_shape s = fs_shape_of_pool(&conf);
    CHECK(s.gpus == 2 && s.compute == 1 && s.memory == 1);
    CHECK(s.memory_gb == 160);
    CHECK(fs_shape_per_instance(&s, 8) == 4);
    CHECK(fs_shape_busy_gpus(&s) == 2);
    /* Shapes the scenario cannot state yet: a MIG 1g.10gb slice (7 per
     * GPU) and a 3g.40gb one (compute 3/7, memory 1/2: 2 per GPU). */
    fs_server_shape mig1 = {.gpus = 1, .compute = 1.0 / 7,
                            .memory = 1.0 / 8, .memory_gb = 10};
    fs_server_shape mig3 = {.gpus = 1, .compute = 3.0 / 7, .memory = 0.5,
                            .memory_gb = 40};
    CHECK(fs_shape_per_instance(&mig1, 1) == 7);
    CHECK(fs_shape_per_instance(&mig1, 8) == 56);
    CHECK(fs_shape_per_instance(&mig3, 2) == 4);
    CHECK_NEAR(fs_shape_busy_gpus(&mig3), 3.0 / 7, 1e-15);
}

/* Defect: every release scanned the whole table from the top, N^2 slots
 * for N instances released one at a time (65,536 spot instances with a
 * fallback took 12 s).  Releasing N held, idle and provisioning instances
 * one by one now examines O(N log N) words, and in the same order. */
static void check_release_cost(void)
{
    enum { M = 70000 };
    fs_engine *e = fs_engine_new();
    fs_capacity cap;
    CHECK(fs_capacity_init(&cap, e, M, 60) == 0);
    CHECK(fs_capacity_start(&cap, M / 2) == M / 2);
    CHECK(fs_capacity_launch(&cap, M / 2) == M / 2);
    for (int i = 0; i < M / 4; i++)
        fs_capacity_hold(&cap, 2 * i);          /* even slots below M/2 */
    long before = cap.provisioning.probes + cap.upset.probes +
                  cap.idle.probes;
    int order_ok = 1;
    for (int i = 0; i < M; i++) {
        CHECK(fs_capacity_release(&cap, 1) == 1);
        /* provisioning M-1..M/2, then idle odd slots, then held ones */
        int want = i < M / 2 ? M - 1 - i
                 : i < 3 * M / 4 ? M / 2 - 1 - 2 * (i - M / 2)
                 : M / 2 - 2 - 2 * (i - 3 * M / 4);
        if (i < 3 * M / 4)
            order_ok &= cap.inst[want].state == FS_INSTANCE_FREE;
        else
            order_ok &= cap.inst[want].state == FS_INSTANCE_DRAINING;
    }
    CHECK(order_ok);
    CHECK(cap.launched == M / 4 && cap.draining == M / 4);
    long probes = cap.provisioning.probes + cap.upset.probes +
                  cap.idle.probes - before;
    printf("  %d instances released one by one examining %ld words\n", M,
           probes);
    CHECK(probes <= 3L * 2 * 3 * M);            /* 3 sets, 3 levels, 2 */
    CHECK(fs_capacity_release(&cap, 1) == 0);   /* all draining now */
    fs_capacity_free(&cap);
    fs_engine_free(e);
}

int main(void)
{
    check_release_cost();
    check_events();
    check_interrupt();
    check_shapes();

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
    fs_scenario *sc = check_load(text);
    fs_results out;
    fs_results_init(&out);
    fs_world w;
    fs_error err;
    if (!sc || fs_world_init(&w, sc, 0, &out, &err)) {
        CHECK(!"world built");
        fs_scenario_free(sc);
        return check_report("fleet");
    }

    /* Defect: every start scanned the table from slot 0 for a free one,
     * N^2/2 slots for N instances (a million never finished). */
    fs_capacity *big = &w.pools[0].cap;
    CHECK(fs_capacity_start(big, N) == N);
    CHECK(big->launched == N && big->up == N);
    printf("  %d instances started examining %ld slots\n", N,
           big->free_slots.probes);
    CHECK(big->free_slots.probes <= 2L * N);
    /* Every instance is one L4 server, idle. */
    CHECK(w.pools[0].servers.per_instance == 1);
    CHECK(w.pools[0].servers.nidle == N);

    /* Lowest free slot first.  Slots 0-5 up; 4 and 5 held, so release
     * terminates the idle 3 and 2 and leaves holes below held slots. */
    fs_capacity *small = &w.pools[1].cap;
    CHECK(fs_capacity_launch(small, 6) == 6);
    CHECK(small->up == 6);
    fs_capacity_hold(small, 4);
    fs_capacity_hold(small, 5);
    CHECK(fs_capacity_release(small, 2) == 2);
    CHECK(small->inst[2].state == FS_INSTANCE_FREE);
    CHECK(small->inst[3].state == FS_INSTANCE_FREE);
    CHECK(small->up == 4);
    fs_capacity_unhold(small, 4);
    fs_capacity_unhold(small, 5);
    CHECK(fs_capacity_release(small, 1) == 1);   /* the highest idle: 5 */
    CHECK(small->inst[5].state == FS_INSTANCE_FREE);
    CHECK(fs_capacity_launch(small, 1) == 1);    /* takes 2 */
    CHECK(small->inst[2].state == FS_INSTANCE_UP);
    CHECK(small->inst[3].state == FS_INSTANCE_FREE);
    CHECK(fs_capacity_launch(small, 1) == 1);    /* then 3 */
    CHECK(small->inst[3].state == FS_INSTANCE_UP);
    CHECK(fs_capacity_launch(small, 1) == 1);    /* then 5, not 6 */
    CHECK(small->inst[5].state == FS_INSTANCE_UP);
    CHECK(small->inst[6].state == FS_INSTANCE_FREE);
    CHECK(fs_capacity_launch(small, 3) == 2);    /* full at max = 8 */
    CHECK(small->up == 8 && small->launches == 11);
    CHECK(w.pools[1].usage.launched == 8 && w.pools[1].usage.up == 8);
    CHECK(w.pools[1].servers.nidle == 8);

    /* The 30 s horizon bills 30 s, not the 60 s minimum: $36/h is $0.30
     * per instance.  (The three instances released at t = 0 did pay the
     * minimum: 3 x $0.60.) */
    fs_pool_finish(&w.pools[0]);
    fs_pool_finish(&w.pools[1]);
    CHECK(fs_round_cents(w.pools[0].meter.usd[0]) == N * 0.30);
    /* 8 x 0.30 + 3 x 0.60 */
    CHECK(fs_round_cents(w.pools[1].meter.usd[0]) == 4.20);
    printf("  30 s horizon: %d instances bill $%.2f, 8 + 3 released $%.2f\n",
           N, w.pools[0].meter.usd[0], w.pools[1].meter.usd[0]);
    CHECK(w.pools[0].usage.area_gpus == N * 30.0);

    fs_world_free(&w);
    fs_results_free(&out);
    fs_scenario_free(sc);
    return check_report("fleet");
}
