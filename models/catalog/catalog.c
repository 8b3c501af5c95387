/* catalog.c -- loading and querying the GPU and instance catalogs. */
#include "models/catalog/catalog.h"
#include "sim/base/csvin.h"
#include "sim/base/grammar.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#ifndef FS_CATALOG_DIR
#define FS_CATALOG_DIR "/usr/local/share/fleetsim/catalog"
#endif
#ifndef FS_SRC_CATALOG_DIR
#define FS_SRC_CATALOG_DIR "models/catalog"
#endif

/* Column positions found from a header row.  The names from index
 * `required` on are optional: a file without them reads as before, and
 * their cells are empty. */
typedef struct columns {
    const char *const *names;
    int required;
    int idx[32];
} columns;

static int find_columns(fs_csv *r, void *ctx, fs_error *err)
{
    columns *cols = ctx;
    for (int k = 0; cols->names[k]; k++) {
        cols->idx[k] = -1;
        for (size_t i = 0; i < fs_csv_nfields(r); i++)
            if (strcasecmp(fs_csv_field(r, i), cols->names[k]) == 0)
                cols->idx[k] = (int)i;
        if (cols->idx[k] < 0 && k < cols->required)
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), NULL,
                               "missing column '%s'", cols->names[k]);
    }
    return 0;
}

static const char *col(fs_csv *r, const columns *cols, int k)
{
    if (cols->idx[k] < 0)
        return "";   /* an optional column the file does not have */
    return fs_csv_field(r, (size_t)cols->idx[k]);
}

/* A number cell; empty is NaN when allow_empty. */
static int number_cell(fs_csv *r, const columns *cols, int k, double *out,
                       int allow_empty, fs_error *err)
{
    const char *v = col(r, cols, k);
    char why[160];
    if (v[0] == '\0' && allow_empty) {
        *out = NAN;
        return 0;
    }
    if (fs_parse_number(v, out, why, sizeof why))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           cols->names[k], "%s", why);
    return 0;
}

static void copy_cell(char *dst, size_t len, fs_csv *r, const columns *cols,
                      int k)
{
    snprintf(dst, len, "%s", col(r, cols, k));
}

/* The optional LLM columns 9..15: an empty number is 0 (fp16: bf16's
 * figure); generation and form default from what the row says. */
static int read_gpu_llm_columns(fs_csv *r, const columns *cols, fs_gpu *g,
                                fs_error *err)
{
    double *cells[4] = {&g->fp16_tflops, &g->int4_tops, &g->nvlink_gbs,
                        &g->pcie_gbs};
    for (int k = 0; k < 4; k++) {
        if (number_cell(r, cols, 9 + k, cells[k], 1, err))
            return -1;
        if (isnan(*cells[k]))
            *cells[k] = k == 0 ? g->bf16_tflops : 0;
        else if (*cells[k] < 0)
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               cols->names[9 + k], "expected a figure >= 0");
    }
    const char *f8 = col(r, cols, 13);
    g->fp8_native = f8[0] ? strcasecmp(f8, "yes") == 0 : g->fp8_tflops > 0;
    copy_cell(g->generation, sizeof g->generation, r, cols, 14);
    if (!g->generation[0])
        snprintf(g->generation, sizeof g->generation, "%s",
                 g->fp8_native ? "hopper" : "ampere");
    copy_cell(g->form, sizeof g->form, r, cols, 15);
    if (!g->form[0])
        snprintf(g->form, sizeof g->form, "%s",
                 g->nvlink_gbs > 0 ? "sxm" : "pcie");
    return 0;
}

/* The provenance columns 16..18: boost_mhz >= 0 (empty: 0), unsourced
 * (each ';'-separated name a column of gpus.csv) and the clock's source. */
static int read_gpu_provenance(fs_csv *r, const columns *cols, fs_gpu *g,
                               fs_error *err)
{
    if (number_cell(r, cols, 16, &g->boost_mhz, 1, err))
        return -1;
    if (isnan(g->boost_mhz))
        g->boost_mhz = 0;
    else if (g->boost_mhz < 0)
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           cols->names[16], "expected MHz >= 0 (0: not "
                           "given by a vendor document)");
    const char *u = col(r, cols, 17);
    if (strlen(u) >= sizeof g->unsourced)
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           cols->names[17], "longer than %zu characters",
                           sizeof g->unsourced - 1);
    snprintf(g->unsourced, sizeof g->unsourced, "%s", u);
    for (const char *s = u; *s;) {
        size_t n = strcspn(s, ";");
        int known = 0;
        for (int k = 1; cols->names[k] && !known; k++)
            known = k != 8 && k < 17 && strlen(cols->names[k]) == n &&
                    strncmp(cols->names[k], s, n) == 0;
        if (!known)
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               cols->names[17], "'%.*s': expected gpus.csv "
                               "figure columns separated by ';'", (int)n, s);
        s += n + (s[n] == ';');
    }
    copy_cell(g->clock_source, sizeof g->clock_source, r, cols, 18);
    return 0;
}

