/* scenario_pool.c -- a [pool.NAME] section: hardware, size and price.
 *
 * The GPU and instance type are resolved against the catalog; the size is a
 * fixed count or an autoscaling range, both bounded (scenario_limits.h); the
 * pool's purchase option (`pricing`, models/purchase/purchase.h) reads its own keys
 * and its price from the `price` key or the catalog, through the reader
 * below.  A GPU that several providers sell is priced from the catalog only
 * when the pool says which (`provider` or `instance`): picking the cheapest
 * seller silently would price a fleet the user does not run. */
#include "sim/scenario/scenario_impl.h"
#include "models/purchase/roi.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A key of another purchase option (term on an on-demand pool) is refused
 * by name rather than ignored: the pool would not be billed as written. */
static int foreign_keys(fs_reader *rd, const fs_purchase_option *mine)
{
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++) {
        if (*o == mine)
            continue;
        for (const fs_key_doc *k = (*o)->keys; k->name; k++) {
            fs_config_entry *e = fs_config_find(rd->cfg, rd->section,
                                                k->name);
            if (!e || fs_purchase_has_key(mine, k->name))
                continue;
            char owners[128], why[192];
            fs_purchase_key_owners(k->name, owners, sizeof owners);
            snprintf(why, sizeof why, "applies to %s pools only", owners);
            return fs_rd_bad(rd, e, "%s", why);
        }
    }
    return 0;
}

/* pricing = NAME: a purchase option of the registry (models/purchase/purchase.c);
 * without the key, the one billed at the list price (on demand). */
static int parse_pricing(fs_reader *rd, fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "pricing");
    p->purchase = e ? fs_purchase_find(e->value)
                    : fs_purchase_committing(FS_COMMIT_NONE);
    if (!p->purchase && e) {
        char why[512];
        fs_purchase_why_unknown(e->value, why, sizeof why);
        return fs_rd_bad(rd, e, "%s", why);
    }
    return foreign_keys(rd, p->purchase);
}

/* provider = aws|azure|gcp: must sell the pool's GPU (and be the seller of
 * its instance type, when one is given). */
static int parse_provider(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p,
                          const fs_instance_type *it)
{
    fs_config_entry *e = fs_rd_entry(rd, "provider");
    if (!e)
        return 0;
    char why[600];
    if (it && strcasecmp(it->provider, e->value) != 0) {
        snprintf(why, sizeof why, "%s is sold by %s, not '%s'", p->instance,
                 it->provider, e->value);
        return fs_rd_bad(rd, e, "%s", why);
    }
    if (!fs_catalog_sells(sc->catalog, e->value, p->gpu.name)) {
        char list[256];
        if (fs_catalog_providers(sc->catalog, p->gpu.name, list, sizeof list))
            snprintf(why, sizeof why, "the catalog sells %s at %s, not '%s'",
                     p->gpu.name, list, e->value);
        else
            snprintf(why, sizeof why, "the catalog has no instance with %s "
                     "GPUs; give price instead", p->gpu.name);
        return fs_rd_bad(rd, e, "%s", why);
    }
    snprintf(p->provider, sizeof p->provider, "%s", e->value);
    return 0;
}

