/* purchase_reserved.c -- reserved instances: every hour of the term for
 * every instance, used or not; an upfront payment spread evenly over the
 * term's hours (billing.c); nothing after the term unless renew = yes.
 * Instances still running after a term that ends inside the horizon
 * without renew are billed by the second at the on-demand rate of the
 * pool's instance type, as the providers do ("When your Reserved Instance
 * expires, you are charged On-Demand rates", AWS), on the bill's
 * after_term meter (on-demand cost rows): the reservation itself charges
 * nothing after its term, and the instances are not free.
 *
 * The upfront payment is charged once, so with upfront = all there is no
 * hourly rate, and with partial the hourly rate is the one that goes with
 * that upfront (price), never the catalog's no-upfront rate (the catalog
 * lists no partial-upfront rates).  A reservation is a fixed number of
 * instances: its pool does not autoscale. */
#include "models/purchase/purchase.h"

#include <stdio.h>
#include <string.h>
#include "models/catalog/catalog.h"
#include "sim/base/grammar.h"

enum { UPFRONT_NONE = FS_UPFRONT_NONE, UPFRONT_PARTIAL = FS_UPFRONT_PARTIAL,
       UPFRONT_ALL = FS_UPFRONT_ALL };

static const fs_key_doc reserved_keys[] = {
    {"term", "1y|3y", "1y", "reservation term"},
    {"upfront", "none|partial|all", "none",
     "upfront payment option: partial = upfront + a lower hourly rate, "
     "all = upfront and no hourly rate"},
    {"upfront_price", "money per instance", NULL,
     "the upfront payment for the whole term"},
    {"renew", "yes|no", "no",
     "buy the next term when one ends inside the horizon (no: the "
     "reservation charges nothing after its term, and its instances are "
     "billed at the on-demand rate as on-demand rows)"},
    {NULL, NULL, NULL, NULL},
};

/* The reservation's own terms (fs_purchase_terms.own). */
typedef struct reserved_terms {
    int renew;
    double on_demand;   /* $ per instance-hour after a term without renew
                           that ends inside the horizon; else 0 */
} reserved_terms;
_Static_assert(sizeof(reserved_terms) <= sizeof(((fs_purchase_terms *)0)->own),
               "reserved terms fit fs_purchase_terms.own");

/* Whether t renews (for the store and the cash view). */
int fs_reserved_renews(const fs_purchase_terms *t)
{
    reserved_terms r;
    memcpy(&r, t->own.bytes, sizeof r);
    return r.renew;
}

/* upfront_price, bounded by the term's hours at the highest hourly price:
 * 1 when given, 0 when absent, -1 refused. */
static int read_upfront_price(const fs_purchase_reader *rd,
                              fs_purchase_terms *t)
{
    char bound[160];
    double term_hours = 24.0 * 365 * t->term_months / 12.0;
    snprintf(bound, sizeof bound, "$%.0f per instance for a %dy term ($%.0f "
             "an hour for each of its %.0f hours)", rd->max_price * term_hours,
             t->term_months / 12, rd->max_price, term_hours);
    return fs_purchase_read_money(rd, "upfront_price", rd->max_price *
                                  term_hours, bound, &t->upfront_usd);
}

/* The rules of an explicit upfront_price (given says so): refused with
 * upfront = none; with all, no hourly rate; with partial, the hourly rate
 * must be given too.  1 when the keys price the pool, 0 to go on, -1 on a
 * refusal. */
static int upfront_rules(const fs_purchase_reader *rd, fs_purchase_terms *t,
                         int upfront, int given)
{
    const char *pv = rd->value(rd->ctx, "price");
    char why[256];
    if (given && upfront == UPFRONT_NONE) {
        snprintf(why, sizeof why, "there is no upfront payment with upfront "
                 "= none%s: set upfront = partial or all, or remove "
                 "upfront_price", rd->value(rd->ctx, "upfront") ? "" :
                 " (the default)");
        return rd->bad(rd->ctx, "upfront_price", why);
    }
    if (pv && given && upfront == UPFRONT_ALL) {
        double price;
        if (fs_parse_money(pv, &price, why, sizeof why))
            return rd->bad(rd->ctx, "price", why);
        if (price != 0)
            return rd->bad(rd->ctx, "price", "upfront = all pays the whole "
                           "term up front and has no hourly rate: remove "
                           "price, or set upfront = partial");
    }
    if (!given || pv)
        return 0;
    if (upfront == UPFRONT_PARTIAL)
        return rd->missing(rd->ctx, "price (upfront = partial with "
                           "upfront_price needs the partial-upfront hourly "
                           "rate, which the catalog does not list; set "
                           "price = $ per instance-hour)");
    t->price = 0;   /* all upfront */
    snprintf(t->price_source, sizeof t->price_source, "upfront_price key");
    return 1;
}

/* The catalog's reserved rate is the effective no-upfront hourly rate;
 * partial pays half of the term's cost up front, all pays all of it (see
 * README: an approximation; say upfront_price).  Such a derived price says
 * "(derived)" in its source, which the run summary's "priced from" shows. */
