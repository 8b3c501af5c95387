/* test_service.c -- service models (models/service/service.h).
 *
 * The registry (every model found by its name, unknown names answered with
 * the nearest one, the reserved llm refused); each model's batch time on
 * hand-made batches, exactly; demands drawn bit for bit as fs_dist_draw
 * draws them from the same seed, consuming the stream the same way (what
 * keeps results identical to the ones before the models had a table); and
 * the token counts of the Azure sample trace reaching the requests, summed
 * against the CSV read line by line here; empirical(FILE): the mean and
 * the 90th percentile of 100,000 draws against the file's, and every kind
 * of bad file refused with file:line. */
#include "tests/check.h"
#include "models/service/service.h"
#include "traces/arrivals.h"
#include "sim/base/rng.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* s from the call text; exits on a call the test got wrong. */
static void parse_or_die(const char *text, fs_service *s)
{
    fs_call c;
    char why[256];
    if (fs_parse_call(text, &c, why, sizeof why) ||
        fs_service_parse(&c, s, why, sizeof why)) {
        printf("cannot parse %s: %s\n", text, why);
        exit(99);
    }
}

/* The message fs_service_parse gives for text ("" if it accepts it). */
static const char *parse_error(const char *text)
{
    static char why[256];
    fs_call c;
    fs_service s;
    why[0] = '\0';
    if (fs_parse_call(text, &c, why, sizeof why) == 0 &&
        fs_service_parse(&c, &s, why, sizeof why) == 0)
        why[0] = '\0';
    return why;
}

