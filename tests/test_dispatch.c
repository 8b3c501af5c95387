/* test_dispatch.c -- how requests reach servers, to the second.
 *
 * Small deterministic scenarios (traces with fixed arrival times and
 * service times) whose every number can be worked out by hand:
 *   - pool preference: with several idle servers, the pools earlier in the
 *     workload's list go first (not the order of the scenario file);
 *   - gpus_per_server: servers per instance, and busy GPU-seconds counted
 *     for every GPU of a busy server;
 *   - queue_max: requests beyond it are dropped, exactly;
 *   - a scale-in while busy: the draining instance finishes its request,
 *     takes no new one, and terminates when it is done;
 *   - oldest first across the workloads of a pool, and work conservation:
 *     stepped through every event time of a busier random run, no server
 *     is ever idle while a workload it serves has requests waiting;
 *   - a spot interruption mid-service: the batch is requeued at the head
 *     of its queue and served again, its latency counting both attempts;
 *     during a notice, a running request finishes and no new one starts. */
#include "tests/check.h"
#include "tests/simulate.h"

#include <math.h>
#include <string.h>

#define NTRACES 16
static char traces[NTRACES][64];
static int ntraces;

/* Writes a generic trace (time,service rows after the header) to a
 * temporary file; its path, removed at the end. */
static const char *trace(const char *rows)
{
    char *path = traces[ntraces++];
    snprintf(path, sizeof traces[0], "/tmp/fleetsim-dispatch-XXXXXX.csv");
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fprintf(f, "time,service\n%s", rows) < 0 || fclose(f) != 0)
        printf("  error: cannot write %s\n", path);
    return path;
}

/* The arrivals and service keys of a workload replaying trace rows. */
static const char *replay(const char *rows)
{
    static char buf[NTRACES][160];
    char *b = buf[ntraces];
    snprintf(b, sizeof buf[0], "arrivals = trace(%s, format=generic, "
             "service=service)\nservice = trace\n", trace(rows));
    return b;
}

static const fs_pool_row *pool_row(const fs_results *r, const char *name)
{
    for (size_t i = 0; i < r->npools; i++)
        if (strcmp(r->pools[i].pool, name) == 0)
            return &r->pools[i];
    return NULL;
}

static double total_cost(const fs_results *r)
{
    double s = 0;
    for (size_t i = 0; i < r->ncosts; i++)
        s += r->costs[i].cost_usd;
    return s;
}

/* Pools a and b, one L4 each; the workload prefers b.  0 s: a request of
 * 10 s goes to b; 1 s: one of 10 s goes to a (b is busy); 20 s: both are
 * idle, and one of 5 s goes to b again. */
static void check_preference(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1m\nmetrics_interval = 1m\n"
             "[pool.a]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "[pool.b]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "[workload.w]\npools = b, a\n%s", replay("0,10\n1,10\n20,5\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        const fs_pool_row *a = pool_row(&r, "a"), *b = pool_row(&r, "b");
        CHECK(a && b);
        if (a && b) {
            CHECK(b->gpu_hours_busy * 3600 == 15);
            CHECK(a->gpu_hours_busy * 3600 == 10);
        }
        CHECK(r.latency[0].count == 3);
        CHECK(r.latency[0].wait_mean_s == 0);
        CHECK(r.latency[0].mean_s == 25.0 / 3);
    } else {
        CHECK(!"preference run");
    }
    fs_results_free(&r);
}

/* 8 GPUs per instance, 2 per server: 4 servers.  Five requests of 10 s at
 * 0 s: four run at once, the fifth waits 10 s.  Busy: 5 x 10 s x 2 GPUs. */
static void check_gpus_per_server(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1m\nmetrics_interval = 30s\n"
             "[pool.p]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "gpus_per_instance = 8\ngpus_per_server = 2\n"
             "[workload.w]\npools = p\n%s",
             replay("0,10\n0,10\n0,10\n0,10\n0,10\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        CHECK(r.pools[0].gpu_hours_busy * 3600 == 100);
        CHECK(r.pools[0].gpu_hours_provisioned * 3600 == 8 * 60);
        CHECK(r.latency[0].count == 5);
        CHECK(r.latency[0].wait_mean_s == 2);      /* (4 x 0 + 10) / 5 */
        CHECK(r.latency[0].mean_s == 12);          /* (4 x 10 + 20) / 5 */
        CHECK(r.nutil == 2);
        if (r.nutil == 2) {
            CHECK(r.util[0].t_s == 30 && r.util[0].instances_up == 1);
            CHECK(r.util[0].gpus_provisioned == 8);
            CHECK(r.util[0].gpus_busy == 100.0 / 30);
            CHECK(r.util[1].gpus_busy == 0);
        }
    } else {
        CHECK(!"gpus_per_server run");
    }
    fs_results_free(&r);
}