/* A figure of column k (empty: NaN) and its source in column k + 1. */
static int figure_and_source(fs_csv *r, const columns *cols, int k,
                             double *v, char *src, size_t len, fs_error *err)
{
    if (number_cell(r, cols, k, v, 1, err))
        return -1;
    copy_cell(src, len, r, cols, k + 1);
    return 0;
}

/* The power columns 19..20: idle_w from 0 to tdp_w (empty: the rule's
 * FS_GPU_IDLE_SHARE of tdp_w, said so in idle_source). */
static int read_gpu_power(fs_csv *r, const columns *cols, fs_gpu *g,
                          fs_error *err)
{
    if (figure_and_source(r, cols, 19, &g->idle_w, g->idle_source,
                          sizeof g->idle_source, err))
        return -1;
    if (isnan(g->idle_w)) {
        g->idle_w = FS_GPU_IDLE_SHARE * g->tdp_w;
        if (!g->idle_source[0])
            snprintf(g->idle_source, sizeof g->idle_source, "rule: %.0f%% "
                     "of tdp_w", 100 * FS_GPU_IDLE_SHARE);
    } else if (g->idle_w < 0 || g->idle_w > g->tdp_w)
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           cols->names[19], "expected watts from 0 to the "
                           "row's tdp_w (%g)", g->tdp_w);
    return 0;
}

/* The driver's column 21, read: reported_gib above 0 and within 10% of
 * the datasheet's memory_gb (a GiB figure typed as GB, or the wrong
 * card's, would be off by more); NaN (empty): none found, 0. */
static int check_gpu_reported(fs_csv *r, const columns *cols, fs_gpu *g,
                              fs_error *err)
{
    double gb = g->reported_gib * FS_GIB / 1e9;
    if (isnan(gb)) {
        g->reported_gib = 0;
        return 0;
    }
    if (!(gb > 0.9 * g->memory_gb && gb < 1.1 * g->memory_gb))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           cols->names[21], "expected GiB within 10%% of "
                           "the row's memory_gb (%g GB = %.2f GiB)",
                           g->memory_gb, g->memory_gb * 1e9 / FS_GIB);
    return 0;
}

double fs_gpu_reported_gb(const fs_gpu *g)
{
    return g->reported_gib > 0 ? g->reported_gib * FS_GIB / 1e9
                               : g->memory_gb;
}

int fs_catalog_read_rows(fs_csv *r, void **rows, size_t *n, size_t size,
                         fs_catalog_row_fn read, void *ctx, fs_error *err)
{
    size_t cap = 0;
    int rc;
    while ((rc = fs_csv_next(r, err)) == 1) {
        char *grown = fs_vec_grow(*rows, &cap, *n + 1, size);
        if (!grown)
            return fs_error_set(err, "out of memory reading %s",
                                fs_csv_path(r));
        *rows = grown;
        void *row = grown + *n * size;
        memset(row, 0, size);
        if (read(r, row, ctx, err))
            return -1;
        ++*n;
    }
    return rc < 0 ? -1 : 0;
}

/* One row of gpus.csv (ctx: its columns). */
static int read_gpu(fs_csv *r, void *row, void *ctx, fs_error *err)
{
    const columns *cols = ctx;
    fs_gpu *g = row;
    copy_cell(g->name, sizeof g->name, r, cols, 0);
    if (g->name[0] == '\0')
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), "name",
                           "empty");
    if (number_cell(r, cols, 1, &g->memory_gb, 0, err) ||
        number_cell(r, cols, 2, &g->memory_bw_gbs, 0, err) ||
        number_cell(r, cols, 3, &g->bf16_tflops, 0, err) ||
        number_cell(r, cols, 4, &g->fp8_tflops, 1, err) ||
        number_cell(r, cols, 5, &g->int8_tops, 1, err) ||
        number_cell(r, cols, 6, &g->tdp_w, 1, err))
        return -1;
    if (!(g->memory_gb > 0 && g->memory_gb <= FS_GPU_MEMORY_GB_MAX))
        return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                           "memory_gb", "expected GB above 0, at most %d",
                           FS_GPU_MEMORY_GB_MAX);
    g->mig = strcasecmp(col(r, cols, 7), "yes") == 0;
    copy_cell(g->source, sizeof g->source, r, cols, 8);
    if (read_gpu_llm_columns(r, cols, g, err))
        return -1;
    if (read_gpu_provenance(r, cols, g, err) ||
        read_gpu_power(r, cols, g, err) ||
        figure_and_source(r, cols, 21, &g->reported_gib, g->reported_source,
                          sizeof g->reported_source, err))
        return -1;
    return check_gpu_reported(r, cols, g, err);
}