static void test_registry(void)
{
    static const char *const names[] = {"const", "exponential", "lognormal",
                                        "weibull", "empirical", "linear",
                                        "trace", "llm"};
    size_t n = 0;
    for (const fs_service_model *const *m = fs_service_models; *m; m++, n++) {
        CHECK(n < sizeof names / sizeof names[0] &&
              strcmp((*m)->name, names[n]) == 0);
        CHECK(fs_service_find((*m)->name) == *m);
        CHECK((*m)->parse && (*m)->usage);
        /* Every model has both functions; llm alone batches continuously. */
        CHECK((*m)->arrive != NULL && (*m)->batch_time != NULL);
        CHECK(((*m)->server != NULL) == (strcmp((*m)->name, "llm") == 0));
    }
    CHECK(n == sizeof names / sizeof names[0]);
    CHECK(fs_service_find("expo") == NULL);
    CHECK(fs_service_find("") == NULL);
    CHECK(fs_service_find("trace")->reads_trace_service == 1);
    CHECK(fs_service_find("exponential")->reads_trace_service == 0);

    fs_service s;
    parse_or_die("lognormal(mean=2s, sigma=0.5)", &s);
    CHECK(s.model == fs_service_find("lognormal"));
    CHECK(s.dist.kind == FS_DIST_LOGNORMAL && s.dist.b == 0.5);
    parse_or_die("linear(base=0.25s, per_item=125ms)", &s);
    CHECK(s.model == fs_service_find("linear"));
    CHECK(s.base == 0.25 && s.per_item == 0.125);
    parse_or_die("trace", &s);
    CHECK(s.model == fs_service_find("trace"));

    CHECK(strcmp(parse_error("expo(mean=1s)"), "unknown distribution 'expo' "
                 "(did you mean 'exponential'?)") == 0);
    CHECK(strcmp(parse_error("lineer(base=1s, per_item=1s)"),
                 "unknown distribution 'lineer' (did you mean 'linear'?)")
          == 0);
    CHECK(strcmp(parse_error("zzzzzzzz(x=1)"), "unknown distribution "
                 "'zzzzzzzz' (const, exponential, lognormal, weibull, "
                 "empirical, linear, trace, llm)") == 0);
    /* llm(...): its arguments; the model is resolved by the scenario */
    parse_or_die("llm(model=llama-3-8b, precision=fp8, tp=2, max_batch=64, "
                 "engine=trt-llm, chunked_prefill=512)", &s);
    CHECK(s.model == fs_service_find("llm"));
    CHECK(strcmp(s.llm.model_name, "llama-3-8b") == 0 &&
          s.llm.weights == FS_PREC_FP8 && s.llm.tp == 2 &&
          s.llm.max_batch == 64 && s.llm.chunked_prefill == 512 &&
          strcmp(s.llm.engine, "trt-llm") == 0 && !s.llm.kv_set);
    parse_or_die("llm(model=llama-3-8b)", &s);
    CHECK(s.llm.weights == FS_PREC_BF16 && s.llm.tp == 1 &&
          s.llm.max_batch == 256 && s.llm.chunked_prefill == 0 &&
          strcmp(s.llm.engine, "vllm") == 0);
    CHECK_CONTAINS(parse_error("llm"), "llm() needs model=");
    CHECK_CONTAINS(parse_error("llm(model=m, tp=3)"), "tp must be 1, 2, 4 "
                   "or 8");
    CHECK_CONTAINS(parse_error("llm(model=m, precision=fp4)"),
                   "precision must be bf16, fp16, fp8, int8 or int4");
    /* engine= and profile= are kept as written: the scenario finds the
     * profile (tests/cli_llm_engine.sh) */
    parse_or_die("llm(model=m, engine=vllm@0.6, profile=mine.csv)", &s);
    CHECK(strcmp(s.llm.engine, "vllm@0.6") == 0 && s.llm.engine_set &&
          strcmp(s.llm.profile, "mine.csv") == 0);
    CHECK_CONTAINS(parse_error("llm(model=m, engine=vllm-with-a-name-far-far-far-"
                               "too-long-for-any-profile)"),
                   "engine: expected a profile name of 1 to 47 characters");
    CHECK_CONTAINS(parse_error("llm(model=m, batch=4)"), "batch");
    /* tokens: the trace's, else drawn (tokens_in/out), at least 1; the
     * demand is the request's tokens */
    {
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        parse_or_die("llm(model=llama-3-8b)", &s);
        s.llm.tokens_in = (fs_dist){FS_DIST_CONST, 700, 0, NULL, 0};
        s.llm.tokens_out = (fs_dist){FS_DIST_CONST, 0.2, 0, NULL, 0};
        s.llm.has_tokens_in = s.llm.has_tokens_out = 1;
        fs_request r = fs_service_request(&s, rng, 0, -1, -1, -1);
        CHECK(r.tokens_in == 700 && r.tokens_out == 1 && r.demand == 701);
        r = fs_service_request(&s, rng, 0, -1, 12, 30);
        CHECK(r.tokens_in == 12 && r.tokens_out == 30 && r.demand == 42);
        gsl_rng_free(rng);
    }
    CHECK(strcmp(parse_error("linear(base=1s)"), "linear() needs per_item=")
          == 0);
    CHECK_CONTAINS(parse_error("linear(base=1s, per_item=1s, step=2)"),
                   "step");
    CHECK_CONTAINS(parse_error("trace(x.csv)"), "trace takes no arguments");
    CHECK_CONTAINS(parse_error("weibull(shape=1e-300, scale=1s)"),
                   "weibull(): shape must be between");
    CHECK(strcmp(parse_error("const(1s)"), "") == 0);
}

/* A batch of n requests with these demands. */
static void batch_of(fs_request *b, const double *demand, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (fs_request){.arrival = i, .demand = demand[i],
                            .tokens_in = -1, .tokens_out = -1};
}

