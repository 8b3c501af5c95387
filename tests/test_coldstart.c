/* test_coldstart.c -- a launched LLM replica is ready after provisioning,
 * its weights' load and its engine's start-up, to the arithmetic.
 *
 *   - an autoscaled llama-3-70b pool (tp 8) on p4d.24xlarge: every
 *     launch-to-ready is provision_delay + weights / 400 Gbit/s (the
 *     instance's published network bandwidth, instances.csv) + 14 s
 *     (vLLM 0.6's CUDA-graph capture, engines.csv), to 1e-9 s; the same
 *     of llama-2-70b on p5.48xlarge at 3,200 Gbit/s; the pool's counters
 *     agree (cold starts, seconds loading);
 *   - load_time = 90s replaces the load and the start-up;
 *   - scale from zero: the first request's TTFT is its wait for the
 *     autoscaler's tick + provision_delay + load + its prefill alone;
 *   - a spot relaunch pays the load too (instances up at the start do not);
 *   - a pool serving no LLM is as before (no cold start);
 *   - bad load_time values, load_time on a non-LLM pool and a launching
 *     LLM pool whose instance has no bandwidth are refused, naming the key.
 */
#include "tests/check.h"
#include "tests/simulate.h"

#include <math.h>
#include <string.h>

/* Every instance that went up after a launch: launch to ready. */
typedef struct ups {
    int n, started;
    double min, max;
} ups;

static void on_up(void *ctx, fs_capacity *cap, int inst)
{
    ups *u = ctx;
    double d = fs_capacity_now(cap) - cap->inst[inst].launched;
    if (d == 0) {   /* up at the start: no provisioning, no load */
        u->started++;
        return;
    }
    if (u->n++ == 0 || d < u->min)
        u->min = d;
    if (u->n == 1 || d > u->max)
        u->max = d;
}

static const fs_capacity_listener up_listener = {
    .name = "test", .on = {[FS_CAPACITY_UP] = on_up}};

/* Runs text with the listener on pool 0; results in *r, replica in *perf
 * (unless NULL).  A run that fails is a failed check, its results freed. */
static int run_watched(const char *text, ups *u, fs_results *r,
                       fs_llm_perf *perf)
{
    memset(u, 0, sizeof *u);
    fs_results_init(r);
    fs_scenario *sc = check_load(text);
    int rc = !sc || (perf && check_replica(sc, perf)) ? -1 : 0;
    if (rc == 0) {
        fs_error err;
        fs_world w;
        rc = fs_world_init(&w, sc, 0, r, &err);
        if (rc == 0)
            rc = fs_capacity_subscribe(&w.pools[0].cap, &up_listener, u) ||
                 fs_world_start(&w) || fs_world_run(&w) ? -1 : 0;
        if (rc)
            printf("  error: %s\n", w.sim.failed ? w.sim.err->msg : err.msg);
        fs_world_free(&w);
    }
    fs_scenario_free(sc);
    if (rc) {
        CHECK(!"the run failed");
        fs_results_free(r);
    }
    return rc;
}

/* An autoscaled pool from zero at light load: every launch is ready after
 * provision (60 s) + weights / network + startup. */
static void check_closed_form(const char *instance, const char *model,
                              double gbps, int gpus, double startup)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 3h\nseed = 5\n"
             "[pool.p]\ninstance = %s\nautoscale = queue(target=8)\n"
             "min = 0\nmax = 2\nprovision_delay = 60s\ncooldown = 5m\n"
             "[workload.w]\npools = p\narrivals = poisson(rate=0.02/s)\n"
             "service = llm(model=%s, tp=8)\n"
             "tokens_in = const(500)\ntokens_out = const(50)\n",
             instance, model);
    ups u;
    fs_results r;
    fs_llm_perf perf;
    if (run_watched(text, &u, &r, &perf))
        return;
    /* a GPU's shard of the weights over its share of the network */
    double load = perf.weight_bytes / 8 / (gbps * 1e9 / 8 / gpus) + startup;
    const fs_pool_row *p = &r.pools[0];
    printf("  %s, %s: %d launches ready after %.6f..%.6f s (model 60 + "
           "%.3f GB / %.0f Gbit/s + %.0f s = %.6f s); %ld cold starts, "
           "%.3f s loading\n", instance, model, u.n, u.min, u.max,
           perf.weight_bytes / 1e9, gbps, startup, 60 + load,
           p->cold_starts, p->load_s);
    CHECK(u.n >= 2 && u.started == 0);
    CHECK_NEAR(u.min, 60 + load, 1e-9);
    CHECK_NEAR(u.max, 60 + load, 1e-9);
    /* loads cut by a release or the horizon count up to it */
    CHECK(p->cold_starts >= u.n && p->cold_starts <= p->launches);
    CHECK(p->load_s >= u.n * load - 1e-6);
    CHECK(p->load_s <= p->cold_starts * load + 1e-6);
    fs_results_free(&r);
}

