/* commit_inputs.c -- what `fleetsim commit` (and the report's portfolio
 * section) reads: each run's hourly
 * demand per pool (sim/store/store_demand.c) and the rates `roi` uses
 * (sim/app/roi_run.c, asked once per term and upfront option and
 * per savings plan), gathered into one portfolio problem; beside it, each
 * run's cost all on demand and the sum of roi's one-pool answers (each
 * pool's cheapest option, sized on that run alone).
 *
 * Pools are matched across runs by name; a pool missing from a run has no
 * demand there.  A group is an instance type as the catalog prices it
 * (the catalog holds one region per instance type): its reservations are
 * shared by its pools.  A group's option rates, and a pool's on-demand
 * and plan rates, are those of the first run that has it. */
#include "sim/app/commit_inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/forecast.h"
#include "models/purchase/roi.h"
#include "sim/app/roi_run.h"
#include "sim/store/store_query.h"

#define QUERIES (FS_COMMIT_OPTIONS + FS_PF_PLANS)

/* roi's answers for every pool of one run, one list per query: options
 * (term x upfront) first, then the plans. */
typedef struct run_answers {
    fs_roi_pool *rows[QUERIES];
    size_t n[QUERIES];
} run_answers;

static void query_for(int k, fs_roi_query *q)
{
    fs_roi_query_default(q);
    int plan = k >= FS_COMMIT_OPTIONS;
    q->term_months = (plan ? k - FS_COMMIT_OPTIONS : k / 3) ? 36 : 12;
    q->upfront_kind = plan ? 0 : k % 3;
    q->plan = plan;
}

static int read_answers(fs_store *s, long run, run_answers *a, fs_error *err)
{
    for (int k = 0; k < QUERIES; k++) {
        fs_roi_query q;
        query_for(k, &q);
        if (fs_roi_for_run(s, run, &q, &a->rows[k], &a->n[k],
                           err))
            return -1;
    }
    return 0;
}

static void free_answers(run_answers *a)
{
    for (int k = 0; k < QUERIES; k++)
        free(a->rows[k]);
}

/* The row of pool name in answer list k, or NULL when roi could not
 * price it that way. */
static const fs_roi_row *answer(const run_answers *a, int k,
                                const char *name)
{
    for (size_t i = 0; i < a->n[k]; i++)
        if (a->rows[k][i].ok && !strcmp(a->rows[k][i].row.pool, name))
            return &a->rows[k][i].row;
    return NULL;
}

/* The group an instance source names: "catalog NAME ..." is NAME. */
static void group_key(const fs_pool_demand *d, char *buf, size_t len)
{
    const char *src = d->instance;
    snprintf(buf, len, "%s", strncmp(src, "catalog ", 8) ? src : src + 8);
    buf[strcspn(buf, " ,")] = '\0';
}

static size_t find_name(char (*names)[FS_NAME_MAX], size_t n,
                        const char *name)
{
    size_t i = 0;
    while (i < n && strcmp(names[i], name))
        i++;
    return i;
}

static size_t find_group(const fs_commit_inputs *in, const char *key)
{
    size_t g = 0;
    while (g < in->ngroups && strcmp(in->group_names[g], key))
        g++;
    return g;
}

/* A new group's reservation options, at the rates roi found for pool. */
static void add_group(fs_commit_inputs *in, const char *key,
                      const run_answers *a, const char *pool)
{
    size_t g = in->ngroups++;
    snprintf(in->group_names[g], sizeof in->group_names[g], "%s", key);
    for (int k = 0; k < FS_COMMIT_OPTIONS; k++) {
        const fs_roi_row *w = answer(a, k, pool);
        if (!w)
            continue;   /* not sold, or no rate: not an option */
        in->options[in->noptions++] = (fs_pf_option){
            g, k / 3 ? 36 : 12, k % 3, w->reserved_hourly,
            w->reserved_upfront};
    }
}

/* Pool d of run (seen for the first time) into in: its group, its
 * on-demand and plan rates.  0, or -1 with err when roi prices it no
 * way at all. */
static int add_pool(fs_commit_inputs *in, long run, const fs_pool_demand *d,
                    const run_answers *a, fs_error *err)
{
    const fs_roi_row *any = NULL;
    for (int k = 0; k < QUERIES && !any; k++)
        any = answer(a, k, d->pool);
    if (!any) {
        const char *why = "";
        for (size_t i = 0; i < a->n[0]; i++)
            if (!strcmp(a->rows[0][i].row.pool, d->pool))
                why = a->rows[0][i].note;
        return fs_error_set(err, "commit: run %ld: pool %s cannot be "
                            "priced: %s", run, d->pool, why);
    }
    char key[160];
    group_key(d, key, sizeof key);
    size_t g = find_group(in, key);
    if (g == in->ngroups)
        add_group(in, key, a, d->pool);
    size_t q = in->npools++;
    snprintf(in->pool_names[q], sizeof in->pool_names[q], "%s", d->pool);
    fs_pf_pool *p = &in->pools[q];
    p->group = g;
    p->on_demand = any->on_demand_usd_h;
    for (int t = 0; t < FS_PF_PLANS; t++) {
        const fs_roi_row *w = answer(a, FS_COMMIT_OPTIONS + t, d->pool);
        p->plan_rate[t] = w ? p->on_demand * (1 - w->discount) : NAN;
    }
    return 0;
}

