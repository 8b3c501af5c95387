/* purchase_owned.c -- owned servers: bought, not rented, for buy versus
 * rent (doc/money.md "Owned servers", doc/energy.md).
 *
 * An owned pool is a fixed count of servers, each paid for once
 * (server_price, a quote) and written off straight-line over
 * depreciation_years: every hour of the horizon inside them carries price
 * / (years x 8,760 h) a server, whatever the servers did, as an
 * all-upfront reservation's hours do (nothing after: written off).
 * Beside that capex row the bill has three lines of its own, each its own
 * cost row: power (the energy the GPUs and the rest of the server
 * draw at the meter, energy.h's model scaled by the pool's utilization,
 * times energy_price), colocation (the servers' rated kW at colocation $
 * per kW-month of 730 hours, as data centres sell space and power), and
 * maintenance (a share of the price a year, or dollars a year). */
#include "models/purchase/purchase.h"
#include "models/purchase/owned.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim/base/grammar.h"

/* Hours in a year and in a month of colocation (8,760 / 12). */
#define HOURS_YEAR 8760.0
#define HOURS_MONTH 730.0
/* Bounds: what no server, rate or facility exceeds. */
#define MAX_SERVER_USD 1e8
#define MAX_YEARS 30.0

static const fs_key_doc owned_keys[] = {
    {"server_price", "money per server", NULL,
     "required: what one server (its gpus_per_instance GPUs) costs to buy"},
    {"depreciation_years", "years, above 0", "5",
     "straight-line depreciation: the price spread evenly over this many "
     "8,760-hour years"},
    {"maintenance", "fraction a year | $ a year", "0",
     "upkeep per server a year: a share of server_price (0.08 or 8%), or "
     "dollars ($12000)"},
    {"colocation", "money per kW-month", "0",
     "space, power delivery and cooling per kW of the servers' rated draw "
     "(their GPUs' TDP x (1 + host_share)) a 730-hour month"},
    {"energy_price", "money per kWh", NULL,
     "required: what a kWh at the meter costs"},
    {"pue", "ratio, at least 1", "1.56",
     "the facility's power usage effectiveness (Uptime Institute's 2024 "
     "survey average)"},
    {"host_share", "ratio, at least 0", "0",
     "the server's non-GPU draw (CPUs, memory, fans, network) per W the "
     "GPUs draw; DGX H100: 10.2 kW for 8 x 700 W GPUs = 0.82"},
    {NULL, NULL, NULL, NULL},
};

/* The owned pool's own terms (fs_purchase_terms.own); upfront_usd holds
 * server_price and term_months the depreciation in months. */
typedef struct owned_terms {
    double years;           /* depreciation_years */
    double maint_year;      /* $ a server-year */
    double colo_kw_month;   /* $ per kW-month */
    double energy_kwh;      /* $ per kWh */
    double pue, host_share;
} owned_terms;
_Static_assert(sizeof(owned_terms) <= sizeof(((fs_purchase_terms *)0)->own),
               "owned terms fit fs_purchase_terms.own");

static owned_terms own_of(const fs_purchase_terms *t)
{
    owned_terms o;
    memcpy(&o, t->own.bytes, sizeof o);
    return o;
}

/* A number key in [lo, hi] (absent: def): 0, or -1 refused. */
static int read_ratio(const fs_purchase_reader *rd, const char *key,
                      double lo, double hi, double def, double *out)
{
    *out = def;
    return fs_purchase_read_number(rd, key, lo, hi, out) < 0 ? -1 : 0;
}

/* maintenance: "$12000" (dollars a year) or "0.08" / "8%" (of the price
 * a year). */
static int read_maintenance(const fs_purchase_reader *rd, double price,
                            double *usd_year)
{
    const char *v = rd->value(rd->ctx, "maintenance");
    char why[600];
    double x;
    *usd_year = 0;
    if (!v)
        return 0;
    if (strchr(v, '$')) {
        if (fs_purchase_read_money(rd, "maintenance", MAX_SERVER_USD,
                                   "$100000000 a year", usd_year) < 0)
            return -1;
        return 0;
    }
    if (fs_parse_fraction(v, &x, why, sizeof why))
        return rd->bad(rd->ctx, "maintenance", "expected a share of "
                       "server_price a year (0.08 or 8%) or dollars a year "
                       "($12000)");
    *usd_year = x * price;
    return 0;
}

/* A required money key: 0, or -1 missing or refused. */
static int read_required(const fs_purchase_reader *rd, const char *key,
                         double max, const char *bound, const char *what,
                         double *out)
{
    int given = fs_purchase_read_money(rd, key, max, bound, out);
    if (given < 0)
        return -1;
    if (!given)
        return rd->missing(rd->ctx, what);
    return 0;
}

