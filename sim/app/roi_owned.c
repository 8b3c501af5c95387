/* roi_owned.c -- buy versus rent for `roi --owned`; see roi_owned.h.
 *
 * The terms are read by the owned option itself (fs_owned_resolve), its
 * keys given as KEY=VALUE pairs instead of a pool's section, so that a
 * key means here what it means in a scenario.  Each pool is owned as its
 * mean instances over the run, rounded up (the servers that carry its
 * load), their GPUs busy as the run's busy GPU-hours fill them.  Renting
 * is what the run paid for the pool, as a 730-hour run rate.  Break-even
 * utilization: owned(u) = capex + colocation + maintenance + power(u)
 * against the busy hours on demand, servers x 730 h x u x the list rate;
 * power is linear in u (energy.h), so u = (fixed + power(0)) / (rent at
 * 100% - (power(1) - power(0))).  Break-even months: the servers' price
 * over what renting costs a month beyond owning's running costs (power,
 * colocation, maintenance). */
#include "sim/app/roi_owned.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/catalog/catalog.h"
#include "models/purchase/billing.h"
#include "sim/app/roi_run.h"
#include "sim/store/store_query.h"

#define KEYS_MAX 16
#define MONTH_H 730.0

typedef struct spec_reader {
    char buf[1024];
    const char *key[KEYS_MAX], *val[KEYS_MAX];
    int n;
    char *why;
    size_t len;
} spec_reader;

static const char *spec_value(void *ctx, const char *key)
{
    spec_reader *r = ctx;
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->key[i], key) == 0)
            return r->val[i];
    return NULL;
}

static int spec_bad(void *ctx, const char *key, const char *why)
{
    spec_reader *r = ctx;
    snprintf(r->why, r->len, "--owned: %s: %s", key ? key : "?", why);
    return -1;
}

static int spec_missing(void *ctx, const char *what)
{
    spec_reader *r = ctx;
    snprintf(r->why, r->len, "--owned: missing %s", what);
    return -1;
}

static int spec_price(void *ctx, double *usd)
{
    (void)ctx, (void)usd;
    return 0;
}

/* "k=v,k=v" into r's pairs: 0, or -1 with why. */
static int split(spec_reader *r, const char *spec)
{
    if (snprintf(r->buf, sizeof r->buf, "%s", spec) >= (int)sizeof r->buf)
        return snprintf(r->why, r->len, "--owned: too long"), -1;
    char *save = NULL;
    for (char *it = strtok_r(r->buf, ",", &save); it;
         it = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(it, '=');
        if (!eq || eq == it || r->n == KEYS_MAX)
            return snprintf(r->why, r->len, "--owned: '%s' is not "
                            "KEY=VALUE (e.g. server_price=250000,"
                            "energy_price=0.12)", it), -1;
        *eq = '\0';
        r->key[r->n] = it;
        r->val[r->n++] = eq + 1;
    }
    return 0;
}

int fs_roi_owned_terms(const char *spec, fs_purchase_terms *t, char *why,
                       size_t len)
{
    spec_reader r = {.why = why, .len = len};
    memset(t, 0, sizeof *t);
    if (split(&r, spec))
        return -1;
    fs_purchase_reader rd = {.ctx = &r, .value = spec_value,
                             .bad = spec_bad, .missing = spec_missing,
                             .price = spec_price, .max_price = 1e6};
    for (int i = 0; i < r.n; i++)   /* a key the option does not read */
        if (!fs_purchase_has_key(&fs_purchase_owned, r.key[i]))
            return spec_bad(&r, r.key[i], "not a key of an owned pool "
                            "(server_price, energy_price, "
                            "depreciation_years, maintenance, colocation, "
                            "pue, host_share)");
    return fs_owned_resolve(&rd, t);
}

typedef struct owned_ctx {
    const fs_purchase_terms *t;
    fs_catalog *cat;
    fs_roi_owned *list;
    size_t n, cap;
} owned_ctx;

