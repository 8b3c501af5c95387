/* scenario_pool.c -- a [pool.NAME] section: hardware, size and price.
 *
 * The GPU and instance type are resolved against the catalog; the size is a
 * fixed count or an autoscaling range, both bounded (scenario_limits.h); the
 * price comes from the `price` key or the catalog.  A GPU that several
 * providers sell is priced from the catalog only when the pool says which
 * (`provider` or `instance`): picking the cheapest seller silently would
 * price a fleet the user does not run. */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* pricing, term and upfront; term and upfront belong to reserved pools. */
static int parse_pricing(fs_reader *rd, fs_pool_conf *p)
{
    static const char *const pricings[] = {"on-demand", "reserved", "spot",
                                           NULL};
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const upfronts[] = {"none", "partial", "all", NULL};
    int pricing, term, upfront;
    if (fs_rd_choice(rd, "pricing", pricings, 0, &pricing) ||
        fs_rd_choice(rd, "term", terms, 0, &term) ||
        fs_rd_choice(rd, "upfront", upfronts, 0, &upfront))
        return -1;
    p->pricing = (fs_pricing)pricing;
    p->term_months = term ? 36 : 12;
    p->upfront = (fs_upfront)upfront;
    if (p->pricing == FS_PRICING_SPOT)
        return fs_rd_bad(rd, fs_rd_entry(rd, "pricing"), "%s",
                         "spot pools are not implemented in this version of "
                         "fleetsim (on-demand and reserved are)");
    if (p->pricing != FS_PRICING_RESERVED) {
        const char *rk[] = {"term", "upfront"};
        for (int i = 0; i < 2; i++) {
            fs_config_entry *e = fs_config_find(rd->cfg, rd->section, rk[i]);
            if (e)
                return fs_rd_bad(rd, e, "%s", "applies to reserved pools "
                                 "only");
        }
    }
    return 0;
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
                     &p->provision_delay) ||
        fs_rd_double(rd, "min_billed", fs_parse_duration, 60,
                     &p->min_billed_s))
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
    if (p->pricing == FS_PRICING_RESERVED)
        return fs_rd_bad(rd, ae, "%s", "reserved pools have a fixed count; "
                         "autoscale an on-demand pool beside them");
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

/* The reserved payment keys: the upfront payment is charged once, so with
 * upfront = all there is no hourly rate, and with partial the hourly rate
 * is the one that goes with that upfront (price), never the catalog's
 * no-upfront rate (the catalog lists no partial-upfront rates).  1 when the
 * keys price the pool, 0 to go on, -1 on a refusal.  The price key's value
 * is read (and bounded) by the caller. */
static int reserved_upfront(fs_reader *rd, fs_pool_conf *p,
                            fs_config_entry *pe, fs_config_entry *ue)
{
    char why[256];
    if (ue && p->upfront == FS_UPFRONT_NONE) {
        snprintf(why, sizeof why, "there is no upfront payment with upfront "
                 "= none%s: set upfront = partial or all, or remove "
                 "upfront_price", fs_rd_entry(rd, "upfront") ? "" :
                 " (the default)");
        return fs_rd_bad(rd, ue, "%s", why);
    }
    if (pe && ue && p->upfront == FS_UPFRONT_ALL) {
        if (fs_parse_money(pe->value, &p->price, why, sizeof why))
            return fs_rd_bad(rd, pe, "%s", why);
        if (p->price != 0)
            return fs_rd_bad(rd, pe, "%s", "upfront = all pays the whole "
                             "term up front and has no hourly rate: remove "
                             "price, or set upfront = partial");
    }
    if (!ue || pe)
        return 0;
    if (p->upfront == FS_UPFRONT_PARTIAL)
        return fs_rd_missing(rd, "price (upfront = partial with "
                             "upfront_price needs the partial-upfront hourly "
                             "rate, which the catalog does not list; set "
                             "price = $ per instance-hour)");
    p->price = 0;   /* all upfront */
    snprintf(p->price_source, sizeof p->price_source, "upfront_price key");
    return 1;
}

/* Prices a pool from its `price` key or the catalog. */
static int price_pool(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p,
                      const fs_instance_type *it)
{
    fs_config_entry *pe = fs_rd_entry(rd, "price");
    fs_config_entry *ue = fs_rd_entry(rd, "upfront_price");
    char bound[160];
    double term_hours = 24.0 * 365 * p->term_months / 12.0;
    snprintf(bound, sizeof bound, "$%.0f per instance for a %dy term ($%.0f "
             "an hour for each of its %.0f hours)", FS_MAX_PRICE * term_hours,
             p->term_months / 12, FS_MAX_PRICE, term_hours);
    if (ue && money_key(rd, ue, FS_MAX_PRICE * term_hours, bound,
                        &p->upfront_price))
        return -1;
    if (ue && p->pricing != FS_PRICING_RESERVED)
        return fs_rd_bad(rd, ue, "%s", "applies to reserved pools only");
    if (p->pricing == FS_PRICING_RESERVED) {
        int rc = reserved_upfront(rd, p, pe, ue);
        if (rc)
            return rc < 0 ? -1 : 0;
    }
    if (pe) {
        snprintf(bound, sizeof bound, "$%.0f per instance-hour",
                 FS_MAX_PRICE);
        if (money_key(rd, pe, FS_MAX_PRICE, bound, &p->price))
            return -1;
        snprintf(p->price_source, sizeof p->price_source, "price key");
        if (p->pricing == FS_PRICING_RESERVED && p->upfront != FS_UPFRONT_NONE
            && !ue)
            return fs_rd_missing(rd, "upfront_price (with `price` set and "
                                 "upfront = partial or all, give the upfront "
                                 "payment per instance for the term)");
        return 0;
    }
    int column = p->pricing == FS_PRICING_ON_DEMAND ? 0
               : p->pricing == FS_PRICING_SPOT      ? 1
               : p->term_months == 36               ? 3
                                                    : 2;
    if (!it && catalog_instance(rd, sc, p, column, &it))
        return -1;
    double rate = it ? fs_instance_price(it, column) : NAN;
    if (isnan(rate)) {
        static const char *const cols[] = {"on-demand", "spot",
                                           "1-year reserved",
                                           "3-year reserved"};
        char what[256];
        snprintf(what, sizeof what, "price (the catalog has no %s price for "
                 "%s%s%s; set price = $ per instance-hour)", cols[column],
                 it ? it->name : p->gpu.name, p->provider[0] ? " at " : "",
                 p->provider);
        return fs_rd_missing(rd, what);
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

int fs_scenario_parse_pool(fs_scenario *sc, const char *section,
                           fs_pool_conf *p, fs_error *err)
{
    fs_reader rd = {sc->cfg, section, err};
    const fs_instance_type *it = NULL;
    memset(p, 0, sizeof *p);
    snprintf(p->section, sizeof p->section, "%s", section);
    snprintf(p->name, sizeof p->name, "%s", section + 5);
    if (fs_rd_check_keys(&rd, FS_SECTION_POOL) || parse_pricing(&rd, p) ||
        parse_hardware(&rd, sc, p, &it) || parse_size(&rd, p))
        return -1;
    return price_pool(&rd, sc, p, it);
}
