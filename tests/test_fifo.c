/* test_fifo.c -- the Kiefer-Wolfowitz recursion (fifo_recursion.c) against
 * hand-worked queues, and against the event list it stands in for.
 *
 * A workload the recursion serves must come out as the event list would
 * have it: the same counts, the same percentiles and the same waits to the
 * bit (they are the same numbers), the means and busy GPU-hours to 1e-9
 * (sums of the same terms in another order), the same costs to the cent,
 * the same queue in every utilization sample.  The scenarios cover a
 * horizon that cuts a long queue, a warmup, service times that tie, a pool
 * of many servers, whole GPUs per server, months split and a trace. */
#include "tests/check.h"
#include "tests/simulate.h"
#include "sim/fleet/serve/fifo_recursion.h"

#include <math.h>
#include <string.h>

/* Two servers, four requests worked by hand. */
static void check_recursion_by_hand(void)
{
    fs_fifo f;
    CHECK(fs_fifo_init(&f, 2, 0) == 0);
    const double arrival[] = {0, 0.5, 1, 1.2}, service[] = {2, 2, 1, 1};
    const double want_start[] = {0, 0.5, 2, 2.5}, want_end[] = {2, 2.5, 3, 3.5};
    for (int i = 0; i < 4; i++) {
        double s, e;
        CHECK(fs_fifo_assign(&f, arrival[i], service[i], &s, &e) == 0);
        CHECK(s == want_start[i]);
        CHECK(e == want_end[i]);
    }
    /* at 1.5 the third and fourth wait; at 2 the third is due (not yet
     * started at that instant), at 2.6 none waits */
    CHECK(fs_fifo_waiting(&f, 1.5) == 2);
    CHECK(fs_fifo_waiting(&f, 2) == 2);
    CHECK(fs_fifo_waiting(&f, 2.2) == 1);
    CHECK(fs_fifo_waiting(&f, 2.6) == 0);
    /* busy to 1.5: the first server 1.5 s, the second 1 s */
    CHECK_NEAR(fs_fifo_busy_to(&f, 1.5), 2.5, 1e-12);
    CHECK_NEAR(fs_fifo_busy_to(&f, 3.2), 5.7, 1e-12);
    CHECK_NEAR(fs_fifo_busy_to(&f, 10), 6, 1e-12);
    fs_fifo_free(&f);
    fs_fifo_free(&f);   /* twice is safe */
}

/* A long queue grows the ring past its first size and keeps it ordered. */
static void check_long_queue(void)
{
    fs_fifo f;
    CHECK(fs_fifo_init(&f, 3, 0) == 0);
    double s = 0, e = 0;
    for (int i = 0; i < 1000; i++)
        CHECK(fs_fifo_assign(&f, i * 0.01, 1, &s, &e) == 0);
    /* 1000 requests of 1 s on 3 servers, all arrived by 10 s: the last
     * starts at 333 s; at 9.99 s, 30 have started */
    CHECK(s == 333);
    CHECK(fs_fifo_waiting(&f, 9.99) == 1000 - 30);
    CHECK(fs_fifo_waiting(&f, 333) == 1);
    CHECK(fs_fifo_waiting(&f, 333.5) == 0);
    fs_fifo_free(&f);
}

static int applies(const char *text)
{
    fs_scenario *sc = check_load(text);
    if (!sc)
        return -1;
    int *users = calloc(sc->npools, sizeof *users);
    int yes = -1;
    if (users) {
        fs_fifo_pool_users(sc, users);
        yes = fs_fifo_applies(sc, &sc->workloads[0], users);
    }
    free(users);
    fs_scenario_free(sc);
    return yes;
}

#define BASE "[scenario]\nhorizon = 1h\n[pool.p]\ngpu = A100-80GB\n" \
             "count = 2\nprice = 1\n"
#define WL "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n" \
           "service = exponential(mean=1s)\n"

