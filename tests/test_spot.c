/* test_spot.c -- spot pools: interruptions, billing, trace replay, the
 * on-demand fallback, and the lifetime fits of `fleetsim trace fit`.
 *
 *   - 20 instances, exponential(mean=10h) lifetimes, instant replacement,
 *     30 days: about 20 x 720 h / 10 h = 1440 interruptions (a Poisson
 *     count: within 4 standard deviations, sqrt(1440) = 37.9), and the
 *     bill exactly 20 x 720 h x $1.00 (per second, nothing after an
 *     interruption, no gap when the replacement is instant);
 *   - with spot_extra 1, the fallback replaces only the missing count,
 *     never the extra (SpotHedge): exact hours and dollars;
 *   - a trace drop takes a running instance; the fallback pool launches
 *     after fallback_after and gives its instance back when spot returns:
 *     every second and dollar worked out by hand;
 *   - Weibull(shape 0.8, scale 20 h) lifetimes drawn with GSL: the fit
 *     recovers shape and scale within 10%, the exponential fit the mean;
 *   - empirical lifetimes of exactly 1 h: 9 interruptions in 10 h, with a
 *     2-minute notice each;
 *   - a price trace: each second billed at the price in force, nothing
 *     while the instance is gone;
 *   - a trace probed every 32 s gives each drop its full 2-minute notice
 *     (the rows that repeat the value before it do not cut it to 32 s),
 *     drops 32 s apart too, and a drop 64 s after the rise that brought
 *     its instance back gets those 64 s;
 *   - lifetimes of a small preemption trace, censoring included;
 *   - a run whose engine cannot schedule an event fails cleanly wherever
 *     that happens, the spot schedules included (as test_engine_fail). */
#include "tests/check.h"
#include "tests/simulate.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>
#include "models/dist/lifetime_fit.h"
#include "traces/spot_trace.h"

static char tmp[12][64];
static int ntmp;

static const char *write_tmp(const char *text)
{
    char *path = tmp[ntmp++];
    snprintf(path, sizeof tmp[0], "/tmp/fleetsim-spot-XXXXXX.csv");
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        printf("  error: cannot write %s\n", path);
    return path;
}

static double total_cost(const fs_results *r, const char *pool)
{
    double s = 0;
    for (size_t i = 0; i < r->ncosts; i++)
        if (!pool || strcmp(r->costs[i].pool, pool) == 0)
            s += r->costs[i].cost_usd;
    return s;
}

static void check_exponential(void)
{
    fs_results r;
    int rc = check_simulate(
        "[scenario]\nhorizon = 30d\nseed = 1\nmetrics_interval = 1h\n"
        "[pool.s]\ngpu = L4\npricing = spot\nprice = 1.00\ncount = 20\n"
        "provision_delay = 0s\ninterruption = exponential(mean=10h)\n"
        "[workload.w]\npools = s\narrivals = poisson(rate=0.01/s)\n"
        "service = exponential(mean=10s)\n", &r);
    CHECK(rc == 0);
    if (rc == 0) {
        long n = r.pools[0].interruptions;
        double cost = total_cost(&r, NULL);
        printf("  exponential: %ld interruptions (1440 +- 152), $%.2f "
               "(20 x 720 h x $1 = $14400)\n", n, cost);
        CHECK(fabs((double)n - 1440) <= 4 * sqrt(1440.0));
        CHECK(fabs(cost - 14400) <= 0.005 * 14400);
        CHECK(fabs(cost - 14400) < 0.01);   /* exactly, to the cent */
        CHECK((long)r.ninterrupts == n);
        CHECK(r.pools[0].launches == 20 + n);
        CHECK(r.ninterrupts > 0 && r.interrupts[0].notice_s == 0);
    }
    fs_results_free(&r);
}

/* Spot s (1 instance, $36/h = 1 cent a second) loses its instance at
 * 100 s and gets one back at 400 s; od (on-demand, count 0, $36/h) is
 * its fallback after 60 s: 160 s to 400 s.  Horizon 600 s. */
