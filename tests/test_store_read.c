/* test_store_read.c -- reading runs back from the results database:
 * resolving RUN (ids, names, replications, typos), the run_summary view's
 * values, the listing of `fleetsim runs`, the formats of `fleetsim
 * compare`, and both commands end to end.
 *
 * Every test stands alone in a directory of its own (store_common.h),
 * writing the runs it reads: `tests/test_store_read NAME` runs one,
 * `--list` names them. */
#include "sim/cli/commands.h"
#include "sim/cli/compare/compare.h"
#include "sim/store/store.h"
#include "tests/store_common.h"

/* A run with no child rows, named name. */
static long write_empty_run(fs_store *s, const char *name)
{
    fs_results r;
    fs_results_init(&r);
    snprintf(r.name, sizeof r.name, "%s", name);
    r.slo_attainment = NAN;
    fs_error err = { "" };
    long id = 0;
    CHECK(fs_store_write_run(s, &r, &id, &err) == 0);
    fs_results_free(&r);
    return id;
}

/* The database the listing and the commands read, as runs accumulate:
 * 1 and 2 "base" (full rows), 3 to 6 "reps" (replications 0, 1, 0, 1),
 * 7 "2026", 8 "empty" (no child rows), and run 1 removed again. */
static fs_store *open_many_runs(const char *name)
{
    fs_store *s = open_new(name);
    if (!s)
        return NULL;
    CHECK(write_run(s, "base", 0, 100) == 1);
    CHECK(write_run(s, "base", 0, 100) == 2);
    for (unsigned i = 0; i < 4; i++)
        CHECK(write_run(s, "reps", i % 2, 0) == 3 + (long)i);
    CHECK(write_run(s, "2026", 0, 0) == 7);
    CHECK(write_empty_run(s, "empty") == 8);
    CHECK(sqlite3_exec(fs_store_db(s), "DELETE FROM run WHERE run_id = 1",
                       NULL, NULL, NULL) == SQLITE_OK);
    return s;
}

/* ---- finding runs ------------------------------------------------------- */

/* Ids, names (the latest run of a name), and the messages when nothing
 * matches. */
static void test_find_run(void)
{
    const char *path = tmp_path("runs.db");
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    CHECK(write_run(s, "base", 0, 0) == 1);
    CHECK(write_run(s, "base", 0, 0) == 2);
    fs_error err;
    long found = 0;
    CHECK(fs_store_find_run(s, "base", &found, &err) == 0 && found == 2);
    CHECK(fs_store_find_run(s, "1", &found, &err) == 0 && found == 1);
    CHECK(fs_store_find_run(s, "7", &found, &err) == -1);
    char want_msg[512];
    snprintf(want_msg, sizeof want_msg, "no run with id 7 in %s", path);
    CHECK(strcmp(err.msg, want_msg) == 0);
    CHECK(fs_store_find_run(s, "bsae", &found, &err) == -1);
    CHECK_CONTAINS(err.msg, "no run named 'bsae' in ");
    CHECK_CONTAINS(err.msg, "did you mean 'base'?");
    CHECK(fs_store_find_run(s, "completely-different", &found, &err) == -1);
    CHECK_CONTAINS(err.msg, "; runs: base");
    CHECK(fs_store_find_run(s, "", &found, &err) == -1);
    fs_store_close(s);
}

/* A name with replications: the latest run's lowest replication; a run
 * named like a number resolves once no id matches. */
static void test_find_replications(void)
{
    fs_store *s = open_new("reps.db");
    if (!s)
        return;
    long ids[4];
    for (int i = 0; i < 4; i++)
        ids[i] = write_run(s, "reps", (unsigned)(i % 2), 0);
    fs_error err;
    long found = 0;
    CHECK(fs_store_find_run(s, "reps", &found, &err) == 0 && found == ids[2]);
    long numeric = write_run(s, "2026", 0, 0);
    CHECK(numeric > 0);
    CHECK(fs_store_find_run(s, "2026", &found, &err) == 0 &&
          found == numeric);
    fs_store_close(s);
}

/* ---- run_summary -------------------------------------------------------- */