/* One server, requests of 10 s, queue_max = 2.  At 0 s one starts; 1 and
 * 2 s queue; 3, 4 and 5 s find the queue full; at 12 s one has left the
 * queue (10 s), so 12 s queues and 13 s is dropped.  Served: 0, 1, 2, 12
 * starting at 0, 10, 20, 30. */
static void check_queue_max(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1m\nmetrics_interval = 1m\n"
             "[pool.p]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "[workload.w]\npools = p\nqueue_max = 2\n%s",
             replay("0,10\n1,10\n2,10\n3,10\n4,10\n5,10\n12,10\n13,10\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        const fs_latency_row *l = &r.latency[0];
        printf("  queue_max = 2: %ld arrived, %ld dropped, %ld served\n",
               l->arrivals, l->dropped, l->count);
        CHECK(l->arrivals == 8 && l->dropped == 4 && l->count == 4);
        CHECK(l->unfinished == 0);
        CHECK(r.requests == 8 && r.requests_dropped == 4);
        CHECK(l->wait_mean_s == (0 + 9 + 18 + 18) / 4.0);
        CHECK(r.pools[0].gpu_hours_busy * 3600 == 40);
    } else {
        CHECK(!"queue_max run");
    }
    fs_results_free(&r);
}

/* utilization(target=100%), 1 to 2 L4s, a decision a minute, no
 * provisioning delay, $36/h ($0.01/s).  Requests: A (300 s) and B (140 s)
 * at 0 s, C (10 s) at 150 s.
 *    0 s  instance 0 runs A; B waits (queued: 140 GPU-s)
 *   60 s  1 busy + 140 s queued / 60 s: wants 4, max 2: instance 1 runs B
 *  120 s  2 busy, the queue drained by 140 s: wants 1, both busy: the
 *         highest slot, 1, drains (still running B)
 *  150 s  C waits: instance 0 is busy, instance 1 drains
 *  180 s  wants 3; the table is full (1 drains): nothing launched
 *  200 s  B done: instance 1 terminates, and does not take C
 *  240 s  80 of 80 GPU-s busy: wants 2: a new instance 1 runs C
 *  290 s  the horizon; A is still running */
static void check_drain(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 290s\nmetrics_interval = 1m\n"
             "[pool.p]\ngpu = L4\nprice = 36.00\n"
             "autoscale = utilization(target=100%%)\nmin = 1\nmax = 2\n"
             "autoscale_interval = 1m\ncooldown = 1m\nprovision_delay = 0s\n"
             "[workload.w]\npools = p\n%s",
             replay("0,300\n0,140\n150,10\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        const fs_latency_row *l = &r.latency[0];
        const fs_pool_row *p = &r.pools[0];
        printf("  drain: %ld launches, C waited %.0f s, %.0f GPU-s "
               "provisioned, $%.2f\n", p->launches, 3 * l->wait_mean_s - 60,
               p->gpu_hours_provisioned * 3600, total_cost(&r));
        CHECK(p->launches == 3);
        CHECK(l->count == 2 && l->unfinished == 1);    /* B, C; A runs */
        CHECK(l->mean_s == (200 + 100) / 2.0);
        CHECK(l->wait_mean_s == (0 + 60 + 90) / 3.0);  /* C: 150 -> 240 */
        /* 290 + 140 (60 -> 200, drained) + 50 (240 -> 290) */
        CHECK(p->gpu_hours_provisioned * 3600 == 480);
        CHECK(p->gpu_hours_busy * 3600 == 290 + 140 + 10);
        /* $2.90 + $1.40 (terminated, over the 60 s minimum) + $0.50 */
        CHECK(fabs(total_cost(&r) - 4.80) < 1e-9);
        CHECK(r.nutil == 5);
        if (r.nutil == 5) {
            CHECK(r.util[1].t_s == 120 && r.util[1].instances_up == 2);
            CHECK(r.util[3].t_s == 240 && r.util[3].instances_up == 80.0 / 60);
            /* C waits from 150 s to 240 s, where the decision (scheduled
             * first) runs before the sample. */
            CHECK(r.util[2].queue_len == 1 && r.util[3].queue_len == 0);
            CHECK(r.util[4].t_s == 290 && r.util[4].instances_up == 2);
        }
    } else {
        CHECK(!"drain run");
    }
    fs_results_free(&r);
}

