/* test_traces.c -- arrival streams read from traces, against the files
 * they read: every valid row of the real traces is counted; exact times
 * from date-times and millisecond epochs; bad rows named by file, line and
 * column, or skipped and counted; files that are not traces refused;
 * statuses; rate_scale thinning and replication; repeat lap after lap.
 * The generators are tested in test_arrivals.c. */
#include "tests/arrivals_common.h"

#include <sys/stat.h>
#include <unistd.h>

/* ---- Traces ------------------------------------------------------------- */

static void test_real_traces(void)
{
    static const struct {
        const char *call, *file;
        long valid;              /* -1: every data row */
    } traces[] = {
        {"trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
         "format=azure-llm)", "traces/sample/AzureLLMInferenceTrace_code.csv",
         -1},
        {"trace(traces/sample/AzureLLMInferenceTrace_conv.csv, "
         "format=azure-llm)", "traces/sample/AzureLLMInferenceTrace_conv.csv",
         -1},
        {"trace(traces/sample/lora_request_trace.csv, format=alibaba-lora)",
         "traces/sample/lora_request_trace.csv", 26392},
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        long rows = data_lines(traces[i].file);
        long valid = traces[i].valid < 0 ? rows : traces[i].valid;
        fs_arrivals *a = open_or_die(traces[i].call, DEFAULTS);
        fs_trace_stats st;
        fs_arrivals_stats(a, &st);
        CHECK_CONTAINS(st.path, traces[i].file);   /* valid while open */
        tally t = {0};
        tally_run(a, &t);
        fs_arrivals_free(a);
        printf("  %s: %ld rows, %ld valid, %ld skipped (first on line %ld: "
               "%s), span %.0fs\n", traces[i].file, st.rows, st.valid,
               st.skipped, st.first_skipped_line, st.skip_reason, st.span_s);
        CHECK(st.rows == rows);
        CHECK(st.valid == valid);
        CHECK(st.skipped == rows - valid);
        CHECK(t.n == valid);
        CHECK(t.ordered);
        CHECK(t.first == 0);
        CHECK_NEAR(t.last, st.span_s, 1e-6);
    }
    /* Azure rows carry tokens; the first row of the code trace is
     * 2023-11-16 18:17:03.9799600,4808,10 and the second 0.052 s later. */
    fs_arrivals *a = open_or_die(traces[0].call, DEFAULTS);
    fs_arrival x;
    fs_error err;
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    CHECK(st.has_tokens && !st.has_service);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK(x.t == 0 && x.tokens_in == 4808 && x.tokens_out == 10);
    CHECK(x.service_s == -1);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK_NEAR(x.t, 0.052, 1e-9);
    fs_arrivals_free(a);
    /* LoRA rows carry the measured service time: 32.0 s first. */
    a = open_or_die(traces[2].call, DEFAULTS);
    fs_arrivals_stats(a, &st);
    CHECK(st.has_service && !st.has_tokens);
    CHECK(fs_arrivals_next(a, &x, &err) == 1);
    CHECK(x.t == 0 && x.service_s == 32.0);
    fs_arrivals_free(a);
}

static void test_generic(void)
{
    /* Millisecond epochs read exactly: 1700000000000.5 ms is the origin. */
    fs_arrivals *a = open_or_die(
        "trace(tests/data/generic_ms.csv, format=generic, time=arrival_ms, "
        "time_unit=ms, service=exec_s, tokens_in=prompt, tokens_out=output)",
        DEFAULTS);
    static const double t[] = {0, 0.2495, 0.9995, 0.9995};
    static const double s[] = {0.25, 0.5, 1.25, 0.75};
    static const int in[] = {100, 120, 80, 90}, out[] = {20, 30, 10, 12};
    fs_arrival x;
    fs_error err;
    for (int i = 0; i < 4; i++) {
        CHECK(fs_arrivals_next(a, &x, &err) == 1);
        CHECK_NEAR(x.t, t[i], 1e-12);
        CHECK(x.service_s == s[i]);
        CHECK(x.tokens_in == in[i] && x.tokens_out == out[i]);
    }
    CHECK(fs_arrivals_next(a, &x, &err) == 0);
    fs_arrivals_free(a);

    /* Date-times across a leap day: 2024-02-29 exists. */
    a = open_or_die("trace(tests/data/generic_datetime.csv, format=generic, "
                    "time_unit=datetime, service=service)", DEFAULTS);
    static const double td[] = {0, 0.75, 86400.5};
    for (int i = 0; i < 3; i++) {
        CHECK(fs_arrivals_next(a, &x, &err) == 1);
        CHECK(x.t == td[i]);
        CHECK(x.service_s == i + 1);
        CHECK(x.tokens_in == -1);
    }
    fs_arrivals_free(a);
}

