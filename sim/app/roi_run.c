/* roi_run.c -- one run's reservation recommendation per pool (roi_run.h).
 *
 * For each pool of the run (or the one named): its instances launched hour
 * by hour, provisioning included, from the utilization table (each sample
 * the time average of GPUs provisioned over its metrics interval, over the
 * pool's GPUs per instance, spread over the hours it covers), over the
 * last lookback of the run: every second the run bills, so that the "all
 * on demand" baseline of an on-demand pool is the run's own bill; its prices (on demand: the
 * pool's own rate when it is an on-demand pool, else the catalog's; the
 * reserved rate from the catalog, split for partial and all upfront as the
 * scenario does); then models/purchase/roi.c chooses.  A pool whose rates the
 * catalog does not know gets a note instead. */
#include "sim/app/roi_run.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/billing.h"
#include "models/catalog/catalog.h"
#include "models/purchase/purchase.h"
#include "sim/base/grammar.h"
#include "sim/store/store.h"

/* One pool row of the run. */
typedef struct pool_info {
    char pool[256], gpu[64], pricing[32], source[160];
    char quotes[512];   /* the pool's reserved_* quote keys ("" none) */
    double price;
    int gpi;            /* GPUs per instance as stored (0: not stored) */
} pool_info;

void fs_roi_query_default(fs_roi_query *q)
{
    memset(q, 0, sizeof *q);
    q->term_months = 12;
    q->plan_discount = NAN;
    q->rate = 0.08;
    q->lookback_s = -1;
}

static void copy_col(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* The run's pools (or the one named), in the order they were stored. */
static int read_pools(sqlite3 *db, long run, const char *only,
                      pool_info **out, size_t *n, fs_error *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT pool, gpu, pricing, instance, "
                           "price_usd_h, rate_quotes, gpus_per_instance FROM pool "
                           "WHERE run_id = ?1 AND (?2 IS NULL OR pool = ?2) "
                           "ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        return fs_error_set(err, "%s", sqlite3_errmsg(db));
    sqlite3_bind_int64(st, 1, run);
    if (only)
        sqlite3_bind_text(st, 2, only, -1, SQLITE_STATIC);
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            pool_info *p = realloc(*out, cap * sizeof *p);
            if (!p) {
                sqlite3_finalize(st);
                return fs_error_set(err, "out of memory");
            }
            *out = p;
        }
        pool_info *p = &(*out)[(*n)++];
        copy_col(st, 0, p->pool, sizeof p->pool);
        copy_col(st, 1, p->gpu, sizeof p->gpu);
        copy_col(st, 2, p->pricing, sizeof p->pricing);
        copy_col(st, 3, p->source, sizeof p->source);
        p->price = sqlite3_column_double(st, 4);
        copy_col(st, 5, p->quotes, sizeof p->quotes);
        p->gpi = sqlite3_column_int(st, 6);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fs_error_set(err, "%s", sqlite3_errmsg(db));
    return 0;
}

/* Hour-by-hour demand of pool p over [0, horizon): *hours of them, in
 * instances launched (provisioning included: every second the run bills),
 * each sample's GPUs provisioned over the pool's GPUs per instance; and
 * *gpi, those GPUs per instance.  A database without them stored falls
 * back on instances up (*gpi: GPUs provisioned over instances up, time-
 * averaged; 0 when nothing was up).  A sample spanning more than an hour
 * is refused: hourly demand cannot be read from it. */