/* Pool `shared` serves x and y, pool `own` only x, which prefers it.
 *   0 s  x0 (10 s) to own, y0 (4 s) to shared
 *   1 s  x1 waits; 2 s x2 waits; 3 s y1 waits
 *   4 s  shared is free: the oldest waiting of its workloads is x1
 *  10 s  own is free: x2;  14 s shared is free: y1 */
static void check_oldest_first(void)
{
    char text[1024];
    int n = snprintf(text, sizeof text,
                     "[scenario]\nhorizon = 1m\nmetrics_interval = 1m\n"
                     "[pool.shared]\ngpu = L4\nprice = 1.00\ncount = 1\n"
                     "[pool.own]\ngpu = L4\nprice = 1.00\ncount = 1\n"
                     "[workload.x]\npools = own, shared\n%s",
                     replay("0,10\n1,10\n2,10\n"));
    snprintf(text + n, sizeof text - (size_t)n,
             "[workload.y]\npools = shared\n%s", replay("0,4\n3,4\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        CHECK(r.latency[0].wait_mean_s == (0 + 3 + 8) / 3.0);
        CHECK(r.latency[1].wait_mean_s == (0 + 11) / 2.0);
        CHECK(pool_row(&r, "own")->gpu_hours_busy * 3600 == 20);
        CHECK(pool_row(&r, "shared")->gpu_hours_busy * 3600 == 18);
    } else {
        CHECK(!"oldest-first run");
    }
    fs_results_free(&r);
}

/* Servers idle while a workload they serve has requests waiting: 0 when
 * dispatch is work-conserving. */
static long idle_while_waiting(const fs_world *w)
{
    long bad = 0;
    for (size_t i = 0; i < w->npools; i++) {
        const fs_servers *s = &w->pools[i].servers;
        for (int k = 0; k < s->nwls; k++)
            if (s->nidle > 0 && s->wls[k]->queue.len > 0)
                bad++;
    }
    return bad;
}

/* Two workloads with random arrivals and service over a fixed pool and an
 * autoscaled one (which grows, drains and shrinks), with batching: the
 * world is stepped to every distinct event time and checked there. */
static void check_work_conserving(void)
{
    const char *text =
        "[scenario]\nhorizon = 2h\nseed = 11\nmetrics_interval = 5m\n"
        "[pool.fixed]\ngpu = L4\nprice = 1.00\ncount = 2\n"
        "gpus_per_instance = 2\n"
        "[pool.grow]\ngpu = L4\nprice = 1.00\nautoscale = queue(target=2)\n"
        "min = 0\nmax = 6\nprovision_delay = 30s\nautoscale_interval = 20s\n"
        "cooldown = 1m\n"
        "[workload.x]\npools = fixed, grow\n"
        "arrivals = mmpp(high=6/s, low=1/s, high_for=10m, low_for=20m)\n"
        "service = exponential(mean=1s)\nbatch_max = 4\nbatch_wait = 50ms\n"
        "[workload.y]\npools = grow\narrivals = poisson(rate=1/s)\n"
        "service = lognormal(mean=2s, sigma=0.5)\n";
    fs_scenario *sc = check_load(text);
    fs_results out;
    fs_results_init(&out);
    fs_world w;
    fs_error err;
    if (!sc || fs_world_init(&w, sc, 0, &out, &err) || fs_world_start(&w)) {
        CHECK(!"work-conserving world");
        if (sc)
            fs_world_free(&w);
        fs_scenario_free(sc);
        return;
    }
    fs_engine *e = w.sim.engine;
    long steps = 0, bad = 0, waited = 0;
    double next;
    while ((next = fs_engine_next(e)) < sc->horizon_s) {
        fs_engine_run(e, nextafter(next, INFINITY));
        steps++;
        bad += idle_while_waiting(&w);
        waited += w.workloads[0].queue.len + w.workloads[1].queue.len > 0;
    }
    int rc = fs_world_run(&w);
    printf("  work conservation: %ld event times, %ld with requests "
           "waiting, %ld with an idle server beside them; %ld launches, "
           "%ld + %ld served\n", steps, waited, bad,
           w.pools[1].cap.launches, w.workloads[0].completed,
           w.workloads[1].completed);
    CHECK(rc == 0);
    CHECK(bad == 0);
    CHECK(waited > 100);                  /* the check was tested */
    CHECK(w.pools[1].cap.launches > 3);   /* the pool did grow and shrink */
    fs_world_free(&w);
    fs_results_free(&out);
    fs_scenario_free(sc);
}

/* A spot trace file (t_seconds,available rows after the header). */
static const char *avail(const char *rows)
{
    char *path = traces[ntraces++];
    snprintf(path, sizeof traces[0], "/tmp/fleetsim-dispatch-XXXXXX.csv");
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fprintf(f, "t_seconds,available\n%s", rows) < 0 ||
        fclose(f) != 0)
        printf("  error: cannot write %s\n", path);
    return path;
}

