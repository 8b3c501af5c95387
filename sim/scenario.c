/* scenario.c -- typed validation of a scenario; see scenario.h.
 *
 * The config is walked section by section.  Each section kind has the list
 * of keys it accepts; a key outside it is refused with the nearest known
 * name, and keys that belong to features of later versions (spot, MIG, LLM
 * models, training) are refused with a message that says so, rather than
 * being silently ignored. */
#include "scenario.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Where a section's keys are read from, for messages. */
typedef struct reader {
    fs_config *cfg;
    const char *section;
    fs_error *err;
} reader;

static const char *const scenario_keys[] = {
    "name", "start", "horizon", "seed", "replications", "metrics_interval",
    "catalog", "catalog_gpus", "catalog_instances", "description", NULL};
static const char *const pool_keys[] = {
    "gpu", "instance", "gpus_per_instance", "gpus_per_server", "pricing",
    "count", "min", "max", "autoscale", "autoscale_interval", "cooldown",
    "provision_delay", "price", "term", "upfront", "upfront_price",
    "min_billed", "description", NULL};
static const char *const workload_keys[] = {
    "kind", "pools", "arrivals", "service", "batch_max", "batch_wait",
    "slo_p99", "rate_scale", "repeat", "bad_rows", "queue_max",
    "reference_gpu", "description",
    "statuses",   /* traces: checked where the trace is opened (arrivals.c) */
    NULL};
static const char *const window_keys[] = {"every", "open", "duration",
                                          "description", NULL};
/* Keys of the contract that later versions implement. */
static const char *const later_keys[] = {
    "interruption", "notice", "replace_delay", "fallback", "mig", "schedule",
    "model", "precision", "tokens_in", "tokens_out", "jobs",
    "checkpoint_interval", "checkpoint_cost", "restore_cost", "window",
    NULL};

static fs_config_entry *entry_of(reader *rd, const char *key)
{
    fs_config_entry *e = fs_config_find(rd->cfg, rd->section, key);
    if (e)
        e->used = 1;
    return e;
}

/* "file:line: section.key: " message for entry e. */
static int bad(reader *rd, const fs_config_entry *e, const char *fmt,
               const char *why)
{
    char key[256];
    snprintf(key, sizeof key, "%s.%s", rd->section, e->key);
    return fs_error_at(rd->err, e->file, e->line, key, fmt, why);
}

/* Line of the first key of the section, for "missing key" messages. */
static const fs_config_entry *first_entry(reader *rd)
{
    for (size_t i = 0; i < rd->cfg->n; i++)
        if (strcmp(rd->cfg->e[i].section, rd->section) == 0)
            return &rd->cfg->e[i];
    return NULL;
}

static int missing(reader *rd, const char *what)
{
    const fs_config_entry *e = first_entry(rd);
    return fs_error_at(rd->err, e ? e->file : NULL, e ? e->line : 0,
                       rd->section, "missing %s", what);
}

typedef int (*parse_fn)(const char *, double *, char *, size_t);

static int get_double(reader *rd, const char *key, parse_fn parse,
                      double def, double *out)
{
    fs_config_entry *e = entry_of(rd, key);
    char why[256];
    if (!e) {
        *out = def;
        return 0;
    }
    if (parse(e->value, out, why, sizeof why))
        return bad(rd, e, "%s", why);
    return 0;
}

static int get_count(reader *rd, const char *key, long def, long min,
                     long *out)
{
    fs_config_entry *e = entry_of(rd, key);
    char why[256];
    if (!e) {
        *out = def;
        return 0;
    }
    if (fs_parse_count(e->value, out, why, sizeof why))
        return bad(rd, e, "%s", why);
    if (*out < min) {
        snprintf(why, sizeof why, "must be at least %ld, got %ld", min, *out);
        return bad(rd, e, "%s", why);
    }
    return 0;
}

