/* export_focus.c -- the rows of export_rows.c as a FOCUS 1.2 cost and
 * usage dataset (https://focus.finops.org, version 1.2).
 *
 * Every Mandatory column, and the Conditional ones whose condition a
 * simulated cloud bill meets (commitments, unit prices, SKUs, tags,
 * resources), in the spec's order; fleetsim's own columns after them,
 * prefixed x_.  A null is an empty field.  Amounts are in USD to the cent,
 * quantities and unit prices with six decimals, times in UTC
 * (YYYY-MM-DDTHH:MM:SSZ), a billing period a calendar month.
 * tests/cli_export_focus.sh checks an export against the spec's column
 * list (tests/data/focus-1.2/columns.csv).
 *
 * Per row (see doc/money.md, "Exporting the bill"):
 * - ListCost: the on-demand list price (ListUnitPrice) x PricingQuantity
 *   (instance-hours); ContractedCost: the commitment's rate
 *   (ContractedUnitPrice) x PricingQuantity; EffectiveCost: amortized;
 *   BilledCost: as billed, a reservation's upfront in its Purchase row.
 * - Every cost with a unit price is that price x PricingQuantity (as
 *   written, six decimals) to the cent: the published price where the
 *   row's cents are its product, else the price to ten decimals (a row
 *   whose share of the pool's list cost was rounded the other way, so
 *   that the rows still add up to it: export_rows.c).
 * - A commitment's unused part: its own Usage rows with
 *   CommitmentDiscountStatus Unused, ResourceId the commitment's id.
 * - InvoiceId: a simulated invoice per run and billing period,
 *   fleetsim-RUN-YYYYMM. */
#include "sim/cli/export/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/textout.h"
#include "models/purchase/purchase.h"
#include "sim/app/focus.h"


enum { NCOLS = FS_FOCUS_NCOLS };

/* The text of one row's cells. */
typedef struct cells {
    char billed[32], effective[32], list[32], contracted[32], amort[32];
    char qty[40], cqty[40], consumed[40], busy[40], lup[40], cup[40];
    char bstart[32], bend[32], cstart[32], cend[32], run_id[32];
    char invoice[64];
    char provider[64], service[64], resource[200], cd_id[240], desc[300];
    char sku[128], sku_price[200], sku_details[96];
    char tags[FS_TAGS_JSON_MAX];
} cells;

static void money(char *buf, size_t len, long long cents)
{
    snprintf(buf, len, "%s%lld.%02lld", cents < 0 ? "-" : "",
             llabs(cents) / 100, llabs(cents) % 100);
}

/* Six decimals, never "-0.000000"; "" (null) for NaN. */
static const char *decimal(char *buf, size_t len, double v)
{
    if (isnan(v))
        return NULL;
    if (fabs(v) < 5e-7)
        v = 0;
    snprintf(buf, len, "%.6f", v);
    return buf;
}