/* One spot instance ($36/h: 1 cent a second), taken at 50 s, available
 * again at 60 s and up at 80 s (provision_delay 20 s).
 *   0 s  A (100 s) starts;  10 s  B (10 s) waits
 *  50 s  A is lost after 50 s of service: back to the head of the queue
 *  80 s  A starts again: done at 180 s (latency 180 s, both attempts)
 * 180 s  B: done at 190 s (latency 180 s)
 * Wait (arrival to start of the attempt that ran): A 80 s, B 170 s. */
static void check_interrupt_requeue(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 300s\nmetrics_interval = 1m\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 36.00\ncount = 1\n"
             "provision_delay = 20s\ninterruption = trace(%s)\n"
             "[workload.w]\npools = s\n%s",
             avail("0,1\n50,0\n60,1\n400,1\n"), replay("0,100\n10,10\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        const fs_latency_row *l = &r.latency[0];
        const fs_pool_row *p = &r.pools[0];
        printf("  interrupt: %ld retried, latency mean %.0f s, wait mean "
               "%.0f s, %.0f s of work lost, $%.2f\n", p->requests_retried,
               l->mean_s, l->wait_mean_s, p->work_lost_s, total_cost(&r));
        CHECK(p->interruptions == 1 && p->requests_retried == 1);
        CHECK(l->count == 2 && l->unfinished == 0);
        CHECK(l->mean_s == (180 + 180) / 2.0);
        CHECK(l->wait_mean_s == (80 + 170) / 2.0);
        CHECK(p->work_lost_s == 50);
        CHECK(r.ninterrupts == 1);
        if (r.ninterrupts == 1)
            CHECK(r.interrupts[0].t_s == 50 &&
                  r.interrupts[0].work_lost_s == 50 &&
                  r.interrupts[0].instance_id == 0);
        /* busy: 50 s lost + 100 s + 10 s */
        CHECK(p->gpu_hours_busy * 3600 == 160);
        /* 0 -> 50 s, then 60 -> 300 s (billed from launch) */
        CHECK(fabs(total_cost(&r) - 2.90) < 1e-9);
    } else {
        CHECK(!"interrupt run");
    }
    fs_results_free(&r);
}

/* notice = 30s, the instance taken at 50 s: its notice starts at 20 s.
 *   0 s  A (40 s) starts;  10 s  B (100 s) waits
 *  40 s  A is done inside the notice; B does not start there
 *  50 s  taken with nothing running: nothing retried
 *  60 s  available again: a new instance, up at 80 s, runs B to 180 s */
static void check_interrupt_notice(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 300s\nmetrics_interval = 1m\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 36.00\ncount = 1\n"
             "provision_delay = 20s\nnotice = 30s\ninterruption = trace(%s)\n"
             "[workload.w]\npools = s\n%s",
             avail("0,1\n50,0\n60,1\n400,1\n"), replay("0,40\n10,100\n"));
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        const fs_latency_row *l = &r.latency[0];
        const fs_pool_row *p = &r.pools[0];
        printf("  notice: %ld retried, latency mean %.0f s\n",
               p->requests_retried, l->mean_s);
        CHECK(p->interruptions == 1 && p->requests_retried == 0);
        CHECK(l->count == 2 && l->mean_s == (40 + 170) / 2.0);
        CHECK(p->work_lost_s == 0);
        CHECK(r.ninterrupts == 1 && r.interrupts[0].notice_s == 30);
        CHECK(fabs(total_cost(&r) - 2.90) < 1e-9);
    } else {
        CHECK(!"notice run");
    }
    fs_results_free(&r);
}

int main(void)
{
    check_preference();
    check_gpus_per_server();
    check_queue_max();
    check_drain();
    check_oldest_first();
    check_work_conserving();
    check_interrupt_requeue();
    check_interrupt_notice();
    for (int i = 0; i < ntraces; i++)
        unlink(traces[i]);
    return check_report("dispatch");
}