static int read_demand(sqlite3 *db, long run, const pool_info *p,
                       double horizon, double **demand, size_t *hours,
                       double *gpi, fs_error *err)
{
    size_t n = (size_t)ceil(horizon / 3600 - 1e-9);
    double *d = calloc(n ? n : 1, sizeof *d);
    sqlite3_stmt *st;
    if (!d)
        return fs_error_set(err, "out of memory");
    if (sqlite3_prepare_v2(db, "SELECT t_s, instances_up, gpus_provisioned "
                           "FROM utilization "
                           "WHERE run_id = ?1 AND pool = ?2 ORDER BY t_s",
                           -1, &st, NULL) != SQLITE_OK) {
        free(d);
        return fs_error_set(err, "%s", sqlite3_errmsg(db));
    }
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_text(st, 2, p->pool, -1, SQLITE_STATIC);
    double prev = 0, area = 0, gpu_area = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        double t = sqlite3_column_double(st, 0);
        double gpus = sqlite3_column_double(st, 2);
        double up = p->gpi > 0 ? gpus / p->gpi
                               : sqlite3_column_double(st, 1);
        if (t - prev > 3600 * (1 + 1e-9)) {
            char iv[32];
            fs_format_duration(t - prev, iv, sizeof iv);
            sqlite3_finalize(st);
            free(d);
            return fs_error_set(err, "roi: run %ld samples utilization "
                                "every %s (metrics_interval), longer than "
                                "an hour: hour-by-hour demand cannot be read "
                                "from it; rerun with metrics_interval <= 1h "
                                "(--set scenario.metrics_interval=1h)", run,
                                iv), -2;
        }
        for (size_t h = (size_t)(prev / 3600); h < n && h * 3600.0 < t; h++) {
            double a = fmax(prev, h * 3600.0), b = fmin(t, (h + 1) * 3600.0);
            if (b > a)
                d[h] += up * (b - a);
        }
        area += up * (t - prev);
        gpu_area += gpus * (t - prev);
        prev = t;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(d);
        return fs_error_set(err, "%s", sqlite3_errmsg(db));
    }
    for (size_t h = 0; h < n; h++)   /* a last partial hour: its length */
        d[h] /= fmin(3600.0, horizon - h * 3600.0);
    *demand = d;
    *hours = n;
    *gpi = p->gpi > 0 ? p->gpi : area > 0 ? gpu_area / area : 0;
    return 0;
}

/* The instance-hours of demand[from..n): each hour's instances times its
 * length inside the horizon (a last partial hour its part); *span the
 * hours' length. */
static double instance_hours(const double *d, size_t from, size_t n,
                             double horizon, double *span)
{
    double sum = 0;
    *span = 0;
    for (size_t h = from; h < n; h++) {
        double len = fmin(1.0, horizon / 3600 - (double)h);
        sum += d[h] * len;
        *span += len;
    }
    return sum;
}

/* What the run billed pool over the whole run: the sum of its cost rows
 * at `pricing`, or all of them when NULL (NaN when it has none or the
 * query fails). */
static double pool_billed(sqlite3 *db, long run, const char *pool,
                          const char *pricing)
{
    sqlite3_stmt *st;
    double cost = NAN;
    if (sqlite3_prepare_v2(db, "SELECT sum(cost_usd) FROM cost_monthly "
                           "WHERE run_id = ?1 AND pool = ?2 AND "
                           "(?3 IS NULL OR pricing = ?3)", -1, &st,
                           NULL) != SQLITE_OK)
        return NAN;
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_text(st, 2, pool, -1, SQLITE_STATIC);
    if (pricing)
        sqlite3_bind_text(st, 3, pricing, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_type(st, 0) != SQLITE_NULL)
        cost = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return cost;
}

/* The catalog instance that prices pool p: the one its price came from,
 * else the cheapest with its GPU in column (per GPU, scaled to gpi). */
static const fs_instance_type *pool_instance(const fs_catalog *c,
                                             const pool_info *p, int gpi,
                                             int column)
{
    if (strncmp(p->source, "catalog ", 8) == 0) {
        char name[128];
        snprintf(name, sizeof name, "%s", p->source + 8);
        name[strcspn(name, " ,")] = '\0';
        const fs_instance_type *it = fs_catalog_instance(c, name);
        if (it)
            return it;
    }
    return fs_catalog_cheapest(c, p->gpu, gpi, column);
}

static double scaled(const fs_instance_type *it, int column, int gpi)
{
    double r = fs_instance_price(it, column);
    return it->gpus == gpi ? r : r / it->gpus * gpi;
}

/* Appends text to the row's price source. */
static void add_source(fs_roi_row *w, const char *fmt, const char *a,
                       const char *b, const char *c)
{
    size_t at = strlen(w->price_source);
    snprintf(w->price_source + at, sizeof w->price_source - at, fmt, a, b,
             c);
}

/* The reservation's prices into pr: the user's quote for this term and
 * upfront option, else the catalog's option as fs_instance_reserved_option
 * answers it (published, derived; never a not-sold option).  0, or -1
 * with why. */