static void check_fallback(void)
{
    const char *tr = write_tmp("t_seconds,available\n0,1\n100,0\n400,1\n"
                               "1000,1\n");
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 600s\nmetrics_interval = 1m\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 36\ncount = 1\n"
             "provision_delay = 0s\ninterruption = trace(%s)\n"
             "fallback = od\nfallback_after = 60s\n"
             "[pool.od]\ngpu = L4\nprice = 36\ncount = 0\n"
             "provision_delay = 0s\n"
             "[workload.w]\npools = s, od\narrivals = poisson(rate=0.0001/s)\n"
             "service = const(1s)\n", tr);
    fs_results r;
    int rc = check_simulate(text, &r);
    CHECK(rc == 0 && r.npools == 2);
    if (rc == 0 && r.npools == 2) {
        const fs_pool_row *s = &r.pools[0], *od = &r.pools[1];
        printf("  fallback: %ld interruption, %.0f s on demand, spot $%.2f, "
               "on-demand $%.2f\n", s->interruptions,
               s->fallback_hours * 3600, total_cost(&r, "s"),
               total_cost(&r, "od"));
        CHECK(s->interruptions == 1 && s->launches == 2);
        CHECK(fabs(s->fallback_hours * 3600 - 240) < 1e-9);
        CHECK(fabs(s->fallback_cost_usd - 2.40) < 1e-9);
        CHECK(od->launches == 1);
        CHECK(fabs(total_cost(&r, "s") - 3.00) < 1e-9);   /* 100 + 200 s */
        CHECK(fabs(total_cost(&r, "od") - 2.40) < 1e-9);  /* 160 -> 400 s */
        CHECK(r.ninterrupts == 1 && r.interrupts[0].t_s == 100);
    }
    fs_results_free(&r);
}

/* SpotHedge's over-provisioning: s keeps count 1 + spot_extra 1 = 2 spot
 * instances ($1/h each); od ($3/h) is its fallback after 30 min.  The
 * trace gives 2, then 1 from 1 h (the extra is missing: count is still
 * met, no fallback), 0 from 3 h (the count is missing: the fallback
 * replaces that one instance, never the extra, from 3.5 h), 2 again from
 * 5 h (the fallback gives it back).  Horizon 8 h.  Spot: 2 x 1 h + 1 x 2 h
 * + 2 x 3 h = 10 instance-hours, $10.00; fallback: exactly 1.5 h, $4.50. */
static void check_fallback_extra(void)
{
    const char *tr = write_tmp("t_seconds,available\n0,2\n3600,1\n"
                               "10800,0\n18000,2\n36000,2\n");
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 8h\nmetrics_interval = 1h\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 1\ncount = 1\n"
             "spot_extra = 1\nprovision_delay = 0s\n"
             "interruption = trace(%s)\n"
             "fallback = od\nfallback_after = 30m\n"
             "[pool.od]\ngpu = L4\nprice = 3\ncount = 0\n"
             "provision_delay = 0s\n"
             "[workload.w]\npools = s, od\narrivals = poisson(rate=0.0001/s)\n"
             "service = const(1s)\n", tr);
    fs_results r;
    int rc = check_simulate(text, &r);
    CHECK(rc == 0 && r.npools == 2);
    if (rc == 0 && r.npools == 2) {
        const fs_pool_row *s = &r.pools[0], *od = &r.pools[1];
        printf("  fallback with spot_extra 1: %.4f h on demand ($%.2f), "
               "spot $%.2f\n", s->fallback_hours, total_cost(&r, "od"),
               total_cost(&r, "s"));
        CHECK(fabs(s->fallback_hours - 1.5) < 1e-9);
        CHECK(fabs(s->fallback_cost_usd - 4.50) < 1e-9);
        CHECK(fabs(total_cost(&r, "od") - 4.50) < 1e-9);
        CHECK(fabs(total_cost(&r, "s") - 10.00) < 1e-9);
        CHECK(od->launches == 1);
        CHECK(s->interruptions == 2);   /* at 1 h and at 3 h */
    }
    fs_results_free(&r);
}

