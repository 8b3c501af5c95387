/* measure.c -- the benchmark readers' registry and what they share
 * (measure.h): finding a file's format, loading JSON with jansson, reading
 * numbers at dotted paths with file-and-key messages, the checks every
 * measurement passes. */
#include "models/llm/measure.h"
#include "sim/base/vec.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const fs_measure_format *const formats[] = {
    &fs_measure_vllm, &fs_measure_genai_perf, &fs_measure_guidellm,
    &fs_measure_inference_perf, &fs_measure_csv,
};
#define NFORMATS (sizeof formats / sizeof formats[0])

const char *fs_measure_format_names(void)
{
    return "vllm, genai-perf, guidellm, inference-perf, csv";
}

void fs_measures_free(fs_measures *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

fs_llm_measure *fs_measures_add(fs_measures *s, const char *source,
                                fs_error *err)
{
    fs_llm_measure *v = fs_vec_grow(s->v, &s->cap, s->n + 1, sizeof *v);
    if (!v) {
        fs_error_set(err, "%s: out of memory", source);
        return NULL;
    }
    s->v = v;
    fs_llm_measure *m = &v[s->n++];
    memset(m, 0, sizeof *m);
    snprintf(m->source, sizeof m->source, "%s", source);
    m->weight = 1;
    return m;
}

const json_t *fs_json_at(const json_t *root, const char *path)
{
    char key[128];
    const json_t *v = root;
    while (v && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        v = json_is_object(v) ? json_object_get(v, key) : NULL;
        path += n + (path[n] == '.');
    }
    return v;
}

int fs_json_number(const json_t *root, const char *path, const char *file,
                   const char *prefix, double *out, fs_error *err)
{
    const json_t *v = fs_json_at(root, path);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return fs_error_at(err, file, 0, NULL, "%s%s: expected a number",
                           prefix, path);
    *out = json_number_value(v);
    return 1;
}

int fs_json_first(const json_t *root, const char *const *paths,
                  const char *file, const char *prefix, double *out,
                  fs_error *err)
{
    for (const char *const *p = paths; *p; p++) {
        int rc = fs_json_number(root, *p, file, prefix, out, err);
        if (rc)
            return rc;
    }
    fs_error_at(err, file, 0, NULL, "%s%s: missing", prefix, paths[0]);
    return 0;
}

int fs_measure_check(const fs_llm_measure *m, const char *file,
                     fs_error *err)
{
    if (!(m->in >= 1))
        return fs_error_at(err, file, 0, NULL, "prompt length %g: expected "
                           "at least 1 token", m->in);
    if (!(m->out >= 2))
        return fs_error_at(err, file, 0, NULL, "output length %g: expected "
                           "at least 2 tokens (TPOT needs two)", m->out);
    if (!(m->cached >= 0) || m->cached >= m->in)
        return fs_error_at(err, file, 0, NULL, "cached tokens %g: expected "
                           "0 to fewer than the prompt's %g", m->cached,
                           m->in);
    if (!(m->concurrency > 0) && !(m->rate > 0))
        return fs_error_at(err, file, 0, NULL, "neither a concurrency nor "
                           "a request rate above 0");
    if (m->ttft_ms < 0 || m->tpot_ms < 0 || m->throughput < 0)
        return fs_error_at(err, file, 0, NULL, "a negative TTFT, TPOT or "
                           "throughput");
    if (m->ttft_ms == 0 && m->tpot_ms == 0 && m->throughput == 0)
        return fs_error_at(err, file, 0, NULL, "no TTFT, TPOT or throughput "
                           "to fit");
    return 0;
}

/* JSON or not: the first character that is not white space. */
static int looks_json(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int c;
    while ((c = fgetc(f)) != EOF && (c == ' ' || c == '\t' || c == '\n' ||
                                     c == '\r'))
        ;
    fclose(f);
    return c == '{' || c == '[';
}

static const fs_measure_format *by_name(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcasecmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

static int read_json(const char *path, const fs_measure_format *fmt,
                     fs_measures *out, fs_error *err)
{
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        return fs_error_at(err, path, je.line > 0 ? je.line : 0, NULL,
                           "not valid JSON: %s", je.text);
    for (size_t i = 0; !fmt && i < NFORMATS; i++)
        if (formats[i]->claims && formats[i]->claims(root))
            fmt = formats[i];
    int rc = -1;
    if (!fmt)
        fs_error_at(err, path, 0, NULL, "not a benchmark result this "
                    "reads (%s); name it with --format",
                    fs_measure_format_names());
    else
        rc = fmt->read(path, root, out, err);
    json_decref(root);
    return rc;
}

int fs_measure_format_known(const char *name)
{
    return by_name(name) ? 0 : -1;
}

int fs_measures_read(const char *path, const char *format, fs_measures *out,
                     fs_error *err)
{
    const fs_measure_format *fmt = NULL;
    if (format && !(fmt = by_name(format)))
        return fs_error_set(err, "format '%s': expected one of %s", format,
                            fs_measure_format_names());
    FILE *f = fopen(path, "r");
    if (!f)
        return fs_error_at(err, path, 0, NULL, "cannot open: %s",
                           strerror(errno));
    fclose(f);
    size_t before = out->n;
    int rc = (fmt ? fmt->claims != NULL : looks_json(path))
                 ? read_json(path, fmt, out, err)
                 : fs_measure_csv.read(path, NULL, out, err);
    if (rc)
        out->n = before;
    return rc;
}
