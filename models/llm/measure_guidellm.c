/* measure_guidellm.c -- GuideLLM's report JSON (`guidellm benchmark
 * --output-path report.json`): one measurement for each entry of
 * "benchmarks" (a sweep holds several).
 *
 * A benchmark's strategy (config.strategy, args.strategy in older
 * reports) gives the conditions: synchronous is one client, concurrent is
 * `streams` clients, constant and poisson (and async) send `rate`
 * requests/s, throughput sends everything at once.  Its metrics are
 * distributions by request status; the fit reads the successful requests'
 * means: time_to_first_token_ms, inter_token_latency_ms (between output
 * tokens after the first, as vLLM's TPOT), output_tokens_per_second, and
 * the lengths prompt_token_count and output_token_count. */
#include "models/llm/measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int claims(const json_t *root)
{
    const json_t *b = json_object_get(root, "benchmarks");
    return json_is_array(b) && json_array_size(b) > 0 &&
           fs_json_at(json_array_get(b, 0), "metrics") != NULL;
}

static int strategy(const json_t *b, const char *path, const char *prefix,
                    fs_llm_measure *m, fs_error *err)
{
    const json_t *s = fs_json_at(b, "config.strategy");
    if (!s)
        s = fs_json_at(b, "args.strategy");
    const json_t *t = s ? json_object_get(s, "type_") : NULL;
    if (!json_is_string(t))
        return fs_error_at(err, path, 0, NULL, "%sconfig.strategy.type_: "
                           "missing", prefix);
    const char *type = json_string_value(t);
    if (strcmp(type, "synchronous") == 0) {
        m->concurrency = 1;
        return 0;
    }
    if (strcmp(type, "throughput") == 0) {
        m->rate = INFINITY;
        return 0;
    }
    int concurrent = strcmp(type, "concurrent") == 0;
    if (!concurrent && strcmp(type, "constant") && strcmp(type, "poisson") &&
        strcmp(type, "async"))
        return fs_error_at(err, path, 0, NULL, "%sconfig.strategy.type_: "
                           "'%s' is not a strategy this reads", prefix,
                           type);
    const char *key = concurrent ? "streams" : "rate";
    int rc = fs_json_number(s, key, path, prefix, concurrent
                                                      ? &m->concurrency
                                                      : &m->rate, err);
    if (rc == 0)
        fs_error_at(err, path, 0, NULL, "%sconfig.strategy.%s: missing",
                    prefix, key);
    return rc > 0 ? 0 : -1;
}

/* metrics.NAME.successful.mean: required (lengths) or not (figures). */
static int mean(const json_t *b, const char *name, int required,
                const char *path, const char *prefix, double *out,
                fs_error *err)
{
    char key[128];
    snprintf(key, sizeof key, "metrics.%s.successful.mean", name);
    int rc = fs_json_number(b, key, path, prefix, out, err);
    if (rc == 0 && required)
        return fs_error_at(err, path, 0, NULL, "%s%s: missing", prefix,
                           key);
    return rc < 0 ? -1 : 0;
}

static int read_benchmark(const json_t *b, size_t i, const char *path,
                          fs_measures *out, fs_error *err)
{
    char prefix[48], source[sizeof out->v->source];
    snprintf(prefix, sizeof prefix, "benchmarks[%zu].", i);
    snprintf(source, sizeof source, "%s: benchmarks[%zu]", path, i);
    fs_llm_measure *m = fs_measures_add(out, source, err);
    if (!m || strategy(b, path, prefix, m, err) ||
        mean(b, "prompt_token_count", 1, path, prefix, &m->in, err) ||
        mean(b, "output_token_count", 1, path, prefix, &m->out, err) ||
        mean(b, "time_to_first_token_ms", 0, path, prefix, &m->ttft_ms,
             err) ||
        mean(b, "inter_token_latency_ms", 0, path, prefix, &m->tpot_ms,
             err) ||
        mean(b, "output_tokens_per_second", 0, path, prefix,
             &m->throughput, err))
        return -1;
    return fs_measure_check(m, source, err);
}

static int read_guidellm(const char *path, const json_t *root,
                         fs_measures *out, fs_error *err)
{
    const json_t *bs = json_object_get(root, "benchmarks");
    if (!json_is_array(bs) || json_array_size(bs) == 0)
        return fs_error_at(err, path, 0, NULL, "benchmarks: missing or "
                           "empty");
    size_t i;
    const json_t *b;
    json_array_foreach(bs, i, b)
        if (read_benchmark(b, i, path, out, err))
            return -1;
    return 0;
}

const fs_measure_format fs_measure_guidellm = {"guidellm", claims,
                                               read_guidellm};