static void check_empirical(void)
{
    const char *lives = write_tmp("lifetime_s\n3600\n3600\n");
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 10h\nmetrics_interval = 1h\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 1\ncount = 1\n"
             "provision_delay = 0s\nnotice = 2m\n"
             "interruption = empirical(%s)\n"
             "[workload.w]\npools = s\narrivals = poisson(rate=0.001/s)\n"
             "service = const(1s)\n", lives);
    fs_results r;
    int rc = check_simulate(text, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        printf("  empirical: %ld interruptions in 10 h of 1-hour lives, $%.2f\n",
               r.pools[0].interruptions, total_cost(&r, NULL));
        CHECK(r.pools[0].interruptions == 9 && r.ninterrupts == 9);
        CHECK(r.ninterrupts == 9 && r.interrupts[8].t_s == 9 * 3600.0 &&
              r.interrupts[8].notice_s == 120);
        CHECK(fabs(total_cost(&r, NULL) - 10.00) < 1e-9);
    }
    fs_results_free(&r);
}

/* $1/h until 3600 s, then $2/h; the instance is taken at 1800 s and back
 * at 2700 s: 1800 s at $1 + 900 s at $1 + 3600 s at $2 = $2.75. */
static void check_price_trace(void)
{
    const char *prices = write_tmp("t_seconds,price\n0,1.0\n3600,2.0\n");
    const char *av = write_tmp("t_seconds,available\n0,1\n1800,0\n2700,1\n"
                               "8000,1\n");
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2h\nmetrics_interval = 1h\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice_trace = %s\n"
             "count = 1\nprovision_delay = 0s\ninterruption = trace(%s)\n"
             "[workload.w]\npools = s\narrivals = poisson(rate=0.001/s)\n"
             "service = const(1s)\n", prices, av);
    fs_results r;
    int rc = check_simulate(text, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        printf("  price trace: $%.2f (1800 s + 900 s at $1/h, 3600 s at "
               "$2/h = $2.75), shown as $%.2f/h\n", total_cost(&r, NULL),
               r.pools[0].price_usd_h);
        CHECK(fabs(total_cost(&r, NULL) - 2.75) < 1e-9);
        CHECK(r.pools[0].interruptions == 1);
        CHECK(r.pools[0].price_usd_h == 1.0);   /* mean over [0, 3600 s] */
    }
    fs_results_free(&r);
}

/* Rows every 32 s from 0 to 2976 s: 3 instances, 2 from 1024 s, 1 from
 * 1056 s, 3 again from 2016 s, 2 from 2080 s.  notice 2m, no provisioning
 * or replacement delay.  Drops at 1024 s and 1056 s: 120 s each (the
 * rows before repeat the value); the drop at 2080 s takes an instance
 * back since the rise at 2016 s: 64 s. */
static void check_trace_notice(void)
{
    static char rows[4096];
    size_t n = (size_t)snprintf(rows, sizeof rows, "t_seconds,available\n");
    for (int t = 0; t < 3000; t += 32) {
        int v = t < 1024 ? 3 : t < 1056 ? 2 : t < 2016 ? 1 : t < 2080 ? 3 : 2;
        n += (size_t)snprintf(rows + n, sizeof rows - n, "%d,%d\n", t, v);
    }
    const char *tr = write_tmp(rows);
    char text[1024];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2900s\nmetrics_interval = 1m\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 1\ncount = 3\n"
             "provision_delay = 0s\nnotice = 2m\ninterruption = trace(%s)\n"
             "[workload.w]\npools = s\narrivals = poisson(rate=0.001/s)\n"
             "service = const(1s)\n", tr);
    fs_results r;
    int rc = check_simulate(text, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        printf("  trace notice: %zu interruptions:", r.ninterrupts);
        for (size_t i = 0; i < r.ninterrupts; i++)
            printf(" %.0f s (notice %.0f s)", r.interrupts[i].t_s,
                   r.interrupts[i].notice_s);
        printf("\n");
        CHECK(r.ninterrupts == 3);
        if (r.ninterrupts == 3) {
            CHECK(r.interrupts[0].t_s == 1024 &&
                  r.interrupts[0].notice_s == 120);
            CHECK(r.interrupts[1].t_s == 1056 &&
                  r.interrupts[1].notice_s == 120);
            CHECK(r.interrupts[2].t_s == 2080 &&
                  r.interrupts[2].notice_s == 64);
        }
    }
    fs_results_free(&r);
}