static void check_applies(void)
{
    CHECK(applies(BASE WL) == 1);
    CHECK(applies(BASE WL "batch_max = 4\n") == 0);
    CHECK(applies(BASE WL "queue_max = 10\n") == 0);
    CHECK(applies("[scenario]\nhorizon = 1h\n[pool.p]\ngpu = A100-80GB\n"
                  "price = 1\nautoscale = utilization(target=70%)\nmin = 1\n"
                  "max = 4\n" WL) == 0);
    CHECK(applies(BASE "pricing = spot\ninterruption = exponential("
                  "mean=1h)\n" WL) == 0);
    CHECK(applies(BASE "pricing = spot\n" WL) == 1);   /* never taken */
    CHECK(applies(BASE "mig = 1g.10gb*7\n" WL "mig_profile = 1g.10gb\n")
          == 0);
    CHECK(applies(BASE "sharing = timeslice(2)\n" WL) == 0);
    CHECK(applies(BASE WL "[workload.v]\npools = p\n"
                  "arrivals = poisson(rate=1/s)\n"
                  "service = exponential(mean=1s)\n") == 0);
    CHECK(applies(BASE "[pool.q]\ngpu = L4\ncount = 1\nprice = 1\n"
                  "[workload.w]\npools = p, q\narrivals = poisson(rate=1/s)\n"
                  "service = exponential(mean=1s)\n") == 0);
    /* another pool's spot fallback reaches p's instances */
    CHECK(applies(BASE WL "[pool.q]\ngpu = A100-80GB\ncount = 1\n"
                  "price = 1\npricing = spot\n"
                  "interruption = exponential(mean=1h)\nfallback = p\n"
                  "[workload.v]\npools = q\narrivals = poisson(rate=1/s)\n"
                  "service = exponential(mean=1s)\n") == 0);
    CHECK(applies(BASE WL "[window.night]\nevery = 1d\nopen = 22:00\nduration = 8h\n"
                  "[pool.q]\ngpu = L4\ncount = 1\nprice = 1\n"
                  "schedule = night\n") == 1);   /* another pool's window */
}

/* Runs text once by events and once by the recursion. */
static int run_both(const char *text, fs_results *ev, fs_results *kw)
{
    fs_results_init(ev);
    fs_results_init(kw);
    fs_scenario *sc = check_load(text);
    if (!sc)
        return -1;
    fs_error err;
    fs_sim_hooks events = {NULL, NULL, NULL, 1}, shortcut = {0};
    int rc = fs_sim_run_hooked(sc, 0, &events, ev, &err);
    if (rc == 0)
        rc = fs_sim_run_hooked(sc, 0, &shortcut, kw, &err);
    if (rc)
        printf("  error: %s\n", err.msg);
    fs_scenario_free(sc);
    return rc;
}