/* load_time = 90s: launch to ready = 60 + 90, whatever the weights. */
static void check_override(void)
{
    const char *text =
        "[scenario]\nhorizon = 3h\nseed = 5\n"
        "[pool.p]\ninstance = aws:p4d.24xlarge\nautoscale = queue(target=8)\n"
        "min = 0\nmax = 2\nprovision_delay = 60s\nload_time = 90s\n"
        "[workload.w]\npools = p\narrivals = poisson(rate=0.02/s)\n"
        "service = llm(model=llama-3-70b, tp=8)\n"
        "tokens_in = const(500)\ntokens_out = const(50)\n";
    ups u;
    fs_results r;
    if (run_watched(text, &u, &r, NULL))
        return;
    printf("  load_time = 90s: %d launches ready after %.6f..%.6f s\n", u.n,
           u.min, u.max);
    CHECK(u.n >= 2);
    CHECK(u.min == 150 && u.max == 150);
    fs_results_free(&r);
}

/* One request at the start (a trace's first row is t = 0) to an empty
 * pool: the autoscaler sees it at its 60 s tick, launches, the replica is
 * ready 60 s + load later and prefills the prompt alone. */
static void check_from_zero(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\n"
             "[pool.p]\ninstance = aws:p4d.24xlarge\nautoscale = "
             "queue(target=8)\nmin = 0\nmax = 1\nprovision_delay = 60s\n"
             "autoscale_interval = 60s\n"
             "[workload.w]\npools = p\narrivals = trace(%s, format=generic, "
             "tokens_in=in, tokens_out=out)\n"
             "service = llm(model=llama-3-70b, tp=8)\n",
             check_temp_csv("time,in,out", "0,500,10\n"));
    ups u;
    fs_results r;
    fs_llm_perf perf;
    if (run_watched(text, &u, &r, &perf))
        return;
    double load = perf.weight_bytes / 8 / (400e9 / 8 / 8) + 14;
    double prefill = fs_llm_iteration_time(&perf, 500, 500.0 * 501 / 2, 0, 0);
    /* + the step that hands the first token out (vLLM's output_lag): at
     * the request's time per output token, its 9 decode steps alone */
    double decode = 0;
    for (int g = 1; g < 10; g++)
        decode += fs_llm_iteration_time(&perf, 0, 0, 1, 500 + g);
    double ttft = 60 + 60 + load + prefill + perf.output_lag * decode / 9;
    const fs_latency_row *l = &r.latency[0];
    printf("  from zero: TTFT %.6f s = wait for the tick 60 s + provision "
           "60 s + load %.6f s + prefill %.6f s (%.6f s)\n",
           l->llm.ttft_mean_s, load, prefill, ttft);
    CHECK(l->count == 1);
    CHECK_NEAR(l->llm.ttft_mean_s, ttft, 1e-9);
    CHECK(r.pools[0].cold_starts == 1);
    CHECK_NEAR(r.pools[0].load_s, load, 1e-9);
    /* billed from the launch, busy only while serving: the load is idle */
    CHECK(r.pools[0].gpu_hours_busy * 3600 < 8 * 10.0);
    CHECK(r.pools[0].gpu_hours_provisioned * 3600 > 8 * (60 + load));
    fs_results_free(&r);
}

/* One spot g6.xlarge taken at 50 s, back at 60 s: the relaunch is ready
 * after 20 s + llama-2-7b's 13.5 GB over 10 Gbit/s + 14 s; the instance
 * up at the start loaded nothing. */