static int reserved_rate(const fs_roi_query *o, const fs_instance_type *it,
                         int gpi, const char *gpu, fs_roi_prices *pr,
                         fs_roi_row *w, char *why, size_t len)
{
    static const char *const ups[] = {"none", "partial", "all"};
    int term = o->term_months == 36, kind = o->upfront_kind;
    const char *tname = term ? "3y" : "1y";
    const fs_roi_quote *qt = &o->quote[term][kind];
    if (qt->set) {
        pr->hourly = qt->hourly;
        pr->upfront = qt->upfront;
        w->rate_basis = "quote";
        if (qt->from_pool)
            add_source(w, "; reserved: your quote (pool key reserved_%s%s%s)",
                       tname, kind ? "_" : "", kind ? ups[kind] : "");
        else
            add_source(w, "; reserved: your quote (--rate %s:%s)%s", tname,
                       ups[kind], "");
    } else {
        fs_reserved_option ro;
        char name[96];
        snprintf(name, sizeof name, "%s%s%s", it ? it->provider : "",
                 it ? ":" : "", it ? it->name : gpu);
        if (!it || fs_instance_reserved_option(it, term, kind, &ro) < 0) {
            int unsold = it && ro.status == FS_RATE_NOT_SOLD;
            snprintf(why, len, "the catalog's %s reservation with %s upfront "
                     "for %s is %s (%sgive your quote: --rate %s:%s=%s)",
                     term ? "3-year" : "1-year", ups[kind], name,
                     it ? ro.basis : "not found", unsold ? "the provider "
                     "does not sell it, see `fleetsim catalog instances`; "
                     "choose another --upfront or --term, or " : "", tname,
                     ups[kind], kind == 0 ? "2.10/h" : kind == 2 ? "40000"
                                                           : "6000+0.70/h");
            return -1;
        }
        double k = (double)gpi / it->gpus;
        pr->hourly = ro.hourly * k;
        pr->upfront = ro.upfront * k;
        w->rate_basis = ro.derived ? "derived" : "published";
        char basis[96];
        snprintf(basis, sizeof basis, "%s upfront %s%s", ups[kind],
                 ro.basis, it->gpus != gpi ? " (per GPU)" : "");
        add_source(w, "; reserved: catalog %s, %s%s", name, basis, "");
    }
    w->reserved_hourly = pr->hourly;
    w->reserved_upfront = pr->upfront;
    w->reserved_usd_h = pr->hourly + pr->upfront /
                        fs_term_hours(o->term_months);
    return 0;
}

/* The savings plan's discount into w: --discount, else the catalog's
 * published plan rate for the term, else (said so) the reserved
 * discount.  0, or -1 with why. */
static int plan_discount(const fs_roi_query *o, const fs_instance_type *it,
                         fs_roi_row *w, char *why, size_t len)
{
    int term = o->term_months == 36;
    if (!isnan(o->plan_discount)) {
        w->discount = o->plan_discount;
        w->rate_basis = "--discount";
        add_source(w, "; discount: --discount%s%s%s", "", "", "");
        return 0;
    }
    if (it && !isnan(it->sp_discount[term])) {
        w->discount = it->sp_discount[term];
        w->rate_basis = "published";
        add_source(w, "; discount: catalog %s:%s, published Savings Plan "
                   "rate%s", it->provider, it->name, "");
        return 0;
    }
    fs_reserved_option ro;
    if (!it || fs_instance_reserved_option(it, term, 0, &ro) < 0 ||
        ro.hourly >= it->on_demand) {
        snprintf(why, len, "no Savings Plan rate is published for %s and "
                 "no reserved discount stands in (give --discount 30%%)",
                 it ? it->name : "this pool");
        return -1;
    }
    w->discount = 1 - ro.hourly / it->on_demand;
    w->rate_basis = "reserved discount";
    add_source(w, "; discount: no Savings Plan rate published for %s:%s, "
               "the %s reserved discount stands in (give --discount)",
               it->provider, it->name, term ? "3-year" : "1-year");
    return w->discount > 0 ? 0 : -1;
}

/* The prices of row w; alt is what the pool's usage costs without a
 * commitment when the caller knows it (a spot pool's bill per instance-
 * hour), else NaN.  0, or -1 with why (the pool is skipped). */