static void test_batch_time(void)
{
    static const double d[] = {0.5, 2.25, 1.25, 0.125};
    fs_request b[4];
    batch_of(b, d, 4);
    fs_service s;

    /* Distributions and trace: the longest demand, times the speed. */
    static const char *const longest[] = {"const(1s)", "exponential(mean=1s)",
                                          "lognormal(mean=1s, sigma=1)",
                                          "weibull(shape=2, scale=1s)",
                                          "trace"};
    for (size_t i = 0; i < sizeof longest / sizeof longest[0]; i++) {
        parse_or_die(longest[i], &s);
        CHECK(fs_service_batch_time(&s, b, 4, 1) == 2.25);
        CHECK(fs_service_batch_time(&s, b, 4, 0.5) == 1.125);
        CHECK(fs_service_batch_time(&s, b, 1, 1) == 0.5);
        CHECK(fs_service_batch_time(&s, b + 2, 2, 3) == 3.75);
    }

    /* linear: base + per_item x n, whatever the demands. */
    parse_or_die("linear(base=0.25s, per_item=125ms)", &s);
    CHECK(fs_service_batch_time(&s, b, 1, 1) == 0.375);
    CHECK(fs_service_batch_time(&s, b, 4, 1) == 0.75);
    CHECK(fs_service_batch_time(&s, b, 4, 2) == 1.5);
    CHECK(fs_service_batch_time(&s, b, 3, 0.5) == 0.3125);
    /* Units as the golden scenarios write them, to the last bit of the
     * expression the fleet used before the models had a table. */
    parse_or_die("linear(base=80ms, per_item=15ms)", &s);
    for (int n = 1; n <= 4; n++)
        CHECK(fs_service_batch_time(&s, b, n, 0.7) ==
              (s.base + s.per_item * n) * 0.7);
}

/* n requests from model text, arriving at t = i with the trace's values
 * recorded_s (-1: none), through the one call the fleet makes. */
static void draw_requests(const char *text, gsl_rng *rng, double recorded_s,
                          fs_request *out, int n)
{
    fs_service s;
    parse_or_die(text, &s);
    for (int i = 0; i < n; i++)
        out[i] = fs_service_request(&s, rng, i, recorded_s, 7 + i, 3);
}

static void test_draws_identical(void)
{
    enum { N = 10000 };
    static fs_request r[N];
    static double ref[N];
    static const char *const dists[] = {
        "const(250ms)", "exponential(mean=1s)",
        "lognormal(mean=300ms, sigma=0.8)", "lognormal(mu=0.3, sigma=0.5)",
        "weibull(shape=0.8, scale=20h)",
    };
    for (size_t k = 0; k < sizeof dists / sizeof dists[0]; k++) {
        fs_call c;
        fs_dist d;
        char why[256];
        CHECK(fs_parse_call(dists[k], &c, why, sizeof why) == 0 &&
              fs_dist_parse(&c, &d, why, sizeof why) == 0);
        gsl_rng *a = fs_rng_new(42, 3, "service:chat");
        gsl_rng *b = fs_rng_new(42, 3, "service:chat");
        for (int i = 0; i < N; i++)
            ref[i] = fs_dist_draw(&d, a);
        draw_requests(dists[k], b, 9.5, r, N);
        int same = 1;
        for (int i = 0; i < N; i++)
            same &= memcmp(&r[i].demand, &ref[i], sizeof ref[i]) == 0 &&
                    r[i].arrival == i && r[i].tokens_in == 7 + i &&
                    r[i].tokens_out == 3;
        CHECK(same);
        /* The stream is left where fs_dist_draw leaves it. */
        CHECK(gsl_rng_get(a) == gsl_rng_get(b));
        gsl_rng_free(a);
        gsl_rng_free(b);
    }

    /* linear and trace draw nothing: the stream is untouched. */
    gsl_rng *a = fs_rng_new(42, 3, "service:chat");
    gsl_rng *b = fs_rng_new(42, 3, "service:chat");
    draw_requests("linear(base=80ms, per_item=15ms)", b, -1, r, 100);
    CHECK(r[0].demand == 0.015 && r[99].demand == 0.015);
    draw_requests("trace", b, 9.5, r, 100);
    CHECK(r[0].demand == 9.5 && r[99].demand == 9.5);
    CHECK(gsl_rng_get(a) == gsl_rng_get(b));
    gsl_rng_free(a);
    gsl_rng_free(b);
}

/* Sums of columns 2 and 3 of a TIMESTAMP,ContextTokens,GeneratedTokens
 * file, read without the trace reader. */
static long azure_sums(const char *path, long long *in, long long *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    long rows = 0;
    *in = *out = 0;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        long a, b;
        if (sscanf(line, "%*[^,],%ld,%ld", &a, &b) == 2) {
            *in += a;
            *out += b;
            rows++;
        }
    }
    fclose(f);
    return rows;
}

