/* measure_vllm.c -- vLLM's serving benchmark result (`vllm bench serve` or
 * benchmarks/benchmark_serving.py with --save-result): one run a file.
 *
 * Conditions: max_concurrency (closed-loop clients) when set, else
 * request_rate (Poisson, requests/s; "inf" sends every request at once,
 * read as that many clients).  Lengths: the means of input_lens and
 * output_lens, or total_input_tokens and total_output_tokens over
 * completed.  Figures: mean_ttft_ms, mean_tpot_ms (the mean of each
 * request's (latency - TTFT) / (output - 1)), output_throughput; the
 * medians where a mean is missing. */
#include "models/llm/measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int claims(const json_t *root)
{
    return fs_json_at(root, "mean_ttft_ms") != NULL ||
           fs_json_at(root, "median_ttft_ms") != NULL;
}

/* The mean of an array of numbers, or the total over completed. */
static int mean_length(const json_t *root, const char *array,
                       const char *total, const char *path, double *out,
                       fs_error *err)
{
    const json_t *a = fs_json_at(root, array);
    if (json_is_array(a) && json_array_size(a) > 0) {
        double sum = 0;
        size_t i;
        const json_t *v;
        json_array_foreach(a, i, v) {
            if (!json_is_number(v))
                return fs_error_at(err, path, 0, NULL, "%s[%zu]: expected "
                                   "a number", array, i);
            sum += json_number_value(v);
        }
        *out = sum / (double)json_array_size(a);
        return 0;
    }
    double t, n;
    int rt = fs_json_number(root, total, path, "", &t, err);
    int rn = rt > 0 ? fs_json_number(root, "completed", path, "", &n, err)
                    : 0;
    if (rt < 0 || rn < 0)
        return -1;
    if (rt == 0 || rn == 0 || n <= 0)
        return fs_error_at(err, path, 0, NULL, "%s: missing (nor %s and "
                           "completed)", array, total);
    *out = t / n;
    return 0;
}

/* max_concurrency, else request_rate (a number, or "inf"). */
static int conditions(const json_t *root, const char *path,
                      fs_llm_measure *m, fs_error *err)
{
    int rc = fs_json_number(root, "max_concurrency", path, "",
                            &m->concurrency, err);
    if (rc)
        return rc < 0 ? -1 : 0;
    const json_t *r = json_object_get(root, "request_rate");
    if (json_is_string(r) && strcmp(json_string_value(r), "inf") == 0) {
        double n;
        rc = fs_json_number(root, "completed", path, "", &n, err);
        if (rc <= 0)
            return rc < 0 ? -1 : fs_error_at(err, path, 0, NULL,
                                             "completed: missing (an "
                                             "unbounded request_rate "
                                             "sends that many at once)");
        m->concurrency = n;
        return 0;
    }
    rc = fs_json_number(root, "request_rate", path, "", &m->rate, err);
    if (rc == 0)
        return fs_error_at(err, path, 0, NULL, "request_rate: missing (nor "
                           "max_concurrency)");
    return rc < 0 ? -1 : 0;
}

static int read_vllm(const char *path, const json_t *root, fs_measures *out,
                     fs_error *err)
{
    fs_llm_measure *m = fs_measures_add(out, path, err);
    if (!m || conditions(root, path, m, err) ||
        mean_length(root, "input_lens", "total_input_tokens", path, &m->in,
                    err) ||
        mean_length(root, "output_lens", "total_output_tokens", path,
                    &m->out, err))
        return -1;
    static const char *const ttft[] = {"mean_ttft_ms", "median_ttft_ms",
                                       NULL};
    static const char *const tpot[] = {"mean_tpot_ms", "median_tpot_ms",
                                       NULL};
    static const char *const tput[] = {"output_throughput", NULL};
    fs_error ignored;
    if (fs_json_first(root, ttft, path, "", &m->ttft_ms, &ignored) < 0 ||
        fs_json_first(root, tpot, path, "", &m->tpot_ms, &ignored) < 0 ||
        fs_json_first(root, tput, path, "", &m->throughput, &ignored) < 0) {
        *err = ignored;
        return -1;
    }
    return fs_measure_check(m, path, err);
}

const fs_measure_format fs_measure_vllm = {"vllm", claims, read_vllm};
