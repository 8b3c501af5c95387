/* measure.h -- benchmark result files read into calibration measurements.
 *
 * One reader per tool, each a row of the table in measure.c (the seam: a
 * new tool is its file and one line there):
 *   vllm            benchmark_serving.py / `vllm bench serve --save-result`
 *   genai-perf      NVIDIA genai-perf's profile_export_genai_perf.json (and
 *                   AIPerf's profile_export_aiperf.json, the same fields)
 *   guidellm        GuideLLM's report JSON (one measurement a benchmark)
 *   inference-perf  inference-perf's summary_lifecycle_metrics.json
 *   csv             model,gpu,precision,tp,tokens_in,tokens_out,
 *                   concurrency_or_rate,ttft_ms,tpot_ms,throughput
 * JSON is read with jansson, CSV with libcsv (sim/base/csvin.h); nothing is
 * parsed by hand.  A JSON file's format is the first reader that claims
 * its keys, unless named.  A key that is missing or not a number: "file:
 * key: ..." and nothing is kept from that file. */
#ifndef FS_MEASURE_H
#define FS_MEASURE_H

#include <jansson.h>
#include <stddef.h>
#include "sim/base/error.h"
#include "models/llm/llm_fit.h"

typedef struct fs_measures {
    fs_llm_measure *v;
    size_t n, cap;
} fs_measures;

void fs_measures_free(fs_measures *s);
/* A new zeroed measurement (weight 1) named source; NULL when out of
 * memory (err set). */
fs_llm_measure *fs_measures_add(fs_measures *s, const char *source,
                                fs_error *err);

typedef struct fs_measure_format {
    const char *name;
    /* JSON readers: whether a document is theirs; NULL for CSV */
    int (*claims)(const json_t *root);
    /* root is NULL for CSV: the reader opens path itself */
    int (*read)(const char *path, const json_t *root, fs_measures *out,
                fs_error *err);
} fs_measure_format;

extern const fs_measure_format fs_measure_vllm, fs_measure_genai_perf,
    fs_measure_guidellm, fs_measure_inference_perf, fs_measure_csv;

/* Appends the measurements of one file; format NULL: find it.  0, or -1
 * with "file: ..." (out keeps what it held before). */
int fs_measures_read(const char *path, const char *format, fs_measures *out,
                     fs_error *err);
/* 0 when a reader has that name ("vllm", "csv", ...), else -1. */
int fs_measure_format_known(const char *name);
/* "vllm, genai-perf, ..." for messages. */
const char *fs_measure_format_names(void);

/* ---- for the JSON readers ---------------------------------------------- */

/* The value at a dotted path ("metrics.ttft.mean"); NULL when absent. */
const json_t *fs_json_at(const json_t *root, const char *path);
/* The number at path: 1 found, 0 absent or null, -1 present but not a
 * number ("file: key: expected a number", where key is prefix + path). */
int fs_json_number(const json_t *root, const char *path, const char *file,
                   const char *prefix, double *out, fs_error *err);
/* The first of the NULL-terminated paths that is there: 1, 0 when none
 * (then err says the first is missing), -1 malformed. */
int fs_json_first(const json_t *root, const char *const *paths,
                  const char *file, const char *prefix, double *out,
                  fs_error *err);
/* A run's checks once its fields are read: lengths and one condition
 * set, at least one figure, every figure positive.  0, or -1 naming key. */
int fs_measure_check(const fs_llm_measure *m, const char *file,
                     fs_error *err);

#endif