/* UTC, YYYY-MM-DDTHH:MM:SSZ. */
static void stamp_at(time_t at, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&at, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The calendar month (UTC) holding t seconds after the start. */
static void billing_period(const fs_export_run *r, double t, cells *c)
{
    time_t at = r->start + (time_t)llround(t);
    struct tm tm;
    gmtime_r(&at, &tm);
    struct tm first = {.tm_year = tm.tm_year, .tm_mon = tm.tm_mon,
                       .tm_mday = 1};
    stamp_at(timegm(&first), c->bstart, sizeof c->bstart);
    /* a simulated invoice per run and billing period */
    snprintf(c->invoice, sizeof c->invoice, "fleetsim-%ld-%04d%02d", r->id,
             tm.tm_year + 1900, tm.tm_mon + 1);
    first.tm_mon++;
    stamp_at(timegm(&first), c->bend, sizeof c->bend);
}

/* The provider and service, from an instance type "aws:p4d.24xlarge". */
static void provider_of(const fs_export_pool *p, cells *c)
{
    fs_focus_provider(p->instance_type, c->provider, sizeof c->provider,
                      c->service, sizeof c->service);
}

static void describe(const fs_export_row *row, cells *c)
{
    const fs_export_pool *p = row->pool;
    if (row->kind == FS_EXPORT_PURCHASE)
        snprintf(c->desc, sizeof c->desc, "upfront payment for %ld reserved "
                 "%s instance(s), %d-month term", p->instances, p->gpu,
                 p->term_months);
    else if (row->kind == FS_EXPORT_UNUSED)
        snprintf(c->desc, sizeof c->desc, "unused %s commitment of pool %s",
                 p->pricing, p->name);
    else
        snprintf(c->desc, sizeof c->desc, "%s %s instances of pool %s",
                 p->pricing, p->gpu, p->name);
}

/* Rounded to the six decimals a quantity is written with: the products
 * below are of the figures as written. */
static double as_written(double q)
{
    return round(q * 1e6) / 1e6;
}

/* A unit price whose product with quantity q (as written) is cents to the
 * cent: the published price where it is (six decimals), else cents / q
 * written to ten decimals (a row whose cents were rounded the other way,
 * or a price derived from the cost); with no quantity, the published
 * price. */
static const char *unit_price(char *buf, size_t len, double published,
                              long long cents, double q)
{
    double qw = as_written(q);
    if (published > 0 && llround(published * qw * 100) == cents)
        return decimal(buf, len, published);
    if (!(qw > 0))
        return decimal(buf, len, published > 0 ? published : 0);
    snprintf(buf, len, "%.10f", (double)cents / 100 / qw);
    size_t n = strlen(buf);   /* no zeros past the sixth decimal */
    while (n > 0 && buf[n - 1] == '0' && strchr(buf, '.') + 7 < buf + n)
        buf[--n] = '\0';
    return buf;
}

/* The unit prices and ContractedCost, each cost its unit price x
 * PricingQuantity to the cent (FOCUS 1.2, ListCost and ContractedCost).
 * ListUnitPrice: the on-demand list price of a usage row; of an unused or
 * purchase row, what a unit of it costs.  ContractedUnitPrice: a
 * commitment's rate (ContractedCost its product); at list price, the list
 * price; a spot pool's, or where no rate is known, what a unit cost
 * (ContractedCost = EffectiveCost). */
static void prices(const fs_export_row *row, cells *c, const char **lup,
                   const char **cup)
{
    const fs_export_pool *p = row->pool;
    int usage = row->kind == FS_EXPORT_USAGE;
    double q = row->quantity;
    long long cost = usage ? row->effective_cents : row->list_cents;
    *lup = unit_price(c->lup, sizeof c->lup, usage ? p->list_usd_h : 0,
                      row->list_cents, q);
    if (!usage)
        *cup = *lup;
    else if (fs_export_is_committed(p) && p->contracted_usd_h > 0) {
        *cup = decimal(c->cup, sizeof c->cup, p->contracted_usd_h);
        cost = llround(strtod(*cup, NULL) * as_written(q) * 100);
    } else if (!strcmp(p->category, "Standard"))
        *cup = unit_price(c->cup, sizeof c->cup, p->list_usd_h, cost, q);
    else   /* spot: its price where the row's cost is its product */
        *cup = unit_price(c->cup, sizeof c->cup, p->price_usd_h, cost, q);
    money(c->contracted, sizeof c->contracted, cost);
}

static void fill(const fs_export_row *row, cells *c)
{
    const fs_export_run *r = row->run;
    const fs_export_pool *p = row->pool;
    money(c->billed, sizeof c->billed, row->billed_cents);
    money(c->effective, sizeof c->effective, row->effective_cents);
    money(c->list, sizeof c->list, row->list_cents);
    money(c->amort, sizeof c->amort, row->amortized_cents);
    billing_period(r, row->t0, c);
    stamp_at(r->start + (time_t)llround(row->t0), c->cstart,
             sizeof c->cstart);
    stamp_at(r->start + (time_t)llround(row->t1), c->cend, sizeof c->cend);
    snprintf(c->run_id, sizeof c->run_id, "%ld", r->id);
    provider_of(p, c);
    snprintf(c->resource, sizeof c->resource, "fleetsim/run/%ld/pool/%s",
             r->id, p->name);
    snprintf(c->cd_id, sizeof c->cd_id, "%s/%s", c->resource,
             fs_export_spend_based(p)
                 ? fs_purchase_committing(FS_COMMIT_SPEND)->name
                 : "reservation");
    if (p->instance_type[0])
        snprintf(c->sku, sizeof c->sku, "%s", p->instance_type);
    else
        snprintf(c->sku, sizeof c->sku, "gpu:%s", p->gpu);
    if (p->term_months > 0)
        snprintf(c->sku_price, sizeof c->sku_price, "%s/%s/%dm", c->sku,
                 p->pricing, p->term_months);
    else
        snprintf(c->sku_price, sizeof c->sku_price, "%s/%s", c->sku,
                 p->pricing);
    /* the purchase option and term of the price (strings: the spec's
     * numeric properties are per PricingUnit) */
    if (p->term_months > 0)
        snprintf(c->sku_details, sizeof c->sku_details,
                 "{\"x_PurchaseOption\":\"%s\",\"x_TermMonths\":\"%d\"}",
                 p->pricing, p->term_months);
    else
        snprintf(c->sku_details, sizeof c->sku_details,
                 "{\"x_PurchaseOption\":\"%s\"}", p->pricing);
    describe(row, c);
    fs_tags_json(p->tags, NULL, c->tags, sizeof c->tags);
}

int fs_export_write_focus(FILE *f, const fs_export_row *row)
{
    const fs_export_pool *p = row->pool;
    cells *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    fill(row, c);
    int buy = row->kind == FS_EXPORT_PURCHASE;
    int unused = row->kind == FS_EXPORT_UNUSED;
    int committed = fs_export_is_committed(p);
    int spend = fs_export_spend_based(p);
    const char *lup, *cup;
    prices(row, c, &lup, &cup);
    const char *qty = decimal(c->qty, sizeof c->qty, row->quantity);
    const char *cqty = committed ? decimal(c->cqty, sizeof c->cqty,
                                           row->commit_quantity) : NULL;
    const char *cunit = cqty ? (spend ? "USD" : "Hours") : NULL;
    const char *consumed = buy || unused ? NULL
        : decimal(c->consumed, sizeof c->consumed, row->gpu_hours);
    const char *v[NCOLS] = {
        c->billed, "fleetsim", "simulated", "USD", c->bend, c->bstart,
        buy ? "Purchase" : "Usage", NULL, c->desc,
        buy ? "One-Time" : committed ? "Recurring" : "Usage-Based",
        c->cend, c->cstart,
        committed ? (spend ? "Spend" : "Usage") : NULL,
        committed ? c->cd_id : NULL, committed ? p->name : NULL, cqty,
        committed && !buy ? (unused ? "Unused" : "Used") : NULL,
        committed ? (spend ? "Savings Plan" : "Reserved Instance") : NULL,
        cunit, consumed, consumed ? "GPU-Hours" : NULL, c->contracted, cup,
        c->effective, c->invoice, c->provider, c->list, lup,
        buy ? "Standard" : p->category, qty,
        qty ? (unused && spend ? "USD" : "Hours") : NULL,
        c->provider, c->provider, NULL, NULL,
        unused || buy ? c->cd_id : c->resource, p->name,
        p->instance_type[0] ? p->instance_type : "GPU instance", "Compute",
        c->service, "Virtual Machines", c->sku, "GPU instance-hours",
        c->sku_details, c->sku_price, "fleetsim",
        "fleetsim", c->tags, c->run_id, row->run->name, p->name, p->pricing,
        p->gpu, buy || unused ? NULL : decimal(c->busy, sizeof c->busy,
                                               row->busy_gpu_hours),
        c->amort,
    };
    for (size_t i = 0; i < NCOLS; i++) {
        fs_csv_write_field(f, v[i]);
        fputc(i + 1 == NCOLS ? '\n' : ',', f);
    }
    free(c);
    return 0;
}

/* The provider's service for a cost beside the GPU hour: its object
 * storage, or what bills its data transfer. */
static const char *extra_service(const char *provider, int transfer)
{
    static const struct { const char *name, *storage, *transfer; } svc[] = {
        {"AWS", "Amazon Simple Storage Service", "AWS Data Transfer"},
        {"Google Cloud", "Cloud Storage", "Virtual Private Cloud"},
        {"Microsoft", "Storage", "Bandwidth"},
    };
    for (size_t i = 0; i < sizeof svc / sizeof svc[0]; i++)
        if (!strcmp(provider, svc[i].name))
            return transfer ? svc[i].transfer : svc[i].storage;
    return transfer ? "Data transfer" : "Object storage";
}

/* What each cost_extra item is a line of, for its resource id and its
 * description: the data it prices and what its count counts. */
static const struct extra_item {
    const char *item, *data, *one, *many;
} extra_items[] = {
    {"checkpoint-storage", "checkpoints", "checkpoint kept",
     "checkpoints kept"},
    {"checkpoint-transfer", "checkpoints", "checkpoint restored",
     "checkpoints restored"},
    {"model-storage", "weights", "copy of the model's weights kept",
     "copies of the model's weights kept"},
    {"weights-transfer", "weights", "cold start pulling the weights",
     "cold starts pulling the weights"},
};

static const struct extra_item *extra_item_of(const char *item)
{
    for (size_t i = 0; i < sizeof extra_items / sizeof extra_items[0]; i++)
        if (!strcmp(extra_items[i].item, item))
            return &extra_items[i];
    return &extra_items[0];
}

/* The cells of a cost_extra row: ids, periods, provider, SKU. */
static void fill_extra(const fs_export_run *r, const fs_export_extra *x,
                       int transfer, cells *c)
{
    const struct extra_item *it = extra_item_of(x->item);
    fs_export_pool p = {0};
    snprintf(p.instance_type, sizeof p.instance_type, "%s", x->instance_type);
    provider_of(&p, c);
    snprintf(c->service, sizeof c->service, "%s",
             extra_service(c->provider, transfer));
    money(c->billed, sizeof c->billed, x->cents);
    billing_period(r, x->t0, c);
    stamp_at(r->start + (time_t)llround(x->t0), c->cstart, sizeof c->cstart);
    stamp_at(r->start + (time_t)llround(x->t1), c->cend, sizeof c->cend);
    snprintf(c->run_id, sizeof c->run_id, "%ld", r->id);
    snprintf(c->resource, sizeof c->resource,
             "fleetsim/run/%ld/pool/%s/workload/%s/%s", r->id,
             x->pool, x->workload, it->data);
    const char *colon = strchr(x->instance_type, ':');
    snprintf(c->sku, sizeof c->sku, "%.*s:%s",
             colon ? (int)(colon - x->instance_type) : 8,
             colon ? x->instance_type : "fleetsim", x->item);
    snprintf(c->sku_price, sizeof c->sku_price, "%s/published", c->sku);
    snprintf(c->sku_details, sizeof c->sku_details, "{\"x_Item\":\"%s\"}",
             x->item);
    snprintf(c->desc, sizeof c->desc, "%s of workload %s on pool %s: %ld "
             "%s", x->item, x->workload, x->pool, x->count,
             x->count == 1 ? it->one : it->many);
    snprintf(c->tags, sizeof c->tags, "%s", x->tags[0] ? x->tags : "{}");
}

int fs_export_write_focus_extra(FILE *f, const fs_export_run *r,
                                const fs_export_extra *x)
{
    cells *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    int transfer = !strcmp(x->category, "Networking");
    fill_extra(r, x, transfer, c);
    const char *qty = decimal(c->qty, sizeof c->qty, x->quantity);
    const char *up = unit_price(c->lup, sizeof c->lup, x->unit_price,
                                x->cents, x->quantity);
    const char *v[NCOLS] = {
        c->billed, "fleetsim", "simulated", "USD", c->bend, c->bstart,
        "Usage", NULL, c->desc, "Usage-Based", c->cend, c->cstart,
        NULL, NULL, NULL, NULL, NULL, NULL, NULL, qty, x->unit, c->billed,
        up, c->billed, c->invoice, c->provider, c->billed, up, "Standard",
        qty, x->unit, c->provider, c->provider, NULL, NULL, c->resource,
        x->workload, transfer ? "Data transfer" : "Object storage",
        x->category, c->service,
        transfer ? "Network Connectivity" : "Object Storage", c->sku,
        transfer ? "Data transfer GB" : "Storage GB-Months",
        c->sku_details, c->sku_price, "fleetsim", "fleetsim", c->tags,
        c->run_id, r->name, x->pool, x->item, NULL, NULL, "0.00",
    };
    for (size_t i = 0; i < NCOLS; i++) {
        fs_csv_write_field(f, v[i]);
        fputc(i + 1 == NCOLS ? '\n' : ',', f);
    }
    free(c);
    return 0;
}