static void test_bad_traces(void)
{
    stream_opts o = DEFAULTS;
    expect_open_error("trace(tests/data/nowhere.csv, format=azure-llm)", o,
                      "test.ini:7: workload.w.arrivals", "nowhere.csv");
    expect_open_error("trace(tests/data/header_only.csv, format=azure-llm)",
                      o, "header_only.csv", "no rows");
    expect_open_error("trace(tests/data/missing_column.csv, format=azure-llm)",
                      o, "missing_column.csv:1: missing column "
                      "'GeneratedTokens'", "columns: TIMESTAMP, ContextTokens, "
                      "GenTokens");
    expect_open_error("trace(tests/data/bad_fields.csv, format=azure-llm)", o,
                      "bad_fields.csv:3: 2 fields where the header has 3",
                      NULL);
    expect_open_error("trace(tests/data/bad_timestamp.csv, format=azure-llm)",
                      o, "bad_timestamp.csv:4: TIMESTAMP: no such time of day",
                      "25:17:05");
    expect_open_error("trace(tests/data/nonmonotonic.csv, format=azure-llm)",
                      o, "nonmonotonic.csv:4: TIMESTAMP: earlier than the "
                      "previous row (line 3)", NULL);
    expect_open_error("trace(tests/data/negative_service.csv, "
                      "format=alibaba-lora)", o, "negative_service.csv:3: "
                      "exec_time_seconds: negative", NULL);
    expect_open_error("trace(tests/data/no_valid_rows.csv, "
                      "format=alibaba-lora)", o, "no valid rows",
                      "all 2 skipped");
    expect_open_error("trace(tests/data/unterminated_quote.csv, "
                      "format=azure-llm)", o, "unterminated_quote.csv:3", NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=azure)", o,
                      "unknown format 'azure'", "did you mean 'azure-llm'");
    expect_open_error("trace(format=azure-llm)", o, "missing the file", NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic, "
                      "time=arrival_ms, time_unit=hours)", o, "time_unit",
                      NULL);
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic)", o,
                      "missing column 'time'", NULL);

    /* bad_rows = skip: the bad rows are counted, the first one named. */
    o.bad_rows = FS_BAD_ROWS_SKIP;
    fs_arrivals *a = open_or_die("trace(tests/data/bad_fields.csv, "
                                 "format=azure-llm)", o);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    CHECK(st.rows == 7 && st.valid == 2 && st.skipped == 5);
    CHECK(st.first_skipped_line == 3);
    tally t = {0};
    tally_run(a, &t);
    CHECK(t.n == 2);
    CHECK_NEAR(t.last, 5.052, 1e-9);  /* 18:17:09.03196 - 18:17:03.97996 */
    fs_arrivals_free(a);
    a = open_or_die("trace(tests/data/negative_service.csv, "
                    "format=alibaba-lora)", o);
    fs_arrivals_stats(a, &st);
    CHECK(st.valid == 2 && st.skipped == 3 && st.first_skipped_line == 3);
    CHECK_CONTAINS(st.skip_reason, "exec_time_seconds: negative");
    fs_arrivals_free(a);
}

/* A temporary directory for files written by the tests. */
static char tmpdir[256];

static const char *tmp_file(const char *name, const char *bytes, size_t len,
                            char *buf, size_t buflen)
{
    snprintf(buf, buflen, "%s/%s", tmpdir, name);
    FILE *f = fopen(buf, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        printf("cannot write %s\n", buf);
        exit(99);
    }
    return buf;
}

#define TMP_FILE(name, lit) tmp_file(name, lit, sizeof lit - 1, path, sizeof path)

/* Files that are not traces: refused with the scenario's file, line and
 * key and the file's own name (and its line, for what is inside it). */