/* The break-evens of w (month and servers set). */
static void break_evens(fs_roi_owned *w, const fs_purchase_terms *t,
                        double tdp, double idle)
{
    fs_owned_month m0, m1;
    fs_owned_month_cost(t, w->servers, w->gpus, tdp, idle, 0, &m0);
    fs_owned_month_cost(t, w->servers, w->gpus, tdp, idle, 1, &m1);
    double full = w->servers * MONTH_H * w->on_demand_usd_h;
    double slope = full - (m1.power - m0.power);
    double u = slope > 0 ? fs_owned_month_total(&m0) / slope : NAN;
    w->break_even_util = u >= 0 && u <= 1 ? u : NAN;
    double margin = w->rent_usd - (w->month.power + w->month.colocation +
                                   w->month.maintenance);
    w->break_even_months = margin > 0 ? w->servers * t->upfront_usd / margin
                                      : NAN;
}

static int pool_row(const fs_row *row, void *ctx, fs_error *err)
{
    owned_ctx *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 4;
        fs_roi_owned *p = realloc(c->list, cap * sizeof *p);
        if (!p)
            return fs_error_set(err, "out of memory"), -1;
        c->list = p;
        c->cap = cap;
    }
    fs_roi_owned *w = &c->list[c->n];
    memset(w, 0, sizeof *w);
    const char *gpu = fs_row_text(row, 1), *pricing = fs_row_text(row, 8);
    snprintf(w->pool, sizeof w->pool, "%s", fs_row_text(row, 0));
    snprintf(w->gpu, sizeof w->gpu, "%s", gpu ? gpu : "");
    snprintf(w->pricing, sizeof w->pricing, "%s", pricing ? pricing : "");
    const fs_gpu *g = fs_catalog_gpu(c->cat, w->gpu);
    if (!g)
        return fs_error_set(err, "roi --owned: pool %s: the catalog has no "
                            "GPU '%s' (its power)", w->pool, w->gpu), -1;
    w->gpus = fs_row_int(row, 2) > 0 ? fs_row_int(row, 2) : 1;
    double hours = fs_row_double(row, 6) / 3600;
    double prov = fs_row_double(row, 3), busy = fs_row_double(row, 4);
    w->servers = hours > 0 ? ceil(prov / (w->gpus * hours) - 1e-9) : 0;
    if (w->servers < 1)
        w->servers = 1;
    w->util = hours > 0 ? busy / (w->servers * w->gpus * hours) : 0;
    w->on_demand_usd_h = fs_row_double(row, 7);
    w->rent_usd = hours > 0 ? fs_row_double(row, 5) * MONTH_H / hours : 0;
    fs_owned_month_cost(c->t, w->servers, w->gpus, g->tdp_w, g->idle_w,
                        w->util, &w->month);
    /* each part to the cent, as the bill's rows are, and the total
     * their sum: the parts add up to it, as an owned pool's bill does */
    w->month.capex = fs_round_cents(w->month.capex);
    w->month.power = fs_round_cents(w->month.power);
    w->month.colocation = fs_round_cents(w->month.colocation);
    w->month.maintenance = fs_round_cents(w->month.maintenance);
    w->owned_usd = fs_owned_month_total(&w->month);
    w->saving_usd = w->rent_usd - w->owned_usd;
    break_evens(w, c->t, g->tdp_w, g->idle_w);
    c->n++;
    return 0;
}

int fs_roi_owned_run(fs_store *s, long run, const char *pool,
                     const fs_purchase_terms *t, fs_roi_owned **out,
                     size_t *n, fs_error *err)
{
    owned_ctx c = {.t = t, .cat = fs_roi_catalog_load(err)};
    if (!c.cat)
        return -1;
    fs_query_arg a = {.run = run, .text = pool};
    int rc = fs_store_each(s, FS_Q_POOL_USE, &a, pool_row, &c, err);
    fs_catalog_free(c.cat);
    if (rc == 0 && c.n == 0)
        rc = fs_error_set(err, "roi --owned: run %ld has no pool%s%s", run,
                          pool ? " " : "", pool ? pool : "");
    if (rc) {
        free(c.list);
        return -1;
    }
    *out = c.list;
    *n = c.n;
    return 0;
}
