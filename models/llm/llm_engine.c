/* llm_engine.c -- serving-stack profiles (see llm_engine.h): engines.csv
 * read with libcsv, a profile's row found by name and GPU generation, and
 * a row written back in the same columns.
 *
 * Every figure a stack contributes to the roofline lives in the file, not
 * here: this file knows the columns, their ranges and how a name picks a
 * row.  A row's numbers are plain decimals (no units), so a written row
 * reads back to the same doubles (%.17g). */
#include "models/llm/llm_engine.h"
#include "models/catalog/catalog.h"
#include "sim/base/csvin.h"
#include "sim/base/vec.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct fs_llm_engines {
    fs_llm_engine *e;
    size_t n;
};

/* The numeric columns: where each is kept, its range, and its value when a
 * file leaves the column out (NAN: required). */
typedef struct num_col {
    const char *name;
    size_t off;
    double lo, hi, dflt;
} num_col;

#define REQUIRED (-1.0)
static const num_col num_cols[] = {
    {"mfu", offsetof(fs_llm_engine, mfu), 1e-3, 1, REQUIRED},
    {"decode_fraction", offsetof(fs_llm_engine, decode_fraction), 1e-3, 1,
     REQUIRED},
    {"bw_efficiency", offsetof(fs_llm_engine, bw_efficiency), 1e-3, 1,
     REQUIRED},
    {"step_s", offsetof(fs_llm_engine, step_s), 0, 1, REQUIRED},
    {"layer_s", offsetof(fs_llm_engine, layer_s), 0, 0.01, REQUIRED},
    {"prefill_s", offsetof(fs_llm_engine, prefill_s), 0, 1, REQUIRED},
    {"pad_tokens", offsetof(fs_llm_engine, pad_tokens), 0, 1e5, REQUIRED},
    {"tp_step_growth", offsetof(fs_llm_engine, tp_step_growth), 0, 10, 0},
    {"tp_pad_growth", offsetof(fs_llm_engine, tp_pad_growth), 0, 10, 0},
    {"allreduce_s", offsetof(fs_llm_engine, allreduce_s), 0, 0.01, 0},
    {"memory_utilization", offsetof(fs_llm_engine, memory_utilization), 0, 1,
     0},
    {"kv_free_fraction", offsetof(fs_llm_engine, kv_free_fraction), 0, 1, 1},
    {"runtime_gb", offsetof(fs_llm_engine, runtime_gb), 0, 100, 0},
    {"tp_runtime_gb", offsetof(fs_llm_engine, tp_runtime_gb), 0, 100, 0},
    {"cuda_graph_gb", offsetof(fs_llm_engine, cuda_graph_gb), 0, 100, 0},
    {"max_num_batched_tokens", offsetof(fs_llm_engine, max_num_batched_tokens),
     0, 1e7, 0},
    {"max_num_seqs", offsetof(fs_llm_engine, max_num_seqs), 0, 1e6, 0},
    {"replicated_embedding", offsetof(fs_llm_engine, replicated_embedding), 0,
     1, 0},
    {"chunked_prefill", offsetof(fs_llm_engine, chunked_prefill), 0, 1 << 20,
     0},
    {"block_size", offsetof(fs_llm_engine, block_size), 16, 4096, 16},
    {"prefix_cache", offsetof(fs_llm_engine, prefix_cache), 0, 1, 0},
    {"request_s", offsetof(fs_llm_engine, request_s), 0, 10, 0},
    {"output_lag", offsetof(fs_llm_engine, output_lag), 0, 1, 0},
    {"startup_s", offsetof(fs_llm_engine, startup_s), 0, 3600, 0},
    {"moe_fp8", offsetof(fs_llm_engine, moe_fp8), 0, 1, 1},
    {"moe_efficiency", offsetof(fs_llm_engine, moe_efficiency), 0.05, 1, 1},
    {"allreduce_held", offsetof(fs_llm_engine, allreduce_held), 0, 2, 0},
};
#define NNUM (sizeof num_cols / sizeof num_cols[0])