static int price_row(const fs_roi_query *o, const fs_catalog *c,
                     const pool_info *p, int gpi, double alt, fs_roi_row *w,
                     fs_roi_prices *pr, char *why, size_t len)
{
    int col = o->term_months == 36 ? FS_PRICE_RESERVED_3Y
                                   : FS_PRICE_RESERVED_1Y;
    const fs_instance_type *it = pool_instance(c, p, gpi, col);
    if (!it)
        it = pool_instance(c, p, gpi, FS_PRICE_ON_DEMAND);
    if (it && strncmp(p->source, "catalog ", 8) == 0 &&
        !strstr(p->source, "(per GPU)"))
        gpi = it->gpus;   /* the pool is that instance type */
    /* on-demand and savings-plan pools store their on-demand rate */
    const fs_purchase_option *po = fs_purchase_find(p->pricing);
    int own = po && po->roi_own_rate && p->price > 0;
    double od = !isnan(alt) ? alt : own ? p->price
              : it ? scaled(it, FS_PRICE_ON_DEMAND, gpi) : NAN;
    if (isnan(od) || od <= 0) {
        snprintf(why, len, "the catalog has no on-demand price for %s to "
                 "compare with", it ? it->name : p->gpu);
        return -1;
    }
    snprintf(w->price_source, sizeof w->price_source, "%s",
             !isnan(alt) ? "alternative: the pool's spot bill as paid, per "
                           "instance-hour"
             : own ? "on demand: the pool's price" : "on demand: catalog");
    *pr = (fs_roi_prices){od, 0, 0, o->term_months, o->rate};
    w->on_demand_usd_h = od;
    w->reserved_usd_h = NAN;
    if (o->plan)
        return plan_discount(o, it, w, why, len);
    return reserved_rate(o, it, gpi, p->gpu, pr, w, why, len);
}

/* What a spot pool paid per instance-hour over the run: its spot cost
 * rows over the instance-hours in demand[0..n).  NaN when it ran no
 * hour. */
static double spot_paid(sqlite3 *db, long run, const pool_info *p,
                        const double *d, size_t n, double horizon)
{
    /* its own option's rows, not the fallback's on-demand ones */
    const fs_purchase_option *po = fs_purchase_find(p->pricing);
    double span, cost = pool_billed(db, run, p->pool,
                                    po ? po->name : p->pricing);
    double hours = instance_hours(d, 0, n, horizon, &span);
    return hours > 0 && !isnan(cost) ? cost / hours : NAN;
}

/* The query for pool p: o, with the pool's own quotes (reserved_* keys,
 * stored as --rate words) where --rate gave none. */
static void pool_query(const fs_roi_query *o, const pool_info *p,
                       fs_roi_query *out)
{
    char words[512], why[256];
    *out = *o;
    snprintf(words, sizeof words, "%s", p->quotes);
    for (char *save = NULL, *wd = strtok_r(words, " ", &save); wd;
         wd = strtok_r(NULL, " ", &save)) {
        fs_roi_query one;
        fs_roi_query_default(&one);
        if (fs_roi_parse_rate(wd, &one, why, sizeof why))
            continue;   /* checked when the scenario was read */
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < 3; k++)
                if (one.quote[t][k].set && !o->quote[t][k].set) {
                    out->quote[t][k] = one.quote[t][k];
                    out->quote[t][k].from_pool = 1;
                }
    }
}

/* One pool's recommendation into w: 0, 1 skipped (why in note), -1
 * failed (err), -2 hourly demand unreadable (err). */
static int roi_pool(sqlite3 *db, long run, double horizon,
                    const fs_roi_query *given, const fs_catalog *c,
                    const pool_info *p, fs_roi_row *w, char *note,
                    size_t note_len, fs_error *err)
{
    fs_roi_query oq;
    const fs_roi_query *o = &oq;
    pool_query(given, p, &oq);
    double *d = NULL, gpus = 0;
    size_t n = 0;
    char why[512];
    int rd = read_demand(db, run, p, horizon, &d, &n, &gpus, err);
    if (rd)
        return rd;
    int gpi = gpus > 0 ? (int)lround(gpus) : 1;
    fs_roi_prices pr;
    memset(w, 0, sizeof *w);
    snprintf(w->pool, sizeof w->pool, "%s", p->pool);
    snprintf(w->gpu, sizeof w->gpu, "%s", p->gpu);
    static const char *const ups[] = {"none", "partial", "all"};
    w->term = o->term_months == 36 ? "3y" : "1y";
    w->upfront = o->plan ? "none" : ups[o->upfront_kind];
    w->plan = o->plan;
    const fs_purchase_option *po = fs_purchase_find(p->pricing);
    w->vs_spot = po && po->interruptible;
    double alt = NAN;
    if (w->vs_spot && n > 0) {
        alt = spot_paid(db, run, p, d, n, horizon);
        if (o->plan)
            snprintf(why, sizeof why, "a savings plan discounts on-demand "
                     "usage, and pool %s runs on spot", p->pool);
        else if (isnan(alt))
            snprintf(why, sizeof why, "spot pool %s paid for no "
                     "instance-hour to compare a reservation with", p->pool);
        if (o->plan || isnan(alt)) {
            snprintf(note, note_len, "%s", why);
            free(d);
            return 1;
        }
    }
    if (n == 0 || price_row(o, c, p, gpi < 1 ? 1 : gpi, alt, w, &pr, why,
                            sizeof why)) {
        snprintf(note, note_len, "%s", n == 0 ? "the run has no hours" : why);
        free(d);
        return 1;
    }
    size_t from = 0;
    if (o->lookback_s > 0) {
        size_t nl = (size_t)ceil(o->lookback_s / 3600 - 1e-9);
        from = nl < n ? n - nl : 0;
    }
    w->hours = (double)(n - from);
    /* The baseline in dollars: the sized hours' launched instance-hours at
     * the rate compared with, which is the run's own bill for an on-demand
     * or spot pool sized over the whole run. */
    w->baseline_usd = instance_hours(d, from, n, horizon, &w->span_h) *
                      w->on_demand_usd_h;
    w->billed_usd = from == 0 ? pool_billed(db, run, p->pool, NULL) : NAN;
    w->billed_is_baseline = w->vs_spot || (po && po->list_priced);
    if (o->plan)
        fs_roi_plan_recommend(d + from, n - from, w->discount, &pr, &w->r);
    else
        fs_roi_recommend(d + from, n - from, &pr, &w->r);
    free(d);
    return 0;
}

