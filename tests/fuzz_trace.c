/* fuzz_trace.c -- libFuzzer harness for the trace readers: the CSV reader
 * (sim/csvin.c, libcsv) and the azure-llm, alibaba-lora and generic
 * formats with their validating pass and replay (traces/), and the jobs
 * readers (traces/jobs.c: generic and openb).
 *
 * Each input is written to a file and opened as a trace in every format;
 * a stream that opens is replayed for at most 2000 arrivals.  The variant
 * -- repeat, rate_scale, bad_rows, statuses, and for generic the columns
 * and time unit -- is picked from a hash of the input, so that seeds can
 * be plain CSV files.  Any crash, sanitizer report, leak or hang is a bug:
 * bad input must end in a message.  Run with tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "sim/base/csvin.h"
#include "sim/base/rng.h"
#include "traces/arrivals.h"
#include "traces/jobs.h"

#include <math.h>

#include <gsl/gsl_errno.h>

static gsl_rng *rng;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_dir();
    gsl_set_error_handler_off();
    rng = fs_rng_new(1, 0, "arrivals:fuzz");
    return 0;
}

/* Sets an argument of a call built by hand (column names may hold any
 * byte, which the call grammar would not take). */
static void set_arg(fs_call *c, const char *key, const char *value)
{
    fs_call_arg *a = &c->args[c->nargs++];
    snprintf(a->key, sizeof a->key, "%s", key);
    snprintf(a->value, sizeof a->value, "%s", value);
}

/* The first header field named i, or a made-up name. */
static void header_name(const char *path, size_t i, char *buf, size_t len)
{
    fs_error err;
    snprintf(buf, len, "time");
    fs_csv *r = fs_csv_open(path, &err);
    if (r && fs_csv_next(r, &err) == 1 && i < fs_csv_nfields(r))
        snprintf(buf, len, "%s", fs_csv_field(r, i));
    fs_csv_free(r);
}

static void replay(const char *path, const char *format, uint32_t h)
{
    static const double scales[] = {1, 0.5, 2.5, 3};
    static const char *const statuses[] = {NULL, "SUCCEED", "SUCCEED, FAILED",
                                           "PENDING"};
    static const char *const units[] = {"s", "ms", "us", "datetime"};
    fs_call call = {{0}};
    snprintf(call.name, sizeof call.name, "trace");
    set_arg(&call, "", path);
    set_arg(&call, "format", format);
    int generic = strcmp(format, "generic") == 0;
    if (generic) {
        char name[256];
        header_name(path, (h >> 8) & 1, name, sizeof name);
        set_arg(&call, "time", name);
        set_arg(&call, "time_unit", units[(h >> 9) & 3]);
        if (h & (1u << 11)) {
            header_name(path, 1 + ((h >> 12) & 1), name, sizeof name);
            set_arg(&call, "service", name);
        }
        if (h & (1u << 13)) {
            header_name(path, 2, name, sizeof name);
            set_arg(&call, "tokens_in", name);
        }
    }
    const char *st = strcmp(format, "alibaba-lora") == 0
                         ? statuses[(h >> 14) & 3] : NULL;
    gsl_rng_set(rng, h);
    fs_arrivals_spec spec = {
        .call = &call, .file = "fuzz.ini", .line = 1,
        .key = "workload.w.arrivals", .base_dir = fuzz_dir,
        .horizon_s = (h & (1u << 16)) ? 1e6 : 3600,
        .start_hour = 0, .rate_scale = scales[(h >> 17) & 3],
        .repeat = (h >> 19) & 1, .bad_rows = (fs_bad_rows)((h >> 20) & 1),
        .rng = rng,
        .statuses = {st, "fuzz.ini", "workload.w.statuses", 2},
    };
    fs_error err;
    fs_arrivals *a = fs_arrivals_open(&spec, &err);
    if (!a)
        return;
    fs_trace_stats ts;
    fs_arrivals_stats(a, &ts);
    char note[512];
    fs_trace_skipped_note(&ts, note, sizeof note);
    double extra;
    (void)fs_arrivals_expected(a, &extra);
    (void)fs_arrivals_mean_rate(a);
    fs_arrival x;
    double prev = 0;
    for (int i = 0; i < 2000; i++) {
        int rc = fs_arrivals_next(a, &x, &err);
        if (rc <= 0)
            break;
        if (!(x.t >= prev) || !(x.t < spec.horizon_s))
            abort();   /* times never decrease, never reach the horizon */
        prev = x.t;
    }
    fs_arrivals_free(a);
}

/* The input as a jobs file: read whole or refused; every job read is
 * well formed and in submit order. */
static void read_jobs(const char *path, const char *format)
{
    fs_call call = {{0}};
    snprintf(call.name, sizeof call.name, "trace");
    set_arg(&call, "", path);
    set_arg(&call, "format", format);
    fs_jobs jobs;
    fs_error err;
    if (fs_jobs_read(&call, fuzz_dir, "fuzz.ini", 1, "workload.t.jobs",
                     &jobs, &err) == 0)
        for (size_t i = 0; i < jobs.n; i++) {
            const fs_job_spec *j = &jobs.jobs[i];
            if (j->gpus < 1 || j->milli < 1 || !(j->duration_s >= 0) ||
                !isfinite(j->submit_s) ||
                (i > 0 && j->submit_s < jobs.jobs[i - 1].submit_s))
                abort();
        }
    fs_jobs_free(&jobs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[400];
    fuzz_write("input.csv", data, size, path, sizeof path);
    uint32_t h = fuzz_hash(data, size);
    replay(path, "azure-llm", h);
    replay(path, "alibaba-lora", h);
    replay(path, "generic", h);
    read_jobs(path, "generic");
    read_jobs(path, "openb");
    return 0;
}
