/* test_scenario.c -- typed scenario loading: defaults, include and --set
 * precedence, catalog pricing, and the messages of bad values. */
#include "tests/check.h"
#include "sim/scenario/scenario.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/fleetsim-scenario-XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Loads text; returns the scenario or NULL with the message in msg. */
static fs_scenario *load(const char *text, char *const *sets, int nsets,
                         char *msg, size_t len)
{
    const char *path = write_file("s.ini", text);
    fs_error err = {{0}};
    fs_scenario *sc = fs_scenario_load(path, sets, nsets, &err);
    snprintf(msg, len, "%s", err.msg);
    return sc;
}

/* Expects a load failure whose message contains every fragment. */
static void expect_error(const char *text, const char *frag1,
                         const char *frag2)
{
    char msg[1024];
    fs_scenario *sc = load(text, NULL, 0, msg, sizeof msg);
    CHECK(sc == NULL);
    int ok = sc == NULL && strstr(msg, frag1) &&
             (!frag2 || strstr(msg, frag2));
    if (!ok)
        printf("  message was: %s\n  wanted: '%s' and '%s'\n", msg, frag1,
               frag2 ? frag2 : "");
    CHECK(ok);
    fs_scenario_free(sc);
}

/* Expects a load failure with exactly the message dir/want (sets are
 * applied as --set). */
static void expect_exact_set(const char *text, char *const *sets, int nsets,
                             const char *want)
{
    char msg[1024], full[1024];
    fs_scenario *sc = load(text, sets, nsets, msg, sizeof msg);
    if (want[0] == '-')
        snprintf(full, sizeof full, "%s", want);   /* "--set: ..." */
    else
        snprintf(full, sizeof full, "%s/%s", dir, want);
    CHECK(sc == NULL);
    int ok = sc == NULL && strcmp(msg, full) == 0;
    if (!ok)
        printf("  message was: %s\n  wanted:      %s\n", msg, full);
    CHECK(ok);
    fs_scenario_free(sc);
}

static void expect_exact(const char *text, const char *want)
{
    expect_exact_set(text, NULL, 0, want);
}

/* A workload section using pool p, appended to pool lines. */
#define WORKLOAD_P "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n" \
                   "service = const(1s)\n"

