/* chart_ri_breakeven.c -- data of `ri-breakeven`: for one pool of each
 * run, the cumulative cost over a reservation's term of
 *   on-demand:  the pool's average GPUs, G = gpu_hours_provisioned /
 *               horizon hours, at the on-demand rate per GPU-hour (the
 *               pool's own: its cost / its GPU-hours, when it is an
 *               on-demand pool; else the catalog's on-demand price of its
 *               instance / GPUs per instance), times 730 h a month;
 *   reserved, paid monthly: R = ceil(G) GPUs at the catalog's reserved
 *               rate for the term (no upfront), per GPU-hour;
 *   reserved, paid upfront: the same term total paid at month 0 (real
 *               all-upfront prices are a few percent lower; none is
 *               assumed).
 * Break-even: the month at which on-demand has cost the upfront total,
 * upfront / (on-demand per month); none within the term when later.
 *
 * Data: one block per run: month, on-demand, reserved monthly, reserved
 * upfront (cumulative USD).  Preamble: series[] ("RUN / POOL (GPU)"),
 * breakeven[] (months; -1: none within the term), nseries, term_months,
 * money axis. */
#include "plots/plot_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "models/catalog.h"

typedef struct pool_use {
    char pool[256], gpu[64], pricing[32], instance[96];
    double gpu_hours, cost, horizon_h;
} pool_use;

/* The requested pool, else the first on-demand pool, else the first. */
static int find_pool(fs_plot_ctx *ctx, long run, pool_use *u)
{
    sqlite3_stmt *st = fs_plot_prepare(ctx,
        "SELECT p.pool, p.gpu, p.pricing, p.instance,"
        " p.gpu_hours_provisioned, r.horizon_s / 3600.0,"
        " (SELECT SUM(cost_usd) FROM cost_monthly c"
        "  WHERE c.run_id = p.run_id AND c.pool = p.pool)"
        " FROM pool p JOIN run r USING (run_id) WHERE p.run_id = ?"
        " AND (?2 IS NULL OR p.pool = ?2)"
        " ORDER BY p.pricing <> 'on-demand', p.rowid LIMIT 1");
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, run);
    if (ctx->rq->pool)
        sqlite3_bind_text(st, 2, ctx->rq->pool, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        const unsigned char *t;
#define TEXT(i, f) t = sqlite3_column_text(st, i); \
        snprintf(u->f, sizeof u->f, "%s", t ? (const char *)t : "")
        TEXT(0, pool);
        TEXT(1, gpu);
        TEXT(2, pricing);
        TEXT(3, instance);
#undef TEXT
        u->gpu_hours = sqlite3_column_double(st, 4);
        u->horizon_h = sqlite3_column_double(st, 5);
        u->cost = sqlite3_column_double(st, 6);
    }
    sqlite3_finalize(st);
    if (!found)
        return fs_error_set(ctx->err, ctx->rq->pool ?
                            "ri-breakeven: run %ld has no pool '%s'" :
                            "ri-breakeven: run %ld has no pools", run,
                            ctx->rq->pool);
    return 0;
}

/* The catalog instance priced for the pool: its own, else the cheapest
 * with its GPU that has a reserved price for the term. */
static const fs_instance_type *priced(const fs_catalog *c,
                                      const pool_use *u, int column)
{
    const fs_instance_type *t = u->instance[0] ?
        fs_catalog_instance(c, u->instance) : NULL;
    if (t && !isnan(fs_instance_price(t, column)))
        return t;
    return fs_catalog_cheapest(c, u->gpu, 0, column);
}

static int write_run(fs_plot_ctx *ctx, const fs_catalog *cat, long run,
                     int years, fs_plot_strs *series, double *be,
                     double *max)
{
    char name[512];
    pool_use u = {0};
    if (fs_plot_run_name(ctx, run, name, sizeof name) != 0 ||
        find_pool(ctx, run, &u) != 0)
        return -1;
    int col = years == 3 ? 3 : 2;
    const fs_instance_type *res = priced(cat, &u, col);
    const fs_instance_type *od = priced(cat, &u, 0);
    if (!res)
        return fs_error_set(ctx->err, "ri-breakeven: the catalog has no "
                            "%dy reserved price for %s (pool %s of run %ld)",
                            years, u.gpu, u.pool, run);
    if (u.horizon_h <= 0 || u.gpu_hours <= 0)
        return fs_error_set(ctx->err, "ri-breakeven: pool %s of run %ld "
                            "provisioned no GPU-hours", u.pool, run);
    double g = u.gpu_hours / u.horizon_h;
    double od_rate = strcmp(u.pricing, "on-demand") == 0 ?
        u.cost / u.gpu_hours :
        od ? fs_instance_price(od, 0) / od->gpus : NAN;
    if (isnan(od_rate))
        return fs_error_set(ctx->err, "ri-breakeven: no on-demand price "
                            "for %s (pool %s of run %ld)", u.gpu, u.pool,
                            run);
    double rgpus = ceil(g - 1e-9);
    double res_rate = fs_instance_price(res, col) / res->gpus;
    double od_month = g * od_rate * 730, res_month = rgpus * res_rate * 730;
    int months = 12 * years;
    double upfront = res_month * months;
    *be = od_month > 0 && upfront / od_month <= months ?
        upfront / od_month : -1;
    char label[1200];
    snprintf(label, sizeof label, "%s / %s (%s, %.3g GPU(s) reserved)", name,
             u.pool, u.gpu, rgpus);
    if (fs_plot_strs_push(series, label) != 0)
        return fs_error_set(ctx->err, "out of memory");
    if (series->n > 1)
        fputs("\n\n", ctx->data);
    for (int m = 0; m <= months; m++) {
        fprintf(ctx->data, "%d\t", m);
        fs_plot_num(ctx->data, od_month * m, "\t");
        fs_plot_num(ctx->data, res_month * m, "\t");
        fs_plot_num(ctx->data, upfront, "\n");
    }
    *max = fmax(*max, fmax(upfront, od_month * months));
    return 0;
}

int fs_chart_ri_breakeven(fs_plot_ctx *ctx)
{
    int years = ctx->rq->term_years == 3 ? 3 : 1;
    const char *dir = fs_catalog_default_dir();
    char g[4200], i[4200];
    snprintf(g, sizeof g, "%s/gpus.csv", dir);
    snprintf(i, sizeof i, "%s/instances.csv", dir);
    fs_catalog *cat = fs_catalog_load(g, i, ctx->err);
    if (!cat)
        return -1;
    size_t n = ctx->rq->nruns;
    double *be = calloc(n, sizeof *be), max = 0;
    fs_plot_strs series = {0};
    int rc = be ? 0 : fs_error_set(ctx->err, "out of memory");
    for (size_t r = 0; rc == 0 && r < n; r++)
        rc = write_run(ctx, cat, ctx->rq->run_ids[r], years, &series,
                       &be[r], &max);
    if (rc == 0) {
        fs_plot_names(ctx, "series", (const char *const *)series.v,
                      series.n);
        fs_plot_var(ctx, "nseries", (double)series.n);
        fs_plot_var(ctx, "term_months", 12 * years);
        fprintf(ctx->vars, "array breakeven[%zu]\n", n);
        for (size_t r = 0; r < n; r++)
            fprintf(ctx->vars, "breakeven[%zu] = %.10g\n", r + 1, be[r]);
        fs_plot_money_axis(ctx, max);
    }
    fs_plot_strs_free(&series);
    free(be);
    fs_catalog_free(cat);
    return rc;
}
