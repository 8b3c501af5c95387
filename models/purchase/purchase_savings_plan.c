/* purchase_savings_plan.c -- a savings plan: a commitment of so many
 * dollars every hour, which pays for usage at a discount off the pool's
 * on-demand price; usage beyond what it covers is paid at the on-demand
 * price; a commitment the hour's usage does not use is paid all the same
 * and shown as unused.
 *
 * Billing needs each hour's usage across the pool's instances, so the
 * option keeps, per pool and run, the on-demand value of the
 * instance-seconds in each hour (its state, made once when the pool is
 * built: no event allocates).  terminate and cut add an instance's life to
 * it, per second, with no minimum; finish turns every hour into its bill:
 *   commitment c, discount d, usage worth u at on-demand prices:
 *   u (1 - d) <= c: c, of which c - u (1 - d) is unused;
 *   else:           c + u - c / (1 - d)  (the rest at on-demand).
 * A last partial hour of the horizon commits its share of c. */
#include "models/purchase/purchase.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/grammar.h"

typedef struct plan_terms {
    double commitment;      /* $ an hour */
    double discount;        /* off the on-demand price */
} plan_terms;

_Static_assert(sizeof(plan_terms) <= sizeof(((fs_purchase_terms *)0)->own),
               "savings plan terms fit fs_purchase_terms.own");

typedef struct plan_state {
    size_t hours;
    double *usage;          /* on-demand $ of the instance-seconds of hour h */
} plan_state;

static const fs_key_doc plan_keys[] = {
    {"commitment", "money per hour", NULL,
     "$ committed every hour (12.50/h), used or not"},
    {"discount", "fraction", "catalog",
     "off the on-demand price for usage the commitment covers (0.37 or "
     "37%); default: the catalog's published 1-year plan discount of "
     "the instance, else its 1-year reserved discount (an "
     "approximation)"},
    {NULL, NULL, NULL, NULL},
};

static plan_terms get_terms(const fs_purchase_terms *t)
{
    plan_terms p;
    memcpy(&p, t->own.bytes, sizeof p);
    return p;
}

/* commitment = 12.50/h (or 12.50: $ an hour), > 0. */
static int read_commitment(const fs_purchase_reader *rd, plan_terms *p)
{
    const char *v = rd->value(rd->ctx, "commitment");
    char why[256];
    double x;
    if (!v)
        return rd->missing(rd->ctx, "commitment (a savings plan commits $ "
                           "an hour: commitment = 12.50/h)");
    if (v[strspn(v, " \t")] == '-') {
        snprintf(why, sizeof why, "must be more than $0 an hour, got '%s'",
                 v);
        return rd->bad(rd->ctx, "commitment", why);
    }
    if (fs_parse_rate(v, &x, why, sizeof why) == 0)
        x *= 3600;
    else if (fs_parse_money(v, &x, why, sizeof why))
        return rd->bad(rd->ctx, "commitment", "expected $ an hour, as "
                       "12.50/h");
    if (!(x > 0) || !isfinite(x)) {
        snprintf(why, sizeof why, "must be more than $0 an hour, got '%s'",
                 v);
        return rd->bad(rd->ctx, "commitment", why);
    }
    if (x > rd->max_price * 1e6) {
        snprintf(why, sizeof why, "at most $%.0f an hour, got '%s'",
                 rd->max_price * 1e6, v);
        return rd->bad(rd->ctx, "commitment", why);
    }
    p->commitment = x;
    return 0;
}

/* discount = 0.37, else the catalog's published 1-year plan discount,
 * else its 1-year reserved discount. */
