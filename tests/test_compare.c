/* test_compare.c -- escaping stored text (textout.c) and the compare
 * formats on runs made in memory with per-workload, per-pool and
 * per-pricing rows: rows matched by name across runs, blank where a run
 * lacks a row, deltas only where the baseline has the row, names that
 * cannot break a table, a CSV file or a JSON document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/compare/compare.h"
#include "sim/base/textout.h"
#include "tests/check.h"

/* ---- textout ------------------------------------------------------------ */

static size_t utf8_len(const char *s)
{
    unsigned long cp = 0;
    return fs_utf8_char(s, &cp);
}

static void test_utf8(void)
{
    unsigned long cp = 0;
    CHECK(fs_utf8_char("A", &cp) == 1 && cp == 'A');
    CHECK(fs_utf8_char("\xc3\xa9", &cp) == 2 && cp == 0xE9);
    CHECK(fs_utf8_char("\xe2\x82\xac", &cp) == 3 && cp == 0x20AC);
    CHECK(fs_utf8_char("\xf0\x9f\x98\x80", &cp) == 4 && cp == 0x1F600);
    CHECK(fs_utf8_char("\xf4\x8f\xbf\xbf", &cp) == 4 && cp == 0x10FFFF);
    CHECK(utf8_len("") == 0);
    CHECK(utf8_len("\x80") == 0);               /* lone continuation */
    CHECK(utf8_len("\xc0\x80") == 0);           /* overlong NUL */
    CHECK(utf8_len("\xc1\xbf") == 0);           /* overlong */
    CHECK(utf8_len("\xe0\x80\x80") == 0);       /* overlong */
    CHECK(utf8_len("\xed\xa0\x80") == 0);       /* surrogate U+D800 */
    CHECK(utf8_len("\xf4\x90\x80\x80") == 0);   /* above U+10FFFF */
    CHECK(utf8_len("\xf5\x80\x80\x80") == 0);
    CHECK(utf8_len("\xff") == 0);
    CHECK(utf8_len("\xc3") == 0);               /* cut short by the end */
    CHECK(utf8_len("\xe2\x82") == 0);
    CHECK(utf8_len("\xe2\x82x") == 0);
    CHECK(fs_text_width("a\xc3\xa9\xe2\x82\xac") == 3);
}

static void check_escape(const char *in, const char *want)
{
    char *got = fs_text_escape(in);
    CHECK(got && strcmp(got, want) == 0);
    if (got && strcmp(got, want) != 0)
        printf("     escape: got '%s', expected '%s'\n", got, want);
    free(got);
}

static void test_text_escape(void)
{
    check_escape("plain name-1.2", "plain name-1.2");
    check_escape("a\tb\nc\r", "a\\tb\\nc\\r");
    check_escape("back\\slash", "back\\\\slash");
    check_escape("\x01\x1b[31m\x7f", "\\x01\\x1b[31m\\x7f");
    check_escape("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");
    check_escape("bad\xff\xc3", "bad\\xff\\xc3");
    check_escape("\xc2\x9b" "1m", "\\u009b1m");         /* C1 CSI */
    check_escape("\xed\xa0\x80", "\\xed\\xa0\\x80");
    check_escape("", "");
    check_escape(NULL, "");
}

/* What writer wrote for s, as a string. */
static char *written(void (*writer)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    writer(out, s);
    fclose(out);
    return buf;
}

static void check_written(void (*writer)(FILE *, const char *),
                          const char *in, const char *want)
{
    char *got = written(writer, in);
    CHECK(got && strcmp(got, want) == 0);
    if (got && strcmp(got, want) != 0)
        printf("     wrote '%s', expected '%s'\n", got, want);
    free(got);
}