/* gpu and/or instance, then provider and the GPUs per instance/server. */
static int parse_hardware(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p,
                          const fs_instance_type **itp)
{
    fs_config_entry *ge = fs_rd_entry(rd, "gpu");
    fs_config_entry *ie = fs_rd_entry(rd, "instance");
    const fs_instance_type *it = NULL;
    char hint[1024], why[1200];
    if (ie) {
        it = fs_catalog_instance(sc->catalog, ie->value);
        if (!it) {
            fs_catalog_suggest_instance(sc->catalog, ie->value, hint,
                                        sizeof hint);
            snprintf(why, sizeof why, "unknown instance type '%s' %s",
                     ie->value, hint);
            return fs_rd_bad(rd, ie, "%s", why);
        }
        snprintf(p->instance, sizeof p->instance, "%s:%s", it->provider,
                 it->name);
    }
    if (ge) {
        const fs_gpu *g = fs_catalog_gpu(sc->catalog, ge->value);
        if (!g) {
            fs_catalog_suggest_gpu(sc->catalog, ge->value, hint, sizeof hint);
            snprintf(why, sizeof why, "unknown GPU '%s' %s", ge->value, hint);
            return fs_rd_bad(rd, ge, "%s", why);
        }
        if (it && strcasecmp(it->gpu, g->name) != 0) {
            snprintf(why, sizeof why, "%s has %s GPUs, not %s", p->instance,
                     it->gpu, g->name);
            return fs_rd_bad(rd, ge, "%s", why);
        }
        p->gpu = *g;
    } else if (it) {
        p->gpu = *fs_catalog_gpu(sc->catalog, it->gpu);
    } else {
        return fs_rd_missing(rd, "gpu (a catalog GPU such as A100-80GB) or "
                             "instance (such as aws:p4d.24xlarge)");
    }
    if (parse_provider(rd, sc, p, it) ||
        fs_rd_count(rd, "gpus_per_instance", it ? it->gpus : 1, 1,
                    FS_MAX_GPUS_PER_INSTANCE, &p->gpus_per_instance) ||
        fs_rd_count(rd, "gpus_per_server", 1, 1, FS_MAX_GPUS_PER_INSTANCE,
                    &p->gpus_per_server))
        return -1;
    if (p->gpus_per_instance % p->gpus_per_server) {
        snprintf(why, sizeof why, "%ld GPUs per instance cannot be split into "
                 "servers of %ld GPUs", p->gpus_per_instance,
                 p->gpus_per_server);
        return fs_rd_bad(rd, fs_rd_entry(rd, "gpus_per_server"), "%s", why);
    }
    *itp = it;
    return 0;
}

/* autoscale = utilization(target=70%) | queue(target=4). */
static int parse_autoscale(fs_reader *rd, fs_pool_conf *p,
                           const fs_config_entry *ae)
{
    fs_call c;
    char why[256];
    static const char *const k[] = {"target", NULL};
    if (fs_parse_call(ae->value, &c, why, sizeof why) ||
        fs_call_check_keys(&c, k, why, sizeof why))
        return fs_rd_bad(rd, ae, "%s", why);
    const char *t = fs_call_get(&c, "target");
    if (!t)
        t = fs_call_positional(&c, 0);
    if (strcmp(c.name, "utilization") == 0) {
        p->scale = FS_SCALE_UTILIZATION;
        if (!t)
            return fs_rd_bad(rd, ae, "%s", "utilization() needs target=, "
                             "e.g. utilization(target=70%)");
        char fwhy[200];
        if (fs_parse_fraction(t, &p->scale_target, fwhy, sizeof fwhy)) {
            snprintf(why, sizeof why, "utilization(): target: %s", fwhy);
            return fs_rd_bad(rd, ae, "%s", why);
        }
        if (p->scale_target <= 0) {
            snprintf(why, sizeof why, "utilization(): target must be above "
                     "0%%, got '%s'", t);
            return fs_rd_bad(rd, ae, "%s", why);
        }
        return 0;
    }
    if (strcmp(c.name, "queue") == 0) {
        p->scale = FS_SCALE_QUEUE;
        if (!t || fs_parse_number(t, &p->scale_target, why, sizeof why) ||
            p->scale_target <= 0)
            return fs_rd_bad(rd, ae, "%s", "queue() needs target= requests "
                             "per instance above 0, e.g. queue(target=4)");
        return 0;
    }
    return fs_rd_bad(rd, ae, "%s", "expected utilization(target=70%) or "
                     "queue(target=4)");
}

