/* scenario.c -- typed validation of a scenario; see scenario.h.
 *
 * The config is walked section by section: [scenario], pools
 * (scenario_pool.c), workloads, windows; then the checks that span
 * sections (scenario_check.c).  The keys each section kind accepts are
 * declared in keys.c; they are read with the typed readers of
 * scenario_read.c.  Nothing that
 * does not fit is cut: names, paths and values beyond their documented
 * bounds (scenario_limits.h) are refused with file:line:key. */
#include "sim/scenario/scenario_impl.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"
#include "traces/arrivals.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int parse_start(fs_reader *rd, fs_scenario *sc)
{
    fs_config_entry *e = fs_rd_entry(rd, "start");
    const char *v = e ? e->value : "2026-01-01";
    long long t;
    char why[256];
    if (fs_parse_utc_time(v, &t, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", "expected a date YYYY-MM-DD (UTC), "
                         "optionally followed by HH:MM");
    struct tm tm;
    time_t tt = (time_t)t;
    gmtime_r(&tt, &tm);
    sc->start = tt;
    snprintf(sc->start_date, sizeof sc->start_date, "%04d-%02d-%02d",
             (tm.tm_year + 1900) % 10000, (tm.tm_mon + 1) % 100,
             tm.tm_mday % 100);
    sc->start_hour = tm.tm_hour + tm.tm_min / 60.0;
    return 0;
}

/* name: the key, else the file name without directory and extension.  A
 * name that does not fit is refused, never cut. */
static int parse_name(fs_reader *rd, fs_scenario *sc)
{
    char why[128];
    fs_config_entry *e = fs_rd_entry(rd, "name");
    if (e) {
        if (fs_check_name(e->value, sizeof sc->name, why, sizeof why))
            return fs_rd_bad(rd, e, "%s", why);
        snprintf(sc->name, sizeof sc->name, "%s", e->value);
        return 0;
    }
    char tmp[sizeof sc->path];
    snprintf(tmp, sizeof tmp, "%s", sc->path);
    char *base = basename(tmp), *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = '\0';
    if (strlen(base) >= sizeof sc->name)
        return fs_error_set(rd->err, "%s: the file name gives a run name of "
                            "%zu bytes, at most %zu: set name = in "
                            "[scenario]", sc->path, strlen(base),
                            sizeof sc->name - 1);
    if (fs_check_name(base, sizeof sc->name, why, sizeof why))
        return fs_error_set(rd->err, "%s: the file name gives a run name "
                            "that %s: set name = in [scenario]", sc->path,
                            why);
    snprintf(sc->name, sizeof sc->name, "%s", base);
    return 0;
}

static int parse_scenario_section(fs_scenario *sc, fs_error *err,
                                  char *gpus_csv, char *inst_csv, size_t len)
{
    fs_reader rd = {sc->cfg, "scenario", err};
    long seed;
    if (fs_rd_check_keys(&rd, FS_SECTION_SCENARIO) || parse_name(&rd, sc) ||
        parse_start(&rd, sc) ||
        fs_rd_double(&rd, "horizon", fs_parse_duration, 30 * 86400.0,
                     &sc->horizon_s) ||
        fs_rd_count(&rd, "seed", 1, 0, LONG_MAX, &seed) ||
        fs_rd_count(&rd, "replications", 1, 1, FS_MAX_REPLICATIONS,
                    &sc->replications) ||
        fs_rd_double(&rd, "metrics_interval", fs_parse_duration, 300,
                     &sc->metrics_interval) ||
        fs_rd_double(&rd, "warmup", fs_parse_duration, 0, &sc->warmup_s) ||
        fs_scenario_parse_timezone(&rd, sc) ||
        fs_scenario_parse_budgets(&rd, sc))
        return -1;
    sc->seed = (unsigned long)seed;
    if (sc->horizon_s <= 0)
        return fs_rd_bad(&rd, fs_rd_entry(&rd, "horizon"), "%s",
                         "must be longer than 0s");
    if (!(sc->warmup_s >= 0 && sc->warmup_s < sc->horizon_s)) {
        char why[160], h[32];
        fs_format_duration(sc->horizon_s, h, sizeof h);
        snprintf(why, sizeof why, "must be at least 0s and shorter than the "
                 "horizon (%s)", h);
        return fs_rd_bad(&rd, fs_rd_entry(&rd, "warmup"), "%s", why);
    }
    if (sc->metrics_interval <= 0)
        return fs_rd_bad(&rd, fs_rd_entry(&rd, "metrics_interval"), "%s",
                         "must be longer than 0s");
    fs_config_entry *e;
    const char *dir = fs_catalog_default_dir();
    char dirbuf[2200];
    e = fs_rd_entry(&rd, "catalog");
    if (e) {
        if (e->value[0] == '/' || e->line == 0)
            snprintf(dirbuf, sizeof dirbuf, "%s", e->value);
        else
            snprintf(dirbuf, sizeof dirbuf, "%s/%s",
                     fs_config_entry_dir(e, sc->dir), e->value);
        dir = dirbuf;
    }
    snprintf(gpus_csv, len, "%s/gpus.csv", dir);
    snprintf(inst_csv, len, "%s/instances.csv", dir);
    const char *keys[2] = {"catalog_gpus", "catalog_instances"};
    char *outs[2] = {gpus_csv, inst_csv};
    for (int i = 0; i < 2; i++) {
        fs_config_entry *k = fs_rd_entry(&rd, keys[i]);
        if (k && (k->value[0] == '/' || k->line == 0))
            snprintf(outs[i], len, "%s", k->value);
        else if (k)
            snprintf(outs[i], len, "%s/%s",
                     fs_config_entry_dir(k, sc->dir), k->value);
        /* a file the scenario names and cannot be read: its key says so */
        fs_config_entry *by = k ? k : e;
        if (by && access(outs[i], R_OK) != 0) {
            char why[4400];
            snprintf(why, sizeof why, "cannot read %s: %s", outs[i],
                     strerror(errno));
            return fs_rd_bad(&rd, by, "%s", why);
        }
    }
    return 0;
}

static int parse_pools_list(fs_reader *rd, fs_scenario *sc,
                            fs_workload_conf *w)
{
    fs_config_entry *e = fs_rd_entry(rd, "pools");
    if (!e)
        return fs_rd_missing(rd, "pools (the pools that serve it, in "
                             "preference order)");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        int idx = FS_NAME_INDEX(fs_pool_conf, sc->pools, sc->npools, tok);
        char why[512];
        if (idx < 0) {
            const char **names = malloc((sc->npools + 1) * sizeof *names);
            const char *near = NULL;
            if (names) {
                for (size_t i = 0; i < sc->npools; i++)
                    names[i] = sc->pools[i].name;
                names[sc->npools] = NULL;
                near = fs_nearest_name(tok, names);
            }
            free(names);
            if (near)
                snprintf(why, sizeof why, "no pool named '%s' (did you mean "
                         "'%s'?)", tok, near);
            else
                snprintf(why, sizeof why, "no pool named '%s' (define "
                         "[pool.%s])", tok, tok);
            return fs_rd_bad(rd, e, "%s", why);
        }
        for (int i = 0; i < w->npools; i++)
            if (w->pools[i] == idx)
                return fs_rd_bad(rd, e, "%s", "lists a pool twice");
        if (w->npools == FS_MAX_POOLS_PER_WORKLOAD)
            return fs_rd_bad(rd, e, "%s", "too many pools (at most 8)");
        w->pools[w->npools++] = idx;
    }
    if (w->npools == 0)
        return fs_rd_bad(rd, e, "%s", "names no pool");
    return 0;
}