static void test_trace_files(void)
{
    stream_opts o = DEFAULTS;
    char call_text[600], path[512], want[600];
    expect_open_error("trace(/dev/zero, format=generic)", o,
                      "test.ini:7: workload.w.arrivals: cannot open trace "
                      "'/dev/zero': not a regular file (a character device)",
                      NULL);
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", tmpdir);
    snprintf(want, sizeof want, "test.ini:7: workload.w.arrivals: cannot "
             "open trace '%s': a directory, not a file", tmpdir);
    expect_open_error(call_text, o, want, NULL);

    /* A column named twice (case does not matter, as in lookups). */
    TMP_FILE("dup.csv", "time,x,TIME\n1,2,3\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:1: column 'time' appears twice in the "
             "header (fields 1 and 3)", path);
    expect_open_error(call_text, o, want, NULL);
    TMP_FILE("dup_lora.csv", "gmt_create,predict_status,exec_time_seconds,"
             "predict_status\n2024-11-15 16:57:50,SUCCEED,1,x\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=alibaba-lora)",
             path);
    snprintf(want, sizeof want, "%s:1: column 'predict_status' appears twice",
             path);
    expect_open_error(call_text, o, want, NULL);
    /* A column the format does not read may repeat (an unnamed index...). */
    TMP_FILE("dup_unused.csv", "time,x,x\n1,2,3\n2,3,4\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    fs_arrivals *a = open_or_die(call_text, o);
    fs_arrivals_free(a);

    /* A NUL byte in a row: its field would be cut short. */
    TMP_FILE("nul.csv", "time,x\n1,2\n2,a\0b\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:3: field 2: a NUL byte", path);
    expect_open_error(call_text, o, want, NULL);
    TMP_FILE("nul_time.csv", "time,x\n1,2\n2\0junk,3\n");
    snprintf(call_text, sizeof call_text, "trace(%s, format=generic)", path);
    snprintf(want, sizeof want, "%s:3: field 1: a NUL byte", path);
    expect_open_error(call_text, o, want, NULL);
}

/* statuses: which rows of a trace with a status column are replayed, and
 * the skipped ones counted by status. */
static void test_statuses(void)
{
    const char *lora = "trace(traces/sample/lora_request_trace.csv, "
                       "format=alibaba-lora)";
    stream_opts o = DEFAULTS;
    fs_arrivals *a = open_or_die(lora, o);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26392 && st.skipped == 431 && st.malformed == 0);
    CHECK(st.nskipped_by == 3);
    CHECK(strcmp(st.skipped_by[0].what, "FAILED") == 0 &&
          st.skipped_by[0].n == 398);
    CHECK(strcmp(st.skipped_by[1].what, "PENDING") == 0 &&
          st.skipped_by[1].n == 30);
    CHECK(strcmp(st.skipped_by[2].what, "PROCESSING") == 0 &&
          st.skipped_by[2].n == 3);
    CHECK(strcmp(st.statuses, "SUCCEED") == 0 && st.statuses_default);
    char note[512];
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 398 FAILED, 30 PENDING, "
                 "3 PROCESSING (statuses = SUCCEED, the default)") == 0);

    o.statuses = "SUCCEED";
    a = open_or_die(lora, o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26392 && !st.statuses_default);
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 398 FAILED, 30 PENDING, "
                 "3 PROCESSING (statuses = SUCCEED)") == 0);

    /* More statuses replay more rows; case does not matter. */
    o.statuses = "succeed, Processing";
    a = open_or_die(lora, o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.valid == 26395 && st.skipped == 428);
    CHECK(strcmp(st.statuses, "succeed, Processing") == 0);

    /* A status no row has is a typo until shown otherwise. */
    o.statuses = "SUCCESS";
    expect_open_error(lora, o, "test.ini:9: workload.w.statuses: no row of",
                      "has status 'SUCCESS' (its statuses: SUCCEED, FAILED, "
                      "PENDING, PROCESSING)");
    o.statuses = " , ";
    expect_open_error(lora, o, "test.ini:9: workload.w.statuses: ",
                      "empty");
    /* Formats without a status column. */
    o.statuses = "SUCCEED";
    expect_open_error("trace(tests/data/generic_ms.csv, format=generic, "
                      "time=arrival_ms)", o, "test.ini:9: workload.w.statuses: ",
                      "alibaba-lora");
    expect_open_error("poisson(rate=1/s)", o, "test.ini:9: "
                      "workload.w.statuses: ", "traces");

    /* Skipped malformed rows (bad_rows = skip) are counted apart. */
    o = DEFAULTS;
    o.bad_rows = FS_BAD_ROWS_SKIP;
    a = open_or_die("trace(tests/data/negative_service.csv, "
                    "format=alibaba-lora)", o);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    CHECK(st.malformed == 2 && st.first_malformed_line == 3);
    CHECK_CONTAINS(st.malformed_reason, "exec_time_seconds: negative");
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(strcmp(note, "trace rows skipped: 1 FAILED, 2 malformed (statuses "
                 "= SUCCEED, the default; bad_rows = skip)") == 0);
    a = open_or_die("trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                    "format=azure-llm)", DEFAULTS);
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    fs_trace_skipped_note(&st, note, sizeof note);
    CHECK(note[0] == '\0');
}

