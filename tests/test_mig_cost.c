/* test_mig_cost.c -- what MIG pools cost and where it goes.
 *
 * A busy slice counts as its compute share, compute slices over the
 * GPU's (NVIDIA's MIG User Guide: an A100 has 7), in utilization and in
 * cost; it runs at its SM share (3g: 42 of 108 SMs).  Each slice's idle
 * share is a cost_allocation row of its own, with exact figures: an
 * A100-80GB at $10.80 an hour cut 3g.40gb+4g.40gb for 10 h bills $108.00;
 * 3,600 requests of 1 s (whole GPU) take 108/42 s each on the 3g, busy
 * 3,600 x 108/42 x 3/7 s = 54/49 GPU-hours = 1.102041 h ($10.80 x 54/49 =
 * $11.902 -> $11.90); the 3g's idle is 10 h x 3/7 - 54/49 h = 156/49 h =
 * 3.183673 h ($34.384 -> $34.38), the 4g's 10 h x 4/7 = 5.714286 h
 * ($61.714 -> $61.71), and the row without a profile, the compute slices
 * outside both (none: 3 + 4 = 7), holds only the cent of rounding:
 * $108.00 - 11.90 - 34.38 - 61.71 = $0.01 and 0 GPU-hours.  (Counted by
 * SMs, as before schema version 15, the 10 SMs outside both slices were
 * an idle $10.00 no workload could use.)
 *
 * An autoscaled MIG pool launches whole GPUs with all their slices: 21
 * requests at t = 0 of 700 s (whole GPU, 5,400 s on a 1g.10gb's 14 of 108
 * SMs) on a 1g.10gb*7 pool with queue(target=7), min 1, max 3 make it
 * launch two more at the first decision (t = 60 s); with a 3 h cooldown
 * nothing scales in before the 2 h horizon, so it bills 7,200 + 2 x 7,140
 * GPU-seconds (5.9667 GPU-hours, $21.48 at $3.60), holds 7 x that in
 * slice-hours, and its slices are busy 21 x 5,400 s = 31.5 slice-hours,
 * at 1/7 each 4.5 GPU-hours ($3.60 x 4.5 = $16.20); by SMs 21 x 5,400 x
 * 14/108 s = 21 x 700 s = 4.0833 GPU-hours. */
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
    /* 1 h of whole-GPU work at the 3g's 42/108 speed and 3/7 share */
    CHECK_NEAR(alloc_usd(&out, "w", NULL, &h), 11.90, 1e-9);
    CHECK_NEAR(h, 54.0 / 49, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "3g.40gb", &h), 34.38, 1e-9);
    CHECK_NEAR(h, 10.0 * 3 / 7 - 54.0 / 49, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "4g.40gb", &h), 61.71, 1e-9);
    CHECK_NEAR(h, 10.0 * 4 / 7, 1e-9);
    /* no compute slice outside the layout: the cent of rounding only */
    CHECK_NEAR(alloc_usd(&out, "", NULL, &h), 0.01, 1e-9);
    CHECK_NEAR(h, 0, 1e-9);
    /* the pool's busy GPU-hours by compute share, and by SMs: 1 h */
    CHECK_NEAR(out.pools[0].gpu_hours_busy, 54.0 / 49, 1e-9);
    CHECK_NEAR(out.pools[0].gpu_hours_busy_sm, 1.0, 1e-9);
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
    CHECK_NEAR(out.pools[0].gpu_hours_busy, 21 * 5400.0 / 7 / 3600, 1e-9);
    CHECK_NEAR(out.pools[0].gpu_hours_busy_sm, 21 * 700.0 / 3600, 1e-9);
    CHECK(out.latency[0].count == 21);
    /* 7 served at once, 14 after the two launched at 60 s are up (3 min
     * provisioning): the last finish at 240 + 5,400 s */
    CHECK_NEAR(out.latency[0].p99_s, 5640, 1);
    double most = 0;
    for (size_t i = 0; i < out.nutil; i++)
        if (out.util[i].gpus_provisioned > most)
            most = out.util[i].gpus_provisioned;
    CHECK_NEAR(most, 3, 1e-9);
    /* cost follows: the workload's busy share, 4.5 of 5.9667 GPU-hours
     * ($21.48 x 4.5 / 5.9667 = $16.20), the slices' idle, 5.9667 x 7 x
     * 1/7 - 4.5 = 1.4667 h ($5.28), and nothing outside them: $21.48 -
     * 16.20 - 5.28 = $0.00 */
    CHECK_NEAR(alloc_usd(&out, "w", NULL, &h), 16.20, 1e-9);
    CHECK_NEAR(h, 4.5, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", "1g.10gb", &h), 5.28, 1e-9);
    CHECK_NEAR(h, gpu_h - 4.5, 1e-9);
    CHECK_NEAR(alloc_usd(&out, "", NULL, &h), 0.00, 1e-9);
    CHECK_NEAR(h, 0, 1e-9);
    check_sums(&out);
    fs_results_free(&out);
}

int main(void)
{
    test_slice_idle();
    test_autoscale();
    return check_report("mig_cost");
}