/* An inference or batch workload's queueing keys: its pools, batching,
 * rate scale and growth, queue bound, tags, MIG profile, SLO. */
static int parse_queueing(fs_reader *rd, fs_scenario *sc, fs_workload_conf *w)
{
    static const char *const bad_rows[] = {"fail", "skip", NULL};
    int br;
    if (parse_pools_list(rd, sc, w) ||
        fs_scenario_check_pool_kinds(rd, sc, w) ||
        fs_rd_count(rd, "batch_max", 1, 1, FS_MAX_BATCH, &w->batch_max) ||
        fs_rd_double(rd, "batch_wait", fs_parse_duration, 0,
                     &w->batch_wait) ||
        fs_rd_double(rd, "rate_scale", fs_parse_number, 1,
                     &w->rate_scale) ||
        fs_rd_bool(rd, "repeat", 0, &w->repeat) ||
        fs_rd_choice(rd, "bad_rows", bad_rows, 0, &br) ||
        fs_rd_count(rd, "queue_max", FS_QUEUE_MAX, 1, FS_QUEUE_MAX,
                    &w->queue_max) ||
        fs_rd_tags(rd, w->tags) || fs_scenario_parse_mig_profile(rd, sc, w))
        return -1;
    w->bad_rows = (fs_bad_rows)br;
    fs_config_entry *e = fs_rd_entry(rd, "rate_scale");
    char why[1600];
    if (w->rate_scale <= 0)
        return fs_rd_bad(rd, e, "%s", "must be above 0");
    if (w->rate_scale > FS_MAX_RATE_SCALE) {
        snprintf(why, sizeof why, "must be at most %g, got '%s'",
                 FS_MAX_RATE_SCALE, e->value);
        return fs_rd_bad(rd, e, "%s", why);
    }
    if (fs_scenario_parse_growth(rd, w))
        return -1;
    e = fs_rd_entry(rd, "slo_p99");
    w->slo_s = NAN;
    if (e && fs_parse_duration(e->value, &w->slo_s, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    /* every request would miss an objective of 0s (as slo_ttft) */
    if (e && !(w->slo_s > 0))
        return fs_rd_bad(rd, e, "%s", "must be longer than 0s");
    return 0;
}

/* Its arrivals and its service model (with an LLM's keys, when the
 * service is llm(...)). */
static int parse_arrivals_service(fs_reader *rd, fs_scenario *sc,
                                  fs_workload_conf *w)
{
    char why[1600];
    fs_config_entry *e = fs_rd_entry(rd, "arrivals");
    if (!e)
        return fs_rd_missing(rd, "arrivals (poisson(rate=..), "
                             "diurnal(..), mmpp(..) or trace(path, "
                             "format=..))");
    if (fs_parse_call(e->value, &w->arrivals, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    w->arrivals_entry = e;

    e = fs_rd_entry(rd, "service");
    if (!e)
        return fs_rd_missing(rd, "service (const(..), "
                             "exponential(mean=..), lognormal(..), "
                             "linear(base=.., per_item=..) or trace)");
    fs_call sc_call;
    if (fs_parse_call(e->value, &sc_call, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (fs_service_parse_in(&sc_call, fs_config_entry_dir(e, sc->dir),
                            &w->service, why,
                            sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    w->service_from_trace = w->service.model->reads_trace_service;
    if (fs_scenario_parse_llm(rd, sc, w, e) ||
        fs_scenario_llm_engine(rd, sc, w, e) ||
        fs_scenario_parse_prefix(rd, w) || fs_scenario_parse_spec(rd, sc, w) ||
        fs_scenario_parse_adapters(rd, w) ||
        fs_scenario_parse_weights(rd, sc, w))
        return -1;
    return 0;
}

/* Service times are stated for the reference GPU (default: the GPU of
 * the first pool) and scaled on others by dense bf16 throughput. */
static int parse_reference_gpu(fs_reader *rd, fs_scenario *sc,
                               fs_workload_conf *w)
{
    fs_config_entry *e = fs_rd_entry(rd, "reference_gpu");
    if (!e) {
        w->reference_gpu = sc->pools[w->pools[0]].gpu;
        return 0;
    }
    const fs_gpu *g = fs_catalog_gpu(sc->catalog, e->value);
    if (!g) {
        char hint[1024], why[1600];
        fs_catalog_suggest_gpu(sc->catalog, e->value, hint, sizeof hint);
        snprintf(why, sizeof why, "unknown GPU '%s' %s", e->value, hint);
        return fs_rd_bad(rd, e, "%s", why);
    }
    w->reference_gpu = *g;
    return 0;
}

static int parse_workload(fs_scenario *sc, const char *section,
                          fs_workload_conf *w, fs_error *err)
{
    static const char *const kinds[] = {"inference", "batch", "training",
                                        NULL};
    fs_reader rd = {sc->cfg, section, err};
    memset(w, 0, sizeof *w);
    snprintf(w->section, sizeof w->section, "%s", section);
    snprintf(w->name, sizeof w->name, "%s", section + 9);
    if (fs_rd_check_keys(&rd, FS_SECTION_WORKLOAD))
        return -1;
    int kind;
    if (fs_rd_choice(&rd, "kind", kinds, 0, &kind))
        return -1;
    w->kind = (fs_workload_kind)kind;
    if (kind == FS_KIND_TRAINING) {
        if (parse_pools_list(&rd, sc, w) || fs_rd_tags(&rd, w->tags) ||
            fs_scenario_parse_mig_profile(&rd, sc, w))
            return -1;
        int rc = fs_scenario_parse_training(&rd, sc, w);
        if (rc)
            fs_jobs_free(&w->training.jobs);
        return rc;
    }
    if (fs_scenario_refuse_keys(&rd, 0) || parse_queueing(&rd, sc, w) ||
        parse_arrivals_service(&rd, sc, w))
        return -1;
    return parse_reference_gpu(&rd, sc, w);
}

/* Sections in order of first appearance, by kind. */
static int collect_sections(fs_scenario *sc, const char *prefix,
                            const char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t plen = strlen(prefix), cap = 0;
    for (size_t i = 0; i < sc->cfg->nsections; i++) {
        const char *s = sc->cfg->sections[i].name;
        if (strncmp(s, prefix, plen) != 0)
            continue;
        const char **a = fs_vec_grow(*out, &cap, *n + 1, sizeof *a);
        if (!a)
            return -1;
        *out = a;
        (*out)[(*n)++] = s;
    }
    return 0;
}

/* The section kinds are keys.c's; every section but [scenario] is
 * KIND.NAME. */
static int check_section_names(fs_scenario *sc, fs_error *err)
{
    const char *bare[FS_SECTIONS + 1];
    for (int k = 0; k <= FS_SECTIONS; k++)
        bare[k] = fs_key_sections[k].name;
    for (size_t i = 0; i < sc->cfg->n; i++) {
        const fs_config_entry *e = &sc->cfg->e[i];
        const char *s = e->section;
        if (strcmp(s, "scenario") == 0)
            continue;
        const char *dot = strchr(s, '.');
        size_t plen = dot ? (size_t)(dot - s) : strlen(s);
        int known = 0;
        for (int k = 0; bare[k]; k++)
            known |= k != FS_SECTION_SCENARIO && strlen(bare[k]) == plen &&
                     strncmp(bare[k], s, plen) == 0;
        char why[128];
        if (known && dot && dot[1] &&
            fs_check_name(dot + 1, FS_NAME_MAX, why, sizeof why) == 0) {
            /* a pool is named in lists (pools = a, b) and a window by
             * schedule =: a comma or a space could never name them */
            if ((plen == 4 && strncmp(s, "pool", 4) == 0) ||
                (plen == 6 && strncmp(s, "window", 6) == 0))
                for (const char *c = dot + 1; *c; c++)
                    if (*c == ',' || isspace((unsigned char)*c))
                        return fs_error_at(err, e->file, e->line, s,
                                           "the name '%s' holds a %s, so "
                                           "no key could name it: use "
                                           "letters, digits, - and _",
                                           dot + 1, *c == ',' ? "comma"
                                                              : "space");
            continue;
        }
        if (known && dot && dot[1])
            return fs_error_at(err, e->file, e->line, s, "the name %s",
                               why);
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(plen < 63 ? plen : 63), s);
        if (strcmp(word, "scenario") == 0)
            return fs_error_at(err, e->file, e->line, s, "%s",
                               "[scenario] takes no name");
        const char *near = fs_nearest_name(word, bare);
        if (known)
            return fs_error_at(err, e->file, e->line, s,
                               "section needs a name of 1 to %d characters, "
                               "e.g. [%s.a100]", FS_NAME_MAX - 1, word);
        char kinds[128];
        size_t n = 0;
        for (int k = 0; bare[k] && n < sizeof kinds; k++)
            n += (size_t)snprintf(kinds + n, sizeof kinds - n, "%s%s",
                                  k ? ", " : "", fs_key_sections[k].header);
        return fs_error_at(err, e->file, e->line, s,
                           "unknown section kind '%s' (%s%s%s; sections are "
                           "%s)", word,
                           near ? "did you mean '" : "no close match",
                           near ? near : "", near ? "'?" : "", kinds);
    }
    return 0;
}

/* A section's parser: fills *out from section NAME; -1 with the message. */
typedef int (*section_fn)(fs_scenario *sc, const char *name, void *out,
                          fs_error *err);

static int pool_section(fs_scenario *sc, const char *name, void *out,
                        fs_error *err)
{
    return fs_scenario_parse_pool(sc, name, out, err);
}

static int workload_section(fs_scenario *sc, const char *name, void *out,
                            fs_error *err)
{
    return parse_workload(sc, name, out, err);
}

static int window_section(fs_scenario *sc, const char *name, void *out,
                          fs_error *err)
{
    return fs_scenario_parse_window(sc, name, out, err);
}

/* The sections PREFIX.NAME, in order of first appearance, each parsed
 * into a new array of them (*arr); *count counts those parsed, so that
 * fs_scenario_free frees exactly those. */
static int load_sections(fs_scenario *sc, const char *prefix, void **arr,
                         size_t *count, size_t size, section_fn parse,
                         fs_error *err)
{
    const char **names = NULL;
    size_t n = 0;
    if (collect_sections(sc, prefix, &names, &n) ||
        !(*arr = calloc(n ? n : 1, size))) {
        free(names);
        return fs_error_set(err, "out of memory");
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if ((rc = parse(sc, names[i], (char *)*arr + i * size, err)) == 0)
            ++*count;
    free(names);
    return rc ? -1 : 0;
}

/* Pools (then spot fallbacks linked), workloads (at least one), windows
 * (resolved against the pools). */
static int load_parts(fs_scenario *sc, fs_error *err)
{
    if (load_sections(sc, "pool.", (void **)&sc->pools, &sc->npools,
                      sizeof *sc->pools, pool_section, err) ||
        fs_scenario_link_spot(sc, err) ||
        load_sections(sc, "workload.", (void **)&sc->workloads,
                      &sc->nworkloads, sizeof *sc->workloads,
                      workload_section, err))
        return -1;
    if (sc->nworkloads == 0)
        return fs_error_set(err, "%s: no [workload.NAME] section: nothing "
                            "to simulate", sc->path);
    if (fs_scenario_check_load(sc, err))
        return -1;
    if (load_sections(sc, "window.", (void **)&sc->windows, &sc->nwindows,
                      sizeof *sc->windows, window_section, err))
        return -1;
    return fs_scenario_resolve_windows(sc, err);
}

/* The file (with its includes and the --set lines), its section names
 * and [scenario] section, and the catalog it names. */
static int load_config(fs_scenario *sc, const char *path, char *const *sets,
                       int nsets, fs_error *err)
{
    if (strlen(path) >= sizeof sc->path)
        return fs_error_set(err, "%.64s...: path too long (%zu bytes; at "
                            "most %zu)", path, strlen(path),
                            sizeof sc->path - 1);
    snprintf(sc->path, sizeof sc->path, "%s", path);
    char tmp[sizeof sc->path];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(sc->dir, sizeof sc->dir, "%s", dirname(tmp));
    sc->cfg = fs_config_load(path, err);
    if (!sc->cfg)
        return -1;
    for (int i = 0; i < nsets; i++)
        if (fs_config_set(sc->cfg, sets[i], err))
            return -1;
    char gpus_csv[4096], inst_csv[4096];
    if (check_section_names(sc, err) ||
        parse_scenario_section(sc, err, gpus_csv, inst_csv, sizeof gpus_csv))
        return -1;
    sc->catalog = fs_catalog_load(gpus_csv, inst_csv, err);
    if (!sc->catalog)
        return -1;
    /* the published storage and transfer prices, beside instances.csv */
    char storage[4200];
    const char *slash = strrchr(inst_csv, '/');
    snprintf(storage, sizeof storage, "%.*sstorage.csv",
             slash ? (int)(slash - inst_csv + 1) : 0, inst_csv);
    if (fs_catalog_load_storage(sc->catalog, storage, err))
        return -1;
    fs_scenario_llm_catalog_path(sc, gpus_csv);
    fs_scenario_mig_path(sc, gpus_csv);
    return 0;
}

fs_scenario *fs_scenario_load(const char *path, char *const *sets, int nsets,
                              fs_error *err)
{
    fs_scenario *sc = calloc(1, sizeof *sc);
    if (!sc) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    if (load_config(sc, path, sets, nsets, err) || load_parts(sc, err) ||
        fs_scenario_check_limits(sc, err))
        return FS_DISCARD(fs_scenario_free, sc);
    if (fs_scenario_warn_unused_pools(sc)) {
        fs_error_set(err, "out of memory");
        return FS_DISCARD(fs_scenario_free, sc);
    }
    return sc;
}

void fs_scenario_free(fs_scenario *sc)
{
    if (!sc)
        return;
    for (size_t i = 0; i < sc->npools; i++) {
        fs_interruption_free(&sc->pools[i].spot.interruption);
        fs_dist_free(&sc->pools[i].spot.replace_delay);
    }
    for (size_t i = 0; sc->pools && i < sc->npools; i++)
        fs_llm_engines_free(sc->pools[i].llm_profile);
    free(sc->pools);
    for (size_t i = 0; sc->workloads && i < sc->nworkloads; i++) {
        fs_jobs_free(&sc->workloads[i].training.jobs);
        fs_service_free(&sc->workloads[i].service);
    }
    free(sc->workloads);
    free(sc->windows);
    free(sc->warnings);
    fs_catalog_free(sc->catalog);
    fs_llm_catalog_free(sc->llm_models);
    fs_llm_catalog_free(sc->llm_user_models);
    fs_llm_engines_free(sc->llm_engines);
    fs_mig_free(sc->mig);
    fs_config_free(sc->cfg);
    free(sc);
}
