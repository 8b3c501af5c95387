/* commit_focus.c -- `fleetsim commit --format focus`: the recommended buys
 * as FOCUS 1.2 Purchase rows, the columns of `export --format focus`
 * (sim/app/focus.h), so that a FinOps tool loads the plan beside the
 * simulated bill.
 *
 * Bought on the first run's start date (its scenario's `start`):
 * - a reservation with an upfront payment: one row, ChargeFrequency
 *   One-Time, BilledCost count x upfront;
 * - a reservation's hourly fee and a savings plan's commitment: Recurring
 *   rows, one per calendar month (UTC) of the term (8760 h a year, as the
 *   providers count a term), BilledCost the $ an hour x the month's hours
 *   in the term, in cents rounded so that the months add up to the term's
 *   total (as the bill's months do, billing.h fs_meter_cents).
 * So the One-Time rows add up to the portfolio's upfront, and each
 * option's Recurring rows to its $ an hour x the term's hours.  A
 * Purchase row's EffectiveCost is 0: a commitment bought for future usage
 * shows its cost on the usage it covers (FOCUS 1.2, EffectiveCost);
 * ListCost and ContractedCost are what it is billed.  CommitmentDiscount
 * columns name each buy (Category Usage for a reservation, Spend for a
 * savings plan); its Status, a property of usage, is null. */
#include "sim/cli/commit/commit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/purchase/billing.h"
#include "models/purchase/purchase.h"
#include "sim/app/focus.h"
#include "sim/base/textout.h"

static const char *const upfront_words[] = {"no", "partial", "all"};

/* One Purchase row. */
typedef struct buy {
    const char *frequency;      /* One-Time, Recurring */
    int spend;                  /* a savings plan (else a reservation) */
    const char *pricing;        /* the option's name */
    char id[240], name[256], desc[320], sku[200];
    long long cents;
    double qty, unit_price;     /* PricingQuantity and its price */
    const char *unit;           /* Hours, Units */
    double cd_qty;              /* CommitmentDiscountQuantity */
    const char *type;           /* CommitmentDiscountType; NULL: by spend */
    time_t t0, t1;
} buy;

