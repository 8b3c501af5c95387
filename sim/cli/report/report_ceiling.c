/* report_ceiling.c -- what the executive summary lists beyond the savings
 * of the runs, never added to them: the ceilings and the options of the
 * run the summary attributes (the baseline when no run changes it).
 *
 *   - a ceiling: a pool of constant size, not a commitment, idle for more
 *     than a quarter of what it costs.  Its idle GPUs' cost is the most
 *     that sizing the pool could save, not a saving: a pool needs
 *     headroom to meet its SLO.  Each pool once, from that one run.
 *     Beside it, what is achievable where the database holds `fleetsim
 *     plan` runs of that pool (runs named "plan[...", whose scenario
 *     differs from the run's only in that pool's instances, capacity or
 *     purchase option, and the reference GPU plan pins): the cheapest that meets every SLO (attainment at
 *     least 99%, nothing left unfinished past the overload share, no
 *     training deadline missed); otherwise the advice to run plan;
 *   - the reservations `fleetsim roi` recommends for its pools
 *     (report_roi.c adds them as options). */
#include "sim/cli/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scenario_diff.h"
#include "sim/store/columns.h"
#include "sim/store/store_changes.h"
#include "models/purchase/purchase.h"

#define IDLE_CEILING 0.25   /* idle share of a pool worth a ceiling line */
#define PLAN_PREFIX "plan["

/* The cheapest stored plan run of pool that meets every SLO. */
typedef struct plan_pick {
    long id;
    char name[256];
    double rate;
    size_t tried;       /* plan runs of the pool found */
    char what[700];     /* what it changes, in words */
} plan_pick;

/* 1 when c only pins a workload's reference GPU, as plan does for every
 * candidate so that service times stay those of the scenario. */
static int pins_reference(const fs_change *c)
{
    if (c->kind != FS_CHANGE_WORKLOAD)
        return 0;
    for (size_t k = 0; k < c->nkeys; k++)
        if (strcmp(c->keys[k].key, "reference_gpu"))
            return 0;
    return 1;
}

/* 1 when d changes pool `pool` only (its instances, capacity or purchase
 * option; a reference GPU pinned aside). */
static int only_pool(const fs_scenario_diff *d, const char *pool)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        const fs_change *c = &d->v[i];
        if (pins_reference(c))
            continue;
        if (strncmp(c->section, "pool.", 5) || strcmp(c->section + 5, pool) ||
            (c->kind != FS_CHANGE_INSTANCE && c->kind != FS_CHANGE_CAPACITY &&
             c->kind != FS_CHANGE_PURCHASE))
            return 0;
        n++;
    }
    return n > 0;
}

/* The pool's changes in words (the pinned reference GPU left out). */
static void describe_pool(const fs_scenario_diff *d, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = 0; i < d->n; i++)
        if (!pins_reference(&d->v[i])) {
            fs_scenario_diff_describe(d, d->v[i].lever, buf, size);
            return;
        }
}

static int serves(fs_store *s, long id, fs_error *err)
{
    fs_run_service v = {NAN, 0, 0};
    if (fs_store_run_service(s, id, &v, err))
        return -1;
    return v.unfinished_share <= FS_OVERLOADED_SHARE && v.jobs_missed == 0 &&
           (isnan(v.min_slo) || v.min_slo >= FS_SLO_MET_SHARE);
}

static int consider(fs_store *s, const char *text, const char *pool,
                    long id, plan_pick *p, fs_error *err)
{
    fs_run_source src;
    fs_scenario_diff d;
    if (fs_store_run_source(s, id, &src, err))
        return -1;
    int rc = fs_scenario_diff_texts(text, src.text, &d, err);
    if (rc == 0 && only_pool(&d, pool)) {
        p->tried++;
        fs_pool_rate *v = NULL;
        size_t n = 0;
        int ok = serves(s, id, err);
        rc = ok < 0 || fs_store_pool_rates(s, id, &v, &n, err) ? -1 : 0;
        double rate = 0;
        for (size_t i = 0; rc == 0 && i < n; i++)
            rate += v[i].rate;
        if (rc == 0 && ok && (!p->id || rate < p->rate)) {
            p->id = id;
            p->rate = rate;
            snprintf(p->name, sizeof p->name, "%s", src.name);
            describe_pool(&d, p->what, sizeof p->what);
        }
        free(v);
    }
    if (rc == 0)
        fs_scenario_diff_free(&d);
    fs_run_source_free(&src);
    return rc;
}

static int find_plan(fs_store *s, long run, const char *pool, plan_pick *p,
                     fs_error *err)
{
    memset(p, 0, sizeof *p);
    fs_run_source me;
    long *ids;
    size_t n;
    if (fs_store_run_source(s, run, &me, err))
        return -1;
    int rc = fs_store_runs_with_prefix(s, PLAN_PREFIX, &ids, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (ids[i] != run)
            rc = consider(s, me.text, pool, ids[i], p, err);
    if (rc == 0)
        free(ids);
    fs_run_source_free(&me);
    return rc;
}

static int ceiling(fs_store *s, long id, const char *name, double rate,
                   const fs_pool_rate *v, fs_rbrief *b, fs_error *err)
{
    plan_pick p;
    char idle[64], got[64], plan[1200];
    if (find_plan(s, id, v->pool, &p, err))
        return -1;
    fs_report_money(v->idle_rate, 1, idle, sizeof idle);
    if (p.id && rate - p.rate > 0)
        snprintf(plan, sizeof plan, "Achievable, as the stored `fleetsim "
                 "plan` run %s shows (%s, every SLO met): %s a month.",
                 p.name, p.what, fs_report_money(rate - p.rate, 1, got,
                 sizeof got));
    else if (p.tried)
        snprintf(plan, sizeof plan, "None of the %zu stored `fleetsim "
                 "plan` runs of this pool meets every SLO for less; run "
                 "fleetsim plan to size it.", p.tried);
    else
        snprintf(plan, sizeof plan, "Run fleetsim plan to size it (what "
                 "meets the SLO is the achievable saving).");
    return fs_rlines_add(&b->further, err, "CEILING, not a saving: pool %s "
                         "of run %s pays %s a month (%.1f%% of its cost) "
                         "for idle GPUs; sizing it can save at most that, "
                         "less the headroom its SLO needs. %s", v->pool,
                         name, idle, 100 * v->idle_rate / v->rate, plan);
}

int fs_report_gather_further(fs_store *s, long id, const char *name,
                             fs_report *r, fs_error *err)
{
    fs_rbrief *b = &r->brief;
    fs_pool_rate *v;
    size_t n;
    if (fs_store_pool_rates(s, id, &v, &n, err))
        return -1;
    double rate = 0;
    for (size_t i = 0; i < n; i++)
        rate += v[i].rate;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const fs_purchase_option *o = fs_purchase_find(v[i].pricing);
        int committed = o && o->commitment != FS_COMMIT_NONE;
        if (!committed && !v[i].scales && v[i].rate > 0 &&
            v[i].idle_rate > IDLE_CEILING * v[i].rate)
            rc = ceiling(s, id, name, rate, &v[i], b, err);
    }
    free(v);
    for (size_t i = 0; rc == 0 && i < b->noptions; i++)
        if (b->options[i].run_id == id)
            rc = fs_rlines_add(&b->further, err, "%s", b->options[i].text);
    return rc;
}