static void test_json_and_csv(void)
{
    check_written(fs_json_write_string, "a\"b\\c", "\"a\\\"b\\\\c\"");
    check_written(fs_json_write_string, "t\tn\nr\rb\bf\f",
                  "\"t\\tn\\nr\\rb\\bf\\f\"");
    check_written(fs_json_write_string, "\x01\x1f\x7f",
                  "\"\\u0001\\u001f\x7f\"");
    check_written(fs_json_write_string, "caf\xc3\xa9",
                  "\"caf\xc3\xa9\"");
    check_written(fs_json_write_string, "x\xff\xc0\x80y",
                  "\"x\\ufffd\\ufffd\\ufffdy\"");
    check_written(fs_json_write_string, "\xe2\x80\xa8", "\"\\u2028\"");
    check_written(fs_json_write_string, NULL, "\"\"");

    check_written(fs_csv_write_field, "plain", "plain");
    check_written(fs_csv_write_field, "a,b", "\"a,b\"");
    check_written(fs_csv_write_field, "say \"hi\"", "\"say \"\"hi\"\"\"");
    check_written(fs_csv_write_field, "two\nlines", "\"two\nlines\"");
    check_written(fs_csv_write_field, "tab\there", "\"tab\there\"");
    check_written(fs_csv_write_field, " padded", "\" padded\"");
    check_written(fs_csv_write_field, "caf\xc3\xa9", "caf\xc3\xa9");
    check_written(fs_csv_write_field, "bad\xff", "bad\xef\xbf\xbd");
    check_written(fs_csv_write_field, NULL, "");
    /* formula injection (OWASP): text starting = + - @ TAB CR is quoted
     * behind a single quote; numbers stay numbers */
    check_written(fs_csv_write_field, "=cmd|' /C calc'!A0",
                  "\"'=cmd|' /C calc'!A0\"");
    check_written(fs_csv_write_field, "+1+2", "\"'+1+2\"");
    check_written(fs_csv_write_field, "-2+3", "\"'-2+3\"");
    check_written(fs_csv_write_field, "@SUM(A1)", "\"'@SUM(A1)\"");
    check_written(fs_csv_write_field, "\tx", "\"'\tx\"");
    check_written(fs_csv_write_field, "\rx", "\"'\rx\"");
    check_written(fs_csv_write_field, "=\"a\"", "\"'=\"\"a\"\"\"");
    check_written(fs_csv_write_field, "-", "\"'-\"");
    check_written(fs_csv_write_field, "a=b", "a=b");
    check_written(fs_csv_write_field, "-12.5", "-12.5");
    check_written(fs_csv_write_field, "+3", "+3");
    check_written(fs_csv_write_field, "-1e-3", "-1e-3");
    check_written(fs_csv_write_field, "-.5", "-.5");
    CHECK(fs_csv_is_number("12") && fs_csv_is_number("-0.25") &&
          fs_csv_is_number("35.2E-7"));
    CHECK(!fs_csv_is_number("-") && !fs_csv_is_number("1e") &&
          !fs_csv_is_number("-inf") && !fs_csv_is_number("1,5") &&
          !fs_csv_is_number("") && !fs_csv_is_number("-1 "));
}

/* ---- the formats, on runs in memory ------------------------------------ */

/* Sets the summary column named name. */
static void set_col(fs_summary *sm, const char *name, const char *value)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, name) == 0) {
            free(sm->col[c]);
            sm->col[c] = value ? strdup(value) : NULL;
        }
}

/* Appends a row of values (ncols of them) to section sec of r. */
static void add_row(fs_compare_run *r, fs_section sec,
                    const char *const *values)
{
    fs_section_rows *rows = &r->rows[sec];
    rows->ncols = fs_compare_section_columns(sec);
    rows->cell = realloc(rows->cell,
                         (rows->nrows + 1) * rows->ncols * sizeof *rows->cell);
    for (size_t c = 0; c < rows->ncols; c++)
        rows->cell[rows->nrows * rows->ncols + c] =
            values[c] ? strdup(values[c]) : NULL;
    rows->nrows++;
}

static void make_run(fs_compare_run *r, const char *id, const char *name,
                     const char *cost)
{
    memset(r, 0, sizeof *r);
    set_col(&r->summary, "run_id", id);
    set_col(&r->summary, "name", name);
    set_col(&r->summary, "total_cost_usd", cost);
}

/* A copy of text with every run of spaces made one, and none at the end
 * of a line. */
static char *squeeze(const char *text)
{
    char *out = strdup(text), *o = out;
    for (const char *s = text; *s; s++) {
        if (*s == ' ' && (s[1] == ' ' || s[1] == '\n' || s[1] == '\0'))
            continue;
        *o++ = *s;
    }
    *o = '\0';
    return out;
}

static char *compare_text(fs_compare_format fmt, const fs_compare_run *runs,
                          size_t n, int baseline)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    CHECK(fs_compare_write_runs(out, fmt, runs, n, baseline) == 0);
    fclose(out);
    return buf;
}