static void test_trace_scaling(void)
{
    const char *code = "trace(traces/sample/AzureLLMInferenceTrace_code.csv, "
                       "format=azure-llm)";
    long rows = data_lines("traces/sample/AzureLLMInferenceTrace_code.csv");
    fs_arrivals *a = open_or_die(code, DEFAULTS);
    fs_trace_stats st;
    fs_arrivals_stats(a, &st);
    fs_arrivals_free(a);
    double period = st.span_s + st.span_s / (double)(rows - 1);

    /* repeat: exactly three laps fit in three periods, each lap shifted by
     * one period; without repeat the trace ends after one. */
    stream_opts o = DEFAULTS;
    o.horizon_s = 3 * period;
    o.repeat = 1;
    a = open_or_die(code, o);
    tally t = {0};
    tally_run(a, &t);
    fs_arrivals_free(a);
    printf("  repeat: %ld arrivals in 3 laps of %.3fs (%ld rows)\n", t.n,
           period, rows);
    CHECK(t.n == 3 * rows);
    CHECK(t.ordered);
    CHECK_NEAR(t.last, 2 * period + st.span_s, 1e-6);
    o.repeat = 0;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.n == rows);

    /* rate_scale < 1 keeps each row with probability s: binomial. */
    o = DEFAULTS;
    o.horizon_s = 20 * period;
    o.repeat = 1;
    o.rate_scale = 0.3;
    a = open_or_die(code, o);
    CHECK_NEAR(fs_arrivals_mean_rate(a), 0.3 * rows / st.span_s, 1e-9);
    tally_run(a, &t);
    fs_arrivals_free(a);
    double n = 20.0 * rows;
    printf("  rate_scale 0.3: %ld of %.0f rows kept, ", t.n, n);
    CHECK_NEAR((double)t.n, 0.3 * n, SIGMAS * sqrt(n * 0.3 * 0.7));
    CHECK(t.ordered);

    /* rate_scale > 1: 2 or 3 copies of each row (3 with probability 0.5),
     * in order, every copy before the next row. */
    o.rate_scale = 2.5;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    printf("rate_scale 2.5: %ld from %.0f rows\n", t.n, n);
    CHECK_NEAR((double)t.n, 2.5 * n, SIGMAS * sqrt(n * 0.25));
    CHECK(t.ordered);
    CHECK(t.last < o.horizon_s);

    /* A whole scale is exact: 3 copies of every row. */
    o.rate_scale = 3;
    o.horizon_s = 2 * period;
    a = open_or_die(code, o);
    tally_run(a, &t);
    fs_arrivals_free(a);
    CHECK(t.n == 3 * 2 * rows);
    o.rate_scale = 5000;
    expect_open_error(code, o, "rate_scale", NULL);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/test_traces.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 99;
    }
    test_real_traces();
    test_generic();
    test_bad_traces();
    test_trace_scaling();
    test_trace_files();
    test_statuses();
    static const char *const files[] = {"dup.csv", "dup_lora.csv",
        "dup_unused.csv", "nul.csv", "nul_time.csv", NULL};
    char path[600];
    for (const char *const *f = files; *f; f++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, *f);
        unlink(path);
    }
    rmdir(tmpdir);
    if (rng)
        gsl_rng_free(rng);
    return check_report("traces");
}