int fs_roi_run_horizon(fs_store *s, long run, double *horizon, fs_error *err)
{
    sqlite3 *db = fs_store_db(s);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT horizon_s FROM run WHERE run_id = ?1",
                           -1, &st, NULL) != SQLITE_OK)
        return fs_error_set(err, "%s", sqlite3_errmsg(db));
    sqlite3_bind_int64(st, 1, run);
    int rc = sqlite3_step(st);
    *horizon = rc == SQLITE_ROW ? sqlite3_column_double(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : fs_error_set(err, "run %ld is gone", run);
}

fs_catalog *fs_roi_catalog_load(fs_error *err)
{
    char gpus[2048], inst[2048];
    const char *dir = fs_catalog_default_dir();
    snprintf(gpus, sizeof gpus, "%s/gpus.csv", dir);
    snprintf(inst, sizeof inst, "%s/instances.csv", dir);
    return fs_catalog_load(gpus, inst, err);
}

int fs_roi_for_run(fs_store *s, long run, const fs_roi_query *q,
                   fs_roi_pool **out, size_t *n, fs_error *err)
{
    double horizon;
    pool_info *pools = NULL;
    size_t np = 0;
    sqlite3 *db = fs_store_db(s);
    *out = NULL;
    *n = 0;
    if (fs_roi_run_horizon(s, run, &horizon, err) ||
        read_pools(db, run, q->pool, &pools, &np, err))
        return -1;
    if (np == 0) {
        free(pools);
        return 0;
    }
    fs_catalog *c = fs_roi_catalog_load(err);
    fs_roi_pool *rows = c ? calloc(np, sizeof *rows) : NULL;
    int rc = c && rows ? 0 : -1;
    if (c && !rows)
        fs_error_set(err, "out of memory");
    for (size_t i = 0; i < np && rc >= 0; i++) {
        fs_roi_pool *w = &rows[i];
        rc = roi_pool(db, run, horizon, q, c, &pools[i], &w->row, w->note,
                      sizeof w->note, err);
        w->ok = rc == 0;
        w->not_sold = rc == 1 && strstr(w->note, " is not sold (") != NULL;
        if (rc == -2 && q->coarse_as_note) {
            snprintf(w->row.pool, sizeof w->row.pool, "%s", pools[i].pool);
            snprintf(w->row.gpu, sizeof w->row.gpu, "%s", pools[i].gpu);
            char iv[32] = "?";
            const char *at = strstr(err->msg, " every ");
            if (at)
                sscanf(at, " every %31s", iv);
            snprintf(w->note, sizeof w->note, "not sized: metrics_interval "
                     "%s is over 1 h (hour-by-hour demand needed; rerun "
                     "with --set scenario.metrics_interval=1h)", iv);
            rc = 1;
        }
    }
    free(pools);
    fs_catalog_free(c);
    if (rc < 0) {
        free(rows);
        return -1;
    }
    *out = rows;
    *n = np;
    return 0;
}
