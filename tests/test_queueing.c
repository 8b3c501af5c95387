/* test_queueing.c -- the simulator against queueing theory.
 *
 * M/M/c mean wait against Erlang C at three loads, and utilization against
 * lambda / (c mu); M/D/1 and M/M/1 mean wait against Pollaczek-Khinchine;
 * M/M/1 sojourn percentiles against the exponential law; and the effect of
 * batching.  Each run is long (>= 1M customers) and seeded, so the results
 * are reproducible; the tolerances are several standard errors of the
 * estimates (batch-means estimates of the standard error at these lengths
 * are 1-2% for the waits). */
#include "tests/check.h"
#include "tests/simulate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Erlang C: probability that an arrival waits in M/M/c, a = lambda/mu. */
static double erlang_c(int c, double a)
{
    double term = 1, sum = 1;   /* sum_{k<c} a^k/k! */
    for (int k = 1; k < c; k++) {
        term *= a / k;
        sum += term;
    }
    double last = term * a / c;   /* a^c / c! */
    double rho = a / c;
    return last / (1 - rho) / (sum + last / (1 - rho));
}

static double pool_utilization(const fs_results *r)
{
    return r->pools[0].gpu_hours_busy / r->pools[0].gpu_hours_provisioned;
}

static void check_mmc(int c, double rho, double customers)
{
    double mu = 1, lambda = rho * c * mu;
    double horizon = customers / lambda;
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = %.0fs\nseed = 11\nmetrics_interval = 1d\n"
             "[pool.p]\ngpu = A100-80GB\ncount = %d\nprice = 1\n"
             "[workload.w]\npools = p\narrivals = poisson(rate=%.6f/s)\n"
             "service = exponential(mean=1s)\n", horizon, c, lambda);
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        double wq = erlang_c(c, lambda / mu) / (c * mu - lambda);
        double w = r.latency[0].wait_mean_s;
        printf("  M/M/%d rho=%.2f: wait %.5f vs Erlang C %.5f (%+.2f%%), "
               "utilization %.5f vs %.5f, %ld customers\n", c, rho, w, wq,
               (w / wq - 1) * 100, pool_utilization(&r), rho,
               r.latency[0].count);
        CHECK(fabs(w / wq - 1) < 0.05);
        CHECK(fabs(pool_utilization(&r) / rho - 1) < 0.015);
        CHECK(fabs(r.latency[0].mean_s - (wq + 1 / mu)) / (wq + 1) < 0.03);
        CHECK(fabs((double)r.latency[0].count / customers - 1) < 0.01);
    } else {
        CHECK(!"M/M/c run failed");
    }
    fs_results_free(&r);
}

/* M/G/1 with service mean s and second moment s2: P-K mean wait. */
static void check_mg1(const char *service, double s, double s2, double rho)
{
    double lambda = rho / s;
    double customers = 2e6;
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = %.0fs\nseed = 5\nmetrics_interval = 1d\n"
             "[pool.p]\ngpu = L4\ncount = 1\nprice = 1\n"
             "[workload.w]\npools = p\narrivals = poisson(rate=%.6f/s)\n"
             "service = %s\nslo_p99 = 10s\n", customers / lambda, lambda,
             service);
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        double wq = lambda * s2 / (2 * (1 - rho));
        double w = r.latency[0].wait_mean_s;
        printf("  M/G/1 %s rho=%.2f: wait %.5f vs P-K %.5f (%+.2f%%)\n",
               service, rho, w, wq, (w / wq - 1) * 100);
        CHECK(fabs(w / wq - 1) < 0.05);
        CHECK(fabs(pool_utilization(&r) / rho - 1) < 0.015);
        if (strncmp(service, "exponential", 11) == 0) {
            /* M/M/1 sojourn time is exponential with rate mu - lambda. */
            double rate = 1 / s - lambda;
            double p50 = log(2) / rate, p99 = log(100) / rate;
            printf("    sojourn p50 %.4f vs %.4f, p99 %.4f vs %.4f, "
                   "P(T<=10s) %.5f vs %.5f\n", r.latency[0].p50_s, p50,
                   r.latency[0].p99_s, p99, r.latency[0].slo_attainment,
                   1 - exp(-rate * 10));
            CHECK(fabs(r.latency[0].p50_s / p50 - 1) < 0.03);
            CHECK(fabs(r.latency[0].p99_s / p99 - 1) < 0.03);
            CHECK(fabs(r.latency[0].slo_attainment - (1 - exp(-rate * 10)))
                  < 0.003);
        }
    } else {
        CHECK(!"M/G/1 run failed");
    }
    fs_results_free(&r);
}

/* Batching: 100 requests/s of linear(base=10ms, per_item=5ms) work on one
 * server.  One at a time the load is 100 x 15ms = 1.5 (unstable); with
 * batch_max 32 and batch_wait 20ms the server keeps up: its busy fraction
 * is 100 x 5ms = 0.5 plus 10ms per batch, so between 0.5 and 1. */
static void check_batching(void)
{
    const char *text =
        "[scenario]\nhorizon = 2h\nseed = 3\nmetrics_interval = 1h\n"
        "[pool.p]\ngpu = A100-80GB\ncount = 1\nprice = 1\n"
        "[workload.w]\npools = p\narrivals = poisson(rate=100/s)\n"
        "service = linear(base=10ms, per_item=5ms)\nbatch_max = 32\n"
        "batch_wait = 20ms\n";
    fs_results r;
    if (check_simulate(text, &r) == 0) {
        double u = pool_utilization(&r);
        printf("  batching: utilization %.4f, mean latency %.4fs, p99 "
               "%.4fs, %ld served, %ld unfinished\n", u,
               r.latency[0].mean_s, r.latency[0].p99_s, r.latency[0].count,
               r.latency[0].unfinished);
        CHECK(u > 0.5 && u < 0.95);
        CHECK(r.latency[0].unfinished < 100);
        CHECK(r.latency[0].mean_s < 0.2);
    } else {
        CHECK(!"batching run failed");
    }
    fs_results_free(&r);
}

int main(void)
{
    check_mmc(4, 0.5, 1e6);
    check_mmc(4, 0.7, 2e6);
    check_mmc(4, 0.85, 4e6);
    check_mmc(1, 0.7, 2e6);
    check_mg1("const(1s)", 1, 1, 0.7);                       /* M/D/1 */
    check_mg1("const(500ms)", 0.5, 0.25, 0.5);
    check_mg1("exponential(mean=1s)", 1, 2, 0.7);            /* M/M/1 */
    check_mg1("lognormal(mean=1s, sigma=1)", 1, exp(1), 0.6); /* M/LN/1 */
    check_batching();
    return check_report("queueing");
}