static void test_summary(void)
{
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    long id = write_run(s, "base", 0, 100);
    CHECK(id == 1);
    fs_error err;
    fs_summary sm;
    CHECK(fs_store_summary(s, id, &sm, &err) == 0);
    static const char *const want[FS_SUMMARY_COLUMNS] = {
        "1", "base", "scenarios/quickstart.ini", "7", "0", "5097600.0",
        "1234.56", "636.46", "1500.0", "750.0", "0.5", "1000", "3", "0.5",
        "0.4", "1.9", "0.1", NULL, "3", "1", "4", "3", "0.003", "0.8", "0.05",
        NULL, NULL, NULL,
        /* sm_utilization: (280 + 350) SM-counted busy GPU-hours / 1500 */
        "0.42",
    };
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        int same = want[c] ? sm.col[c] && strcmp(sm.col[c], want[c]) == 0
                           : sm.col[c] == NULL;
        CHECK(same);
        if (!same)
            printf("  %s = '%s', expected '%s'\n", fs_summary_columns[c].name,
                   sm.col[c] ? sm.col[c] : "NULL", want[c] ? want[c] : "NULL");
    }
    CHECK_NEAR(atof(sm.col[6]), 1234.56, 1e-9);
    CHECK_NEAR(atof(sm.col[7]), 636.46, 1e-9);  /* x 730 h / 1416 h */
    CHECK_NEAR(atof(sm.col[10]), 0.5, 1e-12);
    fs_summary_free(&sm);
    CHECK(sm.col[0] == NULL);
    fs_store_close(s);
}

/* A run with no child rows still has its summary; an unknown id has
 * none. */
static void test_summary_of_empty_run(void)
{
    fs_store *s = open_new("runs.db");
    if (!s)
        return;
    long empty = write_empty_run(s, "empty");
    CHECK(empty == 1);
    fs_error err;
    fs_summary sm;
    CHECK(fs_store_summary(s, empty, &sm, &err) == 0);
    CHECK(sm.col[6] && strcmp(sm.col[6], "0.0") == 0);     /* total cost */
    CHECK(sm.col[7] == NULL);                  /* horizon 0: no run rate */
    CHECK(sm.col[10] == NULL);                 /* utilization */
    CHECK(sm.col[18] && strcmp(sm.col[18], "0") == 0);      /* jobs */
    CHECK(sm.col[20] && strcmp(sm.col[20], "0") == 0);      /* interruptions */
    fs_summary_free(&sm);
    CHECK(fs_store_summary(s, 999, &sm, &err) == -1);
    CHECK_CONTAINS(err.msg, "no run with id 999");
    fs_store_close(s);
}

/* ---- the listing -------------------------------------------------------- */

static void test_list_runs(void)
{
    fs_store *s = open_many_runs("runs.db");
    if (!s)
        return;
    fs_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CHECK(fs_store_list_runs(s, out, &err) == 0);
    fclose(out);
    CHECK_CONTAINS(buf, "id  name");
    CHECK_CONTAINS(buf, "finished (UTC)");
    CHECK_CONTAINS(buf, "2026-01-05 10:00");
    CHECK_CONTAINS(buf, "1,234.56");
    CHECK_CONTAINS(buf, "636.46");
    CHECK_CONTAINS(buf, "\n 2  base");
    CHECK(!strstr(buf, "\n 1  base"));     /* run 1 was deleted */
    free(buf);
    fs_store_close(s);

    /* an empty database says so */
    s = open_new("none.db");
    if (!s)
        return;
    buf = NULL;
    out = open_memstream(&buf, &len);
    CHECK(fs_store_list_runs(s, out, &err) == 0);
    fclose(out);
    CHECK_CONTAINS(buf, "no runs in ");
    free(buf);
    fs_store_close(s);
}