static int get_bool(reader *rd, const char *key, int def, int *out)
{
    fs_config_entry *e = entry_of(rd, key);
    char why[256];
    if (!e) {
        *out = def;
        return 0;
    }
    if (fs_parse_bool(e->value, out, why, sizeof why))
        return bad(rd, e, "%s", why);
    return 0;
}

/* One of a fixed set of words; *out is its index. */
static int get_choice(reader *rd, const char *key, const char *const *words,
                      int def, int *out)
{
    fs_config_entry *e = entry_of(rd, key);
    if (!e) {
        *out = def;
        return 0;
    }
    for (int i = 0; words[i]; i++)
        if (strcasecmp(e->value, words[i]) == 0) {
            *out = i;
            return 0;
        }
    char why[256];
    size_t n = (size_t)snprintf(why, sizeof why, "'%s' is not one of",
                                e->value);
    for (int i = 0; words[i] && n < sizeof why; i++)
        n += (size_t)snprintf(why + n, sizeof why - n, "%s %s",
                              i ? "," : "", words[i]);
    return bad(rd, e, "%s", why);
}

static int check_keys(reader *rd, const char *const *allowed)
{
    for (size_t i = 0; i < rd->cfg->n; i++) {
        fs_config_entry *e = &rd->cfg->e[i];
        if (strcmp(e->section, rd->section) != 0)
            continue;
        int ok = 0;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = strcmp(*a, e->key) == 0;
        if (ok)
            continue;
        for (const char *const *l = later_keys; *l; l++)
            if (strcmp(*l, e->key) == 0)
                return bad(rd, e, "%s", "is part of the contract but not "
                           "implemented in this version of fleetsim (spot, "
                           "MIG, LLM models, training and windows come "
                           "later)");
        const char *near = fs_nearest_name(e->key, allowed);
        char why[256];
        if (near)
            snprintf(why, sizeof why, "unknown key (did you mean '%s'?)",
                     near);
        else
            snprintf(why, sizeof why, "unknown key (see `fleetsim help "
                     "scenario`)");
        return bad(rd, e, "%s", why);
    }
    return 0;
}