static void test_formats(void)
{
    CHECK(fs_compare_section_columns(FS_SECTION_WORKLOADS) == 19);
    CHECK(fs_compare_section_columns(FS_SECTION_POOLS) == 29);
    CHECK(fs_compare_section_columns(FS_SECTION_PRICING) == 2);

    fs_compare_run runs[2];
    make_run(&runs[0], "1", "today", "100.0");
    make_run(&runs[1], "2", "a|b\tc", "150.0");
    /* workload, requests, unfinished, unfinished share, overloaded, p50,
     * p99, wait, slo, attainment, slo missed, batch size, tokens a step,
     * the KV transfers of prefill and decode pools, the replicas of a
     * model on a pool of several and the adapters' loads (none here) */
    add_row(&runs[0], FS_SECTION_WORKLOADS, (const char *[]){
        "chat", "1000", "0", "0.0", "no", "0.1", "0.2", "0.01", "1.0",
        "0.99", "no", "1.0", NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    add_row(&runs[0], FS_SECTION_WORKLOADS, (const char *[]){
        "batch", "10", "5", "0.3333", "yes", "50.0", "160.0", "40.0", NULL,
        NULL, NULL, "2.5", NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    add_row(&runs[1], FS_SECTION_WORKLOADS, (const char *[]){
        "chat", "1000", "0", "0.0", "no", "0.1", "0.3", "0.02", "1.0",
        "0.95", "yes", "1.5", NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    /* pool, pricing, gpu, provisioned, busy, utilization, cost, idle,
     * and for spot pools interruptions, retried, fallback hours, cost */
    add_row(&runs[0], FS_SECTION_POOLS, (const char *[]){
        "od|1", "on-demand", "A100-80GB", "720.0", "360.0", "0.5", "100.0",
        "50.0", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    add_row(&runs[1], FS_SECTION_POOLS, (const char *[]){
        "od|1", "on-demand", "A100-80GB", "720.0", "180.0", "0.25", "100.0",
        "75.0", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    add_row(&runs[1], FS_SECTION_POOLS, (const char *[]){
        "spare", "spot", "L4", "0.0", "0.0", NULL, "50.0", "50.0", "3", "7",
        "1.5", "4.59", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL });
    add_row(&runs[0], FS_SECTION_PRICING, (const char *[]){
        "on-demand", "100.0" });
    add_row(&runs[1], FS_SECTION_PRICING, (const char *[]){
        "on-demand", "100.0" });
    add_row(&runs[1], FS_SECTION_PRICING, (const char *[]){
        "spot", "50.0" });

    /* json: rows in their run's object, deltas against the same name */
    char *json = compare_text(FS_COMPARE_JSON, runs, 2, 0);
    CHECK_CONTAINS(json, "\"workloads\":[{\"workload\":\"chat\",\"requests\":"
                   "1000,\"requests_unfinished\":0,\"unfinished_share\":0.0,"
                   "\"overloaded\":\"no\",\"latency_p50_s\":0.1,\"latency_p99_s\":0.2,"
                   "\"wait_mean_s\":0.01,\"slo_s\":1.0,\"slo_attainment\":"
                   "0.99,\"slo_missed\":\"no\",\"mean_batch_size\":1.0,"
                   "\"spec_tokens_per_step\":null,"
                   "\"kv_transfers\":null,\"kv_transfer_mean_s\":null,\"kv_wait_mean_s\":null,"
                   "\"model_replicas\":null,\"adapter_loads\":null,\"adapter_load_wait_s\":null},"
                   "{\"workload\":\"batch\",");
    CHECK_CONTAINS(json, "\"slo_s\":null,\"slo_attainment\":null,"
                   "\"slo_missed\":null,\"mean_batch_size\":2.5,"
                   "\"spec_tokens_per_step\":null,"
                   "\"kv_transfers\":null,\"kv_transfer_mean_s\":null,\"kv_wait_mean_s\":null,"
                   "\"model_replicas\":null,\"adapter_loads\":null,\"adapter_load_wait_s\":null}],");
    /* a workload under 99% within its SLO: the run says so */
    CHECK_CONTAINS(json, "\"overloaded\":false,\"slo_missed\":false,");
    CHECK_CONTAINS(json, "\"overloaded\":false,\"slo_missed\":true,");
    CHECK_CONTAINS(json, "\"name\":\"a|b\\tc\"");
    CHECK_CONTAINS(json, "\"latency_p99_s\":0.3,\"wait_mean_s\":0.02,"
                   "\"slo_s\":1.0,\"slo_attainment\":0.95,\"slo_missed\":\"yes\","
                   "\"mean_batch_size\":1.5,\"spec_tokens_per_step\":null,"
                   "\"kv_transfers\":null,\"kv_transfer_mean_s\":null,\"kv_wait_mean_s\":null,"
                   "\"model_replicas\":null,\"adapter_loads\":null,\"adapter_load_wait_s\":null,"
                   "\"delta_vs_baseline\":{\"requests\":0,"
                   "\"requests_unfinished\":0,\"unfinished_share\":0,"
                   "\"latency_p50_s\":0,"
                   "\"latency_p99_s\":0.1,\"wait_mean_s\":0.01,\"slo_s\":0,"
                   "\"slo_attainment\":-0.04,\"mean_batch_size\":0.5,"
                   "\"spec_tokens_per_step\":null,"
                   "\"kv_transfers\":null,\"kv_transfer_mean_s\":null,\"kv_wait_mean_s\":null,"
                   "\"model_replicas\":null,\"adapter_loads\":null,\"adapter_load_wait_s\":null},\"delta_pct_vs_baseline\":{"
                   "\"requests\":0,\"requests_unfinished\":null,"
                   "\"unfinished_share\":null,\"latency_p50_s\":0,"
                   "\"latency_p99_s\":50,"
                   "\"wait_mean_s\":100,");
    CHECK_CONTAINS(json, "{\"pool\":\"spare\",\"pricing\":\"spot\",\"gpu\":"
                   "\"L4\",\"gpu_hours_provisioned\":0.0,\"gpu_hours_busy\":"
                   "0.0,\"utilization\":null,\"cost_usd\":50.0,"
                   "\"idle_cost_usd\":50.0,\"interruptions\":3,"
                   "\"requests_retried\":7,\"fallback_hours\":1.5,"
                   "\"fallback_cost_usd\":4.59,\"ttft_p50_s\":null,"
                   "\"ttft_p99_s\":null,\"tpot_p50_s\":null,"
                   "\"tpot_p99_s\":null,\"e2e_p50_s\":null,"
                   "\"e2e_p99_s\":null,"
                   "\"ttft_p90_s\":null,\"tpot_p90_s\":null,\"e2e_p90_s\":null,"
                   "\"ttft_mean_s\":null,\"tpot_mean_s\":null,"
                   "\"e2e_mean_s\":null,\"cold_starts\":null,"
                   "\"load_s\":null,\"energy_kwh\":null,"
                   "\"energy_kwh_per_gpu_hour\":null,"
                   "\"energy_kwh_per_mtok\":null,\"delta_vs_baseline\":null,"
                   "\"delta_pct_vs_baseline\":null}");
    CHECK_CONTAINS(json, "\"gpu_hours_busy\":-180,\"utilization\":-0.25,"
                   "\"cost_usd\":0,\"idle_cost_usd\":25,\"interruptions\":"
                   "null,\"requests_retried\":null,\"fallback_hours\":null,"
                   "\"fallback_cost_usd\":null,\"ttft_p50_s\":null,"
                   "\"ttft_p99_s\":null,\"tpot_p50_s\":null,"
                   "\"tpot_p99_s\":null,\"e2e_p50_s\":null,"
                   "\"e2e_p99_s\":null,"
                   "\"ttft_p90_s\":null,\"tpot_p90_s\":null,\"e2e_p90_s\":null,"
                   "\"ttft_mean_s\":null,\"tpot_mean_s\":null,"
                   "\"e2e_mean_s\":null,\"cold_starts\":null,\"load_s\":null,"
                   "\"energy_kwh\":null,\"energy_kwh_per_gpu_hour\":null,"
                   "\"energy_kwh_per_mtok\":null}");
    CHECK_CONTAINS(json, "\"cost_by_pricing\":[{\"pricing\":\"on-demand\","
                   "\"cost_usd\":100.0}]}");
    CHECK_CONTAINS(json, "{\"pricing\":\"spot\",\"cost_usd\":50.0,"
                   "\"delta_vs_baseline\":null,");
    free(json);
    /* no baseline: no deltas anywhere */
    json = compare_text(FS_COMPARE_JSON, runs, 2, -1);
    CHECK(!strstr(json, "delta"));
    free(json);

    /* csv: SECTION.KEY.COLUMN rows; empty where a run lacks the row */
    char *csv = compare_text(FS_COMPARE_CSV, runs, 2, 0);
    CHECK_CONTAINS(csv, "metric,today #1,\"a|b\tc #2\",\"a|b\tc #2 delta\","
                   "\"a|b\tc #2 delta %\"\n");
    CHECK_CONTAINS(csv, "\nworkloads.chat.latency_p99_s,0.2,0.3,0.1,50\n");
    CHECK_CONTAINS(csv, "\nworkloads.batch.latency_p99_s,160.0,,,\n");
    CHECK_CONTAINS(csv, "\nworkloads.chat.slo_missed,no,yes,,\n");
    CHECK_CONTAINS(csv, "\nslo_missed,no,yes,,\n");
    CHECK_CONTAINS(csv, "\npools.od|1.utilization,0.5,0.25,-0.25,-50\n");
    CHECK_CONTAINS(csv, "\npools.od|1.pricing,on-demand,on-demand,,\n");
    CHECK_CONTAINS(csv, "\npools.spare.cost_usd,,50.0,,\n");
    CHECK_CONTAINS(csv, "\ncost_by_pricing.spot.cost_usd,,50.0,,\n");
    free(csv);

    /* table: headings, indented metrics, blanks for a missing row */
    char *table = compare_text(FS_COMPARE_TABLE, runs, 2, 0);
    CHECK_CONTAINS(table, "a|b\\tc #2");
    CHECK(!strchr(table, '\t'));
    CHECK_CONTAINS(table, "\nworkload chat ");
    CHECK_CONTAINS(table, "\nworkload batch ");
    CHECK_CONTAINS(table, "\npool od|1 ");
    CHECK_CONTAINS(table, "\ncost by pricing model ");
    /* the cells, with runs of spaces squeezed and line ends trimmed */
    char *cells = squeeze(table);
    CHECK_CONTAINS(cells, "\nworkload chat\n requests 1,000 1,000 0 0.0%\n"
                   " requests unfinished 0 0 0\n"
                   " unfinished share 0.00% 0.00% 0.00 pp\n"
                   " overloaded no no\n"
                   " latency p50 (finished requests) 0.1 s 0.1 s 0 s 0.0%\n"
                   " latency p99 (finished requests) 0.2 s 0.3 s +0.1 s +50.0%\n");
    CHECK_CONTAINS(cells, "\nworkload batch\n requests 10\n"
                   " requests unfinished 5\n"
                   " unfinished share 33.33% OVERLOADED\n overloaded yes\n");
    CHECK_CONTAINS(cells, "\n SLO attainment 99.00% 95.00% SLO MISSED "
                   "-4.00 pp -4.0%\n SLO missed no yes\n");
    CHECK_CONTAINS(cells, "\nSLO missed (a workload) no yes\n");
    CHECK_CONTAINS(cells, "\n SLO p99 -\n SLO attainment -\n SLO missed -\n"
                   " mean batch size 2.50\n"
                   "pool od|1\n");
    CHECK_CONTAINS(cells, "\n utilization 50.00% 25.00% -25.00 pp -50.0%\n");
    CHECK_CONTAINS(cells, "\npool spare\n pricing spot\n");
    /* spot rows for the spot pool only: none of its values is NULL */
    CHECK_CONTAINS(cells, " idle cost $50.00\n interruptions 3\n requests "
                   "retried 7\n fallback hours 1.5\n fallback cost $4.59\n");
    CHECK(strstr(cells, " idle cost $50.00 $75.00 +$25.00 +50.0%\npool spare"));
    CHECK_CONTAINS(cells, "\ncost by pricing model\n"
                   " on-demand $100.00 $100.00 $0.00 0.0%\n"
                   " spot $50.00\n");
    free(cells);
    free(table);

    /* markdown: the same, with bold headings and escaped pipes */
    char *md = compare_text(FS_COMPARE_MARKDOWN, runs, 2, 0);
    CHECK_CONTAINS(md, "| metric | today #1 (baseline) | a\\|b\\tc #2 | "
                   "\xce\x94 | \xce\x94% |\n");
    CHECK_CONTAINS(md, "\n| **pool od\\|1** |  |  |  |  |\n");
    CHECK_CONTAINS(md, "\n| utilization | 50.00% | 25.00% | -25.00 pp | "
                   "-50.0% |\n");
    CHECK_CONTAINS(md, "\n| **cost by pricing model** |  |  |  |  |\n"
                   "| on-demand | $100.00 | $100.00 | $0.00 | 0.0% |\n"
                   "| spot |  | $50.00 |  |  |\n");
    free(md);

    for (int i = 0; i < 2; i++)
        fs_compare_run_free(&runs[i]);
}

int main(void)
{
    test_utf8();
    test_text_escape();
    test_json_and_csv();
    test_formats();
    return check_report("compare");
}