/* Run r's cost all on demand and the sum of roi's one-pool answers: each
 * pool's cheapest option over the run's hours (on demand when roi prices
 * none). */
static void baselines(fs_commit_inputs *in, size_t r,
                      const fs_pool_demand *pd, size_t n,
                      const run_answers *a)
{
    for (size_t i = 0; i < n; i++) {
        size_t q = find_name(in->pool_names, in->npools, pd[i].pool);
        double od = 0;
        for (size_t h = 0; h < pd[i].hours; h++)
            od += pd[i].demand[h] * in->pools[q].on_demand;
        double best = od;
        for (int k = 0; k < QUERIES; k++) {
            const fs_roi_row *w = answer(a, k, pd[i].pool);
            if (w && w->hours > 0)
                best = fmin(best, w->r.with_monthly * w->hours /
                                  FS_ROI_MONTH_H);
        }
        in->on_demand_cost[r] += od;
        in->roi_cost[r] += best;
    }
}

/* Run r: its pools' new ones into in, its baselines. */
static int read_run(fs_store *s, fs_commit_inputs *in, size_t r,
                    const fs_pool_demand *pd, size_t n, fs_error *err)
{
    run_answers a = {{0}, {0}};
    int rc = read_answers(s, in->run_ids[r], &a, err);
    for (size_t i = 0; i < n && rc == 0; i++)
        if (find_name(in->pool_names, in->npools, pd[i].pool) == in->npools)
            rc = add_pool(in, in->run_ids[r], &pd[i], &a, err);
    if (rc == 0)
        baselines(in, r, pd, n, &a);
    free_answers(&a);
    return rc;
}

/* Each run's pools' growth: a pool's own (growth = in its section), else
 * the run's, which its workloads drew. */
static int fill_pool_growth(fs_store *s, fs_commit_inputs *in, fs_error *err)
{
    in->pool_growth = calloc(in->nruns * in->npools + 1,
                             sizeof *in->pool_growth);
    if (!in->pool_growth)
        return fs_error_set(err, "out of memory");
    for (size_t r = 0; r < in->nruns; r++)
        for (size_t q = 0; q < in->npools; q++)
            if (fs_store_pool_growth(s, in->run_ids[r], in->pool_names[q],
                                     in->growth[r],
                                     &in->pool_growth[r * in->npools + q],
                                     err))
                return -1;
    return 0;
}

/* The demand of every run and pool (zero where a run lacks the pool). */
static int fill_demand(fs_commit_inputs *in, fs_pool_demand **pd,
                       const size_t *pn)
{
    in->demand = calloc(in->nruns * in->npools + 1, sizeof *in->demand);
    if (!in->demand)
        return -1;
    for (size_t r = 0; r < in->nruns; r++)
        for (size_t q = 0; q < in->npools; q++) {
            double *d = calloc(in->hours[r] + 1, sizeof *d);
            if (!d)
                return -1;
            in->demand[r * in->npools + q] = d;
            for (size_t i = 0; i < pn[r]; i++)
                if (!strcmp(pd[r][i].pool, in->pool_names[q]))
                    memcpy(d, pd[r][i].demand, in->hours[r] * sizeof *d);
        }
    return 0;
}

static int alloc_inputs(fs_commit_inputs *in, size_t n, size_t total)
{
    in->nruns = n;
    in->run_ids = calloc(n, sizeof *in->run_ids);
    in->hours = calloc(n, sizeof *in->hours);
    in->roi_cost = calloc(n, sizeof *in->roi_cost);
    in->on_demand_cost = calloc(n, sizeof *in->on_demand_cost);
    in->growth = calloc(n + 1, sizeof *in->growth);
    in->pool_names = calloc(total + 1, sizeof *in->pool_names);
    in->group_names = calloc(total + 1, sizeof *in->group_names);
    in->pools = calloc(total + 1, sizeof *in->pools);
    in->options = calloc(total * FS_COMMIT_OPTIONS + 1,
                         sizeof *in->options);
    return in->run_ids && in->hours && in->roi_cost && in->on_demand_cost &&
           in->growth && in->pool_names && in->group_names && in->pools && in->options
           ? 0 : -1;
}

/* Each run's pools and hourly demand into pd[r], pn[r]. */
static int read_demands(fs_store *s, char *const *runs, size_t n,
                        long *ids, fs_pool_demand **pd, size_t *pn,
                        fs_error *err)
{
    for (size_t r = 0; r < n; r++) {
        if (fs_store_find_run(s, runs[r], &ids[r], err) ||
            fs_store_pool_demands(s, ids[r], &pd[r], &pn[r], err))
            return -1;
        if (pn[r] == 0)
            return fs_error_set(err, "commit: run %s has no pools", runs[r]);
    }
    return 0;
}

