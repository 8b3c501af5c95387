/* test_scenario.c -- typed scenario loading: defaults, include and --set
 * precedence, catalog pricing, and the messages of bad values. */
#include "check.h"
#include "sim/scenario.h"

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
        CHECK(sc->pools[0].price == 4.10);
        CHECK(sc->pools[0].pricing == FS_PRICING_ON_DEMAND);
        CHECK(sc->pools[0].min_billed_s == 60);
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
        CHECK(sc->pools[0].price == 2.50);
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
        CHECK(sc->pools[0].price > 10 && sc->pools[0].price < 40);
        CHECK(strstr(sc->pools[0].price_source, "p4d.24xlarge") != NULL);
    }
    fs_scenario_free(sc);

    /* Reserved from the catalog: p3.2xlarge's Standard RI, no upfront,
     * is $2.088/h for 1 year and $1.132/h for 3 years; partial upfront
     * pays half of the 3-year cost (1.132 x 26,280 h / 2) at once. */
    static const struct {
        const char *term, *upfront;
        double price, upfront_price;
    } ri[] = {{"1y", "none", 2.088, 0}, {"3y", "none", 1.132, 0},
              {"3y", "partial", 0.566, 1.132 * 26280 / 2},
              {"1y", "all", 0, 2.088 * 8760}};
    for (size_t i = 0; i < sizeof ri / sizeof ri[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "[pool.r]\ninstance = aws:p3.2xlarge\n"
                 "pricing = reserved\nterm = %s\nupfront = %s\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n", ri[i].term, ri[i].upfront);
        sc = load(text, NULL, 0, msg, sizeof msg);
        CHECK(sc != NULL);
        if (sc) {
            CHECK_NEAR(sc->pools[0].price, ri[i].price, 1e-9);
            CHECK_NEAR(sc->pools[0].upfront_price, ri[i].upfront_price, 1e-6);
            CHECK(strstr(sc->pools[0].price_source, "aws:p3.2xlarge"));
        }
        fs_scenario_free(sc);
    }
    /* No reserved rate in the catalog: the message asks for price. */
    expect_error("[pool.r]\ninstance = aws:g6.xlarge\npricing = reserved\n"
                 "[workload.w]\npools = r\narrivals = poisson(rate=1/s)\n"
                 "service = const(1s)\n", "pool.r: missing price",
                 "no 1-year reserved price for g6.xlarge");

    /* Reserved with an explicit partial upfront. */
    sc = load("[pool.r]\ngpu = A100-80GB\npricing = reserved\nterm = 3y\n"
              "upfront = partial\nprice = 1.20\nupfront_price = 9000\n"
              "count = 2\n[workload.w]\npools = r\narrivals = "
              "poisson(rate=1/s)\nservice = const(1s)\n", NULL, 0, msg,
              sizeof msg);
    CHECK(sc != NULL);
    if (sc) {
        CHECK(sc->pools[0].term_months == 36);
        CHECK(sc->pools[0].upfront == FS_UPFRONT_PARTIAL);
        CHECK(sc->pools[0].upfront_price == 9000);
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
    expect_error("[pool.p]\ngpu = L4\nmig = 3g.40gb\n", "pool.p.mig",
                 "not implemented");
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
    expect_error("[pool.p]\ngpu = L4\npricing = spot\n", "pool.p.pricing",
                 "spot pools are not implemented");
    expect_error("[pool.p]\ngpu = L4\nprice = 1\npricing = reserved\n"
                 "upfront = all\n", "pool.p: missing upfront_price", NULL);
    expect_error("[scenario]\nstart = 2026-02-30\n", "scenario.start",
                 "YYYY-MM-DD");
    expect_error("[scenario]\ninclude = nowhere.ini\n",
                 "s.ini:2: scenario.include", "cannot open 'nowhere.ini'");
    expect_error("[scenario]\nname = x\n", "no [workload.NAME] section",
                 NULL);

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