static int parse_start(reader *rd, fs_scenario *sc)
{
    fs_config_entry *e = entry_of(rd, "start");
    const char *v = e ? e->value : "2026-01-01";
    int y, m, d, hh = 0, mm = 0, n = 0;
    struct tm tm = {0};
    if ((sscanf(v, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && v[n] == '\0') ||
        (sscanf(v, "%4d-%2d-%2d %2d:%2d%n", &y, &m, &d, &hh, &mm, &n) == 5 &&
         v[n] == '\0')) {
        tm.tm_year = y - 1900;
        tm.tm_mon = m - 1;
        tm.tm_mday = d;
        tm.tm_hour = hh;
        tm.tm_min = mm;
        time_t t = timegm(&tm);
        struct tm back;
        gmtime_r(&t, &back);
        if (back.tm_year == y - 1900 && back.tm_mon == m - 1 &&
            back.tm_mday == d && hh < 24 && mm < 60 && y >= 1970) {
            sc->start = t;
            snprintf(sc->start_date, sizeof sc->start_date, "%04d-%02d-%02d",
                     y % 10000, m % 100, d % 100);
            sc->start_hour = hh + mm / 60.0;
            return 0;
        }
    }
    return bad(rd, e, "%s", "expected a date YYYY-MM-DD (UTC), optionally "
               "followed by HH:MM");
}

static int parse_scenario_section(fs_scenario *sc, fs_error *err,
                                  char *gpus_csv, char *inst_csv, size_t len)
{
    reader rd = {sc->cfg, "scenario", err};
    if (check_keys(&rd, scenario_keys))
        return -1;
    fs_config_entry *e = entry_of(&rd, "name");
    if (e)
        snprintf(sc->name, sizeof sc->name, "%s", e->value);
    long seed;
    if (parse_start(&rd, sc) ||
        get_double(&rd, "horizon", fs_parse_duration, 30 * 86400.0,
                   &sc->horizon_s) ||
        get_count(&rd, "seed", 1, 0, &seed) ||
        get_count(&rd, "replications", 1, 1, &sc->replications) ||
        get_double(&rd, "metrics_interval", fs_parse_duration, 300,
                   &sc->metrics_interval))
        return -1;
    sc->seed = (unsigned long)seed;
    if (sc->horizon_s <= 0)
        return bad(&rd, entry_of(&rd, "horizon"), "%s",
                   "must be longer than 0s");
    if (sc->metrics_interval <= 0)
        return bad(&rd, entry_of(&rd, "metrics_interval"), "%s",
                   "must be longer than 0s");
    if (sc->horizon_s / sc->metrics_interval > 5e6)
        return bad(&rd, entry_of(&rd, "metrics_interval") ? entry_of(&rd,
                   "metrics_interval") : entry_of(&rd, "horizon"), "%s",
                   "too fine for this horizon (more than 5 million samples "
                   "per pool)");
    const char *dir = fs_catalog_default_dir();
    char dirbuf[2200];
    e = entry_of(&rd, "catalog");
    if (e) {
        if (e->value[0] == '/' || e->line == 0)
            snprintf(dirbuf, sizeof dirbuf, "%s", e->value);
        else
            snprintf(dirbuf, sizeof dirbuf, "%s/%s", sc->dir, e->value);
        dir = dirbuf;
    }
    snprintf(gpus_csv, len, "%s/gpus.csv", dir);
    snprintf(inst_csv, len, "%s/instances.csv", dir);
    const char *keys[2] = {"catalog_gpus", "catalog_instances"};
    char *outs[2] = {gpus_csv, inst_csv};
    for (int i = 0; i < 2; i++) {
        e = entry_of(&rd, keys[i]);
        if (!e)
            continue;
        if (e->value[0] == '/' || e->line == 0)
            snprintf(outs[i], len, "%s", e->value);
        else
            snprintf(outs[i], len, "%s/%s", sc->dir, e->value);
    }
    return 0;
}

/* Prices a pool from its `price` key or the catalog. */
static int price_pool(reader *rd, fs_scenario *sc, fs_pool_conf *p,
                      const fs_instance_type *it)
{
    fs_config_entry *pe = entry_of(rd, "price");
    fs_config_entry *ue = entry_of(rd, "upfront_price");
    char why[256];
    if (ue && fs_parse_money(ue->value, &p->upfront_price, why, sizeof why))
        return bad(rd, ue, "%s", why);
    if (ue && p->pricing != FS_PRICING_RESERVED)
        return bad(rd, ue, "%s", "applies to reserved pools only");
    if (pe) {
        if (fs_parse_money(pe->value, &p->price, why, sizeof why))
            return bad(rd, pe, "%s", why);
        snprintf(p->price_source, sizeof p->price_source, "price key");
        if (p->pricing == FS_PRICING_RESERVED && p->upfront != FS_UPFRONT_NONE
            && !ue)
            return missing(rd, "upfront_price (with `price` set and upfront "
                           "= partial or all, give the upfront payment per "
                           "instance for the term)");
        return 0;
    }
    int column = p->pricing == FS_PRICING_ON_DEMAND ? 0
               : p->pricing == FS_PRICING_SPOT      ? 1
               : p->term_months == 36               ? 3
                                                    : 2;
    if (!it)
        it = fs_catalog_cheapest(sc->catalog, p->gpu.name,
                                 (int)p->gpus_per_instance, column);
    double rate = it ? fs_instance_price(it, column) : NAN;
    if (isnan(rate)) {
        static const char *const cols[] = {"on-demand", "spot",
                                           "1-year reserved",
                                           "3-year reserved"};
        char what[256];
        snprintf(what, sizeof what, "price (the catalog has no %s price for "
                 "%s; set price = $ per instance-hour)", cols[column],
                 it ? it->name : p->gpu.name);
        return missing(rd, what);
    }
    /* Scale a catalog instance to the pool's GPUs per instance. */
    if (it->gpus != p->gpus_per_instance)
        rate = rate / it->gpus * (double)p->gpus_per_instance;
    snprintf(p->price_source, sizeof p->price_source, "catalog %s:%s%s",
             it->provider, it->name,
             it->gpus != p->gpus_per_instance ? " (per GPU)" : "");
    if (p->pricing == FS_PRICING_RESERVED && !ue) {
        /* The catalog's reserved rate is the effective no-upfront hourly
         * rate; partial pays half of the term's cost up front, all pays
         * all of it (see README: an approximation; say upfront_price). */
        double term_cost = rate * 24 * 365 * p->term_months / 12.0;
        if (p->upfront == FS_UPFRONT_PARTIAL) {
            p->upfront_price = term_cost / 2;
            rate /= 2;
        } else if (p->upfront == FS_UPFRONT_ALL) {
            p->upfront_price = term_cost;
            rate = 0;
        }
    }
    p->price = rate;
    return 0;
}

static int parse_pool(fs_scenario *sc, const char *section, fs_pool_conf *p,
                      fs_error *err)
{
    static const char *const pricings[] = {"on-demand", "reserved", "spot",
                                           NULL};
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const upfronts[] = {"none", "partial", "all", NULL};
    reader rd = {sc->cfg, section, err};
    memset(p, 0, sizeof *p);
    snprintf(p->section, sizeof p->section, "%s", section);
    snprintf(p->name, sizeof p->name, "%s", section + 5);
    if (check_keys(&rd, pool_keys))
        return -1;
    int pricing, term, upfront;
    if (get_choice(&rd, "pricing", pricings, 0, &pricing) ||
        get_choice(&rd, "term", terms, 0, &term) ||
        get_choice(&rd, "upfront", upfronts, 0, &upfront))
        return -1;
    p->pricing = (fs_pricing)pricing;
    p->term_months = term ? 36 : 12;
    p->upfront = (fs_upfront)upfront;
    if (p->pricing == FS_PRICING_SPOT)
        return bad(&rd, entry_of(&rd, "pricing"), "%s",
                   "spot pools are not implemented in this version of "
                   "fleetsim (on-demand and reserved are)");
    if (p->pricing != FS_PRICING_RESERVED) {
        const char *rk[] = {"term", "upfront"};
        for (int i = 0; i < 2; i++) {
            fs_config_entry *e = fs_config_find(sc->cfg, section, rk[i]);
            if (e)
                return bad(&rd, e, "%s", "applies to reserved pools only");
        }
    }

    /* GPU and instance type. */
    fs_config_entry *ge = entry_of(&rd, "gpu");
    fs_config_entry *ie = entry_of(&rd, "instance");
    const fs_instance_type *it = NULL;
    char hint[1024];
    if (ie) {
        it = fs_catalog_instance(sc->catalog, ie->value);
        if (!it) {
            fs_catalog_suggest_instance(sc->catalog, ie->value, hint,
                                        sizeof hint);
            char why[1200];
            snprintf(why, sizeof why, "unknown instance type '%s' %s",
                     ie->value, hint);
            return bad(&rd, ie, "%s", why);
        }
        snprintf(p->instance, sizeof p->instance, "%s:%s", it->provider,
                 it->name);
    }
    if (ge) {
        const fs_gpu *g = fs_catalog_gpu(sc->catalog, ge->value);
        if (!g) {
            fs_catalog_suggest_gpu(sc->catalog, ge->value, hint, sizeof hint);
            char why[1200];
            snprintf(why, sizeof why, "unknown GPU '%s' %s", ge->value, hint);
            return bad(&rd, ge, "%s", why);
        }
        if (it && strcasecmp(it->gpu, g->name) != 0) {
            char why[256];
            snprintf(why, sizeof why, "%s has %s GPUs, not %s", p->instance,
                     it->gpu, g->name);
            return bad(&rd, ge, "%s", why);
        }
        p->gpu = *g;
    } else if (it) {
        p->gpu = *fs_catalog_gpu(sc->catalog, it->gpu);
    } else {
        return missing(&rd, "gpu (a catalog GPU such as A100-80GB) or "
                       "instance (such as aws:p4d.24xlarge)");
    }
    if (get_count(&rd, "gpus_per_instance", it ? it->gpus : 1, 1,
                  &p->gpus_per_instance) ||
        get_count(&rd, "gpus_per_server", 1, 1, &p->gpus_per_server))
        return -1;
    if (p->gpus_per_instance % p->gpus_per_server) {
        char why[256];
        snprintf(why, sizeof why, "%ld GPUs per instance cannot be split into "
                 "servers of %ld GPUs", p->gpus_per_instance,
                 p->gpus_per_server);
        return bad(&rd, entry_of(&rd, "gpus_per_server"), "%s", why);
    }

    /* Size: a fixed count, or autoscaled between min and max. */
    fs_config_entry *ce = entry_of(&rd, "count");
    fs_config_entry *ae = entry_of(&rd, "autoscale");
    if (get_count(&rd, "count", 1, 0, &p->count) ||
        get_double(&rd, "autoscale_interval", fs_parse_duration, 60,
                   &p->scale_interval) ||
        get_double(&rd, "cooldown", fs_parse_duration, 300, &p->cooldown) ||
        get_double(&rd, "provision_delay", fs_parse_duration, 180,
                   &p->provision_delay) ||
        get_double(&rd, "min_billed", fs_parse_duration, 60,
                   &p->min_billed_s))
        return -1;
    if (ae) {
        if (p->pricing == FS_PRICING_RESERVED)
            return bad(&rd, ae, "%s", "reserved pools have a fixed count; "
                       "autoscale an on-demand pool beside them");
        if (ce)
            return bad(&rd, ce, "%s", "give either count (fixed size) or "
                       "autoscale with min and max, not both");
        fs_call c;
        char why[256];
        static const char *const k[] = {"target", NULL};
        if (fs_parse_call(ae->value, &c, why, sizeof why) ||
            fs_call_check_keys(&c, k, why, sizeof why))
            return bad(&rd, ae, "%s", why);
        const char *t = fs_call_get(&c, "target");
        if (!t)
            t = fs_call_positional(&c, 0);
        if (strcmp(c.name, "utilization") == 0) {
            p->scale = FS_SCALE_UTILIZATION;
            if (!t || fs_parse_fraction(t, &p->scale_target, why, sizeof why)
                || p->scale_target <= 0)
                return bad(&rd, ae, "%s", t ? (p->scale_target <= 0 && !why[0]
                           ? "target must be above 0" : why)
                           : "utilization() needs target=, e.g. "
                             "utilization(target=70%)");
        } else if (strcmp(c.name, "queue") == 0) {
            p->scale = FS_SCALE_QUEUE;
            if (!t || fs_parse_number(t, &p->scale_target, why, sizeof why)
                || p->scale_target <= 0)
                return bad(&rd, ae, "%s", "queue() needs target= requests "
                           "per instance above 0, e.g. queue(target=4)");
        } else {
            return bad(&rd, ae, "%s", "expected utilization(target=70%) or "
                       "queue(target=4)");
        }
        if (get_count(&rd, "min", 0, 0, &p->min) ||
            get_count(&rd, "max", -1, 0, &p->max))
            return -1;
        if (p->max < 0)
            return missing(&rd, "max (the most instances autoscaling may "
                           "run)");
        if (p->max < p->min || p->max == 0)
            return bad(&rd, entry_of(&rd, "max"), "%s",
                       "must be at least min and at least 1");
        if (p->scale_interval <= 0)
            return bad(&rd, entry_of(&rd, "autoscale_interval"), "%s",
                       "must be longer than 0s");
        p->count = p->min;
    } else {
        const char *mk[] = {"min", "max"};
        for (int i = 0; i < 2; i++) {
            fs_config_entry *e = fs_config_find(sc->cfg, section, mk[i]);
            if (e)
                return bad(&rd, e, "%s", "min and max need autoscale = "
                           "utilization(target=..) or queue(target=..)");
        }
        p->scale = FS_SCALE_FIXED;
        p->min = p->max = p->count;
    }
    return price_pool(&rd, sc, p, it);
}

/* The index of a pool by name, -1 when absent. */
static int pool_index(const fs_scenario *sc, const char *name)
{
    for (size_t i = 0; i < sc->npools; i++)
        if (strcmp(sc->pools[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int parse_pools_list(reader *rd, fs_scenario *sc, fs_workload_conf *w)
{
    fs_config_entry *e = entry_of(rd, "pools");
    if (!e)
        return missing(rd, "pools (the pools that serve it, in preference "
                       "order)");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", e->value);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", \t", &save); tok;
         tok = strtok_r(NULL, ", \t", &save)) {
        int idx = pool_index(sc, tok);
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
            return bad(rd, e, "%s", why);
        }
        for (int i = 0; i < w->npools; i++)
            if (w->pools[i] == idx)
                return bad(rd, e, "%s", "lists a pool twice");
        if (w->npools == FS_MAX_POOLS_PER_WORKLOAD)
            return bad(rd, e, "%s", "too many pools (at most 8)");
        w->pools[w->npools++] = idx;
    }
    if (w->npools == 0)
        return bad(rd, e, "%s", "names no pool");
    return 0;
}

static int parse_workload(fs_scenario *sc, const char *section,
                          fs_workload_conf *w, fs_error *err)
{
    static const char *const kinds[] = {"inference", "batch", "training",
                                        NULL};
    static const char *const bad_rows[] = {"fail", "skip", NULL};
    reader rd = {sc->cfg, section, err};
    memset(w, 0, sizeof *w);
    snprintf(w->section, sizeof w->section, "%s", section);
    snprintf(w->name, sizeof w->name, "%s", section + 9);
    if (check_keys(&rd, workload_keys))
        return -1;
    int kind, br;
    if (get_choice(&rd, "kind", kinds, 0, &kind))
        return -1;
    if (kind != 0)
        return bad(&rd, entry_of(&rd, "kind"), "%s",
                   "batch and training workloads are not implemented in "
                   "this version of fleetsim (inference is)");
    if (parse_pools_list(&rd, sc, w) ||
        get_count(&rd, "batch_max", 1, 1, &w->batch_max) ||
        get_double(&rd, "batch_wait", fs_parse_duration, 0, &w->batch_wait) ||
        get_double(&rd, "rate_scale", fs_parse_number, 1, &w->rate_scale) ||
        get_bool(&rd, "repeat", 0, &w->repeat) ||
        get_choice(&rd, "bad_rows", bad_rows, 0, &br) ||
        get_count(&rd, "queue_max", 0, 0, &w->queue_max))
        return -1;
    w->bad_rows = (fs_bad_rows)br;
    if (w->rate_scale <= 0)
        return bad(&rd, entry_of(&rd, "rate_scale"), "%s",
                   "must be above 0");
    fs_config_entry *e = entry_of(&rd, "slo_p99");
    w->slo_s = NAN;
    char why[1600];
    if (e && fs_parse_duration(e->value, &w->slo_s, why, sizeof why))
        return bad(&rd, e, "%s", why);

    e = entry_of(&rd, "arrivals");
    if (!e)
        return missing(&rd, "arrivals (poisson(rate=..), diurnal(..), "
                       "mmpp(..) or trace(path, format=..))");
    if (fs_parse_call(e->value, &w->arrivals, why, sizeof why))
        return bad(&rd, e, "%s", why);
    w->arrivals_entry = e;

    e = entry_of(&rd, "service");
    if (!e)
        return missing(&rd, "service (const(..), exponential(mean=..), "
                       "lognormal(..), linear(base=.., per_item=..) or "
                       "trace)");
    fs_call sc_call;
    if (fs_parse_call(e->value, &sc_call, why, sizeof why))
        return bad(&rd, e, "%s", why);
    if (strcmp(sc_call.name, "trace") == 0 && sc_call.nargs == 0) {
        w->service_from_trace = 1;
    } else if (strcmp(sc_call.name, "llm") == 0) {
        return bad(&rd, e, "%s", "service = llm is not implemented in this "
                   "version of fleetsim");
    } else if (fs_dist_parse(&sc_call, &w->service, why, sizeof why)) {
        return bad(&rd, e, "%s", why);
    }

    /* Service times are stated for the reference GPU (default: the GPU of
     * the first pool) and scaled on others by dense bf16 throughput. */
    e = entry_of(&rd, "reference_gpu");
    if (e) {
        const fs_gpu *g = fs_catalog_gpu(sc->catalog, e->value);
        if (!g) {
            char hint[1024];
            fs_catalog_suggest_gpu(sc->catalog, e->value, hint, sizeof hint);
            snprintf(why, sizeof why, "unknown GPU '%s' %s", e->value, hint);
            return bad(&rd, e, "%s", why);
        }
        w->reference_gpu = *g;
    } else {
        w->reference_gpu = sc->pools[w->pools[0]].gpu;
    }
    return 0;
}

static int parse_window(fs_scenario *sc, const char *section,
                        fs_window_conf *win, fs_error *err)
{
    reader rd = {sc->cfg, section, err};
    memset(win, 0, sizeof *win);
    snprintf(win->name, sizeof win->name, "%s", section + 7);
    if (check_keys(&rd, window_keys) ||
        get_double(&rd, "every", fs_parse_duration, 86400, &win->every))
        return -1;
    fs_config_entry *e = entry_of(&rd, "open");
    if (e) {
        int hh, mm, n = 0;
        if (sscanf(e->value, "%2d:%2d%n", &hh, &mm, &n) != 2 ||
            e->value[n] || hh > 23 || mm > 59 || hh < 0 || mm < 0)
            return bad(&rd, e, "%s", "expected a time of day HH:MM");
        win->open = hh * 3600.0 + mm * 60.0;
    }
    e = entry_of(&rd, "duration");
    if (!e)
        return missing(&rd, "duration");
    char why[256];
    if (fs_parse_duration(e->value, &win->duration, why, sizeof why))
        return bad(&rd, e, "%s", why);
    if (win->every <= 0 || win->duration <= 0 || win->duration > win->every)
        return bad(&rd, e, "%s", "must be above 0 and at most `every`");
    return 0;
}

/* Sections in order of first appearance, by kind. */
static int collect_sections(fs_scenario *sc, const char *prefix,
                            const char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t plen = strlen(prefix);
    for (size_t i = 0; i < sc->cfg->n; i++) {
        const char *s = sc->cfg->e[i].section;
        if (strncmp(s, prefix, plen) != 0)
            continue;
        int seen = 0;
        for (size_t k = 0; k < *n && !seen; k++)
            seen = strcmp((*out)[k], s) == 0;
        if (seen)
            continue;
        const char **a = realloc(*out, (*n + 1) * sizeof *a);
        if (!a)
            return -1;
        *out = a;
        (*out)[(*n)++] = s;
    }
    return 0;
}

static int check_section_names(fs_scenario *sc, fs_error *err)
{
    static const char *const kinds[] = {"scenario", "pool.NAME",
                                        "workload.NAME", "window.NAME", NULL};
    static const char *const bare[] = {"scenario", "pool", "workload",
                                       "window", NULL};
    for (size_t i = 0; i < sc->cfg->n; i++) {
        const fs_config_entry *e = &sc->cfg->e[i];
        const char *s = e->section;
        if (strcmp(s, "scenario") == 0)
            continue;
        const char *dot = strchr(s, '.');
        size_t plen = dot ? (size_t)(dot - s) : strlen(s);
        int known = 0;
        for (int k = 1; bare[k]; k++)
            known |= strlen(bare[k]) == plen && strncmp(bare[k], s, plen) == 0;
        if (known && dot && dot[1] && strlen(dot + 1) < FS_NAME_MAX)
            continue;
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(plen < 63 ? plen : 63), s);
        const char *near = fs_nearest_name(word, bare);
        if (known)
            return fs_error_at(err, e->file, e->line, s,
                               "section needs a name of 1 to %d characters, "
                               "e.g. [%s.a100]", FS_NAME_MAX - 1, word);
        return fs_error_at(err, e->file, e->line, s,
                           "unknown section kind '%s' (%s%s%s; sections are "
                           "%s, %s, %s, %s)", word,
                           near ? "did you mean '" : "no close match",
                           near ? near : "", near ? "'?" : "", kinds[0],
                           kinds[1], kinds[2], kinds[3]);
    }
    return 0;
}

fs_scenario *fs_scenario_load(const char *path, char *const *sets, int nsets,
                              fs_error *err)
{
    fs_scenario *sc = calloc(1, sizeof *sc);
    const char **names = NULL;
    size_t n = 0;
    if (!sc) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(sc->path, sizeof sc->path, "%s", path);
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    snprintf(sc->dir, sizeof sc->dir, "%s", dirname(tmp));
    sc->cfg = fs_config_load(path, err);
    if (!sc->cfg)
        goto fail;
    for (int i = 0; i < nsets; i++)
        if (fs_config_set(sc->cfg, sets[i], err))
            goto fail;
    /* Default name: the file name without directory and extension. */
    snprintf(tmp, sizeof tmp, "%s", path);
    char *base = basename(tmp), *dot = strrchr(base, '.');
    if (dot && dot != base)
        *dot = '\0';
    snprintf(sc->name, sizeof sc->name, "%s", base);

    char gpus_csv[4096], inst_csv[4096];
    if (check_section_names(sc, err) ||
        parse_scenario_section(sc, err, gpus_csv, inst_csv, sizeof gpus_csv))
        goto fail;
    sc->catalog = fs_catalog_load(gpus_csv, inst_csv, err);
    if (!sc->catalog)
        goto fail;

    if (collect_sections(sc, "pool.", &names, &n))
        goto oom;
    sc->pools = calloc(n ? n : 1, sizeof *sc->pools);
    if (!sc->pools)
        goto oom;
    for (size_t i = 0; i < n; i++, sc->npools++)
        if (parse_pool(sc, names[i], &sc->pools[i], err))
            goto fail;
    free(names);

    if (collect_sections(sc, "workload.", &names, &n))
        goto oom;
    if (n == 0) {
        fs_error_set(err, "%s: no [workload.NAME] section: nothing to "
                     "simulate", path);
        goto fail;
    }
    sc->workloads = calloc(n, sizeof *sc->workloads);
    if (!sc->workloads)
        goto oom;
    for (size_t i = 0; i < n; i++, sc->nworkloads++)
        if (parse_workload(sc, names[i], &sc->workloads[i], err))
            goto fail;
    free(names);

    if (collect_sections(sc, "window.", &names, &n))
        goto oom;
    sc->windows = calloc(n ? n : 1, sizeof *sc->windows);
    if (!sc->windows)
        goto oom;
    for (size_t i = 0; i < n; i++, sc->nwindows++)
        if (parse_window(sc, names[i], &sc->windows[i], err))
            goto fail;
    free(names);
    names = NULL;
    return sc;
oom:
    fs_error_set(err, "out of memory");
fail:
    free(names);
    fs_scenario_free(sc);
    return NULL;
}

void fs_scenario_free(fs_scenario *sc)
{
    if (!sc)
        return;
    free(sc->pools);
    free(sc->workloads);
    free(sc->windows);
    fs_catalog_free(sc->catalog);
    fs_config_free(sc->cfg);
    free(sc);
}

const char *fs_pricing_name(fs_pricing p)
{
    switch (p) {
    case FS_PRICING_ON_DEMAND: return "on-demand";
    case FS_PRICING_RESERVED: return "reserved";
    case FS_PRICING_SPOT: return "spot";
    }
    return "?";
}