static void check_spot(void)
{
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\n"
             "[pool.s]\ninstance = aws:g6.xlarge\npricing = spot\n"
             "count = 1\nprovision_delay = 20s\ninterruption = trace(%s)\n"
             "[workload.w]\npools = s\narrivals = poisson(rate=0.05/s)\n"
             "service = llm(model=llama-2-7b, precision=bf16)\n"
             "tokens_in = const(200)\ntokens_out = const(20)\n",
             check_temp_csv("t_seconds,available", "0,1\n50,0\n60,1\n4000,1\n"));
    ups u;
    fs_results r;
    fs_llm_perf perf;
    if (run_watched(text, &u, &r, &perf))
        return;
    double load = perf.weight_bytes / (10e9 / 8) + 14;
    printf("  spot relaunch: %d ready after %.6f s (model 20 + %.6f s), "
           "%d up at the start\n", u.n, u.max, load, u.started);
    CHECK(u.started == 1 && u.n == 1);
    CHECK_NEAR(u.max, 20 + load, 1e-9);
    CHECK(r.pools[0].cold_starts == 1);
    fs_results_free(&r);
}

/* A pool of plain servers launches as before: ready after provision_delay,
 * no cold start counted. */
static void check_plain(void)
{
    const char *text =
        "[scenario]\nhorizon = 2h\nseed = 2\n"
        "[pool.p]\ninstance = aws:p4d.24xlarge\nautoscale = queue(target=2)\n"
        "min = 0\nmax = 3\nprovision_delay = 45s\n"
        "[workload.w]\npools = p\narrivals = poisson(rate=0.5/s)\n"
        "service = exponential(mean=2s)\n";
    ups u;
    fs_results r;
    if (run_watched(text, &u, &r, NULL))
        return;
    CHECK(u.n >= 1 && u.min == 45 && u.max == 45);
    CHECK(r.pools[0].cold_starts == 0 && r.pools[0].load_s == 0);
    fs_results_free(&r);
}

static void check_refused(const char *pool_keys, const char *service,
                          const char *part)
{
    char text[1024], msg[1024] = "";
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\n"
             "[pool.p]\n%s\n"
             "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n"
             "service = %s\n%s", pool_keys, service,
             strncmp(service, "llm(", 4) ? ""
                 : "tokens_in = const(100)\ntokens_out = const(10)\n");
    char path[] = "/tmp/fleetsim-cold-XXXXXX.ini";
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    fs_error err;
    fs_scenario *sc = fs_scenario_load(path, NULL, 0, &err);
    if (!sc)
        snprintf(msg, sizeof msg, "%s", err.msg);
    printf("  refused: %s\n", msg);
    CHECK(sc == NULL);
    CHECK_CONTAINS(msg, part);
    CHECK_CONTAINS(msg, path);
    fs_scenario_free(sc);
    unlink(path);
}

static void check_errors(void)
{
    const char *llm = "llm(model=llama-2-7b)";
    const char *auto_pool = "instance = aws:g6.xlarge\n"
                            "autoscale = queue(target=4)\nmax = 2";
    char keys[256];
    static const char *const bad[] = {"-5s", "nan", "inf", "soon"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(keys, sizeof keys, "%s\nload_time = %s", auto_pool, bad[i]);
        check_refused(keys, llm, ":7: pool.p.load_time:");
    }
    check_refused("instance = aws:g6.xlarge\ncount = 1\nload_time = 30s",
                  "exponential(mean=1s)", "pool.p.load_time: applies to "
                  "pools serving llm(...) only");
    check_refused("instance = azure:Standard_NC6s_v3\n"
                  "autoscale = queue(target=4)\nmax = 2", "llm(model="
                  "llama-2-7b, precision=fp16)", "load_time = DURATION");
}

int main(void)
{
    check_closed_form("aws:p4d.24xlarge", "llama-3-70b", 400, 8, 14);
    check_closed_form("aws:p5.48xlarge", "llama-2-70b", 3200, 8, 14);
    check_override();
    check_from_zero();
    check_spot();
    check_plain();
    check_errors();
    check_temp_csv_remove();
    return check_report("coldstart");
}