static void check_weibull_fit(void)
{
    enum { N = 2000 };
    static double life[N];
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 42);
    for (int i = 0; i < N; i++)
        life[i] = gsl_ran_weibull(g, 20 * 3600.0, 0.8);
    fs_lifetime_fit f;
    CHECK(fs_fit_lifetimes(life, NULL, N, &f) == 0);
    printf("  weibull fit: shape %.3f (0.8), scale %.0f s (72000 s), "
           "KS %.3f; exponential KS %.3f\n", f.weibull_shape,
           f.weibull_scale, f.weibull_ks, f.exp_ks);
    CHECK(fabs(f.weibull_shape - 0.8) <= 0.08);
    CHECK(fabs(f.weibull_scale - 72000) <= 7200);
    CHECK(f.weibull_ks < f.exp_ks && f.weibull_ks < 1.36 / sqrt(N));

    /* censored at 30 h (about a third of them still alive): the fit
     * counts them as alive that long, and still recovers the model */
    static unsigned char cens[N];
    int ncens = 0;
    for (int i = 0; i < N; i++) {
        life[i] = gsl_ran_weibull(g, 20 * 3600.0, 0.8);
        cens[i] = life[i] > 30 * 3600.0;
        if (cens[i])
            life[i] = 30 * 3600.0;
        ncens += cens[i];
    }
    CHECK(fs_fit_lifetimes(life, cens, N, &f) == 0);
    printf("  censored weibull fit (%d of %d censored at 30 h): shape %.3f, "
           "scale %.0f s\n", ncens, N, f.weibull_shape, f.weibull_scale);
    CHECK(fabs(f.weibull_shape - 0.8) <= 0.08);
    CHECK(fabs(f.weibull_scale - 72000) <= 7200);
    CHECK(f.events == (size_t)(N - ncens));

    for (int i = 0; i < N; i++)
        life[i] = gsl_ran_exponential(g, 36000);
    CHECK(fs_fit_lifetimes(life, NULL, N, &f) == 0);
    printf("  exponential fit: mean %.0f s (36000 s), weibull shape %.3f\n",
           f.exp_mean, f.weibull_shape);
    CHECK(fabs(f.exp_mean - 36000) <= 3600);
    CHECK(fabs(f.weibull_shape - 1) <= 0.1);
    gsl_rng_free(g);
}

/* Lives: 10 -> 40 (30 s), 10 -> 70 (60 s: oldest first when two run),
 * 100 -> end 130 (censored, 30 s). */
static void check_lifetimes(void)
{
    const char *tr = write_tmp("t_seconds,available\n0,0\n10,2\n40,1\n"
                               "70,0\n100,1\n130,1\n");
    fs_lifetimes l;
    fs_error err;
    CHECK(fs_spot_lifetimes(tr, &l, &err) == 0);
    CHECK(l.n == 3 && l.ncensored == 1 && l.drops == 2);
    if (l.n == 3) {
        CHECK(l.life[0] == 30 && l.life[1] == 60 && l.life[2] == 30);
        CHECK(!l.censored[0] && !l.censored[1] && l.censored[2]);
    }
    fs_lifetimes_free(&l);
    /* unsorted and negative times: refused with file:line */
    const char *bad = write_tmp("t_seconds,available\n0,1\n50,1\n40,0\n");
    CHECK(fs_spot_lifetimes(bad, &l, &err) == -1);
    CHECK_CONTAINS(err.msg, ":4: time 40 is before");
    const char *neg = write_tmp("t_seconds,available\n-5,1\n50,1\n");
    CHECK(fs_spot_lifetimes(neg, &l, &err) == -1);
    CHECK_CONTAINS(err.msg, ":2: negative time -5");
}

