/* test_sharing.c -- replicas sharing a GPU against processor sharing.
 *
 * Time-slicing with one replica busy runs exactly as the whole GPU (a
 * trace whose requests never overlap: each latency is its service time on
 * both); two overlapping requests follow processor sharing by hand,
 * with and without the interference factor; a time-sliced GPU with
 * enough replicas is M/M/1-PS, mean sojourn 1/(mu - lambda), and busy
 * exactly while anyone is (utilization = rho); MPS caps each client at
 * its SM share. */
#include "check.h"
#include "simulate.h"

#include <stdio.h>

static double g_mean, g_util, g_wait;

/* Runs pool keys extra with one workload; 0 with g_* set. */
static int run(const char *pool_extra, const char *arrivals,
               const char *service, const char *horizon)
{
    char text[2048];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = %s\n[pool.g]\ngpu = A100-80GB\n"
             "price = 4\n%s\n[workload.w]\npools = g\narrivals = %s\n"
             "service = %s\n", horizon, pool_extra, arrivals, service);
    fs_results out;
    int rc = check_simulate(text, &out);
    if (rc == 0) {
        g_mean = out.latency[0].mean_s;
        g_wait = out.latency[0].wait_mean_s;
        g_util = out.pools[0].gpu_hours_busy /
                 out.pools[0].gpu_hours_provisioned;
    }
    fs_results_free(&out);
    return rc;
}

static void test_alone(void)
{
    char path[1024], arr[1200];
    check_path(path, sizeof path, "tests/data/sharing_alone.csv");
    snprintf(arr, sizeof arr, "trace(%s, format=generic, time=t, "
             "service=s)", path);
    /* (1 + 2 + 0.5 + 3) / 4 on both. */
    CHECK(run("", arr, "trace", "1h") == 0);
    CHECK_NEAR(g_mean, 6.5 / 4, 1e-9);
    CHECK(run("sharing = timeslice(4)", arr, "trace", "1h") == 0);
    CHECK_NEAR(g_mean, 6.5 / 4, 1e-9);
    CHECK_NEAR(g_util, 6.5 / 3600, 1e-9);
}

static void test_pair(void)
{
    char path[1024], arr[1200];
    check_path(path, sizeof path, "tests/data/sharing_pair.csv");
    snprintf(arr, sizeof arr, "trace(%s, format=generic, time=t, "
             "service=s)", path);
    /* 0 to 0.5 alone; then both at 1/2: the first ends at 1.5, the
     * second has 0.5 left and ends alone at 2.0. */
    CHECK(run("sharing = timeslice(2)\ntimeslice_efficiency = 1", arr,
              "trace", "1h") == 0);
    CHECK_NEAR(g_mean, 1.5, 1e-9);
    CHECK_NEAR(g_util, 2.0 / 3600, 1e-9);
    /* At 0.9: both at 0.45 from 0.5, the first ends after 0.5 / 0.45 s,
     * the second then has 0.5 left alone. */
    CHECK(run("sharing = timeslice(2)\ntimeslice_efficiency = 0.9", arr,
              "trace", "1h") == 0);
    double t1 = 0.5 + 0.5 / 0.45, t2 = t1 + 0.5;
    CHECK_NEAR(g_mean, (t1 + (t2 - 0.5)) / 2, 1e-9);
    /* MPS at a quarter of the SMs each: 4 s per 1 s request, side by
     * side; the GPU is a quarter busy per client. */
    CHECK(run("sharing = mps(4)", arr, "trace", "1h") == 0);
    CHECK_NEAR(g_mean, 4, 1e-9);
    CHECK_NEAR(g_util, (0.25 * 4 + 0.25 * 4) / 3600, 1e-9);
}

/* M/M/1-PS: mu = 1/s, lambda = 0.5/s, mean sojourn 1/(mu - lambda) = 2 s
 * (48 replicas: more than 48 in the system has probability 0.5^49).  Over
 * 40 days (1.7 million requests) the mean's standard error is about 0.3%
 * (PS sojourn variance, Kleinrock); 3% is ten of them. */
static void test_mm1_ps(void)
{
    CHECK(run("sharing = timeslice(48)\ntimeslice_efficiency = 1",
              "poisson(rate=0.5/s)", "exponential(mean=1s)", "40d") == 0);
    printf("  M/M/1-PS: mean sojourn %.4f s (2 s), utilization %.4f "
           "(0.5)\n", g_mean, g_util);
    CHECK_NEAR(g_mean, 2.0, 0.06);
    CHECK_NEAR(g_util, 0.5, 0.01);
    /* No request waits in a queue: each starts on its own replica. */
    CHECK_NEAR(g_wait, 0, 1e-12);
}

int main(void)
{
    test_alone();
    test_pair();
    test_mm1_ps();
    return check_report("sharing");
}
