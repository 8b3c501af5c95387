/* test_plan.c -- the planner's pieces: the M/M/c closed forms of
 * models/service/erlang.c against independent computations (Erlang C as the
 * textbook sum, the sojourn tail by numerical integration, the quantiles
 * by inverting the tails), and the --slo grammar against a latency table.
 * Tolerances: 1e-9 relative for the closed forms (double arithmetic),
 * 1e-6 for the integrated tail (Simpson with 20,000 steps). */
#include "tests/check.h"
#include "models/service/erlang.h"
#include "sim/cli/plan/plan.h"

#include <math.h>
#include <sqlite3.h>
#include "sim/store/store_query.h"
#include <string.h>

/* Erlang C as a^c/c! c/(c-a) / (sum_{k<c} a^k/k! + that). */
static double textbook_c(long c, double a)
{
    double sum = 0, term = 1;
    for (long k = 0; k < c; k++) {
        sum += term;
        term *= a / (double)(k + 1);
    }
    double last = term * (double)c / ((double)c - a);
    return last / (sum + last);
}

/* P(T > t) by integrating the wait's density against the service tail. */
static double integrated_tail(long c, double lambda, double mu, double t)
{
    double th = (double)c * mu - lambda, C = textbook_c(c, lambda / mu);
    int n = 20000;
    double h = t / n, acc = 0;
    for (int i = 0; i <= n; i++) {
        double w = i * h;
        double f = th * exp(-th * w) * exp(-mu * (t - w));
        acc += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
    }
    return (1 - C) * exp(-mu * t) + C * (exp(-th * t) + acc * h / 3);
}

static void test_erlang(void)
{
    static const struct { long c; double a; } cases[] = {
        {1, 0.5}, {2, 1.5}, {10, 8}, {40, 35}, {100, 90}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double want = textbook_c(cases[i].c, cases[i].a);
        CHECK_NEAR(fs_erlang_c(cases[i].c, cases[i].a) / want, 1, 1e-9);
    }
    CHECK_NEAR(fs_erlang_c(1, 0.5), 0.5, 1e-12);   /* M/M/1: rho */
    CHECK(fs_erlang_c(4, 4) == 1);                 /* unstable */
    /* M/M/1: the sojourn is exponential at mu - lambda */
    CHECK_NEAR(fs_mmc_sojourn_tail(1, 0.5, 1, 3), exp(-1.5), 1e-12);
    CHECK_NEAR(fs_mmc_sojourn_quantile(1, 0.5, 1, 0.99), log(100) / 0.5,
               1e-9);
    /* theta = mu: the (1 + mu t) e^{-mu t} branch, c = 2, lambda = 1 */
    CHECK_NEAR(fs_mmc_sojourn_tail(2, 1, 1, 2.5),
               integrated_tail(2, 1, 1, 2.5), 1e-6);
    for (long c = 9; c <= 12; c++)
        for (double t = 1; t <= 9; t += 2)
            CHECK_NEAR(fs_mmc_sojourn_tail(c, 8, 1, t),
                       integrated_tail(c, 8, 1, t), 1e-6);
    /* quantiles invert the tails */
    double q = fs_mmc_sojourn_quantile(10, 8, 1, 0.99);
    CHECK_NEAR(fs_mmc_sojourn_tail(10, 8, 1, q), 0.01, 1e-9);
    double wq = fs_mmc_wait_quantile(10, 8, 1, 0.99);
    CHECK_NEAR(fs_mmc_wait_tail(10, 8, 1, wq), 0.01, 1e-9);
    CHECK_NEAR(fs_mmc_wait_mean(10, 8, 1), textbook_c(10, 8) / 2, 1e-12);
    CHECK(fs_mmc_wait_quantile(40, 8, 1, 0.99) == 0);   /* rarely waits */
}