int fs_catalog_load_file(const char *path, fs_catalog_header_fn header,
                         void *header_ctx, void **rows, size_t *n, size_t size,
                         fs_catalog_row_fn read, void *ctx, fs_error *err)
{
    fs_csv *r = fs_csv_open(path, err);
    if (!r)
        return -1;
    int rc = fs_csv_next(r, err);
    if (rc == 0)
        rc = fs_error_at(err, path, 1, NULL, "empty file (expected a header)");
    if (rc > 0)
        rc = header(r, header_ctx, err)
                 ? -1
                 : fs_catalog_read_rows(r, rows, n, size, read, ctx, err);
    fs_csv_free(r);
    return rc < 0 ? -1 : 0;
}

static int load_gpus(fs_catalog *c, const char *path, fs_error *err)
{
    static const char *const names[] = {
        "name", "memory_gb", "memory_bw_gbs", "bf16_tflops", "fp8_tflops",
        "int8_tops", "tdp_w", "mig", "source",
        /* optional (9..): the LLM model's columns */
        "fp16_tflops", "int4_tops", "nvlink_gbs", "pcie_gbs", "fp8_native",
        "generation", "form",
        /* optional (16..): provenance */
        "boost_mhz", "unsourced", "clock_source",
        /* optional (19..): power */
        "idle_w", "idle_source",
        /* optional (21..): the memory the driver reports */
        "reported_gib", "reported_source", NULL};
    columns cols = {names, 9, {0}};
    return fs_catalog_load_file(path, find_columns, &cols, (void **)&c->gpus,
                                &c->ngpus, sizeof *c->gpus, read_gpu, &cols,
                                err);
}

/* The optional commitment columns 11..18: money >= 0, discounts in
 * [0, 1). */
static int read_commitments(fs_csv *r, const columns *cols,
                            fs_instance_type *t, fs_error *err)
{
    double *cells[8] = {&t->ri_partial_h[0], &t->ri_partial_upfront[0],
                        &t->ri_all_upfront[0], &t->ri_partial_h[1],
                        &t->ri_partial_upfront[1], &t->ri_all_upfront[1],
                        &t->sp_discount[0], &t->sp_discount[1]};
    for (int k = 0; k < 8; k++) {
        if (number_cell(r, cols, 11 + k, cells[k], 1, err))
            return -1;
        double v = *cells[k];
        if (isnan(v))
            continue;
        if (v < 0 || (k >= 6 && v >= 1))
            return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r),
                               cols->names[11 + k], "%s",
                               k >= 6 ? "expected a discount from 0 to "
                               "below 1 (0.30 = 30% off on-demand)"
                                      : "expected an amount >= 0");
    }
    return 0;
}

typedef struct inst_ctx {
    const fs_catalog *c;
    const columns *cols;
} inst_ctx;