static int owned_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    owned_terms o = {0};
    if (rd->value(rd->ctx, "price"))
        return rd->bad(rd->ctx, "price", "an owned pool is paid by "
                       "server_price and its lines, not by the hour: "
                       "remove price");
    if (read_required(rd, "server_price", MAX_SERVER_USD, "$100000000 a "
                      "server", "server_price (an owned pool's price per "
                      "server: a quote)", &t->upfront_usd) ||
        read_required(rd, "energy_price", 10, "$10 a kWh", "energy_price "
                      "(an owned pool's $ per kWh at the meter)",
                      &o.energy_kwh) ||
        read_ratio(rd, "depreciation_years", 0, MAX_YEARS, 5, &o.years) ||
        read_maintenance(rd, t->upfront_usd, &o.maint_year) ||
        fs_purchase_read_money(rd, "colocation", 1e5, "$100000 per "
                               "kW-month", &o.colo_kw_month) < 0 ||
        read_ratio(rd, "pue", 1, 5, 1.56, &o.pue) ||
        read_ratio(rd, "host_share", 0, 10, 0, &o.host_share))
        return -1;
    double months = o.years * 12;
    if (!(o.years > 0) || fabs(months - round(months)) > 1e-9)
        return rd->bad(rd->ctx, "depreciation_years", "expected years above "
                       "0 in whole months (5, 2.5): the price is spread over "
                       "their hours");
    /* Paid up front and written off over the term, as an all-upfront
     * reservation is amortized: no hourly fee, the price as the upfront,
     * the depreciation as the term (the FOCUS export's Purchase row and
     * contracted rate follow from them). */
    t->term_months = (int)round(months);
    t->price = 0;
    snprintf(t->price_source, sizeof t->price_source, "server_price key, "
             "%g-year straight line", o.years);
    memcpy(t->own.bytes, &o, sizeof o);
    return 0;
}

/* Nothing per launch: an owned server costs what it costs. */
static void owned_terminate(const fs_purchase_terms *t,
                            const fs_purchase_bill *b, double t0, double t1)
{
    (void)t, (void)b, (void)t0, (void)t1;
}

static void owned_facility(const fs_purchase_terms *t, fs_energy_model *e)
{
    owned_terms o = own_of(t);
    e->host_share = o.host_share;
    e->pue = o.pue;
}

/* The power line: the run's energy (energy.h, over its provisioned and
 * busy GPU-hours) at energy_price, spread over the months by their hours
 * inside the horizon. */
static void bill_power(const fs_purchase_terms *t, const fs_purchase_bill *b,
                       fs_meter *m)
{
    fs_energy_model e = {b->tdp_w, b->idle_w, 0, 1};
    owned_facility(t, &e);
    double usd = fs_energy_kwh(&e, b->gpu_hours, b->busy_gpu_hours) *
                 own_of(t).energy_kwh;
    if (b->cal->horizon_s > 0)
        fs_meter_charge_span(m, b->cal, 0, b->cal->horizon_s,
                             usd * 3600 / b->cal->horizon_s, 0);
}

/* The hourly rates of n servers of gpus GPUs (tdp_w each): capex
 * (written off), colocation of their rated kW, maintenance; the bill
 * (owned_finish) and buy versus rent (fs_owned_month_cost) both. */
typedef struct owned_rates {
    double capex, colocation, maintenance;
} owned_rates;

static owned_rates rates_of(const fs_purchase_terms *t, double n, int gpus,
                            double tdp_w)
{
    owned_terms o = own_of(t);
    double kw = gpus * (tdp_w > 0 ? tdp_w : 0) * (1 + o.host_share) / 1000;
    return (owned_rates){n * t->upfront_usd / fs_term_hours(t->term_months),
                         n * kw * o.colo_kw_month / HOURS_MONTH,
                         n * o.maint_year / HOURS_YEAR};
}

/* Every hour of the horizon for each of count servers: capex (with the
 * GPU-hours), power, colocation of the rated kW, maintenance. */
static void owned_finish(const fs_purchase_terms *t, const fs_purchase_bill *b,
                         long count)
{
    double h = b->cal->horizon_s;
    owned_rates r = rates_of(t, (double)count, b->gpus, b->tdp_w);
    double term_s = fs_term_hours(t->term_months) * 3600;
    fs_meter_charge_span(b->meter, b->cal, 0, h < term_s ? h : term_s,
                         r.capex, (int)(count * b->gpus));
    if (!b->lines)
        return;
    bill_power(t, b, &b->lines[0]);
    fs_meter_charge_span(&b->lines[1], b->cal, 0, h, r.colocation, 0);
    fs_meter_charge_span(&b->lines[2], b->cal, 0, h, r.maintenance, 0);
}

int fs_owned_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    return owned_resolve(rd, t);
}

void fs_owned_month_cost(const fs_purchase_terms *t, double servers,
                         int gpus, double tdp_w, double idle_w, double util,
                         fs_owned_month *m)
{
    owned_rates r = rates_of(t, servers, gpus, tdp_w);
    fs_energy_model e = {tdp_w, idle_w, 0, 1};
    owned_facility(t, &e);
    double gh = servers * gpus * HOURS_MONTH;
    m->capex = r.capex * HOURS_MONTH;
    m->power = fs_energy_kwh(&e, gh, util * gh) * own_of(t).energy_kwh;
    m->colocation = r.colocation * HOURS_MONTH;
    m->maintenance = r.maintenance * HOURS_MONTH;
}

double fs_owned_month_total(const fs_owned_month *m)
{
    return m->capex + m->power + m->colocation + m->maintenance;
}

const fs_purchase_option fs_purchase_owned = {
    .name = "owned",
    .commitment = FS_COMMIT_COUNT,
    .label = "owned",
    .focus_category = "Committed",
    .bill_label = "owned (depreciated, with power, colocation and "
                  "maintenance)",
    .fixed_count = "owned pools have a fixed count of servers; autoscale an "
                   "on-demand pool beside them",
    .keys = owned_keys,
    .resolve = owned_resolve,
    .terminate = owned_terminate,
    .lines = {"-power", "-colocation",
              "-maintenance", NULL},
    .finish = owned_finish,
    .facility = owned_facility,
};