/* Every request of the stream made as the fleet makes it; the sums of the
 * token counts it carries (rows without them counted apart). */
typedef struct token_tally {
    long requests, with_tokens;
    long long in, out;
    double demand;
} token_tally;

static void tally_stream(const char *text, const char *model,
                         token_tally *t)
{
    fs_call call;
    char why[256];
    memset(t, 0, sizeof *t);
    if (fs_parse_call(text, &call, why, sizeof why)) {
        printf("bad call in test: %s\n", why);
        exit(99);
    }
    fs_service s;
    parse_or_die(model, &s);
    gsl_rng *rng = fs_rng_new(1, 0, "service:w");
    fs_arrivals_spec spec = {
        .call = &call, .file = "test.ini", .line = 7,
        .key = "workload.w.arrivals", .base_dir = check_srcdir(),
        .horizon_s = 1e9, .rate_scale = 1, .rng = rng,
    };
    fs_error err;
    fs_arrivals *a = fs_arrivals_open(&spec, &err);
    if (!a) {
        printf("cannot open %s: %s\n", text, err.msg);
        exit(99);
    }
    fs_arrival x;
    while (fs_arrivals_next(a, &x, &err) == 1) {
        fs_request r = fs_service_request(&s, rng, x.t, x.service_s,
                                          x.tokens_in, x.tokens_out);
        t->requests++;
        t->demand += r.demand;
        if (r.tokens_in >= 0 && r.tokens_out >= 0) {
            t->with_tokens++;
            t->in += r.tokens_in;
            t->out += r.tokens_out;
        }
    }
    fs_arrivals_free(a);
    gsl_rng_free(rng);
}

static void test_tokens_reach_requests(void)
{
    static const char *const files[] = {
        "traces/sample/AzureLLMInferenceTrace_code.csv",
        "traces/sample/AzureLLMInferenceTrace_conv.csv",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024], call[1200];
        long long in, out;
        long rows = azure_sums(check_path(path, sizeof path, files[i]), &in,
                               &out);
        snprintf(call, sizeof call, "trace(%s, format=azure-llm)", files[i]);
        token_tally t;
        tally_stream(call, "exponential(mean=1s)", &t);
        printf("  %s: %ld rows, %lld tokens in, %lld out\n", files[i], rows,
               in, out);
        CHECK(rows > 1000);
        CHECK(t.requests == rows && t.with_tokens == rows);
        CHECK(t.in == in && t.out == out);
    }

    /* A generic trace names its token columns; its service column is the
     * demand under service = trace: 0.25 + 0.5 + 1.25 + 0.75. */
    token_tally t;
    tally_stream("trace(tests/data/generic_ms.csv, format=generic, "
                 "time=arrival_ms, time_unit=ms, service=exec_s, "
                 "tokens_in=prompt, tokens_out=output)", "trace", &t);
    CHECK(t.requests == 4 && t.with_tokens == 4);
    CHECK(t.in == 100 + 120 + 80 + 90 && t.out == 20 + 30 + 10 + 12);
    CHECK(t.demand == 2.75);

    /* Without token columns, requests say so: -1. */
    tally_stream("trace(tests/data/generic_ms.csv, format=generic, "
                 "time=arrival_ms, time_unit=ms, service=exec_s)", "trace",
                 &t);
    CHECK(t.requests == 4 && t.with_tokens == 0 && t.demand == 2.75);
}

