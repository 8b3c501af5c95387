/* test_llm_engine.c -- serving-stack profiles (models/llm/llm_engine.c).
 *
 * engines.csv: every profile has a row for each generation of gpus.csv;
 * `vllm` picks the current release's rows and `trt-llm@0.9` the release
 * 0.9.x; a generation a profile lacks takes its first row.  A row written
 * by fs_llm_engine_write reads back to the same doubles (what calibrate
 * relies on), and a bad file is refused with "path:line: column:". */
#include "check.h"
#include "models/llm/llm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static fs_llm_engines *engines;

/* text into a temporary file; its path in path (unlinked by the caller) */
static void write_file(char *path, const char *text)
{
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void catalog(void)
{
    const char *gens[] = {"volta", "turing", "ampere", "ada", "hopper",
                          "blackwell"};
    const char *names[] = {"vllm", "trt-llm", "sglang"};
    for (size_t i = 0; i < 3; i++)
        for (size_t g = 0; g < 6; g++) {
            const fs_llm_engine *e =
                fs_llm_engines_find(engines, names[i], gens[g]);
            CHECK(e && strcmp(e->generation, gens[g]) == 0 && e->current &&
                  e->source[0]);
        }
    /* the step-1 figures, moved from code to the file unchanged: vLLM
     * 0.6.0's (vllm@0.6 since a current release took `vllm`) */
    const fs_llm_engine *v = fs_llm_engines_find(engines, "vllm@0.6",
                                                 "hopper");
    CHECK(v && v->mfu == 0.50 && v->decode_fraction == 0.6 &&
          v->bw_efficiency == 0.72 && v->step_s == 0.6e-3 &&
          v->layer_s == 5e-6 && v->prefill_s == 4.0e-3 &&
          v->pad_tokens == 100 && v->tp_step_growth == 0.25 &&
          v->tp_pad_growth == 0.5);
    /* a version prefix names its release; an unknown generation takes the
     * profile's first row; an unknown name none */
    const fs_llm_engine *t = fs_llm_engines_find(engines, "trt-llm@0.9",
                                                 "ampere");
    CHECK(t && strcmp(t->version, "0.9.0") == 0 && t->mfu == 0.75);
    CHECK(fs_llm_engines_find(engines, "trt-llm@0.90", "ampere") == NULL);
    CHECK(fs_llm_engines_find(engines, "trt-llm@0", "ampere") != NULL);
    t = fs_llm_engines_find(engines, "sglang", "rubin");
    CHECK(t && strcmp(t->generation, "volta") == 0);
    CHECK(fs_llm_engines_find(engines, "vlm", "hopper") == NULL);
    char hint[512];
    fs_llm_engines_suggest(engines, "vlm", hint, sizeof hint);
    CHECK_CONTAINS(hint, "did you mean 'vllm'?");
    CHECK_CONTAINS(hint, "known: trt-llm vllm vllm@0.6.0 sglang");
}

/* A row written and read back: the same doubles, the same text. */
static void round_trip(void)
{
    fs_llm_engine e = *fs_llm_engines_find(engines, "vllm", "ampere");
    memset(e.source, 0, sizeof e.source);   /* the bytes memcmp sees */
    memset(e.version, 0, sizeof e.version);
    snprintf(e.engine, sizeof e.engine, "mine");
    snprintf(e.version, sizeof e.version, "0.8.5");
    e.mfu = 0.1234567890123456789;
    e.step_s = 1.0 / 3 * 1e-3;
    snprintf(e.source, sizeof e.source, "fitted, \"by hand\"");
    char path[] = "/tmp/fs_engines_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f && fs_llm_engine_write(f, &e, 1) == 0);
    if (f)
        fclose(f);
    fs_error err;
    fs_llm_engines *t = fs_llm_engines_load(path, &err);
    CHECK(t != NULL);
    const fs_llm_engine *r = fs_llm_engines_find(t, "mine", "ampere");
    CHECK(r && memcmp(r, &e, sizeof e) == 0);
    /* no row marked current: the plain name takes the stack's first */
    CHECK(fs_llm_engines_find(t, "mine", "hopper") == r);
    char first[64];
    fs_llm_engines_first(t, first, sizeof first);
    CHECK(strcmp(first, "mine@0.8.5") == 0);
    fs_llm_engines_free(t);
    unlink(path);
}

static void refuse(const char *text, const char *want)
{
    char path[] = "/tmp/fs_engines_XXXXXX";
    write_file(path, text);
    fs_error err;
    fs_llm_engines *t = fs_llm_engines_load(path, &err);
    CHECK(t == NULL);
    if (!t)
        CHECK_CONTAINS(err.msg, want);
    fs_llm_engines_free(t);
    unlink(path);
}

static void bad_files(void)
{
    const char *h = "engine,version,current,generation,mfu,decode_fraction,"
                    "bw_efficiency,step_s,layer_s,prefill_s,pad_tokens\n";
    const char *ok = "x,1.0,yes,ampere,0.5,0.8,0.7,0.001,0,0.002,100\n";
    char text[1024];
    refuse("", "empty file");
    refuse("engine,version,generation\n", ":1: missing column 'mfu'");
    refuse(h, "no profile rows");
    snprintf(text, sizeof text, "%sx,1.0,yes,ampere,1.5,0.8,0.7,0.001,0,"
             "0.002,100\n", h);
    refuse(text, ":2: mfu: '1.5': expected a number from 0.001 to 1");
    snprintf(text, sizeof text, "%s%s%s", h, ok, ok);
    refuse(text, ":3: engine: this engine, version and generation appear "
           "twice");
    snprintf(text, sizeof text, "%s%sx,2.0,yes,hopper,0.5,0.8,0.7,0.001,0,"
             "0.002,100\n", h, ok);
    refuse(text, ":3: engine: a second version of this engine marked "
           "current");
    snprintf(text, sizeof text, "%sx@1,1.0,yes,ampere,0.5,0.8,0.7,0.001,0,"
             "0.002,100\n", h);
    refuse(text, ":2: engine: 'x@1': expected 1 to 23 characters without "
           "'@'");
    snprintf(text, sizeof text, "%sx,1.0,maybe,ampere,0.5,0.8,0.7,0.001,0,"
             "0.002,100\n", h);
    refuse(text, ":2: current: 'maybe': expected yes or no");
}

int main(void)
{
    char path[1024];
    check_path(path, sizeof path, "models/catalog/engines.csv");
    fs_error err;
    engines = fs_llm_engines_load(path, &err);
    if (!engines) {
        printf("     %s\n", err.msg);
        return 1;
    }
    catalog();
    round_trip();
    bad_files();
    fs_llm_engines_free(engines);
    return check_report("llm_engine");
}