static void split_catalog_rate(fs_purchase_terms *t, int upfront, double rate)
{
    fs_reserved_derive(rate, t->term_months, upfront, &t->price,
                       &t->upfront_usd);
    if (upfront != UPFRONT_NONE) {
        size_t n = strlen(t->price_source);
        snprintf(t->price_source + n, sizeof t->price_source - n,
                 " (derived)");
    }
}

/* Whether the term ends inside the horizon and is not renewed. */
static int ends_inside(const fs_purchase_reader *rd,
                       const fs_purchase_terms *t, int renew)
{
    return !renew && rd->horizon_s > fs_term_hours(t->term_months) * 3600;
}

/* The on-demand rate the instances pay after the term: the catalog's
 * on-demand price of the pool's instance type (its list price); refused
 * at `term` when the catalog has none. */
static int after_term_rate(const fs_purchase_reader *rd,
                           const fs_purchase_terms *t, double *rate)
{
    char source[128], why[400];
    if (rd->catalog_price(rd->ctx, FS_PRICE_ON_DEMAND, rate, source,
                          sizeof source) == 0 && *rate > 0)
        return 0;
    snprintf(why, sizeof why, "the %d-year term ends inside the horizon "
             "and the instances then run at the on-demand rate, which the "
             "catalog cannot give for this pool (no on-demand price for its "
             "instance type, or its GPU sold by several providers: name one "
             "with instance = or provider =): set renew = yes, or a horizon "
             "within the term (%.0f days)", t->term_months / 12,
             fs_term_hours(t->term_months) / 24);
    return rd->bad(rd->ctx, "term", why);
}

static int reserved_resolve(const fs_purchase_reader *rd,
                            fs_purchase_terms *t)
{
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const upfronts[] = {"none", "partial", "all", NULL};
    int term, upfront;
    if (fs_purchase_read_choice(rd, "term", terms, 0, &term) ||
        fs_purchase_read_choice(rd, "upfront", upfronts, 0, &upfront))
        return -1;
    t->term_months = term ? 36 : 12;
    static const char *const yesno[] = {"no", "yes", NULL};
    reserved_terms own = {0};
    if (fs_purchase_read_choice(rd, "renew", yesno, 0, &own.renew))
        return -1;
    if (ends_inside(rd, t, own.renew) &&
        after_term_rate(rd, t, &own.on_demand))
        return -1;
    memcpy(t->own.bytes, &own, sizeof own);
    int given = read_upfront_price(rd, t);
    if (given < 0)
        return -1;
    int rc = upfront_rules(rd, t, upfront, given);
    if (rc)
        return rc < 0 ? -1 : 0;
    int priced = rd->price(rd->ctx, &t->price);
    if (priced < 0)
        return -1;
    if (priced) {
        snprintf(t->price_source, sizeof t->price_source, "price key");
        if (upfront != UPFRONT_NONE && !given)
            return rd->missing(rd->ctx, "upfront_price (with `price` set "
                               "and upfront = partial or all, give the "
                               "upfront payment per instance for the term)");
        return 0;
    }
    /* Here no upfront_price is given (upfront_rules settled that case):
     * the provider's published option if the catalog has it, else one
     * derived from the no-upfront rate. */
    int published = rd->catalog_reserved(rd->ctx, term, upfront, &t->price,
                                         &t->upfront_usd, t->price_source,
                                         sizeof t->price_source);
    if (published)
        return published < 0 ? -1 : 0;
    double rate;
    if (rd->catalog_price(rd->ctx, term ? FS_PRICE_RESERVED_3Y
                                        : FS_PRICE_RESERVED_1Y,
                          &rate, t->price_source, sizeof t->price_source))
        return -1;
    split_catalog_rate(t, upfront, rate);
    return 0;
}

/* Nothing per launch or per end in the term: the reservation is paid by
 * the hour.  The part of a launch after a term that ends without renew
 * is billed at the on-demand rate by the second (no minimum: the instance
 * was launched before, it only changes price). */
static void reserved_terminate(const fs_purchase_terms *t,
                               const fs_purchase_bill *b, double t0,
                               double t1)
{
    reserved_terms r;
    memcpy(&r, t->own.bytes, sizeof r);
    double end = fs_term_hours(t->term_months) * 3600;
    if (r.renew || !(r.on_demand > 0) || !b->after_term || end <= 0 ||
        t1 <= end)
        return;
    fs_bill_on_demand(b->after_term, b->cal, t0 > end ? t0 : end, t1,
                      r.on_demand, b->gpus, 0);
}

/* Every hour of the term inside the horizon for every reserved instance,
 * at the hourly rate plus the upfront payment's share of that hour. */
static void reserved_finish(const fs_purchase_terms *t,
                            const fs_purchase_bill *b, long count)
{
    fs_bill_reserved(b->meter, b->cal, count, t->price, t->upfront_usd,
                     t->term_months, fs_reserved_renews(t), b->gpus);
}

const fs_purchase_option fs_purchase_reserved = {
    .name = "reserved",
    .commitment = FS_COMMIT_COUNT,
    .label = "reserved",
    .focus_category = "Committed",
    .bill_label = "all reserved (amortized)",
    .keys = reserved_keys,
    .fixed_count = "reserved pools have a fixed count; autoscale an "
                   "on-demand pool beside them",
    .resolve = reserved_resolve,
    .terminate = reserved_terminate,
    .finish = reserved_finish,
};
