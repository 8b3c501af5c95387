/* test_compare_ci.c -- the statistics of `compare --group`, on runs made
 * in memory.
 *
 * fs_ci_of: 1..5 has mean 3 and 95% half-width t(0.975, 4) sqrt(2.5/5) =
 * 2.776445 * 0.707107 = 1.963243.  Changes: costs 10, 12, 11, 13 against
 * 11, 13, 12, 14 on the same replications pair up to differences of
 * exactly 1 ([1, 1], paired); on other replications Welch: difference 1,
 * standard error sqrt(2 * 1.6667 / 4) = 0.912871 with 6 degrees of
 * freedom, half-width t(0.975, 6) = 2.446912 times that = 2.233715. */
#include "tests/check.h"
#include "sim/cli/compare/compare_ci.h"

static int col_index(const char *name)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, name) == 0)
            return c;
    printf("no column %s\n", name);
    exit(99);
}

static void set_run(fs_compare_run *r, const char *name, const char *rep,
                    const char *cost)
{
    memset(r, 0, sizeof *r);
    r->summary.col[col_index("name")] = (char *)name;
    r->summary.col[col_index("replication")] = (char *)rep;
    r->summary.col[col_index("total_cost_usd")] = (char *)cost;
}

static size_t cost_metric(const fs_ci_table *t)
{
    for (size_t m = 0; m < t->nmetrics; m++)
        if (t->metric[m].section < 0 &&
            strcmp(t->metric[m].def.name, "total_cost_usd") == 0)
            return m;
    printf("no cost metric\n");
    exit(99);
}

int main(void)
{
    double x[] = {1, 2, 3, 4, 5};
    fs_ci c = fs_ci_of(x, 5);
    CHECK(c.n == 5);
    CHECK_NEAR(c.mean, 3, 1e-12);
    CHECK_NEAR((c.hi - c.lo) / 2, 1.963243, 1e-6);
    c = fs_ci_of(x, 1);
    CHECK(c.n == 1 && c.mean == 1 && isnan(c.lo) && isnan(c.hi));

    static const char *reps[] = {"0", "1", "2", "3", "4", "5", "6", "7"};
    static const char *a[] = {"10", "12", "11", "13"};
    static const char *b[] = {"11", "13", "12", "14"};
    fs_compare_run runs[12];
    for (int i = 0; i < 4; i++) {
        set_run(&runs[i], "a", reps[i], a[i]);
        set_run(&runs[4 + i], "b", reps[i], b[i]);
        set_run(&runs[8 + i], "c", reps[4 + i], b[i]);
    }
    fs_ci_group groups[] = {{0, 4}, {4, 4}, {8, 4}};
    fs_ci_table t;
    CHECK(fs_ci_table_build(&t, runs, groups, 3, 0) == 0);
    size_t m = cost_metric(&t);
    const fs_ci *s = &t.stat[0 * t.nmetrics + m];
    CHECK(s->n == 4);
    CHECK_NEAR(s->mean, 11.5, 1e-12);
    const fs_ci_delta *d = &t.delta[1 * t.nmetrics + m];
    CHECK(d->has && d->paired);
    CHECK_NEAR(d->abs.mean, 1, 1e-12);
    CHECK_NEAR(d->abs.lo, 1, 1e-12);
    CHECK_NEAR(d->abs.hi, 1, 1e-12);
    CHECK(d->has_pct);
    CHECK_NEAR(d->pct, 100.0 / 11.5, 1e-9);
    d = &t.delta[2 * t.nmetrics + m];
    CHECK(d->has && !d->paired);
    CHECK_NEAR(d->abs.mean, 1, 1e-12);
    CHECK_NEAR((d->abs.hi - d->abs.lo) / 2, 2.233715, 1e-5);
    CHECK(strcmp(fs_ci_group_name(&t, 2), "c") == 0);
    fs_ci_table_free(&t);
    return check_report("compare_ci");
}