static const char *const text_cols[] = {"engine", "version", "current",
                                        "generation", "source"};
#define NTEXT (sizeof text_cols / sizeof text_cols[0])

static int set_text(fs_llm_engine *e, const char *column, const char *v,
                    char *why, size_t len)
{
    char *dst = NULL;
    size_t cap = 0;
    if (strcasecmp(column, "current") == 0) {
        if (strcasecmp(v, "yes") && strcasecmp(v, "no") && v[0]) {
            snprintf(why, len, "'%s': expected yes or no", v);
            return -1;
        }
        e->current = strcasecmp(v, "yes") == 0;
        return 0;
    }
    if (strcasecmp(column, "engine") == 0)
        dst = e->engine, cap = sizeof e->engine;
    else if (strcasecmp(column, "version") == 0)
        dst = e->version, cap = sizeof e->version;
    else if (strcasecmp(column, "generation") == 0)
        dst = e->generation, cap = sizeof e->generation;
    else
        dst = e->source, cap = sizeof e->source;
    int named = dst != e->source;
    if ((named && !v[0]) || strlen(v) >= cap ||
        (named && strpbrk(v, "@ ,"))) {
        snprintf(why, len, "'%s': expected 1 to %zu characters without "
                 "'@', ',' or spaces", v, cap - 1);
        return -1;
    }
    snprintf(dst, cap, "%s", v);
    return 0;
}

int fs_llm_engine_set(fs_llm_engine *e, const char *column,
                      const char *value, char *why, size_t len)
{
    for (size_t k = 0; k < NTEXT; k++)
        if (strcasecmp(column, text_cols[k]) == 0)
            return set_text(e, column, value, why, len);
    for (size_t k = 0; k < NNUM; k++) {
        const num_col *c = &num_cols[k];
        if (strcasecmp(column, c->name))
            continue;
        double v;
        if (fs_csv_number(value, &v) || v < c->lo || v > c->hi) {
            snprintf(why, len, "'%s': expected a number from %g to %g",
                     value, c->lo, c->hi);
            return -1;
        }
        if (c->off == offsetof(fs_llm_engine, block_size) &&
            fmod(v, 16) != 0) {   /* whole blocks of the KV memory */
            snprintf(why, len, "'%s': expected a multiple of 16 tokens",
                     value);
            return -1;
        }
        if (c->off == offsetof(fs_llm_engine, allreduce_held) &&
            v != floor(v)) {   /* whole tensors: a layer has two */
            snprintf(why, len, "'%s': expected 0, 1 or 2 all-reduce inputs "
                     "a layer", value);
            return -1;
        }
        if ((c->off == offsetof(fs_llm_engine, prefix_cache) ||
             c->off == offsetof(fs_llm_engine, output_lag)) && v != 0 &&
            v != 1) {
            snprintf(why, len, "'%s': expected 0 (off) or 1 (on)", value);
            return -1;
        }
        *(double *)((char *)e + c->off) = v;
        return 0;
    }
    snprintf(why, len, "unknown engine profile column '%s'", column);
    return -1;
}

typedef struct rows_ctx {
    const fs_llm_engines *t;
    int tidx[NTEXT], nidx[NNUM];    /* where each column is */
} rows_ctx;

/* The header: where each column is. */
static int header(fs_csv *r, void *ctx, fs_error *err)
{
    rows_ctx *x = ctx;
    int *tidx = x->tidx, *nidx = x->nidx;
    for (size_t k = 0; k < NTEXT; k++) {
        tidx[k] = fs_csv_column(r, text_cols[k]);
        if (tidx[k] < 0 && strcmp(text_cols[k], "source") &&
            strcmp(text_cols[k], "current"))
            return fs_error_at(err, fs_csv_path(r), 1, NULL,
                               "missing column '%s'", text_cols[k]);
    }
    for (size_t k = 0; k < NNUM; k++) {
        nidx[k] = fs_csv_column(r, num_cols[k].name);
        if (nidx[k] < 0 && num_cols[k].dflt == REQUIRED)
            return fs_error_at(err, fs_csv_path(r), 1, NULL,
                               "missing column '%s'", num_cols[k].name);
    }
    return 0;
}