static int same_bits(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static int near(double a, double b, double rel)
{
    return same_bits(a, b) || fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

static void compare_latency(const fs_latency_row *a, const fs_latency_row *b)
{
    CHECK(a->count == b->count);
    CHECK(a->arrivals == b->arrivals);
    CHECK(a->unfinished == b->unfinished);
    CHECK(a->dropped == b->dropped);
    CHECK(near(a->mean_s, b->mean_s, 1e-9));
    CHECK(same_bits(a->p50_s, b->p50_s));
    CHECK(same_bits(a->p90_s, b->p90_s));
    CHECK(same_bits(a->p99_s, b->p99_s));
    CHECK(same_bits(a->p999_s, b->p999_s));
    CHECK(near(a->wait_mean_s, b->wait_mean_s, 1e-9));
    CHECK(same_bits(a->wait_p50_s, b->wait_p50_s));
    CHECK(same_bits(a->wait_p99_s, b->wait_p99_s));
    CHECK(same_bits(a->slo_attainment, b->slo_attainment));
    CHECK(same_bits(a->mean_batch_size, b->mean_batch_size));
}

/* Every figure of the two runs of text, as the file header says. */
static void check_same(const char *what, const char *text)
{
    fs_results ev, kw;
    if (run_both(text, &ev, &kw) != 0) {
        CHECK(!"run failed");
        return;
    }
    printf("  %s: %ld requests, %ld unfinished, p99 %.4f s; %ld events "
           "by the event list, %ld with the recursion\n", what,
           ev.latency[0].arrivals, ev.latency[0].unfinished,
           ev.latency[0].p99_s, ev.events, kw.events);
    CHECK(kw.events < ev.events);
    CHECK(ev.nlatency == kw.nlatency);
    for (size_t i = 0; i < ev.nlatency && i < kw.nlatency; i++)
        compare_latency(&ev.latency[i], &kw.latency[i]);
    CHECK(near(ev.latency_mean_s, kw.latency_mean_s, 1e-9));
    CHECK(same_bits(ev.latency_p99_s, kw.latency_p99_s));
    CHECK(ev.nutil == kw.nutil);
    int util_ok = 1;
    for (size_t i = 0; i < ev.nutil && i < kw.nutil; i++) {
        const fs_util_row *a = &ev.util[i], *b = &kw.util[i];
        /* the integrals run in fewer, longer steps: the last bits move */
        util_ok &= a->t_s == b->t_s && a->queue_len == b->queue_len &&
                   near(a->instances_up, b->instances_up, 1e-12) &&
                   near(a->gpus_provisioned, b->gpus_provisioned, 1e-12) &&
                   fabs(a->gpus_busy - b->gpus_busy) <= 1e-9 *
                       fmax(1, a->gpus_provisioned);
    }
    CHECK(util_ok);
    CHECK(ev.npools == kw.npools);
    for (size_t i = 0; i < ev.npools && i < kw.npools; i++) {
        CHECK(near(ev.pools[i].gpu_hours_busy, kw.pools[i].gpu_hours_busy,
                   1e-9));
        CHECK(near(ev.pools[i].gpu_hours_provisioned,
                   kw.pools[i].gpu_hours_provisioned, 1e-12));
    }
    CHECK(ev.ncosts == kw.ncosts);
    for (size_t i = 0; i < ev.ncosts && i < kw.ncosts; i++)
        CHECK(ev.costs[i].cost_usd == kw.costs[i].cost_usd);
    CHECK(ev.nallocs == kw.nallocs);
    double moved = 0;
    for (size_t i = 0; i < ev.nallocs && i < kw.nallocs; i++) {
        moved = fmax(moved, fabs(ev.allocs[i].cost_usd - kw.allocs[i].cost_usd));
        CHECK(near(ev.allocs[i].gpu_hours, kw.allocs[i].gpu_hours, 1e-9));
    }
    CHECK(moved <= 0.011);   /* a cent, when a sum lands on a half cent */
    fs_results_free(&ev);
    fs_results_free(&kw);
}

static void check_against_events(void)
{
    /* the quickstart's trace, on three fixed L4s */
    char trace[1024], text[2048];
    check_path(trace, sizeof trace, "traces/sample/lora_request_trace.csv");
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 31d\nstart = 2026-01-01\nseed = 1\n"
             "metrics_interval = 15m\n"
             "[pool.p]\ngpu = L4\ncount = 3\nprice = 0.7\n"
             "[workload.w]\npools = p\n"
             "arrivals = trace(%s, format=alibaba-lora)\n"
             "statuses = SUCCEED\nrepeat = yes\nservice = trace\n"
             "reference_gpu = L4\nslo_p99 = 5m\n", trace);
    check_same("the LoRA trace on 3 L4s", text);
    check_same("M/M/4 at rho 0.7",
               "[scenario]\nhorizon = 2d\nseed = 3\nmetrics_interval = 5m\n"
               "[pool.p]\ngpu = A100-80GB\ncount = 4\nprice = 4.10\n"
               "[workload.w]\npools = p\narrivals = poisson(rate=2.8/s)\n"
               "service = exponential(mean=1s)\nslo_p99 = 3s\n");
    /* overloaded: a queue of thousands when the horizon cuts it */
    check_same("M/M/2 at rho 1.2, warmup 1h",
               "[scenario]\nhorizon = 6h\nseed = 4\nmetrics_interval = 7m\n"
               "warmup = 1h\n"
               "[pool.p]\ngpu = L4\ncount = 2\nprice = 0.8\n"
               "[workload.w]\npools = p\narrivals = poisson(rate=2.4/s)\n"
               "service = exponential(mean=1s)\nslo_p99 = 30s\n");
    /* constant service: ends tie across servers */
    check_same("M/D/3, 2 GPUs a server",
               "[scenario]\nhorizon = 1d\nseed = 5\nmetrics_interval = 1h\n"
               "[pool.p]\ngpu = H100-80GB\ncount = 3\ngpus_per_instance = 2\n"
               "gpus_per_server = 2\nprice = 9\n"
               "[workload.w]\npools = p\narrivals = poisson(rate=2/s)\n"
               "service = const(1s)\n");
    /* 60 days from the 20th: three calendar months, a reservation */
    check_same("M/M/50 over three months, reserved",
               "[scenario]\nhorizon = 60d\nstart = 2026-01-20\nseed = 6\n"
               "metrics_interval = 1d\n"
               "[pool.p]\ngpu = A100-80GB\ncount = 50\npricing = reserved\n"
               "price = 2.5\nterm = 1y\n"
               "[workload.w]\npools = p\n"
               "arrivals = diurnal(peak=0.5/s, trough=0.1/s, peak_hour=14)\n"
               "service = lognormal(mean=60s, sigma=1)\n");
}

int main(void)
{
    check_recursion_by_hand();
    check_long_queue();
    check_applies();
    check_against_events();
    return check_report("fifo");
}