static const char base[] =
    "[scenario]\nname = base\nhorizon = 1d\nseed = 3\n"
    "[pool.gpu]\ngpu = A100-80GB\ncount = 2\nprice = 4.10\n"
    "[workload.w]\npools = gpu\narrivals = poisson(rate=1/s)\n"
    "service = exponential(mean=1s)\n";

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    char msg[1024];

    /* Defaults and typed values. */
    fs_scenario *sc = load(base, NULL, 0, msg, sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK(strcmp(sc->name, "base") == 0);
        CHECK(sc->horizon_s == 86400);
        CHECK(sc->seed == 3 && sc->replications == 1);
        CHECK(sc->metrics_interval == 300);
        CHECK(strcmp(sc->start_date, "2026-01-01") == 0);
        CHECK(sc->npools == 1 && sc->pools[0].count == 2);
        CHECK(sc->pools[0].terms.price == 4.10);
        CHECK(sc->pools[0].purchase == fs_purchase_find("on-demand"));
        CHECK(sc->pools[0].terms.min_billed_s == 60);
        CHECK(sc->workloads[0].batch_max == 1);
        CHECK(isnan(sc->workloads[0].slo_s));
        CHECK(strcmp(sc->workloads[0].reference_gpu.name, "A100-80GB") == 0);
    }
    fs_scenario_free(sc);

    /* include: the base is read first, the including file overrides it;
     * --set overrides both. */
    write_file("base.ini", base);
    char *sets[] = {"pool.gpu.count=6", "scenario.seed=9"};
    sc = load("[scenario]\ninclude = base.ini\nname = child\n"
              "[pool.gpu]\nprice = 2.50\n", sets, 2, msg, sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK(strcmp(sc->name, "child") == 0);
        CHECK(sc->pools[0].terms.price == 2.50);
        CHECK(sc->pools[0].count == 6);
        CHECK(sc->seed == 9);
        CHECK(strstr(sc->cfg->text, "--set pool.gpu.count=6") != NULL);
    }
    fs_scenario_free(sc);

    /* Catalog pricing: an instance type brings its GPU, count and price. */
    sc = load("[pool.p]\ninstance = aws:p4d.24xlarge\n"
              "[workload.w]\npools = p\narrivals = poisson(rate=1/s)\n"
              "service = const(1s)\n", NULL, 0, msg, sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK(strcmp(sc->pools[0].gpu.name, "A100-40GB") == 0);
        CHECK(sc->pools[0].gpus_per_instance == 8);
        CHECK(sc->pools[0].terms.price > 10 && sc->pools[0].terms.price < 40);
        CHECK(strstr(sc->pools[0].terms.price_source, "p4d.24xlarge") != NULL);
    }
    fs_scenario_free(sc);

    /* Reserved from the catalog: p3.2xlarge's Standard RI, no upfront,
     * is $2.088/h for 1 year and $1.132/h for 3 years; 3-year partial
     * upfront is not in the data, so it is derived: half of the 3-year
     * cost (1.132 x 26,280 h / 2) at once; 1-year all upfront is
     * published (effective 1.949201 $/h x 8760 h). */
    static const struct {
        const char *term, *upfront;
        double price, upfront_price;
    } ri[] = {{"1y", "none", 2.088, 0}, {"3y", "none", 1.132, 0},
              {"3y", "partial", 0.566, 1.132 * 26280 / 2},
              {"1y", "all", 0, 17075.00076}};
    for (size_t i = 0; i < sizeof ri / sizeof ri[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "[pool.r]\ninstance = aws:p3.2xlarge\n"
                 "pricing = reserved\nterm = %s\nupfront = %s\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n", ri[i].term, ri[i].upfront);
        sc = load(text, NULL, 0, msg, sizeof msg);
        CHECK(sc != NULL);
        if (sc) {
            CHECK_NEAR(sc->pools[0].terms.price, ri[i].price, 1e-9);
            CHECK_NEAR(sc->pools[0].terms.upfront_usd, ri[i].upfront_price, 1e-6);
            CHECK(strstr(sc->pools[0].terms.price_source, "aws:p3.2xlarge"));
        }
        fs_scenario_free(sc);
    }
    /* No reserved rate in the catalog: the message asks for price. */
    expect_error("[pool.r]\ninstance = azure:Standard_NC24ads_A100_v4\n"
                 "pricing = reserved\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n", "pool.r: missing price",
                 "no 1-year reserved price for Standard_NC24ads_A100_v4");
    /* An option the provider does not sell is refused, never derived. */
    expect_error("[pool.r]\ninstance = aws:p5.48xlarge\npricing = reserved\n"
                 "upfront = all\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n", "pool.r.upfront: aws:p5.48xlarge "
                 "is not sold with a 1-year reservation and all upfront",
                 "give your quote with price/upfront_price");

    /* Reserved with an explicit partial upfront. */
    sc = load("[pool.r]\ngpu = A100-80GB\npricing = reserved\nterm = 3y\n"
              "upfront = partial\nprice = 1.20\nupfront_price = 9000\n"
              "count = 2\n[workload.w]\npools = r\narrivals = "
              "poisson(rate=1/s)\nservice = const(1s)\n", NULL, 0, msg,
              sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK(sc->pools[0].terms.term_months == 36);
        CHECK(sc->pools[0].terms.price == 1.20);
        CHECK(sc->pools[0].terms.upfront_usd == 9000);
    }
    fs_scenario_free(sc);

    /* Bad values: file, line and key in every message. */
    expect_error("[pool.p]\ngpu = A100-80G\n", "s.ini:2: pool.p.gpu",
                 "did you mean 'A100-80GB'");
    expect_error("[pool.p]\ngpu = TPUv5\n", "unknown GPU 'TPUv5'", "known:");
    expect_error("[pool.p]\ninstance = aws:p4d.42xlarge\n",
                 "s.ini:2: pool.p.instance", "did you mean");
    expect_error("[scenario]\nhorizon = -5d\n", "s.ini:2: scenario.horizon",
                 "negative");
    expect_error("[scenario]\nhorizon = nan\n", "scenario.horizon",
                 "expected a duration");
    expect_error("[pool.p]\ngpu = L4\ncount = -1\n", "s.ini:3: pool.p.count",
                 "negative");
    expect_error("[pool.p]\ngpu = L4\nprice = NaN\n", "s.ini:3: pool.p.price",
                 NULL);
    expect_error("[pool.p]\ngpu = L4\ncuont = 2\n", "s.ini:3: pool.p.cuont",
                 "did you mean 'count'");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\nmig = 3g.40gb\n",
                 "s.ini:4: pool.p.mig", "L4 has no MIG");
    expect_error("[pol.p]\ngpu = L4\n", "s.ini:2: pol.p",
                 "did you mean 'pool'");
    expect_error("[pool.p]\ngpu = L4\ngpu = T4\n", "s.ini:3:",
                 "set twice (first at line 2)");
    expect_error("[pool.p]\ngpu = L4\nthis line has no equals\n", "s.ini:3:",
                 "cannot parse");
    expect_error("[pool.p]\ngpu = L4\nprice=1\n[workload.w]\npools = q\n"
                 "arrivals = poisson(rate=1/s)\nservice = const(1s)\n",
                 "s.ini:5: workload.w.pools", "no pool named 'q'");
    expect_error("[pool.p]\ngpu = L4\nprice=1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\nservice = expo(mean=1s)\n",
                 "s.ini:7: workload.w.service", "did you mean 'exponential'");
    expect_error("[pool.p]\ngpu = L4\nprice=1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\n",
                 "workload.w: missing service", NULL);
    expect_error("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\nservice = const(1s)\n"
                 "batch_wait = -3ms\n", "s.ini:8: workload.w.batch_wait",
                 "negative");
    expect_error("[pool.p]\ngpu = L4\npricing = reserved\nautoscale = "
                 "utilization(target=70%)\nmax = 3\n", "pool.p.autoscale",
                 "fixed count");
    expect_error("[pool.p]\ngpu = L4\nautoscale = utilization(target=70%)\n",
                 "pool.p: missing max", NULL);
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = spot\n"
                 "fallback = nowhere\n", "s.ini:5: pool.p.fallback",
                 "no pool named 'nowhere'");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = spot\n"
                 "fallback = q\n[pool.q]\ngpu = L4\nprice = 1\n"
                 "pricing = spot\n", "s.ini:5: pool.p.fallback",
                 "must be an on-demand pool");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\ninterruption = "
                 "exponential(mean=1h)\n", "pool.p.interruption",
                 "applies to spot pools only");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = spot\n"
                 "interruption = gamma(k=2)\n", "pool.p.interruption",
                 "'gamma' is not one of exponential");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = spot\n"
                 "autoscale = utilization(target=70%)\nmax = 3\n",
                 "pool.p.autoscale", "spot pools have a fixed count");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = reserved\n"
                 "upfront = all\n", "pool.p: missing upfront_price", NULL);
    expect_error("[scenario]\nstart = 2026-02-30\n", "scenario.start",
                 "YYYY-MM-DD");
    expect_error("[scenario]\ninclude = nowhere.ini\n",
                 "s.ini:2: scenario.include", "cannot open 'nowhere.ini'");
    expect_error("[scenario]\nname = x\n", "no [workload.NAME] section",
                 NULL);

    /* 1. The horizon is bounded (3650d), and the sample count is checked
     * without dereferencing an absent metrics_interval. */
    expect_exact("[scenario]\nhorizon = 3000w\n",
                 "s.ini:2: scenario.horizon: a duration must be at most "
                 "3650d (10 years), got '3000w'");
    {
        char *set[] = {"scenario.horizon=3000w"};
        expect_exact_set(base, set, 1, "--set: scenario.horizon: a duration "
                         "must be at most 3650d (10 years), got '3000w'");
    }
    expect_exact("[scenario]\nhorizon = 3650d\nmetrics_interval = 1m\n"
                 "[pool.p]\ngpu = L4\nprice = 1\n" WORKLOAD_P,
                 "s.ini:3: scenario.metrics_interval: 1 pool x 1 replication "
                 "x 5256121 rows (utilization every 1m over 3650d, plus 120 "
                 "months of costs) = 5256121 result rows, more than the "
                 "5000000 a run may hold: raise metrics_interval, or lower "
                 "replications or horizon");
    expect_exact("[scenario]\nhorizon = 3650d\nreplications = 10\n"
                 "[pool.p]\ngpu = L4\nprice = 1\n" WORKLOAD_P,
                 "s.ini:3: scenario.replications: 1 pool x 10 replications "
                 "x 1051321 rows (utilization every 5m over 3650d, plus 120 "
                 "months of costs) = 10513210 result rows, more than the "
                 "5000000 a run may hold: raise metrics_interval, or lower "
                 "replications or horizon");
    sc = load("[scenario]\nhorizon = 3650d\n[pool.p]\ngpu = L4\n"
              "price = 1\n" WORKLOAD_P, NULL, 0, msg, sizeof msg);
    CHECK(sc != NULL && sc->horizon_s == 3650 * 86400.0);
    fs_scenario_free(sc);

    /* 3. Only regular files of at most 1 MiB, lines of at most 198
     * characters, no NUL bytes. */
    {
        char text[1200], want[1200];
        snprintf(text, sizeof text, "[scenario]\ninclude = %s\n", dir);
        snprintf(want, sizeof want, "s.ini:2: scenario.include: '%s' is a "
                 "directory, not a scenario file", dir);
        expect_exact(text, want);
        expect_exact("[scenario]\ninclude = /dev/zero\n",
                     "s.ini:2: scenario.include: '/dev/zero' is not a "
                     "regular file (a device, pipe or socket)");
        char big[512];
        snprintf(big, sizeof big, "%s/big.ini", dir);
        FILE *f = fopen(big, "w");
        CHECK(f && ftruncate(fileno(f), 2 << 20) == 0);
        fclose(f);
        expect_exact("[scenario]\ninclude = big.ini\n",
                     "s.ini:2: scenario.include: 'big.ini' is 2097152 bytes; "
                     "a scenario file holds at most 1048576 (1 MiB)");
        fs_error e2 = {{0}};
        CHECK(fs_scenario_load(big, NULL, 0, &e2) == NULL);
        snprintf(want, sizeof want, "%s: is 2097152 bytes; a scenario file "
                 "holds at most 1048576 (1 MiB)", big);
        CHECK(strcmp(e2.msg, want) == 0);
        unlink(big);
        CHECK(fs_scenario_load(dir, NULL, 0, &e2) == NULL);
        snprintf(want, sizeof want, "%s: is a directory, not a scenario "
                 "file", dir);
        CHECK(strcmp(e2.msg, want) == 0);
        char line[300];
        memset(line, 'x', 220);
        line[220] = '\0';
        snprintf(text, sizeof text, "[pool.p]\ngpu = L4\ndescription = "
                 "%s\n", line);
        expect_exact(text, "s.ini:3: pool.p.description: line too long "
                     "(234 characters; at most 198)");
    }
    {
        /* A NUL byte inside a line: the rest would be dropped silently. */
        static const char nul[] = "[pool.p]\ngpu = L4\nprice = 1\0 9\n";
        char path2[512];
        snprintf(path2, sizeof path2, "%s/s.ini", dir);
        FILE *f = fopen(path2, "w");
        fwrite(nul, 1, sizeof nul - 1, f);
        fclose(f);
        fs_error e2 = {{0}};
        CHECK(fs_scenario_load(path2, NULL, 0, &e2) == NULL);
        char want[600];
        snprintf(want, sizeof want, "%s: pool.p.price: the line holds a NUL "
                 "byte (not a text file?)", path2);
        char *colon = strstr(want, ": pool.p.price");
        char full[700];
        snprintf(full, sizeof full, "%.*s:3%s", (int)(colon - want), want,
                 colon);
        if (strcmp(e2.msg, full) != 0)
            printf("  message was: %s\n  wanted:      %s\n", e2.msg, full);
        CHECK(strcmp(e2.msg, full) == 0);
    }

    /* 10. Nonsense values refused with file:line:key. */
    expect_exact("[pool.p]\ngpu = L4\nprice = 1e308\n" WORKLOAD_P,
                 "s.ini:3: pool.p.price: at most $10000 per instance-hour, "
                 "got '1e308'");
    expect_exact("[pool.p]\ngpu = L4\npricing = reserved\nterm = 3y\n"
                 "upfront = all\nprice = 0\nupfront_price = 1e12\n"
                 WORKLOAD_P,
                 "s.ini:7: pool.p.upfront_price: at most $262800000 per "
                 "instance for a 3y term ($10000 an hour for each of its "
                 "26280 hours), got '1e12'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\n"
                 "service = lognormal(mean=1s, sigma=1e6)\n",
                 "s.ini:7: workload.w.service: lognormal(): sigma must be at "
                 "most 4, got '1e6'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\n"
                 "service = lognormal(mu=50, sigma=1)\n",
                 "s.ini:7: workload.w.service: lognormal(): mu must be "
                 "between -13.8 and 19.5 (a median e^mu between 1us and "
                 "3650d), got '50'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\n"
                 "service = weibull(shape=1e-300, scale=1s)\n",
                 "s.ini:7: workload.w.service: weibull(): shape must be "
                 "between 0.1 and 100, got '1e-300'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\nservice = const(1e300s)\n",
                 "s.ini:7: workload.w.service: const(): value: a duration "
                 "must be at most 3650d (10 years), got '1e300s'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=0.5/s, rate=2/s)\n"
                 "service = const(1s)\n",
                 "s.ini:6: workload.w.arrivals: argument 'rate' given twice "
                 "in 'poisson(rate=0.5/s, rate=2/s)'");
    expect_exact("[scenario]\nname =\n", "s.ini:2: scenario.name: must not "
                 "be empty");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\ncount = 1000000000\n"
                 WORKLOAD_P, "s.ini:4: pool.p.count: must be at most 1000000, "
                 "got 1000000000");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\nautoscale = "
                 "queue(target=4)\nmax = 1000001\n" WORKLOAD_P,
                 "s.ini:5: pool.p.max: must be at most 1000000, got 1000001");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\ngpus_per_instance = "
                 "2147483647\n" WORKLOAD_P,
                 "s.ini:4: pool.p.gpus_per_instance: must be at most 64, got "
                 "2147483647");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n" WORKLOAD_P
                 "batch_max = 2000000000\n", "s.ini:8: workload.w.batch_max: "
                 "must be at most 65536, got 2000000000");
    expect_exact("[scenario]\nreplications = 1000000000\n",
                 "s.ini:2: scenario.replications: must be at most 10000, got "
                 "1000000000");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\ncount = 100000\n"
                 "gpus_per_instance = 8\n" WORKLOAD_P "batch_max = 64\n",
                 "s.ini:10: workload.w.batch_max: pool p holds 800000 servers "
                 "x batch_max 64 = 51200000 request slots, more than the "
                 "4194304 a pool may hold: use fewer servers or a smaller "
                 "batch_max");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\ncount = 100000\n"
                 "gpus_per_instance = 64\n" WORKLOAD_P,
                 "s.ini:4: pool.p.count: pool p holds 6400000 servers x "
                 "batch_max 1 = 6400000 request slots, more than the "
                 "4194304 a pool may hold: use fewer servers or a smaller "
                 "batch_max");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\n[workload.w]\npools = p\n"
                 "arrivals = poisson(rate=1/s)\nservice = const(1s)\n"
                 "rate_scale = 1e300\n", "s.ini:8: workload.w.rate_scale: "
                 "must be at most 1000, got '1e300'");
    /* A pool no workload uses: billed for nothing, so a warning (the run
     * goes on). */
    sc = load("[pool.p]\ngpu = L4\nprice = 1\n[pool.spare]\ngpu = L4\n"
              "price = 1\n" WORKLOAD_P, NULL, 0, msg, sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        char want[600];
        snprintf(want, sizeof want, "%s/s.ini:5: pool.spare: used by no "
                 "workload: its instances are billed but serve nothing", dir);
        CHECK(sc->nwarnings == 1);
        CHECK(sc->nwarnings == 1 && strcmp(sc->warnings[0], want) == 0);
    }
    fs_scenario_free(sc);

    /* 11. autoscale target 0%: an exact message, never stray bytes. */
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\nautoscale = "
                 "utilization(target=0%)\nmax = 3\n" WORKLOAD_P,
                 "s.ini:4: pool.p.autoscale: utilization(): target must be "
                 "above 0%, got '0%'");
    expect_exact("[pool.p]\ngpu = L4\nprice = 1\nautoscale = "
                 "utilization(target=150%)\nmax = 3\n" WORKLOAD_P,
                 "s.ini:4: pool.p.autoscale: utilization(): target: expected "
                 "a fraction between 0 and 1 (or 0% to 100%), got '150%'");

    /* 12. A GPU several providers sell: refused unless provider or
     * instance says which. */
    expect_exact("[pool.r]\ngpu = A100-40GB\npricing = reserved\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n",
                 "s.ini:2: pool.r.gpu: A100-40GB is sold by several "
                 "providers (aws:p4d.24xlarge, gcp:a2-highgpu-1g, "
                 "gcp:a2-highgpu-8g, gcp:a2-highgpu-2g, gcp:a2-highgpu-4g, "
                 "gcp:a2-megagpu-16g, azure:Standard_ND96asr_v4): say which "
                 "with provider = aws|azure|gcp or instance = "
                 "PROVIDER:TYPE, or set price");
    sc = load("[pool.r]\ngpu = A100-40GB\npricing = reserved\n"
              "provider = gcp\n[workload.w]\npools = r\narrivals = "
              "poisson(rate=1/s)\nservice = const(1s)\n", NULL, 0, msg,
              sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK_NEAR(sc->pools[0].terms.price, 2.31420704, 1e-12);
        CHECK(strcmp(sc->pools[0].terms.price_source,
                     "catalog gcp:a2-highgpu-1g, no upfront published")
              == 0);
    }
    fs_scenario_free(sc);
    expect_exact("[pool.r]\ninstance = aws:p5en.48xlarge\n"
                 "pricing = reserved\nterm = 3y\n"
                 "[workload.w]\npools = r\narrivals = "
                 "poisson(rate=1/s)\nservice = const(1s)\n",
                 "s.ini:4: pool.r.term: aws:p5en.48xlarge is not sold with "
                 "a 3-year reservation and no upfront (see `fleetsim catalog "
                 "instances`); give your quote with price/upfront_price, or "
                 "choose another term or upfront");
    expect_exact("[pool.r]\ngpu = A100-40GB\nprovider = oracle\n"
                 WORKLOAD_P, "s.ini:3: pool.r.provider: the catalog sells "
                 "A100-40GB at aws, gcp, azure, not 'oracle'");
    expect_exact("[pool.r]\ninstance = aws:p4d.24xlarge\nprovider = gcp\n"
                 WORKLOAD_P, "s.ini:3: pool.r.provider: aws:p4d.24xlarge is "
                 "sold by aws, not 'gcp'");
    sc = load("[pool.p]\ngpu = A100-40GB\nprice = 3\n" WORKLOAD_P, NULL, 0,
              msg, sizeof msg);
    CHECK(sc != NULL);   /* a price of one's own needs no provider */
    fs_scenario_free(sc);

    /* 13. Names are refused when they do not fit, never cut. */
    {
        char text[600], name[80];
        memset(name, 'n', 62);
        name[62] = '\0';
        snprintf(text, sizeof text, "[scenario]\nname = %s\xc3\xa9\n",
                 name);
        expect_exact(text, "s.ini:2: scenario.name: is 64 bytes long; at "
                     "most 63");
        snprintf(text, sizeof text, "[scenario]\nname = %s\n" "[pool.p]\n"
                 "gpu = L4\nprice = 1\n" WORKLOAD_P, name);
        sc = load(text, NULL, 0, msg, sizeof msg);
        CHECK(sc != NULL && strcmp(sc->name, name) == 0);
        fs_scenario_free(sc);
        memset(name, 'q', 50);
        name[50] = '\0';
        snprintf(text, sizeof text, "[pool.p]\ngpu = L4\nprice = 1\n"
                 "[workload.%s]\npools = p\n", name);
        char want[1200];
        snprintf(want, sizeof want, "s.ini:4: workload.%s: section name is "
                 "59 characters; at most 49", name);
        expect_exact(text, want);
        char set[200];
        snprintf(set, sizeof set, "pool.%s.count=2", name);
        char *sets1[] = {set};
        snprintf(want, sizeof want, "--set %s: section name is 55 "
                 "characters; at most 49", set);
        expect_exact_set(base, sets1, 1, want);
        char longset[400];
        memset(name, 'v', 70);
        name[70] = '\0';
        snprintf(longset, sizeof longset, "scenario.description=%s%s%s",
                 name, name, name);
        char *sets4[] = {longset};
        expect_exact_set(base, sets4, 1, "--set scenario.description: too "
                         "long (231 characters; at most 198, as a line of a "
                         "file)");
        expect_exact("[pool.caf\xc3]\ngpu = L4\n", "s.ini:2: pool.caf\xc3: "
                     "the name is not valid UTF-8");
        char *sets2[] = {"scenario.name=caf\xc3"};
        expect_exact_set(base, sets2, 1, "--set: scenario.name: is not valid "
                         "UTF-8");
        /* A default name from a file name too long to be one. */
        char longfile[600];
        memset(name, 'f', 70);
        name[70] = '\0';
        snprintf(longfile, sizeof longfile, "%s/%s.ini", dir, name);
        FILE *f = fopen(longfile, "w");
        fputs("[pool.p]\ngpu = L4\nprice = 1\n" WORKLOAD_P, f);
        fclose(f);
        fs_error e2 = {{0}};
        CHECK(fs_scenario_load(longfile, NULL, 0, &e2) == NULL);
        snprintf(want, sizeof want, "%s: the file name gives a run name of "
                 "70 bytes, at most 63: set name = in [scenario]", longfile);
        if (strcmp(e2.msg, want) != 0)
            printf("  message was: %s\n  wanted:      %s\n", e2.msg, want);
        CHECK(strcmp(e2.msg, want) == 0);
        char *sets3[] = {"scenario.name=short"};
        sc = fs_scenario_load(longfile, sets3, 1, &e2);
        CHECK(sc != NULL && strcmp(sc->name, "short") == 0);
        fs_scenario_free(sc);
        unlink(longfile);
    }

    char path[512];
    snprintf(path, sizeof path, "%s/nonexistent.ini", dir);
    fs_error err;
    CHECK(fs_scenario_load(path, NULL, 0, &err) == NULL);
    CHECK(strstr(err.msg, "cannot open scenario") != NULL);
    char *bad_set[] = {"count=6"};
    sc = load(base, bad_set, 1, msg, sizeof msg);
    CHECK(sc == NULL && strstr(msg, "expected SECTION.KEY=VALUE"));
    fs_scenario_free(sc);

    const char *files[] = {"s.ini", "base.ini"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
    return check_report("scenario");
}