static int read_discount(const fs_purchase_reader *rd, plan_terms *p,
                         const fs_purchase_terms *t)
{
    const char *v = rd->value(rd->ctx, "discount");
    char why[256], src[128];
    if (v) {
        if (fs_parse_fraction(v, &p->discount, why, sizeof why))
            return rd->bad(rd->ctx, "discount", why);
        if (!(p->discount > 0 && p->discount < 1))
            return rd->bad(rd->ctx, "discount", "must be between 0 and 1 "
                           "(0.37 or 37%)");
        return 0;
    }
    int published = rd->catalog_plan_discount(rd->ctx, 0, &p->discount);
    if (published)
        return published < 0 ? -1 : 0;
    double od, r1;
    if (rd->catalog_price(rd->ctx, FS_PRICE_ON_DEMAND, &od, src, sizeof src)
        || rd->catalog_price(rd->ctx, FS_PRICE_RESERVED_1Y, &r1, src,
                             sizeof src))
        return rd->missing(rd->ctx, "discount (the catalog cannot price "
                           "one: set discount = 0.37)");
    p->discount = od > 0 ? 1 - r1 / od : 0;
    (void)t;
    if (!(p->discount > 0 && p->discount < 1))
        return rd->missing(rd->ctx, "discount (the catalog's reserved rate "
                           "is no discount: set discount = 0.37)");
    return 0;
}

static int plan_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    plan_terms p = {0, 0};
    if (read_commitment(rd, &p))
        return -1;
    if (fs_purchase_read_price(rd, FS_PRICE_ON_DEMAND, t) ||
        read_discount(rd, &p, t))
        return -1;
    t->term_months = 0;
    memcpy(t->own.bytes, &p, sizeof p);
    return 0;
}

static void *plan_open(const fs_purchase_terms *t, const fs_calendar *cal)
{
    (void)t;
    plan_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->hours = (size_t)ceil(cal->horizon_s / 3600);
    s->usage = calloc(s->hours ? s->hours : 1, sizeof *s->usage);
    if (!s->usage) {
        free(s);
        return NULL;
    }
    return s;
}

static void plan_close(void *state)
{
    plan_state *s = state;
    if (s)
        free(s->usage);
    free(s);
}

/* An instance's life [t0, t1) into the hours' usage, and its GPU-hours
 * into the meter (the horizon cuts a life as a termination would). */
static void plan_terminate(const fs_purchase_terms *t,
                           const fs_purchase_bill *b, double t0, double t1)
{
    plan_state *s = b->state;
    if (t1 > b->cal->horizon_s)
        t1 = b->cal->horizon_s;
    if (!(t1 > t0))
        return;
    fs_meter_charge_span(b->meter, b->cal, t0, t1, 0, b->gpus);
    for (size_t h = (size_t)(t0 / 3600); h < s->hours && h * 3600.0 < t1;
         h++) {
        double a = fmax(t0, h * 3600.0), e = fmin(t1, (h + 1) * 3600.0);
        if (e > a)
            s->usage[h] += (e - a) * t->price / 3600;
    }
}

/* Every hour's bill; each charge spread over its hour's span (an hour
 * lies in one month when the start is on the hour). */
static void plan_finish(const fs_purchase_terms *t, const fs_purchase_bill *b,
                        long count)
{
    (void)count;
    plan_state *s = b->state;
    plan_terms p = get_terms(t);
    for (size_t h = 0; h < s->hours; h++) {
        double a = h * 3600.0, e = fmin(b->cal->horizon_s, a + 3600);
        if (!(e > a))
            continue;
        double frac = (e - a) / 3600, c = p.commitment * frac;
        double used = s->usage[h] * (1 - p.discount), paid, unused = 0;
        if (used <= c) {
            paid = used;
            unused = c - used;
        } else {
            paid = c + s->usage[h] - c / (1 - p.discount);
        }
        fs_meter_charge_span(b->meter, b->cal, a, e, paid / frac, 0);
        if (unused > 0 && b->unused)
            fs_meter_charge_span(b->unused, b->cal, a, e, unused / frac, 0);
        else if (unused > 0)
            fs_meter_charge_span(b->meter, b->cal, a, e, unused / frac, 0);
    }
}

const fs_purchase_option fs_purchase_savings_plan = {
    .name = "savings-plan",
    .commitment = FS_COMMIT_SPEND,
    .roi_own_rate = 1,
    .label = "on a savings plan",
    .focus_category = "Committed",
    .bill_label = "on the savings plan",
    .keys = plan_keys,
    .resolve = plan_resolve,
    .terminate = plan_terminate,
    .finish = plan_finish,
    .open = plan_open,
    .close = plan_close,
};
