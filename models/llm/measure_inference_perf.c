/* measure_inference_perf.c -- inference-perf's lifecycle summary
 * (summary_lifecycle_metrics.json, or a stage's
 * stage_N_lifecycle_metrics.json): one run a file.
 *
 * Its latencies are in seconds: successes.latency.time_to_first_token and
 * .inter_token_latency (between output tokens after the first, as vLLM's
 * TPOT; time_per_output_token where it is absent), each {"mean": ...,
 * "median": ..., ...}; the throughput successes.throughput.
 * output_tokens_per_sec; the lengths successes.prompt_tokens and
 * .output_tokens ({"mean"} or their "total" over successes.count; older
 * reports: prompt_len and output_len).  The load is an open rate:
 * load_summary.requested_rate (achieved_rate where it is absent). */
#include "models/llm/measure.h"

#include <stdio.h>

static int claims(const json_t *root)
{
    return fs_json_at(root, "load_summary") != NULL &&
           fs_json_at(root, "successes") != NULL;
}

/* A length: NAME.mean, NAME.total / successes.count, or OLD.mean. */
static int length(const json_t *root, const char *name, const char *old,
                  const char *path, double *out, fs_error *err)
{
    char k1[64], k2[64], k3[64];
    snprintf(k1, sizeof k1, "successes.%s.mean", name);
    snprintf(k2, sizeof k2, "successes.%s.total", name);
    snprintf(k3, sizeof k3, "successes.%s.mean", old);
    int rc = fs_json_number(root, k1, path, "", out, err);
    if (rc)
        return rc < 0 ? -1 : 0;
    double total, count;
    rc = fs_json_number(root, k2, path, "", &total, err);
    if (rc > 0) {
        rc = fs_json_number(root, "successes.count", path, "", &count, err);
        if (rc > 0 && count > 0) {
            *out = total / count;
            return 0;
        }
    }
    if (rc < 0)
        return -1;
    rc = fs_json_number(root, k3, path, "", out, err);
    if (rc == 0)
        fs_error_at(err, path, 0, NULL, "%s: missing (nor %s over "
                    "successes.count)", k1, k2);
    return rc > 0 ? 0 : -1;
}

static int read_inference_perf(const char *path, const json_t *root,
                               fs_measures *out, fs_error *err)
{
    fs_llm_measure *m = fs_measures_add(out, path, err);
    static const char *const rate[] = {"load_summary.requested_rate",
                                       "load_summary.achieved_rate", NULL};
    static const char *const ttft[] = {
        "successes.latency.time_to_first_token.mean", NULL};
    static const char *const tpot[] = {
        "successes.latency.inter_token_latency.mean",
        "successes.latency.time_per_output_token.mean", NULL};
    static const char *const tput[] = {
        "successes.throughput.output_tokens_per_sec", NULL};
    fs_error quiet;
    if (!m || fs_json_first(root, rate, path, "", &m->rate, err) <= 0 ||
        length(root, "prompt_tokens", "prompt_len", path, &m->in, err) ||
        length(root, "output_tokens", "output_len", path, &m->out, err))
        return -1;
    if (fs_json_first(root, ttft, path, "", &m->ttft_ms, &quiet) < 0 ||
        fs_json_first(root, tpot, path, "", &m->tpot_ms, &quiet) < 0 ||
        fs_json_first(root, tput, path, "", &m->throughput, &quiet) < 0) {
        *err = quiet;
        return -1;
    }
    m->ttft_ms *= 1e3;   /* seconds in the report */
    m->tpot_ms *= 1e3;
    return fs_measure_check(m, path, err);
}

const fs_measure_format fs_measure_inference_perf = {
    "inference-perf", claims, read_inference_perf};