int fs_commit_inputs_read(fs_store *s, char *const *runs, size_t n,
                          fs_commit_inputs *in, fs_error *err)
{
    memset(in, 0, sizeof *in);
    fs_pool_demand **pd = calloc(n, sizeof *pd);
    size_t *pn = calloc(n, sizeof *pn), total = 0;
    long *ids = calloc(n, sizeof *ids);
    int rc = pd && pn && ids ? read_demands(s, runs, n, ids, pd, pn, err)
                             : fs_error_set(err, "out of memory");
    for (size_t r = 0; rc == 0 && r < n; r++)
        total += pn[r];
    if (rc == 0 && alloc_inputs(in, n, total))
        rc = fs_error_set(err, "out of memory");
    for (size_t r = 0; rc == 0 && r < n; r++) {
        in->run_ids[r] = ids[r];
        in->hours[r] = pd[r][0].hours;
        rc = read_run(s, in, r, pd[r], pn[r], err);
        fs_run_growth g;
        if (rc == 0 && !(rc = fs_store_run_growth(s, ids[r], &g, err)))
            in->growth[r] = g.rate;   /* commit --horizon grows by it */
    }
    if (rc == 0 && fill_demand(in, pd, pn))
        rc = fs_error_set(err, "out of memory");
    if (rc == 0)
        rc = fill_pool_growth(s, in, err);
    for (size_t r = 0; pd && r < n; r++)
        fs_pool_demands_free(pd[r], pn[r]);
    free(pd);
    free(pn);
    free(ids);
    in->problem = (fs_pf_problem){in->npools, in->noptions, in->nruns,
        in->pools, in->options, in->hours,
        (const double *const *)in->demand, 0, 0, 1, .growth = in->growth,
        .pool_growth = in->pool_growth};
    return rc ? -1 : 0;
}

void fs_commit_inputs_free(fs_commit_inputs *in)
{
    for (size_t i = 0; in->demand && i < in->nruns * in->npools; i++)
        free(in->demand[i]);
    free(in->demand);
    free(in->run_ids);
    free(in->hours);
    free(in->roi_cost);
    free(in->on_demand_cost);
    free(in->growth);
    free(in->pool_growth);
    free(in->pool_names);
    free(in->group_names);
    free(in->pools);
    free(in->options);
    memset(in, 0, sizeof *in);
}

int fs_commit_inputs_apply(fs_commit_inputs *in, const fs_commit_opts *o,
                           fs_error *err)
{
    static const fs_commit_opts none = {0};
    if (!o)
        o = &none;
    in->problem.risk = o->risk;
    in->problem.risk_bound = o->risk_bound;
    in->problem.risk_quantile = o->risk_quantile;
    in->problem.horizon_months = o->horizon_months;
    in->problem.discount_rate = o->discount_rate;
    for (size_t r = 0; o->horizon_months && r < in->nruns; r++)
        if ((double)in->hours[r] > FS_FC_MONTH_H * o->horizon_months)
            return fs_error_set(err, "commit: --horizon of %d months is "
                                "shorter than run %ld (%zu hours)",
                                o->horizon_months, in->run_ids[r],
                                in->hours[r]);
    return 0;
}

int fs_commit_solve_ids(fs_store *s, const long *ids, size_t n,
                        const fs_commit_opts *o, fs_commit_inputs *in,
                        fs_pf_solution *sol, fs_error *err)
{
    memset(in, 0, sizeof *in);
    char **names = calloc(n + 1, sizeof *names);
    int rc = names ? 0 : fs_error_set(err, "out of memory");
    for (size_t r = 0; rc == 0 && r < n; r++)
        if (!(names[r] = malloc(32)))
            rc = fs_error_set(err, "out of memory");
        else
            snprintf(names[r], 32, "%ld", ids[r]);
    memset(sol, 0, sizeof *sol);
    if (err)
        err->msg[0] = 0;
    if (rc == 0 && fs_commit_inputs_read(s, names, n, in, err))
        rc = 1;   /* a run commit cannot read: nothing to commit */
    else if (rc == 0) {
        int eligible = in->noptions > 0;
        for (size_t q = 0; q < in->npools; q++)
            for (int t = 0; t < FS_PF_PLANS; t++)
                eligible |= !isnan(in->pools[q].plan_rate[t]);
        char why[256];
        if (!eligible)
            rc = 1;
        else if (fs_commit_inputs_apply(in, o, err))
            rc = -1;
        else if (fs_pf_solve(&in->problem, NULL, sol, why, sizeof why))
            rc = fs_error_set(err, "commit: %s", why);
    }
    for (size_t r = 0; names && r < n; r++)
        free(names[r]);
    free(names);
    if (rc)
        fs_pf_solution_free(sol);
    return rc;
}