static void test_slo(void)
{
    sqlite3 *handle;
    CHECK(sqlite3_open(":memory:", &handle) == SQLITE_OK);
    CHECK(sqlite3_exec(handle, "CREATE TABLE latency (run_id INTEGER, "
                       "workload TEXT, count INTEGER, p99_s REAL, slo_s REAL, "
                       "slo_attainment REAL, ttft_p99_s REAL, arrivals "
                       "INTEGER, dropped INTEGER, unfinished INTEGER);"
                       "INSERT INTO latency VALUES (1, 'w', 100, 1.5, 2, "
                       "0.996, 0.4, 100, 0, 0), (2, 'w', 100, 2.5, 2, 0.98, "
                       "0.6, 100, 1, 1);", NULL, NULL, NULL) == SQLITE_OK);
    fs_store *db = fs_store_adopt(handle, ":memory:");
    CHECK(db != NULL);
    fs_plan p;
    char why[512];
    memset(&p, 0, sizeof p);
    p.workload = "w";
    p.max_unfinished = 0.001;
    /* not measured on a generic service; a bound of 0 meets nothing */
    CHECK(fs_plan_parse_slo(&p, "ttft_p99<=500ms", db, why,
                            sizeof why) == -1);
    CHECK(strstr(why, "ttft_p99 is not measured on workload 'w'") != NULL);
    p.nslo = 0;
    CHECK(fs_plan_parse_slo(&p, "p99<=0s", db, why, sizeof why) == -1);
    CHECK(strstr(why, "the bound must be above 0") != NULL);
    p.nslo = 0;
    p.llm = 1;
    CHECK(fs_plan_parse_slo(&p, "p99<=2s,ttft_p99<=500ms,attainment>=99.5%",
                            db, why, sizeof why) == 0);
    CHECK(p.nslo == 3);
    CHECK(strcmp(p.slo[1].column, "ttft_p99_s") == 0);
    CHECK_NEAR(p.slo[1].value, 0.5, 1e-12);
    CHECK(p.slo[2].ge && p.slo[2].percent);
    CHECK_NEAR(p.slo[2].value, 0.995, 1e-12);
    fs_plan_probe pr;
    long one = 1, two = 2;
    CHECK(fs_plan_judge(&p, db, &one, 1, &pr, why, sizeof why) == 0);
    CHECK(pr.pass);
    CHECK(fs_plan_judge(&p, db, &two, 1, &pr, why, sizeof why) == 0);
    CHECK(!pr.pass);
    CHECK_CONTAINS(pr.why, "overload: 2.000%");
    /* two replications: mean 2.0, sd 0.7071, t(0.975, 1) = 12.706:
     * 2 + 12.706 x 0.5 = 8.353 */
    long both[2] = {1, 2};
    CHECK(fs_plan_judge(&p, db, both, 2, &pr, why, sizeof why) == 0);
    CHECK_NEAR(pr.value[0], 2 + 12.7062047361747 * 0.5, 1e-6);
    fs_plan q;
    memset(&q, 0, sizeof q);
    CHECK(fs_plan_parse_slo(&q, "tpot_p99<=50ms", db, why, sizeof why));
    CHECK_CONTAINS(why, "unknown metric 'tpot_p99'");
    memset(&q, 0, sizeof q);
    CHECK(fs_plan_parse_slo(&q, "p99<2s", db, why, sizeof why));
    CHECK_CONTAINS(why, "expected METRIC<=VALUE");
    memset(&q, 0, sizeof q);
    CHECK(fs_plan_parse_slo(&q, "p99<=2s,p99<=3s", db, why, sizeof why));
    CHECK_CONTAINS(why, "p99 given twice");
    memset(&q, 0, sizeof q);
    CHECK(fs_plan_parse_slo(&q, "attainment<=0.9", db, why, sizeof why));
    CHECK_CONTAINS(why, "takes >=");
    fs_store_close(db);
}

int main(void)
{
    test_erlang();
    test_slo();
    return check_report("plan");
}
