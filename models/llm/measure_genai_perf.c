/* measure_genai_perf.c -- NVIDIA genai-perf's profile_export_genai_perf.json
 * (and AIPerf's profile_export_aiperf.json, which keeps its fields): one
 * run a file.
 *
 * Each metric is an object {"unit": ..., "avg": ..., "p50": ..., ...}; the
 * fit reads the avg of time_to_first_token (ms), inter_token_latency (ms:
 * the time between a request's output tokens after the first, as vLLM's
 * TPOT) and output_token_throughput (tokens/s), and the lengths from
 * input_sequence_length and output_sequence_length.  The conditions are
 * the run's input_config: concurrency or request_rate, at its top or under
 * perf_analyzer.stimulus (newer releases). */
#include "models/llm/measure.h"

#include <stdio.h>
#include <string.h>

static int claims(const json_t *root)
{
    return fs_json_at(root, "time_to_first_token.avg") != NULL ||
           fs_json_at(root, "output_token_throughput.avg") != NULL;
}

/* A metric's avg, its unit checked when given. */
static int metric(const json_t *root, const char *name, const char *unit,
                  const char *path, double *out, fs_error *err)
{
    char key[96];
    snprintf(key, sizeof key, "%s.avg", name);
    int rc = fs_json_number(root, key, path, "", out, err);
    if (rc <= 0)
        return rc;
    snprintf(key, sizeof key, "%s.unit", name);
    const json_t *u = fs_json_at(root, key);
    if (unit && json_is_string(u) && strcmp(json_string_value(u), unit))
        return fs_error_at(err, path, 0, NULL, "%s: '%s', expected '%s'",
                           key, json_string_value(u), unit);
    return 1;
}

static int conditions(const json_t *root, const char *path,
                      fs_llm_measure *m, fs_error *err)
{
    static const char *const conc[] = {
        "input_config.concurrency",
        "input_config.perf_analyzer.stimulus.concurrency", NULL};
    static const char *const rate[] = {
        "input_config.request_rate",
        "input_config.perf_analyzer.stimulus.request_rate", NULL};
    fs_error ignored;
    int rc = fs_json_first(root, conc, path, "", &m->concurrency, &ignored);
    if (rc == 0)
        rc = fs_json_first(root, rate, path, "", &m->rate, &ignored);
    if (rc < 0)
        *err = ignored;
    if (rc == 0)
        fs_error_at(err, path, 0, NULL, "input_config.concurrency: missing "
                    "(nor input_config.request_rate)");
    return rc > 0 ? 0 : -1;
}

static int read_genai_perf(const char *path, const json_t *root,
                           fs_measures *out, fs_error *err)
{
    fs_llm_measure *m = fs_measures_add(out, path, err);
    if (!m || conditions(root, path, m, err))
        return -1;
    int rc;
    if ((rc = metric(root, "input_sequence_length", "tokens", path, &m->in,
                     err)) <= 0 ||
        (rc = metric(root, "output_sequence_length", "tokens", path,
                     &m->out, err)) <= 0)
        return rc < 0 ? -1 : fs_error_at(err, path, 0, NULL, "%s.avg: "
                                         "missing", m->in > 0
                                             ? "output_sequence_length"
                                             : "input_sequence_length");
    if (metric(root, "time_to_first_token", "ms", path, &m->ttft_ms,
               err) < 0 ||
        metric(root, "inter_token_latency", "ms", path, &m->tpot_ms,
               err) < 0 ||
        metric(root, "output_token_throughput", "tokens/sec", path,
               &m->throughput, err) < 0)
        return -1;
    return fs_measure_check(m, path, err);
}

const fs_measure_format fs_measure_genai_perf = {"genai-perf", claims,
                                                 read_genai_perf};
