/* lean_mm4.c -- the yardstick for fleetsim's M/M/c figure: the same queue
 * as bench/run's (FIFO, c servers, Poisson arrivals, exponential service)
 * written as the plainest fast C a programmer would write for this one
 * queue and nothing else: no event list, no database, no histogram.
 *
 * A FIFO M/M/c queue needs no events: customer n starts at
 * max(arrival, the earliest time a server frees up) (the Kiefer-Wolfowitz
 * recursion), so the loop keeps the c servers' free times and, per
 * customer, draws two exponentials and finds a minimum.  The generator is
 * xoshiro256++ (seeded by splitmix64), the exponentials -log(u) of a
 * uniform in (0, 1].  It prints the same figures as bench/mm4_simpy.py so
 * bench/run can put the three side by side.
 *
 * usage: lean_mm4 SERVERS ARRIVAL_RATE MEAN_SERVICE HORIZON_S SEED
 * prints: customers=N wait_mean_s=W seconds=T customers_per_s=R */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_SERVERS 64

static uint64_t s[4];

static uint64_t rotl(uint64_t x, int k) { return x << k | x >> (64 - k); }

static uint64_t next(void)
{
    uint64_t r = rotl(s[0] + s[3], 23) + s[0], t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Exponential of the given mean: -mean log(u), u uniform in (0, 1]. */
static double expo(double mean)
{
    return -mean * log((double)((next() >> 11) + 1) * 0x1.0p-53);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: lean_mm4 SERVERS ARRIVAL_RATE MEAN_SERVICE "
                "HORIZON_S SEED\n");
        return 2;
    }
    int c = atoi(argv[1]);
    double rate = atof(argv[2]), mean = atof(argv[3]), horizon = atof(argv[4]);
    uint64_t seed = strtoull(argv[5], NULL, 10);
    if (c < 1 || c > MAX_SERVERS || !(rate > 0) || !(mean > 0)) {
        fprintf(stderr, "lean_mm4: 1 to %d servers, positive rates\n",
                MAX_SERVERS);
        return 2;
    }
    for (int i = 0; i < 4; i++)
        s[i] = splitmix64(&seed);
    double t0 = now(), free_at[MAX_SERVERS] = {0}, t = 0, wait = 0;
    long n = 0;
    for (;;) {
        t += expo(1 / rate);
        if (t >= horizon)
            break;
        int k = 0;
        for (int i = 1; i < c; i++)
            if (free_at[i] < free_at[k])
                k = i;
        double start = free_at[k] > t ? free_at[k] : t;
        wait += start - t;
        free_at[k] = start + expo(mean);
        n++;
    }
    double secs = now() - t0;
    printf("customers=%ld wait_mean_s=%.5f seconds=%.3f customers_per_s=%.0f\n",
           n, wait / (n ? n : 1), secs, n / secs);
    return 0;
}