/* Size: a fixed count, or autoscaled between min and max. */
static int parse_size(fs_reader *rd, fs_pool_conf *p)
{
    fs_config_entry *ce = fs_rd_entry(rd, "count");
    fs_config_entry *ae = fs_rd_entry(rd, "autoscale");
    if (fs_rd_count(rd, "count", 1, 0, FS_MAX_INSTANCES, &p->count) ||
        fs_rd_double(rd, "autoscale_interval", fs_parse_duration, 60,
                     &p->scale_interval) ||
        fs_rd_double(rd, "cooldown", fs_parse_duration, 300, &p->cooldown) ||
        fs_rd_double(rd, "provision_delay", fs_parse_duration, 180,
                     &p->provision_delay))
        return -1;
    if (!ae) {
        const char *mk[] = {"min", "max"};
        for (int i = 0; i < 2; i++) {
            fs_config_entry *e = fs_config_find(rd->cfg, rd->section, mk[i]);
            if (e)
                return fs_rd_bad(rd, e, "%s", "min and max need autoscale = "
                                 "utilization(target=..) or queue(target=..)");
        }
        p->scale = FS_SCALE_FIXED;
        p->min = p->max = p->count;
        return 0;
    }
    if (p->purchase->fixed_count)
        return fs_rd_bad(rd, ae, "%s", p->purchase->fixed_count);
    if (ce)
        return fs_rd_bad(rd, ce, "%s", "give either count (fixed size) or "
                         "autoscale with min and max, not both");
    if (parse_autoscale(rd, p, ae) ||
        fs_rd_count(rd, "min", 0, 0, FS_MAX_INSTANCES, &p->min) ||
        fs_rd_count(rd, "max", -1, 0, FS_MAX_INSTANCES, &p->max))
        return -1;
    if (p->max < 0)
        return fs_rd_missing(rd, "max (the most instances autoscaling may "
                             "run)");
    if (p->max < p->min || p->max == 0)
        return fs_rd_bad(rd, fs_rd_entry(rd, "max"), "%s",
                         "must be at least min and at least 1");
    if (p->scale_interval <= 0)
        return fs_rd_bad(rd, fs_rd_entry(rd, "autoscale_interval"), "%s",
                         "must be longer than 0s");
    p->count = p->min;
    return 0;
}

