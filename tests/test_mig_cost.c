/* test_mig_cost.c -- what MIG pools cost and where it goes.
 *
 * Each slice's idle share is a cost_allocation row of its own, with exact
 * figures: an A100-80GB at $10.80 an hour cut 3g.40gb+4g.40gb for 10 h
 * bills $108.00; 3,600 requests of 1 s (whole GPU) on the 3g are 1 busy
 * GPU-hour ($10.80); the 3g's idle is 10 h x 42/108 - 1 h = 2.8889 h
 * ($31.20), the 4g's 10 h x 56/108 ($56.00), and the 10 SMs outside both
 * slices 10 h x 10/108 ($10.00).
 *
 * An autoscaled MIG pool launches whole GPUs with all their slices: 21
 * requests at t = 0 of 700 s (whole GPU, 5,400 s on a 1g.10gb) on a
 * 1g.10gb*7 pool with queue(target=7), min 1, max 3 make it launch two
 * more at the first decision (t = 60 s); with a 3 h cooldown nothing
 * scales in before the 2 h horizon, so it bills 7,200 + 2 x 7,140 GPU-
 * seconds (5.9667 GPU-hours, $21.48 at $3.60), holds 7 x that in
 * slice-hours, and its slices are busy 21 x 5,400 s = 31.5 slice-hours,
 * 21 x 700 s = 4.0833 GPU-hours. */
#include "check.h"
#include "simulate.h"

#include <string.h>

/* A trace CSV of n arrivals every `every` seconds from 0; 0 or -1. */
static int write_trace(char *path, int n, int every)
{
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fprintf(f, "time\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%d\n", i * every);
    return fclose(f) == 0 ? 0 : -1;
}

/* The cost of pool-month rows of allocation for a profile (NULL: the
 * rows without one) and, in *h, their GPU-hours. */
static double alloc_usd(const fs_results *r, const char *workload,
                        const char *profile, double *h)
{
    double usd = 0;
    *h = 0;
    for (size_t i = 0; i < r->nallocs; i++) {
        const fs_alloc_row *a = &r->allocs[i];
        if (strcmp(a->workload, workload) == 0 &&
            strcmp(a->profile, profile ? profile : "") == 0) {
            usd += a->cost_usd;
            *h += a->gpu_hours;
        }
    }
    return usd;
}

/* Every pool-month: allocated + idle = its bill, to the cent. */
static void check_sums(const fs_results *r)
{
    for (size_t i = 0; i < r->ncosts; i++) {
        double sum = 0;
        for (size_t j = 0; j < r->nallocs; j++)
            if (strcmp(r->allocs[j].month, r->costs[i].month) == 0 &&
                strcmp(r->allocs[j].pool, r->costs[i].pool) == 0)
                sum += r->allocs[j].cost_usd;
        CHECK_NEAR(sum, r->costs[i].cost_usd, 0.005);
    }
}

static void test_slice_idle(void)
{
    char trace[] = "/tmp/fleetsim-test-XXXXXX.csv", text[1024];
    if (!CHECK(write_trace(trace, 3600, 10) == 0))
        return;
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 10h\n"
             "[pool.a]\ngpu = A100-80GB\nprice = 10.8\n"
             "mig = 3g.40gb+4g.40gb\n"
             "[workload.w]\npools = a\nmig_profile = 3g.40gb\n"
             "arrivals = trace(%s, format=generic)\nservice = const(1s)\n",
             trace);
    fs_results out;
    int rc = check_simulate(text, &out);
    unlink(trace);
    if (!CHECK(rc == 0)) {
        fs_results_free(&out);
        return;
    }
    double h;
    CHECK_NEAR(out.costs[0].cost_usd, 108.00, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "w", NULL, &h), 10.80, 1e-9);
    CHECK_NEAR(h, 1.0, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "3g.40gb", &h), 31.20, 1e-9);
    CHECK_NEAR(h, 10.0 * 42 / 108 - 1, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "4g.40gb", &h), 56.00, 1e-9);
    CHECK_NEAR(h, 10.0 * 56 / 108, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", NULL, &h), 10.00, 1e-9);
    CHECK_NEAR(h, 10.0 * 10 / 108, 1e-9);
    CHECK(out.nallocs == 4);
    check_sums(&out);
    /* the same split as slice_utilization's idle cost */
    for (size_t i = 0; i < out.nslices; i++)
        CHECK_NEAR(out.slices[i].idle_cost_usd,
                   alloc_usd(&out, "", out.slices[i].profile, &h), 0.005);
    fs_results_free(&out);
}

static void test_autoscale(void)
{
    char trace[] = "/tmp/fleetsim-test-XXXXXX.csv", text[1024];
    if (!CHECK(write_trace(trace, 21, 0) == 0))
        return;
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2h\n"
             "[pool.a]\ngpu = A100-80GB\nprice = 3.6\nmig = 1g.10gb*7\n"
             "autoscale = queue(target=7)\nmin = 1\nmax = 3\ncooldown = 3h\n"
             "[workload.w]\npools = a\n"
             "arrivals = trace(%s, format=generic)\nservice = const(700s)\n",
             trace);
    fs_results out;
    int rc = check_simulate(text, &out);
    unlink(trace);
    if (!CHECK(rc == 0)) {
        fs_results_free(&out);
        return;
    }
    double gpu_h = (7200.0 + 2 * 7140) / 3600, h;
    CHECK(out.npools == 1 && out.pools[0].launches == 3);
    CHECK_NEAR(out.pools[0].gpu_hours_provisioned, gpu_h, 1e-9);
    CHECK_NEAR(out.costs[0].gpu_hours, gpu_h, 1e-9);
    CHECK_NEAR(out.costs[0].cost_usd, 21.48, 1e-9);
    /* whole GPUs with all their slices, each busy for its requests */
    CHECK(out.nslices == 1 && out.slices[0].slices_per_gpu == 7);
    CHECK_NEAR(out.slices[0].slice_hours, 7 * gpu_h, 1e-9);
    CHECK_NEAR(out.slices[0].busy_hours, 21 * 5400.0 / 3600, 1e-9);
    CHECK_NEAR(out.pools[0].gpu_hours_busy, 21 * 700.0 / 3600, 1e-9);
    CHECK(out.latency[0].count == 21);
    /* 7 served at once, 14 after the two launched at 60 s are up (3 min
     * provisioning): the last finish at 240 + 5,400 s */
    CHECK_NEAR(out.latency[0].p99_s, 5640, 1);
    double most = 0;
    for (size_t i = 0; i < out.nutil; i++)
        if (out.util[i].gpus_provisioned > most)
            most = out.util[i].gpus_provisioned;
    CHECK_NEAR(most, 3, 1e-9);
    /* cost follows: the workload's busy share, the slices' idle, the
     * SMs outside them */
    CHECK_NEAR(alloc_usd(&out, "w", NULL, &h), 14.70, 1e-9);
    CHECK_NEAR(h, 21 * 700.0 / 3600, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "1g.10gb", &h), 4.79, 1e-9);
    CHECK_NEAR(h, gpu_h * 98 / 108 - 21 * 700.0 / 3600, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", NULL, &h), 1.99, 1e-9);
    CHECK_NEAR(h, gpu_h * 10 / 108, 1e-9);
    check_sums(&out);
    fs_results_free(&out);
}

int main(void)
{
    test_slice_idle();
    test_autoscale();
    return check_report("mig_cost");
}