static int read_row(fs_csv *r, const int *tidx, const int *nidx,
                    fs_llm_engine *e, fs_error *err)
{
    char why[300];
    memset(e, 0, sizeof *e);
    for (size_t k = 0; k < NTEXT; k++)
        if (tidx[k] >= 0 &&
            fs_llm_engine_set(e, text_cols[k],
                              fs_csv_field(r, (size_t)tidx[k]), why,
                              sizeof why))
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               text_cols[k], "%s", why);
    for (size_t k = 0; k < NNUM; k++) {
        if (nidx[k] < 0) {
            *(double *)((char *)e + num_cols[k].off) = num_cols[k].dflt;
            continue;
        }
        if (fs_llm_engine_set(e, num_cols[k].name,
                              fs_csv_field(r, (size_t)nidx[k]), why,
                              sizeof why))
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               num_cols[k].name, "%s", why);
    }
    return 0;
}

/* A row that repeats an (engine, version, generation), or makes a second
 * release of one stack its current one. */
static const char *clash(const fs_llm_engines *t, const fs_llm_engine *e)
{
    for (size_t i = 0; i < t->n; i++) {
        const fs_llm_engine *o = &t->e[i];
        if (strcasecmp(o->engine, e->engine))
            continue;
        int same = strcasecmp(o->version, e->version) == 0;
        if (same && strcasecmp(o->generation, e->generation) == 0)
            return "this engine, version and generation appear twice";
        if (!same && o->current && e->current)
            return "a second version of this engine marked current";
    }
    return NULL;
}

/* One profile row, which may not clash with those before it. */
static int read_profile(fs_csv *r, void *out, void *ctx, fs_error *err)
{
    const rows_ctx *x = ctx;
    if (read_row(r, x->tidx, x->nidx, out, err))
        return -1;
    const char *why = clash(x->t, out);
    if (why)
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           "engine", "%s", why);
    return 0;
}

/* Every profile's row; a header alone is refused. */
static int read_rows(fs_llm_engines *t, const char *csv, fs_error *err)
{
    rows_ctx x = {.t = t};
    if (fs_catalog_load_file(csv, header, &x, (void **)&t->e, &t->n,
                             sizeof *t->e, read_profile, &x, err))
        return -1;
    if (t->n == 0)
        return fs_error_at(err, csv, 2, NULL, "no profile rows (expected "
                           "one per engine, version and GPU generation)");
    return 0;
}

fs_llm_engines *fs_llm_engines_load(const char *csv, fs_error *err)
{
    fs_llm_engines *t = calloc(1, sizeof *t);
    if (!t) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    if (read_rows(t, csv, err)) {
        fs_llm_engines_free(t);
        return NULL;
    }
    return t;
}

const char *fs_llm_engine_default(void)
{
    return "vllm";
}

fs_llm_engines *fs_llm_engines_load_default(fs_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/engines.csv", fs_catalog_default_dir());
    return fs_llm_engines_load(path, err);
}

void fs_llm_engines_free(fs_llm_engines *t)
{
    if (!t)
        return;
    free(t->e);
    free(t);
}

/* "0.2" names the release 0.2, 0.2.x, 0.2.x.y... */
static int version_matches(const char *want, const char *have)
{
    size_t n = strlen(want);
    return strncasecmp(want, have, n) == 0 &&
           (have[n] == '\0' || have[n] == '.');
}

/* The release `engine = NAME` picks: the row marked current, else the
 * stack's first row's. */
static const char *plain_version(const fs_llm_engines *t, const char *name,
                                 size_t n)
{
    const char *first = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const fs_llm_engine *e = &t->e[i];
        if (strlen(e->engine) != n || strncasecmp(e->engine, name, n))
            continue;
        if (e->current)
            return e->version;
        if (!first)
            first = e->version;
    }
    return first;
}