/* text into a new temporary file, its path in path (PATH_MAX-sized). */
static void write_temp(char *path, const char *text)
{
    strcpy(path, "/tmp/test_service_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
    if (!f) {
        printf("cannot create a temporary file\n");
        exit(99);
    }
    fputs(text, f);
    fclose(f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The message fs_dist_parse_in gives for a file holding text ("" if it
 * reads it), with the file's path put where "@" is in want. */
static void check_bad_file(const char *text, const char *want)
{
    char path[64], call[128], why[512], exp[512];
    write_temp(path, text);
    snprintf(call, sizeof call, "empirical(%s)", path);
    fs_call c;
    fs_dist d;
    fs_empirical_words w = {"a token count", "tokens", 1};
    CHECK(fs_parse_call(call, &c, why, sizeof why) == 0);
    int rc = fs_dist_parse_in(&c, NULL, w, &d, why, sizeof why);
    const char *at = strchr(want, '@');
    snprintf(exp, sizeof exp, "%.*s%s%s", (int)(at - want), want, path,
             at + 1);
    CHECK(rc == -1 && strcmp(why, exp) == 0);
    if (rc == 0 || strcmp(why, exp))
        printf("  got: %s\n  want: %s\n", rc ? why : "(accepted)", exp);
    unlink(path);
}

/* empirical(FILE): 1..1000 tokens with a header, from a directory given
 * as base_dir; 100,000 draws have the file's mean (500.5, standard error
 * 288.7/sqrt(1e5) = 0.91: within 5) and 90th percentile (900.5, within
 * 10: the order statistic's standard error is about 1 value). */
static void test_empirical(void)
{
    char path[64];
    static char text[8000];
    size_t len = (size_t)snprintf(text, sizeof text, "tokens\n");
    for (int v = 1; v <= 1000; v++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%d\n", v);
    write_temp(path, text);
    fs_call c;
    char why[512];
    fs_service s;
    CHECK(fs_parse_call("empirical(path=test_service_x)", &c, why,
                        sizeof why) == 0);
    snprintf(c.args[0].value, sizeof c.args[0].value, "%s", path + 5);
    CHECK(fs_service_parse_in(&c, "/tmp", &s, why, sizeof why) == 0);
    CHECK(s.model == fs_service_find("empirical"));
    CHECK(s.dist.kind == FS_DIST_EMPIRICAL && s.dist.n == 1000);
    CHECK(fs_dist_mean(&s.dist) == 500.5);
    enum { DRAWS = 100000 };
    static double x[DRAWS];
    gsl_rng *r = fs_rng_new(7, 0, "service:empirical");
    double sum = 0;
    for (int i = 0; i < DRAWS; i++) {
        fs_request q = fs_service_request(&s, r, 0, -1, -1, -1);
        x[i] = q.demand;
        sum += x[i];
    }
    qsort(x, DRAWS, sizeof *x, cmp_double);
    double mean = sum / DRAWS, p90 = x[DRAWS * 9 / 10];
    printf("  empirical 1..1000: mean %.2f (500.5), p90 %.0f (900.5)\n",
           mean, p90);
    CHECK(fabs(mean - 500.5) < 5 && fabs(p90 - 900.5) < 10);
    CHECK(x[0] >= 1 && x[DRAWS - 1] <= 1000);
    gsl_rng_free(r);
    fs_service_free(&s);
    CHECK(s.dist.values == NULL);
    unlink(path);

    check_bad_file("n\n3\nabc\n", "@:3: 'abc' is not a number of tokens");
    check_bad_file("5\n0\n", "@:2: a token count must be above 0 tokens, "
                   "got '0'");
    check_bad_file("5\n-1\n", "@:2: a token count must be above 0 tokens, "
                   "got '-1'");
    check_bad_file("5\ninf\n", "@:2: 'inf' is not a number of tokens");
    check_bad_file("5,1\n4\n", "@:2: 1 fields where the first row has 2");
    check_bad_file("tokens\n", "empirical(): @ holds no values");
    check_bad_file("", "empirical(): @ holds no values");
    CHECK(strcmp(parse_error("empirical()"), "empirical() needs a file, "
                 "e.g. empirical(sample.csv)") == 0);
    CHECK(strncmp(parse_error("empirical(/nonexistent/x.csv)"),
                  "empirical(): cannot open /nonexistent/x.csv", 43) == 0);
}

int main(void)
{
    /* A request stays small: queues and batches hold millions (an llm
     * request's resume state takes 8 bytes, its prefix for prefix caching
     * 8 more, its LoRA adapter 4 more, padded to 8). */
    CHECK(sizeof(fs_request) == 48);
    test_registry();
    test_batch_time();
    test_draws_identical();
    test_tokens_reach_requests();
    test_empirical();
    return check_report("service");
}
