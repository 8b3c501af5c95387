/* measure_csv.c -- measurements as plain CSV, one run a row (libcsv,
 * through sim/base/csvin.h):
 *
 *   model,gpu,precision,tp,tokens_in,tokens_out,concurrency_or_rate,
 *   ttft_ms,tpot_ms,throughput[,weight][,cached_tokens]
 *
 * concurrency_or_rate: a number is that many closed-loop clients; a number
 * with "/s" ("2.5/s") is a Poisson request rate; "inf" sends every request
 * at once.  ttft_ms and tpot_ms are means in ms (TPOT between output
 * tokens after the first), throughput the replica's output tokens/s; an
 * empty cell was not measured.  model, gpu, precision and tp name the
 * configuration a row was measured on (calibrate keeps the rows of the one
 * it fits; an empty cell matches any).  weight: the row's weight in the
 * fit (default 1).  cached_tokens: of the prompt, the mean tokens the
 * server's prefix cache held, which it did not prefill (default 0). */
#include "models/llm/measure.h"
#include "sim/base/csvin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_MODEL, C_GPU, C_PREC, C_TP, C_IN, C_OUT, C_LOAD, C_TTFT, C_TPOT,
       C_TPUT, C_WEIGHT, C_CACHED, NCOLS };
static const char *const names[NCOLS] = {
    "model", "gpu", "precision", "tp", "tokens_in", "tokens_out",
    "concurrency_or_rate", "ttft_ms", "tpot_ms", "throughput", "weight",
    "cached_tokens"};

static int header(fs_csv *r, int *col, fs_error *err)
{
    int rc = fs_csv_next(r, err);
    if (rc <= 0)
        return rc < 0 ? -1 : fs_error_at(err, fs_csv_path(r), 0, NULL,
                                         "empty: expected a header line");
    for (int i = 0; i < NCOLS; i++) {
        col[i] = fs_csv_column(r, names[i]);
        if (col[i] < 0 && i != C_WEIGHT && i != C_CACHED)
            return fs_error_at(err, fs_csv_path(r), fs_csv_line(r),
                               names[i], "column missing from the header");
    }
    return 0;
}

/* A number cell: empty is 0 when optional. */
static int cell(fs_csv *r, const int *col, int i, int optional, double lo,
                double *out, fs_error *err)
{
    const char *s = col[i] >= 0 ? fs_csv_field(r, (size_t)col[i]) : "";
    *out = 0;
    if (!s[0] && optional)
        return 0;
    if (fs_csv_number(s, out) || *out < lo)
        return fs_error_at(err, fs_csv_path(r), fs_csv_line(r), names[i],
                           "'%s': expected a number of at least %g", s, lo);
    return 0;
}

static int load(fs_csv *r, const int *col, fs_llm_measure *m, fs_error *err)
{
    char s[64];
    snprintf(s, sizeof s, "%s", fs_csv_field(r, (size_t)col[C_LOAD]));
    if (strcmp(s, "inf") == 0) {
        m->rate = INFINITY;
        return 0;
    }
    size_t n = strlen(s);
    int rate = n > 2 && strcmp(s + n - 2, "/s") == 0;
    if (rate)
        s[n - 2] = 0;
    double v;
    if (fs_csv_number(s, &v) || !(v > 0))
        return fs_error_at(err, fs_csv_path(r), fs_csv_line(r),
                           names[C_LOAD], "'%s': expected clients (16), a "
                           "rate (2.5/s) or inf",
                           fs_csv_field(r, (size_t)col[C_LOAD]));
    *(rate ? &m->rate : &m->concurrency) = v;
    return 0;
}

static int row(fs_csv *r, const int *col, fs_measures *out, fs_error *err)
{
    char source[sizeof out->v->source];
    snprintf(source, sizeof source, "%s:%ld", fs_csv_path(r),
             fs_csv_line(r));
    fs_llm_measure *m = fs_measures_add(out, source, err);
    double tp;
    if (!m || cell(r, col, C_TP, 1, 0, &tp, err) ||
        cell(r, col, C_IN, 0, 1, &m->in, err) ||
        cell(r, col, C_OUT, 0, 2, &m->out, err) || load(r, col, m, err) ||
        cell(r, col, C_TTFT, 1, 0, &m->ttft_ms, err) ||
        cell(r, col, C_TPOT, 1, 0, &m->tpot_ms, err) ||
        cell(r, col, C_TPUT, 1, 0, &m->throughput, err) ||
        cell(r, col, C_WEIGHT, 1, 0, &m->weight, err) ||
        cell(r, col, C_CACHED, 1, 0, &m->cached, err))
        return -1;
    if (m->weight == 0)
        m->weight = 1;
    m->tp = (int)tp;
    snprintf(m->model, sizeof m->model, "%s",
             fs_csv_field(r, (size_t)col[C_MODEL]));
    snprintf(m->gpu, sizeof m->gpu, "%s", fs_csv_field(r, (size_t)col[C_GPU]));
    snprintf(m->precision, sizeof m->precision, "%s",
             fs_csv_field(r, (size_t)col[C_PREC]));
    return fs_measure_check(m, source, err);
}

static int read_csv(const char *path, const json_t *root, fs_measures *out,
                    fs_error *err)
{
    (void)root;
    fs_csv *r = fs_csv_open(path, err);
    if (!r)
        return -1;
    int col[NCOLS], rc = header(r, col, err);
    while (rc == 0 && (rc = fs_csv_next(r, err)) > 0)
        rc = row(r, col, out, err);
    fs_csv_free(r);
    return rc;
}

const fs_measure_format fs_measure_csv = {"csv", NULL, read_csv};