/* One row of instances.csv: its GPU must be in the catalog's GPUs. */
static int read_instance(fs_csv *r, void *row, void *ctx, fs_error *err)
{
    const inst_ctx *x = ctx;
    const columns *cols = x->cols;
    fs_instance_type *t = row;
    const char *path = fs_csv_path(r);
    int line = (int)fs_csv_line(r);
    copy_cell(t->provider, sizeof t->provider, r, cols, 0);
    copy_cell(t->name, sizeof t->name, r, cols, 1);
    copy_cell(t->gpu, sizeof t->gpu, r, cols, 2);
    double gpus;
    if (number_cell(r, cols, 3, &gpus, 0, err) ||
        number_cell(r, cols, 4, &t->on_demand, 1, err) ||
        number_cell(r, cols, 5, &t->spot, 1, err) ||
        number_cell(r, cols, 6, &t->reserved_1y, 1, err) ||
        number_cell(r, cols, 7, &t->reserved_3y, 1, err))
        return -1;
    if (gpus < 1 || gpus > 64 || gpus != floor(gpus))
        return fs_error_at(err, path, line, "gpus",
                           "expected a whole number of GPUs from 1 to 64");
    t->gpus = (int)gpus;
    const fs_gpu *g = fs_catalog_gpu(x->c, t->gpu);
    if (!g) {
        char hint[256];
        fs_catalog_suggest_gpu(x->c, t->gpu, hint, sizeof hint);
        return fs_error_at(err, path, line, "gpu", "unknown GPU '%s' %s",
                           t->gpu, hint);
    }
    snprintf(t->gpu, sizeof t->gpu, "%s", g->name);
    if (read_commitments(r, cols, t, err))
        return -1;
    fs_instance_commit_from_columns(t);
    copy_cell(t->region, sizeof t->region, r, cols, 8);
    copy_cell(t->as_of, sizeof t->as_of, r, cols, 9);
    copy_cell(t->source, sizeof t->source, r, cols, 10);
    if (number_cell(r, cols, 19, &t->network_gbps, 1, err))
        return -1;
    if (!isnan(t->network_gbps) && !(t->network_gbps > 0))
        return fs_error_at(err, path, line, cols->names[19],
                           "expected a bandwidth above 0 Gbps (or empty)");
    copy_cell(t->network_source, sizeof t->network_source, r, cols, 20);
    return 0;
}

static int load_instances(fs_catalog *c, const char *path, fs_error *err)
{
    static const char *const names[] = {
        "provider", "instance", "gpu", "gpus", "on_demand_usd_h",
        "spot_usd_h", "reserved_1y_usd_h", "reserved_3y_usd_h", "region",
        "as_of", "source",
        /* optional (11..): published upfront options, Savings Plans */
        "ri_1y_partial_usd_h", "ri_1y_partial_upfront_usd",
        "ri_1y_all_upfront_usd", "ri_3y_partial_usd_h",
        "ri_3y_partial_upfront_usd", "ri_3y_all_upfront_usd",
        "savings_plan_1y_discount", "savings_plan_3y_discount",
        /* optional (19..): the network between instances */
        "network_gbps", "network_source", NULL};
    columns cols = {names, 11, {0}};
    inst_ctx x = {c, &cols};
    return fs_catalog_load_file(path, find_columns, &cols, (void **)&c->inst,
                                &c->ninst, sizeof *c->inst, read_instance, &x,
                                err);
}

fs_catalog *fs_catalog_load(const char *gpus_csv, const char *instances_csv,
                            fs_error *err)
{
    fs_catalog *c = calloc(1, sizeof *c);
    if (!c) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    char commit[4096];
    const char *slash = strrchr(instances_csv, '/');
    snprintf(commit, sizeof commit, "%.*scommitments.csv",
             slash ? (int)(slash - instances_csv + 1) : 0, instances_csv);
    if (load_gpus(c, gpus_csv, err) ||
        load_instances(c, instances_csv, err) ||
        fs_catalog_load_commitments(c, commit, err))
        return FS_DISCARD(fs_catalog_free, c);
    return c;
}

void fs_catalog_free(fs_catalog *c)
{
    if (c)
        FS_FREE_ALL(c->gpus, c->inst, c->storage, c);
}

/* Builds the suggestion text from a NULL-terminated list of names. */
static void suggest(const char *name, const char **names, size_t n,
                    const char *what, char *buf, size_t len)
{
    names[n] = NULL;
    const char *near = fs_nearest_name(name, names);
    if (near) {
        snprintf(buf, len, "(did you mean '%s'? see `fleetsim catalog %s`)",
                 near, what);
        return;
    }
    size_t off = (size_t)snprintf(buf, len, "(known:");
    for (size_t i = 0; i < n && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, " %s", names[i]);
    if (off < len)
        snprintf(buf + off, len - off, ")");
}

void fs_catalog_suggest_rows(const char *name, const void *rows, size_t n,
                             size_t size, size_t name_off, const char *what,
                             char *buf, size_t len)
{
    const char **names = malloc((n + 1) * sizeof *names);
    if (!names) {
        snprintf(buf, len, "(see `fleetsim catalog %s`)", what);
        return;
    }
    for (size_t i = 0; i < n; i++)
        names[i] = (const char *)rows + i * size + name_off;
    suggest(name, names, n, what, buf, len);
    free(names);
}