/* A money key bounded by max; absent leaves *out as it was. */
static int money_key(fs_reader *rd, fs_config_entry *e, double max,
                     const char *bound, double *out)
{
    char why[600];
    if (fs_parse_money(e->value, out, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (*out > max) {
        snprintf(why, sizeof why, "at most %s, got '%s'", bound, e->value);
        return fs_rd_bad(rd, e, "%s", why);
    }
    return 0;
}

/* The catalog instance that prices a pool given by its GPU: refused when
 * several providers sell the GPU and the pool does not say which. */
static int catalog_instance(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p,
                            int column, const fs_instance_type **it)
{
    char list[512];
    if (!p->provider[0] && fs_catalog_providers(sc->catalog, p->gpu.name,
                                                list, sizeof list) > 1) {
        char why[900];
        fs_catalog_list_instances(sc->catalog, p->gpu.name, list,
                                  sizeof list);
        snprintf(why, sizeof why, "%s is sold by several providers (%s): say "
                 "which with provider = aws|azure|gcp or instance = "
                 "PROVIDER:TYPE, or set price", p->gpu.name, list);
        return fs_rd_bad(rd, fs_rd_entry(rd, "gpu"), "%s", why);
    }
    *it = fs_catalog_cheapest_at(sc->catalog,
                                 p->provider[0] ? p->provider : NULL,
                                 p->gpu.name, (int)p->gpus_per_instance,
                                 column);
    return 0;
}

/* The pool's keys as its purchase option reads them (purchase.h): the
 * reader behind a neutral face, and the catalog behind a column. */
typedef struct pool_reader {
    fs_reader *rd;
    fs_scenario *sc;
    fs_pool_conf *p;
    const fs_instance_type *it;   /* the instance key's type, or NULL */
} pool_reader;

static const char *key_value(void *ctx, const char *key)
{
    fs_config_entry *e = fs_rd_entry(((pool_reader *)ctx)->rd, key);
    return e ? e->value : NULL;
}

static int key_bad(void *ctx, const char *key, const char *why)
{
    fs_reader *rd = ((pool_reader *)ctx)->rd;
    return fs_rd_bad(rd, key ? fs_rd_entry(rd, key) : NULL, "%s", why);
}

static int key_missing(void *ctx, const char *what)
{
    return fs_rd_missing(((pool_reader *)ctx)->rd, what);
}

/* price = MONEY, at most FS_MAX_PRICE an hour. */
static int key_price(void *ctx, double *usd)
{
    fs_reader *rd = ((pool_reader *)ctx)->rd;
    fs_config_entry *pe = fs_rd_entry(rd, "price");
    char bound[160];
    if (!pe)
        return 0;
    snprintf(bound, sizeof bound, "$%.0f per instance-hour", FS_MAX_PRICE);
    return money_key(rd, pe, FS_MAX_PRICE, bound, usd) ? -1 : 1;
}

/* The catalog's rate in column for the pool's instance type, or for the
 * cheapest instance with its GPU (at its provider), scaled to the pool's
 * GPUs per instance. */
static int key_catalog_price(void *ctx, int column, double *usd,
                             char *source, size_t source_len)
{
    pool_reader *k = ctx;
    fs_pool_conf *p = k->p;
    const fs_instance_type *it = k->it;
    if (!it && catalog_instance(k->rd, k->sc, p, column, &it))
        return -1;
    double rate = it ? fs_instance_price(it, column) : NAN;
    if (isnan(rate)) {
        char what[256];
        snprintf(what, sizeof what, "price (the catalog has no %s price for "
                 "%s%s%s; set price = $ per instance-hour)",
                 fs_purchase_column_words(column),
                 it ? it->name : p->gpu.name, p->provider[0] ? " at " : "",
                 p->provider);
        return fs_rd_missing(k->rd, what);
    }
    /* Scale a catalog instance to the pool's GPUs per instance. */
    if (it->gpus != p->gpus_per_instance)
        rate = rate / it->gpus * (double)p->gpus_per_instance;
    snprintf(source, source_len, "catalog %s:%s%s", it->provider, it->name,
             it->gpus != p->gpus_per_instance ? " (per GPU)" : "");
    *usd = rate;
    return 0;
}

/* The catalog's reserved option for the pool's instance type, published
 * or derived by the provider's rule (not one derived here from the
 * no-upfront rate), scaled to the pool's GPUs per instance; an option the
 * provider does not sell is refused. */
static int key_catalog_reserved(void *ctx, int term, int upfront,
                                double *hourly, double *upfront_usd,
                                char *source, size_t source_len)
{
    static const char *const names[] = {"no", "partial", "all"};
    pool_reader *k = ctx;
    fs_pool_conf *p = k->p;
    const fs_instance_type *it = k->it;
    int column = term ? FS_PRICE_RESERVED_3Y : FS_PRICE_RESERVED_1Y;
    if (!it && catalog_instance(k->rd, k->sc, p, column, &it))
        return -1;
    fs_reserved_option o;
    int rc = it ? fs_instance_reserved_option(it, term, upfront, &o) : -1;
    if (rc < 0 && it && o.status == FS_RATE_NOT_SOLD) {
        char why[256];
        snprintf(why, sizeof why, "%s:%s is not sold with a %s reservation "
                 "and %s upfront (see `fleetsim catalog instances`); give "
                 "your quote with price/upfront_price, or choose another "
                 "term or upfront", it->provider, it->name,
                 term ? "3-year" : "1-year", names[upfront]);
        return key_bad(ctx, fs_rd_entry(k->rd, "upfront") ? "upfront"
                                                          : "term", why);
    }
    if (rc < 0 || o.from_rate)
        return 0;
    double scale = (double)p->gpus_per_instance / it->gpus;
    *hourly = o.hourly * scale;
    *upfront_usd = o.upfront * scale;
    snprintf(source, source_len, "catalog %s:%s, %s upfront %s%s",
             it->provider, it->name, names[upfront], o.basis,
             it->gpus != p->gpus_per_instance ? " (per GPU)" : "");
    return 1;
}

/* The catalog's published Savings Plan discount for the pool's type. */
static int key_catalog_plan_discount(void *ctx, int term, double *discount)
{
    pool_reader *k = ctx;
    const fs_instance_type *it = k->it;
    if (!it && catalog_instance(k->rd, k->sc, k->p, FS_PRICE_ON_DEMAND, &it))
        return -1;
    if (!it || isnan(it->sp_discount[term]))
        return 0;
    *discount = it->sp_discount[term];
    return 1;
}

/* Prices a pool: its purchase option resolves its terms from the keys. */
static int price_pool(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p,
                      const fs_instance_type *it)
{
    pool_reader k = {rd, sc, p, it};
    /* price_trace's file is relative to the file that names it */
    const char *dir = fs_config_entry_dir(fs_config_find(sc->cfg, p->section,
                                                         "price_trace"),
                                          sc->dir);
    const fs_purchase_reader r = {&k, key_value, key_bad, key_missing,
                                  key_price, key_catalog_price,
                                  key_catalog_reserved,
                                  key_catalog_plan_discount, FS_MAX_PRICE,
                                  dir, sc->horizon_s,
                                  (long long)sc->start};
    return p->purchase->resolve(&r, &p->terms);
}

/* The reserved_* quote keys, checked with roi's grammar and kept as
 * "TERM:OPTION=PRICE" words for the store (roi reads them back). */
static int parse_quotes(fs_reader *rd, fs_pool_conf *p)
{
    static const struct { const char *key, *word; int kind; } q[] = {
        {"reserved_1y", "1y:none", 0}, {"reserved_1y_partial",
        "1y:partial", 1}, {"reserved_1y_all", "1y:all", 2},
        {"reserved_3y", "3y:none", 0}, {"reserved_3y_partial",
        "3y:partial", 1}, {"reserved_3y_all", "3y:all", 2}};
    size_t at = 0;
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        fs_config_entry *e = fs_rd_entry(rd, q[i].key);
        double h, up;
        char why[256];
        if (!e)
            continue;
        if (strchr(e->value, ' '))
            return fs_rd_bad(rd, e, "%s", "no spaces in a quote "
                             "(6000+0.70/h)");
        if (fs_roi_parse_quote(q[i].kind, i < 3 ? 1 : 3, FS_MAX_PRICE,
                               e->value, &h, &up, why, sizeof why))
            return fs_rd_bad(rd, e, "%s", why);
        int w = snprintf(p->rate_quotes + at, sizeof p->rate_quotes - at,
                         "%s%s=%s", at ? " " : "", q[i].word, e->value);
        if (w < 0 || (size_t)w >= sizeof p->rate_quotes - at)
            return fs_rd_bad(rd, e, "%s", "the quotes are too long");
        at += (size_t)w;
    }
    return 0;
}

int fs_scenario_parse_pool(fs_scenario *sc, const char *section,
                           fs_pool_conf *p, fs_error *err)
{
    fs_reader rd = {sc->cfg, section, err};
    const fs_instance_type *it = NULL;
    memset(p, 0, sizeof *p);
    snprintf(p->section, sizeof p->section, "%s", section);
    snprintf(p->name, sizeof p->name, "%s", section + 5);
    if (fs_rd_check_keys(&rd, FS_SECTION_POOL) || parse_pricing(&rd, p) ||
        parse_hardware(&rd, sc, p, &it) || parse_size(&rd, p) ||
        fs_rd_tags(&rd, p->tags) || fs_scenario_parse_schedule(&rd, p) ||
        price_pool(&rd, sc, p, it) || parse_quotes(&rd, p) ||
        fs_scenario_parse_llm_pool(&rd, p) ||
        fs_scenario_llm_pool_profile(&rd, sc, p) ||
        fs_scenario_parse_prefix_pool(&rd, p) ||
        fs_scenario_parse_disagg_pool(&rd, p, it) ||
        fs_scenario_parse_pd_shared(&rd, p) ||
        fs_scenario_parse_load_pool(&rd, sc, p, it) ||
        fs_scenario_parse_sharing(&rd, sc, p) ||
        fs_scenario_parse_pool_growth(&rd, p))
        return -1;
    return fs_scenario_parse_spot(&rd, sc, p);
}