static void stamp(time_t at, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&at, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The first second of the month holding at, plus k months. */
static time_t month_start(time_t at, int k)
{
    struct tm tm;
    gmtime_r(&at, &tm);
    struct tm first = {.tm_year = tm.tm_year, .tm_mon = tm.tm_mon + k,
                       .tm_mday = 1};
    return timegm(&first);
}

static void write_row(FILE *out, const buy *b)
{
    char billed[40], qty[40], up[40], cdq[40], bs[32], be[32], cs[32], ce[32];
    char provider[64], service[64], invoice[64], details[96];
    snprintf(billed, sizeof billed, "%s%lld.%02lld", b->cents < 0 ? "-" : "",
             llabs(b->cents) / 100, llabs(b->cents) % 100);
    snprintf(qty, sizeof qty, "%.6f", b->qty);
    snprintf(up, sizeof up, "%.6f", b->unit_price);
    snprintf(cdq, sizeof cdq, "%.6f", b->cd_qty);
    stamp(month_start(b->t0, 0), bs, sizeof bs);
    stamp(month_start(b->t0, 1), be, sizeof be);
    stamp(b->t0, cs, sizeof cs);
    stamp(b->t1, ce, sizeof ce);
    struct tm tm;
    gmtime_r(&b->t0, &tm);
    snprintf(invoice, sizeof invoice, "fleetsim-commit-%04d%02d",
             tm.tm_year + 1900, tm.tm_mon + 1);
    fs_focus_provider(b->sku, provider, sizeof provider, service,
                      sizeof service);
    snprintf(details, sizeof details, "{\"x_PurchaseOption\":\"%s\"}",
             b->pricing);
    const char *v[FS_FOCUS_NCOLS] = {
        billed, "fleetsim", "simulated", "USD", be, bs, "Purchase", NULL,
        b->desc, b->frequency, ce, cs, b->spend ? "Spend" : "Usage", b->id,
        b->name, cdq, NULL, b->type ? b->type : b->spend ? "Savings Plan"
        : "Reserved Instance",
        b->spend ? "USD" : "Hours", NULL, NULL, billed, up, "0.00", invoice,
        provider, billed, up, "Standard", qty, b->unit, provider, provider,
        NULL, NULL, b->id, b->name, b->type ? b->type : b->spend ?
        "Savings Plan" : "Reserved Instance", "Compute", service, "Virtual Machines", b->sku,
        "GPU instance-hours", details, b->id, "fleetsim", "fleetsim", "{}",
        NULL, NULL, NULL, b->pricing, NULL, NULL, NULL,
    };
    for (size_t i = 0; i < FS_FOCUS_NCOLS; i++) {
        fs_csv_write_field(out, v[i]);
        fputc(i + 1 == FS_FOCUS_NCOLS ? '\n' : ',', out);
    }
}

/* Recurring rows of b's kind at usd_h over the term from start: one a
 * calendar month, the cents of the running total rounded. */
static void recurring_rows(FILE *out, buy *b, time_t start, int term_months,
                           double usd_h, double units)
{
    time_t end = start + (time_t)llround(fs_term_hours(term_months) * 3600);
    long long done = 0;
    b->frequency = "Recurring";
    b->unit = "Hours";
    b->unit_price = usd_h / units;
    for (int k = 0; month_start(start, k) < end; k++) {
        b->t0 = k ? month_start(start, k) : start;
        b->t1 = month_start(start, k + 1) < end ? month_start(start, k + 1)
                                                : end;
        double to_end = (double)(b->t1 - start) / 3600;
        long long total = llround(usd_h * to_end * 100);
        b->cents = total - done;
        done = total;
        b->qty = (double)(b->t1 - b->t0) / 3600 * units;
        b->cd_qty = b->spend ? (double)b->cents / 100 : b->qty;
        write_row(out, b);
    }
}

static void reservation_rows(FILE *out, const fs_commit_inputs *in,
                             const fs_pf_solution *s, time_t start)
{
    const char *name = fs_purchase_committing(FS_COMMIT_COUNT)->name;
    for (size_t o = 0; o < in->noptions; o++) {
        const fs_pf_option *op = &in->options[o];
        long k = s->count[o];
        if (k <= 0)
            continue;
        buy b = {.pricing = name};
        const char *g = in->group_names[op->group];
        snprintf(b.sku, sizeof b.sku, "%s", g);
        snprintf(b.id, sizeof b.id, "fleetsim/commit/%s/%s/%dm/%s", name, g,
                 op->term_months, upfront_words[op->upfront_kind]);
        snprintf(b.name, sizeof b.name, "%ld x %s, %d-year, %s upfront", k,
                 g, op->term_months / 12, upfront_words[op->upfront_kind]);
        snprintf(b.desc, sizeof b.desc, "recommended by fleetsim commit: "
                 "%s", b.name);
        if (op->upfront > 0) {
            b.frequency = "One-Time";
            b.unit = "Units";
            b.cents = llround((double)k * op->upfront * 100);
            b.qty = (double)k;
            b.unit_price = op->upfront;
            b.cd_qty = (double)k * fs_term_hours(op->term_months);
            b.t0 = start;
            b.t1 = start + 3600;
            write_row(out, &b);
        }
        if (op->hourly > 0)
            recurring_rows(out, &b, start, op->term_months,
                           (double)k * op->hourly, (double)k);
    }
}

static void plan_rows(FILE *out, const fs_pf_solution *s, time_t start)
{
    const char *name = fs_purchase_committing(FS_COMMIT_SPEND)->name;
    for (int t = 0; t < FS_PF_PLANS; t++) {
        if (s->plan[t] <= 1e-9)
            continue;
        buy b = {.pricing = name, .spend = 1};
        snprintf(b.sku, sizeof b.sku, "any eligible instance");
        snprintf(b.id, sizeof b.id, "fleetsim/commit/%s/%dm", name,
                 t ? 36 : 12);
        snprintf(b.name, sizeof b.name, "%s $%.4f/h, %d-year", name,
                 s->plan[t], t ? 3 : 1);
        snprintf(b.desc, sizeof b.desc, "recommended by fleetsim commit: "
                 "%s", b.name);
        recurring_rows(out, &b, start, t ? 36 : 12, s->plan[t], 1);
    }
}

/* A recommended capacity block: one One-Time row, paid up front when
 * bought (AWS charges a block's fee at purchase), its quantity the
 * block's instance-hours at the block rate; bought at the window's
 * start. */
static void block_rows(FILE *out, const fs_commit_blocks_list *bl,
                       time_t start)
{
    for (size_t i = 0; bl && i < bl->n; i++) {
        const fs_commit_block *k = &bl->b[i];
        const fs_block_offer *o = &k->offer;
        if (!k->recommended)
            continue;
        buy b = {.pricing = fs_commit_block_option(), .type = "Capacity Block",
                 .frequency = "One-Time", .unit = "Hours"};
        snprintf(b.sku, sizeof b.sku, "%s", k->instance);
        snprintf(b.id, sizeof b.id, "fleetsim/commit/%s/%s/run%ld/%s",
                 b.pricing, k->instance, k->run_id, k->pool);
        snprintf(b.name, sizeof b.name, "%ld x %s capacity block, %s, for "
                 "pool %s", o->count, k->instance, k->term, k->pool);
        snprintf(b.desc, sizeof b.desc, "recommended by fleetsim commit: "
                 "%s", b.name);
        b.cents = llround(o->block_usd * 100);
        b.qty = (double)o->count * o->days * 24;
        b.unit_price = o->rate;
        b.cd_qty = b.qty;
        b.t0 = start + (time_t)floor(o->start_s);
        b.t1 = b.t0 + 3600;
        write_row(out, &b);
    }
}

void fs_commit_print_focus(FILE *out, const fs_commit_inputs *in,
                           const fs_pf_solution *sol,
                           const fs_commit_blocks_list *bl, long long start)
{
    for (size_t i = 0; i < FS_FOCUS_NCOLS; i++) {
        fs_csv_write_field(out, fs_focus_columns[i]);
        fputc(i + 1 == FS_FOCUS_NCOLS ? '\n' : ',', out);
    }
    reservation_rows(out, in, sol, (time_t)start);
    plan_rows(out, sol, (time_t)start);
    block_rows(out, bl, (time_t)start);
}