/* Whether row e belongs to profile name: "vllm" or "vllm@VERSION". */
static int names_row(const fs_llm_engines *t, const char *name,
                     const fs_llm_engine *e)
{
    const char *at = strchr(name, '@');
    size_t n = at ? (size_t)(at - name) : strlen(name);
    if (strlen(e->engine) != n || strncasecmp(e->engine, name, n))
        return 0;
    if (at)
        return version_matches(at + 1, e->version);
    const char *v = plain_version(t, name, n);
    return v && strcasecmp(v, e->version) == 0;
}

const fs_llm_engine *fs_llm_engines_find(const fs_llm_engines *t,
                                         const char *name,
                                         const char *generation)
{
    const fs_llm_engine *first = NULL;
    if (!t || !name)
        return NULL;
    for (size_t i = 0; i < t->n; i++) {
        const fs_llm_engine *e = &t->e[i];
        if (!names_row(t, name, e) ||
            (first && strcasecmp(first->version, e->version)))
            continue;
        if (!first)
            first = e;
        if (generation && strcasecmp(e->generation, generation) == 0)
            return e;
    }
    return first;
}

void fs_llm_engines_first(const fs_llm_engines *t, char *buf, size_t len)
{
    if (!t || !t->n) {
        snprintf(buf, len, "%s", "");
        return;
    }
    snprintf(buf, len, "%s@%s", t->e[0].engine, t->e[0].version);
}

/* Each profile's name once, in file order: "vllm" for the release the
 * plain name picks, "vllm@0.2" for the others. */
static size_t profile_names(const fs_llm_engines *t, char (*names)[56],
                            size_t most)
{
    size_t n = 0;
    for (size_t i = 0; t && i < t->n && n < most; i++) {
        const fs_llm_engine *e = &t->e[i];
        const char *v = plain_version(t, e->engine, strlen(e->engine));
        if (v && strcasecmp(v, e->version) == 0)
            snprintf(names[n], sizeof names[n], "%s", e->engine);
        else
            snprintf(names[n], sizeof names[n], "%s@%s", e->engine,
                     e->version);
        size_t k = 0;
        while (k < n && strcasecmp(names[k], names[n]))
            k++;
        n += k == n;
    }
    return n;
}

void fs_llm_engines_suggest(const fs_llm_engines *t, const char *name,
                            char *buf, size_t len)
{
    enum { MOST = 64 };
    char names[MOST][56];
    const char *list[MOST + 1];
    size_t n = profile_names(t, names, MOST);
    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    list[n] = NULL;
    const char *near = fs_nearest_name(name, list);
    size_t off = near ? (size_t)snprintf(buf, len, "did you mean '%s'? ",
                                         near)
                      : 0;
    if (off < len)
        off += (size_t)snprintf(buf + off, len - off, "known:");
    for (size_t i = 0; i < n && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, " %s", names[i]);
}

size_t fs_llm_engines_count(const fs_llm_engines *t)
{
    return t ? t->n : 0;
}

const fs_llm_engine *fs_llm_engines_at(const fs_llm_engines *t, size_t i)
{
    return t && i < t->n ? &t->e[i] : NULL;
}

int fs_llm_engine_write(FILE *f, const fs_llm_engine *e, int with_header)
{
    if (with_header) {
        fputs("engine,version,current,generation", f);
        for (size_t k = 0; k < NNUM; k++)
            fprintf(f, ",%s", num_cols[k].name);
        fputs(",source\n", f);
    }
    fprintf(f, "%s,%s,%s,%s", e->engine, e->version,
            e->current ? "yes" : "no", e->generation);
    for (size_t k = 0; k < NNUM; k++)
        fprintf(f, ",%.17g", *(const double *)((const char *)e +
                                               num_cols[k].off));
    /* libcsv quoting: a source with a comma or quote is quoted */
    if (strpbrk(e->source, ",\"\n")) {
        fputs(",\"", f);
        for (const char *s = e->source; *s; s++) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputs("\"\n", f);
    } else
        fprintf(f, ",%s\n", e->source);
    return ferror(f) ? -1 : 0;
}