/* One run with the schedule after the first k failing (k < 0: none). */
static int run_failing(const fs_scenario *sc, long k, fs_error *err)
{
    fs_results out;
    fs_world w;
    fs_results_init(&out);
    int rc = fs_world_init(&w, sc, 0, &out, err);
    if (rc == 0) {
        fs_engine_fail_after(w.sim.engine, k);
        rc = fs_world_start(&w);
    }
    if (rc == 0)
        rc = fs_world_run(&w);
    fs_world_free(&w);
    fs_results_free(&out);
    return rc;
}

static void check_schedule_failures(void)
{
    static const char *const kinds[] = {
        "out of memory scheduling an interruption of pool s",
        "out of memory scheduling a relaunch of pool s",
        "out of memory scheduling the fallback of pool s",
        "out of memory scheduling the spot trace of pool t",
    };
    enum { NK = sizeof kinds / sizeof kinds[0] };
    const char *tr = write_tmp("t_seconds,available\n0,1\n20,0\n40,1\n"
                               "200,1\n");
    char text[1200];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2m\nseed = 3\nmetrics_interval = 10s\n"
             "[pool.s]\ngpu = L4\npricing = spot\nprice = 1\ncount = 2\n"
             "interruption = exponential(mean=20s)\nnotice = 5s\n"
             "replace_delay = exponential(mean=5s)\nprovision_delay = 3s\n"
             "fallback = od\nfallback_after = 2s\n"
             "[pool.t]\ngpu = L4\npricing = spot\nprice = 1\ncount = 1\n"
             "interruption = trace(%s)\nnotice = 5s\nprovision_delay = 3s\n"
             "[pool.od]\ngpu = L4\nprice = 1\ncount = 0\n"
             "provision_delay = 2s\n"
             "[workload.w]\npools = s, t, od\narrivals = poisson(rate=2/s)\n"
             "service = exponential(mean=1s)\n", tr);
    fs_scenario *sc = check_load(text);
    CHECK(sc != NULL);
    if (!sc)
        return;
    fs_error err;
    CHECK(run_failing(sc, -1, &err) == 0);
    long seen[NK] = {0}, k, bad = 0;
    for (k = 0; k < 100000; k++) {
        if (run_failing(sc, k, &err) == 0)
            break;
        int hit = 0;
        for (int i = 0; i < NK; i++)
            if (strcmp(err.msg, kinds[i]) == 0)
                seen[i]++, hit = 1;
        if (!hit && strncmp(err.msg, "out of memory scheduling", 24) != 0 &&
            bad++ < 5)
            printf("  schedule %ld: unexpected message: %s\n", k, err.msg);
    }
    printf("  schedule failures: %ld runs failed cleanly; spot kinds %ld %ld "
           "%ld %ld\n", k, seen[0], seen[1], seen[2], seen[3]);
    CHECK(bad == 0 && k > 100);
    for (int i = 0; i < NK; i++)
        if (!CHECK(seen[i] > 0))
            printf("     never failed: %s\n", kinds[i]);
    fs_scenario_free(sc);
}

int main(void)
{
    check_exponential();
    check_fallback();
    check_fallback_extra();
    check_price_trace();
    check_empirical();
    check_trace_notice();
    check_weibull_fit();
    check_lifetimes();
    check_schedule_failures();
    for (int i = 0; i < ntmp; i++)
        unlink(tmp[i]);
    return check_report("spot");
}