static void test_thousands(void)
{
    char buf[64];
    CHECK(strcmp(fs_format_thousands(1234.56, 2, buf, sizeof buf),
                 "1,234.56") == 0);
    CHECK(strcmp(fs_format_thousands(-1234567.891, 2, buf, sizeof buf),
                 "-1,234,567.89") == 0);
    CHECK(strcmp(fs_format_thousands(999.999, 2, buf, sizeof buf),
                 "1,000.00") == 0);
    CHECK(strcmp(fs_format_thousands(-0.001, 2, buf, sizeof buf), "0.00")
          == 0);
    CHECK(strcmp(fs_format_thousands(100, 0, buf, sizeof buf), "100") == 0);
    CHECK(strcmp(fs_format_thousands(NAN, 2, buf, sizeof buf), "nan") == 0);
}

/* ---- compare's formats, on summaries made in memory --------------------- */

static void set_summary(fs_summary *sm, const char *const v[])
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        sm->col[c] = v[c] ? strdup(v[c]) : NULL;
}

static char *compare_text(fs_compare_format fmt, const fs_summary *runs,
                          size_t n, int baseline)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CHECK(fs_compare_write(out, fmt, runs, n, baseline) == 0);
    fclose(out);
    return buf;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

static size_t utf8_width(const char *s, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

static void test_compare_formats(void)
{
    static const char *const a[FS_SUMMARY_COLUMNS] = {
        "1", "today", "scenarios/today.ini", "1", "0", "2592000.0",
        "80.0", "80.0", "1000.0", "500.0", "0.5", "1000", "0", "0.25",
        "0.2", "1.5", "0.05", "0.99", "2", "0", "0", "0", "0.0",
    };
    static const char *const b[FS_SUMMARY_COLUMNS] = {
        "2", "with \"spot\", 3x", "scenarios/spot.ini", "1", "0", "2592000.0",
        "100.0", "100.0", "1500.0", "1200.0", "0.8", "3000", "12", "0.3",
        "0.25", "2.0", NULL, NULL, "2", "1", "5", "12", "0.004",
    };
    static const char *const big[FS_SUMMARY_COLUMNS] = {
        "3", "big", "s.ini", "1", "0", "2592000.0",
        "1234567.891", "1234.56", "1500.0", "1200.0", "0.8", "3000", "12",
        "0.3", "0.25", "2.0", NULL, NULL, "2", "1", "5", "12", "0.004",
    };
    fs_summary runs[3];
    set_summary(&runs[0], a);
    set_summary(&runs[1], b);
    set_summary(&runs[2], big);

    fs_compare_format f;
    CHECK(fs_compare_parse_format("markdown", &f) == 0 &&
          f == FS_COMPARE_MARKDOWN);
    CHECK(fs_compare_parse_format("yaml", &f) == -1);

    /* json: an array of run_summary objects with their own key names */
    char *json = compare_text(FS_COMPARE_JSON, runs, 2, 0);
    CHECK(json && json[0] == '[' && strcmp(json + strlen(json) - 2, "]\n")
          == 0);
    CHECK_CONTAINS(json, "{\"run_id\":1,\"name\":\"today\",\"scenario\":"
                    "\"scenarios/today.ini\",\"seed\":1,\"replication\":0,");
    CHECK_CONTAINS(json, "\"total_cost_usd\":80.0,");
    CHECK_CONTAINS(json, "\"name\":\"with \\\"spot\\\", 3x\"");
    CHECK_CONTAINS(json, "\"wait_mean_s\":null,\"slo_attainment\":null,");
    CHECK_CONTAINS(json, "\"delta_vs_baseline\":{\"horizon_s\":0,"
                    "\"total_cost_usd\":20,\"cost_per_month_usd\":20,");
    CHECK_CONTAINS(json, "\"delta_pct_vs_baseline\":{\"horizon_s\":0,"
                    "\"total_cost_usd\":25,");
    CHECK_CONTAINS(json, "\"utilization\":0.3,");            /* 0.8 - 0.5 */
    CHECK_CONTAINS(json, "\"requests\":2000,");
    CHECK_CONTAINS(json, "\"slo_attainment\":null,");
    CHECK_CONTAINS(json, "\"jobs_missed_deadline\":1,");
    CHECK_CONTAINS(json, "\"jobs_missed_deadline\":null,");  /* pct of 0 */
    CHECK(!strstr(json, "\"seed\":0"));                  /* no seed delta */
    CHECK(strstr(json, "delta_vs_baseline") > strstr(json, "\"run_id\":2"));
    free(json);
    json = compare_text(FS_COMPARE_JSON, runs, 2, -1);
    CHECK(!strstr(json, "delta"));
    CHECK(count_lines(json) == 4);
    free(json);

    /* csv: a header, one row per run_summary column, overloaded and
     * slo_missed */
    char *csv = compare_text(FS_COMPARE_CSV, runs, 2, -1);
    CHECK(count_lines(csv) == 3 + FS_SUMMARY_COLUMNS);
    CHECK_CONTAINS(csv, "\noverloaded,no,no\nslo_missed,no,no\n");
    CHECK_CONTAINS(csv, "metric,today #1,\"with \"\"spot\"\", 3x #2\"\n");
    CHECK_CONTAINS(csv, "\ntotal_cost_usd,80.0,100.0\n");
    CHECK_CONTAINS(csv, "\nwait_mean_s,0.05,\n");
    free(csv);
    csv = compare_text(FS_COMPARE_CSV, runs, 2, 0);
    CHECK(count_lines(csv) == 3 + FS_SUMMARY_COLUMNS);
    CHECK_CONTAINS(csv, "metric,today #1,\"with \"\"spot\"\", 3x #2\","
                   "\"with \"\"spot\"\", 3x #2 delta\","
                   "\"with \"\"spot\"\", 3x #2 delta %\"\n");
    CHECK_CONTAINS(csv, "\ntotal_cost_usd,80.0,100.0,20,25\n");
    CHECK_CONTAINS(csv, "\ngpu_hours_busy,500.0,1200.0,700,140\n");
    CHECK_CONTAINS(csv, "\nseed,1,1,,\n");
    CHECK_CONTAINS(csv, "\nslo_attainment,0.99,,,\n");
    CHECK_CONTAINS(csv, "\ninterruptions,0,5,5,\n");     /* baseline 0: no % */
    free(csv);

    /* table: one row per metric, aligned, units; baseline deltas */
    char *table = compare_text(FS_COMPARE_TABLE, runs, 3, 0);
    CHECK_CONTAINS(table, "metric");
    CHECK_CONTAINS(table, "today #1 (baseline)");
    CHECK_CONTAINS(table, "$80.00");
    CHECK_CONTAINS(table, "$1,234,567.89");
    CHECK_CONTAINS(table, "+$20.00");
    CHECK_CONTAINS(table, "+25.0%");
    CHECK_CONTAINS(table, "50.00%");
    CHECK_CONTAINS(table, "+30.00 pp");
    CHECK_CONTAINS(table, "1,500.0");
    CHECK_CONTAINS(table, "30 d");
    CHECK_CONTAINS(table, "0.25 s");
    CHECK_CONTAINS(table, "\xce\x94%");
    CHECK(count_lines(table) == 3 + FS_SUMMARY_COLUMNS - 2);  /* SLO missed */
    /* right-aligned: every line but the rule ends in the same column */
    size_t width = 0;
    int aligned = 1;
    for (const char *line = table; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t w = utf8_width(line, (size_t)(end - line));
        if (!width)
            width = w;
        aligned &= w == width;
        line = end + 1;
    }
    CHECK(aligned);
    free(table);

    /* markdown: the same as a GitHub table */
    char *md = compare_text(FS_COMPARE_MARKDOWN, runs, 2, 0);
    CHECK(md && strncmp(md, "| metric | today #1 (baseline) |", 32) == 0);
    CHECK_CONTAINS(md, "\n| :--- | ---: | ---: | ---: | ---: |\n");
    CHECK_CONTAINS(md, "| total cost | $80.00 | $100.00 | +$20.00 | +25.0% |");
    CHECK_CONTAINS(md, "| wait mean | 0.05 s | - |  |  |");
    CHECK(count_lines(md) == 3 + FS_SUMMARY_COLUMNS - 2);
    free(md);

    for (int i = 0; i < 3; i++)
        fs_summary_free(&runs[i]);
}

/* ---- `fleetsim runs` and `fleetsim compare` ----------------------------- */

static void test_commands(void)
{
    fs_store *s = open_many_runs("runs.db");
    if (!s)
        return;
    fs_store_close(s);
    char db[300];
    snprintf(db, sizeof db, "%s", tmp_path("runs.db"));
    char *out = NULL, *err = NULL;

    char *a1[] = { "runs", "--db", db, NULL };
    CHECK(run_cmd(cmd_runs, a1, &out, &err) == FS_EXIT_OK);
    CHECK_CONTAINS(out, "total cost $");
    CHECK_CONTAINS(out, "reps");
    free(out);
    free(err);

    char *a2[] = { "runs", "--db", db, "stray", NULL };
    CHECK(run_cmd(cmd_runs, a2, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "fleetsim runs: unexpected argument 'stray'");
    free(err);

    char *a3[] = { "runs", "--dbb", "x", NULL };
    CHECK(run_cmd(cmd_runs, a3, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown option '--dbb'; did you mean '--db'?");
    free(err);

    char *a4[] = { "runs", "--db", NULL };
    CHECK(run_cmd(cmd_runs, a4, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "--db needs a value");
    free(err);

    char missing[300];
    snprintf(missing, sizeof missing, "%s", tmp_path("nothing.db"));
    char *a5[] = { "runs", "--db", missing, NULL };
    CHECK(run_cmd(cmd_runs, a5, NULL, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "no such database (run `fleetsim run` first)");
    CHECK(access(missing, F_OK) != 0);
    free(err);

    char dbeq[320];
    snprintf(dbeq, sizeof dbeq, "--db=%s", db);
    char *c1[] = { "compare", dbeq, "--format", "json", "--baseline", "base",
                   "empty", NULL };
    CHECK(run_cmd(cmd_compare, c1, &out, &err) == FS_EXIT_OK);
    CHECK_CONTAINS(out, "[\n{\"run_id\":2,\"name\":\"base\"");   /* first */
    CHECK_CONTAINS(out, "\"total_cost_usd\":1234.56,");
    CHECK_CONTAINS(out, "\"delta_vs_baseline\":{");
    CHECK_CONTAINS(out, "\"total_cost_usd\":-1234.56,");
    CHECK(count_lines(out) == 4);
    free(out);
    free(err);

    char *c2[] = { "compare", "--db", db, NULL };
    CHECK(run_cmd(cmd_compare, c2, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "give at least one RUN");
    free(err);

    char *c3[] = { "compare", "--db", db, "--format", "yaml", "base",
                   NULL };
    CHECK(run_cmd(cmd_compare, c3, NULL, &err) == FS_EXIT_USAGE);
    CHECK_CONTAINS(err, "unknown format 'yaml'");
    free(err);

    char *c4[] = { "compare", "--db", db, "base", "nosuchrun", NULL };
    CHECK(run_cmd(cmd_compare, c4, &out, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "fleetsim: no run named 'nosuchrun' in ");
    CHECK(out && out[0] == '\0');
    free(out);
    free(err);

    char *c5[] = { "compare", "--db", db, "--format", "csv", "2",
                   "base", "--", "reps", NULL };
    CHECK(run_cmd(cmd_compare, c5, &out, &err) == FS_EXIT_OK);
    /* "base" is #2 again, shown once */
    CHECK_CONTAINS(out, "metric,base #2,reps #5\n");
    free(out);
    free(err);

    char *c6[] = { "compare", "--db", missing, "1", NULL };
    CHECK(run_cmd(cmd_compare, c6, NULL, &err) == FS_EXIT_FAIL);
    CHECK_CONTAINS(err, "no such database");
    free(err);
}

static const store_test tests[] = {
    { "find_run", test_find_run },
    { "find_replications", test_find_replications },
    { "summary", test_summary },
    { "summary_of_empty_run", test_summary_of_empty_run },
    { "list_runs", test_list_runs },
    { "thousands", test_thousands },
    { "compare_formats", test_compare_formats },
    { "commands", test_commands },
};

int main(int argc, char **argv)
{
    return store_tests_main(argc, argv, tests, sizeof tests / sizeof *tests,
                            "store_read");
}