void fs_catalog_suggest_gpu(const fs_catalog *c, const char *name, char *buf,
                            size_t len)
{
    fs_catalog_suggest_rows(name, c->gpus, c->ngpus, sizeof *c->gpus,
                            offsetof(fs_gpu, name), "gpus", buf, len);
}

void fs_catalog_suggest_instance(const fs_catalog *c, const char *name,
                                 char *buf, size_t len)
{
    const char **names = malloc((c->ninst + 1) * sizeof *names);
    char (*full)[96] = malloc((c->ninst + 1) * sizeof *full);
    if (!names || !full) {
        free(names);
        free(full);
        snprintf(buf, len, "(see `fleetsim catalog instances`)");
        return;
    }
    for (size_t i = 0; i < c->ninst; i++) {
        snprintf(full[i], sizeof full[i], "%s:%s", c->inst[i].provider,
                 c->inst[i].name);
        names[i] = full[i];
    }
    suggest(name, names, c->ninst, "instances", buf, len);
    free(names);
    free(full);
}

double fs_instance_price(const fs_instance_type *t, int column)
{
    switch (column) {
    case 0: return t->on_demand;
    case 1: return t->spot;
    case 2: return t->reserved_1y;
    case 3: return t->reserved_3y;
    }
    return NAN;
}

const fs_instance_type *fs_catalog_cheapest(const fs_catalog *c,
                                            const char *gpu, int gpus,
                                            int column)
{
    return fs_catalog_cheapest_at(c, NULL, gpu, gpus, column);
}

const fs_instance_type *fs_catalog_cheapest_at(const fs_catalog *c,
                                               const char *provider,
                                               const char *gpu, int gpus,
                                               int column)
{
    const fs_instance_type *best = NULL;
    int best_exact = 0;
    double best_per_gpu = INFINITY;
    for (size_t i = 0; i < c->ninst; i++) {
        const fs_instance_type *t = &c->inst[i];
        double p = fs_instance_price(t, column);
        if (strcasecmp(t->gpu, gpu) != 0 || isnan(p) ||
            (provider && strcasecmp(t->provider, provider) != 0))
            continue;
        int exact = gpus > 0 && t->gpus == gpus;
        double per_gpu = p / t->gpus;
        if ((exact && !best_exact) ||
            (exact == best_exact && per_gpu < best_per_gpu)) {
            best = t;
            best_exact = exact;
            best_per_gpu = per_gpu;
        }
    }
    return best;
}

/* Appends ", item" (or "item" first) to buf while it fits. */
static void list_add(char *buf, size_t len, size_t *off, const char *a,
                     const char *b)
{
    if (*off < len)
        *off += (size_t)snprintf(buf + *off, len - *off, "%s%s%s%s",
                                 *off ? ", " : "", a, b ? ":" : "",
                                 b ? b : "");
}

int fs_catalog_providers(const fs_catalog *c, const char *gpu, char *buf,
                         size_t len)
{
    int n = 0;
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < c->ninst; i++) {
        const fs_instance_type *t = &c->inst[i];
        if (strcasecmp(t->gpu, gpu) != 0)
            continue;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = strcasecmp(c->inst[k].gpu, gpu) == 0 &&
                   strcasecmp(c->inst[k].provider, t->provider) == 0;
        if (seen)
            continue;
        n++;
        list_add(buf, len, &off, t->provider, NULL);
    }
    return n;
}

int fs_catalog_sells(const fs_catalog *c, const char *provider,
                     const char *gpu)
{
    for (size_t i = 0; i < c->ninst; i++)
        if (strcasecmp(c->inst[i].gpu, gpu) == 0 &&
            strcasecmp(c->inst[i].provider, provider) == 0)
            return 1;
    return 0;
}

void fs_catalog_list_instances(const fs_catalog *c, const char *gpu,
                               char *buf, size_t len)
{
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (size_t i = 0; i < c->ninst; i++)
        if (strcasecmp(c->inst[i].gpu, gpu) == 0)
            list_add(buf, len, &off, c->inst[i].provider, c->inst[i].name);
}

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *fs_catalog_default_dir(void)
{
    const char *env = getenv("FLEETSIM_CATALOG");
    if (env && env[0])
        return env;
    if (is_dir(FS_CATALOG_DIR))
        return FS_CATALOG_DIR;
    return FS_SRC_CATALOG_DIR;
}
