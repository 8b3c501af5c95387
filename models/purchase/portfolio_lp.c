/* portfolio_lp.c -- the portfolio's mixed-integer linear program
 * (portfolio.h), built as GLPK rows and columns.
 *
 * Variables: k[o] reserved instances of option o (integer); c[t] the
 * t-year plan's $ an hour; per run s, hour h and pool p: r (reserved-
 * covered instances), y[t] (plan-covered), x (on demand); per run, hour
 * and option: u (reserved instances of o in use); per run: z (exempt from
 * the risk bound, binary, only when some run may be).  H_s is run s's
 * hours, S the runs.
 *
 *   minimize  sum_o H k[o] a[o] + sum_t H c[t] + (1/S) sum od_p x
 *             - eps (sum a[o] u + sum rate y)     H the mean hours,
 *                                                a[o] the amortized rate
 *   demand    r + y[0] + y[1] + x = d            each run, hour, pool
 *   sharing   sum_{p in g} r - sum_{o of g} u = 0   each run, hour, group
 *   reserved  u - k[o] <= 0                      each run, hour, option
 *   plan      sum_p rate_tp y[t] - c[t] <= 0     each run, hour, plan
 *   risk      (1-b) (sum C_so k + sum C_st c) - sum w a u - sum w rate y
 *             - M_s z <= 0                       each run
 *   exempt    sum z <= exempt runs
 *
 * In the risk row C_so is one instance of option o's cost over run s's
 * slots (H_s a[o] without a horizon; with one, each term paid in full
 * over the horizon, discounted: portfolio_horizon.c) and C_st $1 an
 * hour's of plan t; w a slot's hours times its discount factor, so that
 * unused / committed is measured over the whole horizon, the run's grown
 * future months included, exactly as the answer reports it
 * (run_unused, run_committed).  With a horizon and a risk bound the
 * future slots get a u column per option as the run's hours do (else a
 * future slot has one row per group, add_group_future), since the value
 * of the reserved hours used depends on which option covers them.
 *
 * The eps term (1e-9 per dollar) rewards using the commitment: among
 * allocations of equal cost it picks the one that leaves least unused,
 * which is the unused the risk row measures; it moves the cost by far
 * less than a cent. */
#include "models/purchase/portfolio_impl.h"
#include "sim/base/owned.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


#define EPS_REWARD 1e-9

size_t fs_pf_exempt_runs(size_t nruns, double quantile)
{
    if (nruns == 0)
        return 0;
    double within = ceil((double)(nruns - 1) * quantile - 1e-9);
    return nruns - 1 - (size_t)within;
}

static int add_col(glp_prob *lp, const char *name, double obj, double ub,
                   int kind)
{
    int j = glp_add_cols(lp, 1);
    glp_set_col_name(lp, j, name);
    glp_set_col_kind(lp, j, kind);
    if (ub >= 0)
        glp_set_col_bnds(lp, j, ub > 0 ? GLP_DB : GLP_FX, 0, ub);
    else
        glp_set_col_bnds(lp, j, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, j, obj);
    return j;
}

/* A row sum val[i] * col ind[i] (1-based, n terms) with bounds. */
static void add_row(glp_prob *lp, const char *name, int n, int *ind,
                    double *val, int type, double lo, double hi)
{
    int i = glp_add_rows(lp, 1);
    glp_set_row_name(lp, i, name);
    glp_set_mat_row(lp, i, n, ind, val);
    glp_set_row_bnds(lp, i, type, lo, hi);
}

static double demand(const fs_pf_model *m, size_t s, size_t h, size_t q)
{
    return m->dem[(m->base[s] + h) * m->p->npools + q];
}

/* What slot (s, h) weighs in the objective: a run's share of the mean
 * times the hours it stands for, discounted. */
static double slot_weight(const fs_pf_model *m, size_t s, size_t h)
{
    size_t i = m->base[s] + h;
    return m->wt[i] * m->disc[i] / (double)m->p->nruns;
}

/* The largest of any hour of any run of sum over pools of w[q] x demand:
 * with w 1 on a group's pools, the most it can use reserved (in whole
 * instances, above which more is never used); with w a plan's rates, its
 * largest eligible spend. */
static double hourly_peak(const fs_pf_model *m, const double *w)
{
    const fs_pf_problem *p = m->p;
    double peak = 0;
    for (size_t s = 0; s < p->nruns; s++)
        for (size_t h = 0; h < m->count[s]; h++) {
            double sum = 0;
            for (size_t q = 0; q < p->npools; q++)
                sum += w[q] * demand(m, s, h, q);
            peak = fmax(peak, sum);
        }
    return peak;
}

/* The mean over the runs of cost[run * stride + i]: a commitment's
 * cost over each run's slots. */
static double mean_cost(const fs_pf_problem *p, const double *cost,
                        size_t stride, size_t i)
{
    double sum = 0;
    for (size_t s = 0; s < p->nruns; s++)
        sum += cost[s * stride + i];
    return sum / (double)p->nruns;
}

/* The first-stage columns: counts and commitments. */
static void add_commitments(fs_pf_model *m, double *w, double *kmax,
                            double *cmax)
{
    const fs_pf_problem *p = m->p;
    char name[96];   /* a prefix and three 20-digit indices */
    for (size_t o = 0; o < p->noptions; o++) {
        const fs_pf_option *op = &p->options[o];
        for (size_t q = 0; q < p->npools; q++)
            w[q] = p->pools[q].group == op->group;
        kmax[o] = ceil(hourly_peak(m, w) - 1e-9);
        snprintf(name, sizeof name, "k_%zu_%dm_%d", o, op->term_months,
                 op->upfront_kind);
        m->k[o] = add_col(m->lp, name, mean_cost(p, m->opt_cost,
                                                 p->noptions, o),
                          kmax[o], GLP_IV);
    }
    for (int t = 0; t < FS_PF_PLANS; t++) {
        for (size_t q = 0; q < p->npools; q++)
            w[q] = isnan(p->pools[q].plan_rate[t]) ? 0
                                                   : p->pools[q].plan_rate[t];
        cmax[t] = hourly_peak(m, w);
        snprintf(name, sizeof name, "plan_%dy", t ? 3 : 1);
        m->c[t] = add_col(m->lp, name, mean_cost(p, m->plan_cost,
                                                 FS_PF_PLANS, (size_t)t),
                          cmax[t], GLP_CV);
    }
}

/* The columns and the demand row of pool q in slot i (run s, hour h). */
static void add_pool_hour(fs_pf_model *m, size_t s, size_t h, size_t q)
{
    const fs_pf_problem *p = m->p;
    size_t i = (m->base[s] + h) * p->npools + q;
    double d = demand(m, s, h, q), w = slot_weight(m, s, h);
    if (d <= 0)
        return;   /* nothing to cover: no columns */
    const fs_pf_pool *pl = &p->pools[q];
    char name[96];   /* a prefix and three 20-digit indices */
    int ind[5], n = 0;
    double val[5];
    snprintf(name, sizeof name, "r_%zu_%zu_%zu", s, h, q);
    ind[++n] = m->r[i] = add_col(m->lp, name, 0, -1, GLP_CV);
    for (int t = 0; t < FS_PF_PLANS; t++)
        if (!isnan(pl->plan_rate[t])) {
            snprintf(name, sizeof name, "y%d_%zu_%zu_%zu", t, s, h, q);
            ind[++n] = m->y[i * FS_PF_PLANS + t] =
                add_col(m->lp, name, -EPS_REWARD * w * pl->plan_rate[t], -1,
                        GLP_CV);
        }
    snprintf(name, sizeof name, "x_%zu_%zu_%zu", s, h, q);
    ind[++n] = m->x[i] = add_col(m->lp, name, w * pl->on_demand, -1, GLP_CV);
    for (int j = 1; j <= n; j++)
        val[j] = 1;
    snprintf(name, sizeof name, "demand_%zu_%zu_%zu", s, h, q);
    add_row(m->lp, name, n, ind, val, GLP_FX, d, d);
}

/* A future slot's (portfolio_horizon.c) reserved row of group g: its
 * pools' reserved-covered instances (ind[1..n]) at most the group's
 * count, with no column per option (which option covers them is read
 * after, fs_pf_slot_use), so that each month adds few rows. */
static void add_group_future(fs_pf_model *m, size_t s, size_t h, size_t g,
                             int n, int *ind, double *val)
{
    const fs_pf_problem *p = m->p;
    double a_max = 0, w = slot_weight(m, s, h);
    char name[96];   /* a prefix and three 20-digit indices */
    for (size_t o = 0; o < p->noptions; o++)
        if (p->options[o].group == g) {
            a_max = fmax(a_max, fs_pf_amortized(&p->options[o]));
            ind[++n] = m->k[o];
            val[n] = -1;
        }
    for (int j = 1; j <= n; j++)   /* the reward for using the commitment */
        if (val[j] > 0)
            glp_set_obj_coef(m->lp, ind[j], -EPS_REWARD * w * a_max);
    snprintf(name, sizeof name, "share_%zu_%zu_%zu", s, h, g);
    add_row(m->lp, name, n, ind, val, GLP_UP, 0, 0);
}

/* Slot (s, h)'s sharing row of group g and reserved rows of its options:
 * the group's reserved-covered instances are its options' in use. */
static void add_group_hour(fs_pf_model *m, size_t s, size_t h, size_t g,
                           int *ind, double *val)
{
    const fs_pf_problem *p = m->p;
    size_t slot = m->base[s] + h;
    double w = slot_weight(m, s, h);
    char name[96];   /* a prefix and three 20-digit indices */
    int n = 0;
    for (size_t q = 0; q < p->npools; q++)
        if (p->pools[q].group == g && m->r[slot * p->npools + q]) {
            ind[++n] = m->r[slot * p->npools + q];
            val[n] = 1;
        }
    if (n == 0)
        return;   /* no demand in the group this hour */
    if (h >= p->hours[s] && !p->risk) {
        add_group_future(m, s, h, g, n, ind, val);
        return;
    }
    for (size_t o = 0; o < p->noptions; o++) {
        if (p->options[o].group != g)
            continue;
        double a = fs_pf_amortized(&p->options[o]);
        snprintf(name, sizeof name, "u_%zu_%zu_%zu", s, h, o);
        int u = m->u[slot * p->noptions + o] =
            add_col(m->lp, name, -EPS_REWARD * w * a, -1, GLP_CV);
        ind[++n] = u;
        val[n] = -1;
        int ri[3] = {0, u, m->k[o]};
        double rv[3] = {0, 1, -1};
        snprintf(name, sizeof name, "reserved_%zu_%zu_%zu", s, h, o);
        add_row(m->lp, name, 2, ri, rv, GLP_UP, 0, 0);
    }
    snprintf(name, sizeof name, "share_%zu_%zu_%zu", s, h, g);
    add_row(m->lp, name, n, ind, val, GLP_FX, 0, 0);
}

/* Slot (s, h)'s plan rows: the covered usage at the pools' plan rates is
 * at most the commitment. */
static void add_plan_hour(fs_pf_model *m, size_t s, size_t h, int *ind,
                          double *val)
{
    const fs_pf_problem *p = m->p;
    size_t slot = m->base[s] + h;
    char name[96];   /* a prefix and three 20-digit indices */
    for (int t = 0; t < FS_PF_PLANS; t++) {
        int n = 0;
        for (size_t q = 0; q < p->npools; q++) {
            int y = m->y[(slot * p->npools + q) * FS_PF_PLANS + t];
            if (y) {
                ind[++n] = y;
                val[n] = p->pools[q].plan_rate[t];
            }
        }
        if (n == 0)
            continue;
        ind[++n] = m->c[t];
        val[n] = -1;
        snprintf(name, sizeof name, "plan%d_%zu_%zu", t, s, h);
        add_row(m->lp, name, n, ind, val, GLP_UP, 0, 0);
    }
}

/* What a slot's use of a commitment weighs in the risk row: the hours it
 * stands for, discounted (1 for each of the run's hours without a
 * horizon, so that row is as it was). */
static double risk_weight(const fs_pf_model *m, size_t s, size_t h)
{
    size_t i = m->base[s] + h;
    return m->wt[i] * m->disc[i];
}

/* Run s's risk row: unused - bound x committed <= M z (z only when some
 * run may exceed the bound), over all the run's slots: its own hours
 * and, with a horizon, its future months (each slot weighed by the hours
 * it stands for and discounted, as the objective). */
static void add_risk_row(fs_pf_model *m, size_t s, const double *kmax,
                         const double *cmax, int *ind, double *val)
{
    const fs_pf_problem *p = m->p;
    double hs = (double)p->hours[s], b = p->risk_bound, big = 0;
    int horizon = p->horizon_months > 0;
    char name[96];   /* a prefix and three 20-digit indices */
    int n = 0;
    for (size_t o = 0; o < p->noptions; o++) {
        double a = fs_pf_amortized(&p->options[o]);
        ind[++n] = m->k[o];
        val[n] = horizon ? (1 - b) * m->opt_cost[s * p->noptions + o]
                         : (1 - b) * hs * a;
        big += val[n] * kmax[o];
        for (size_t h = 0; h < m->count[s]; h++)
            if (m->u[(m->base[s] + h) * p->noptions + o]) {
                ind[++n] = m->u[(m->base[s] + h) * p->noptions + o];
                val[n] = -a * risk_weight(m, s, h);
            }
    }
    for (int t = 0; t < FS_PF_PLANS; t++) {
        ind[++n] = m->c[t];
        val[n] = horizon ? (1 - b) * m->plan_cost[s * FS_PF_PLANS + t]
                         : (1 - b) * hs;
        big += val[n] * cmax[t];
        for (size_t h = 0; h < m->count[s]; h++)
            for (size_t q = 0; q < p->npools; q++) {
                int y = m->y[((m->base[s] + h) * p->npools + q) *
                             FS_PF_PLANS + t];
                if (y) {
                    ind[++n] = y;
                    val[n] = -p->pools[q].plan_rate[t] * risk_weight(m, s, h);
                }
            }
    }
    if (m->z) {
        snprintf(name, sizeof name, "exempt_%zu", s);
        m->z[s] = add_col(m->lp, name, 0, 1, GLP_BV);
        ind[++n] = m->z[s];
        val[n] = -big;
    }
    snprintf(name, sizeof name, "risk_%zu", s);
    add_row(m->lp, name, n, ind, val, GLP_UP, 0, 0);
}

static void add_exempt_row(fs_pf_model *m, size_t exempt, int *ind,
                           double *val)
{
    for (size_t s = 0; s < m->p->nruns; s++) {
        ind[s + 1] = m->z[s];
        val[s + 1] = 1;
    }
    add_row(m->lp, "exempt", (int)m->p->nruns, ind, val, GLP_UP, 0,
            (double)exempt);
}

static size_t count_groups(const fs_pf_problem *p)
{
    size_t g = 0;
    for (size_t q = 0; q < p->npools; q++)
        g = p->pools[q].group + 1 > g ? p->pools[q].group + 1 : g;
    for (size_t o = 0; o < p->noptions; o++)
        g = p->options[o].group + 1 > g ? p->options[o].group + 1 : g;
    return g;
}

/* Allocates m's index arrays and the scratch row of `width` terms. */
static int model_alloc(fs_pf_model *m, size_t width, int **ind, double **val)
{
    const fs_pf_problem *p = m->p;
    if (fs_pf_slots_build(m))
        return -1;
    size_t cells = m->slots * p->npools;
    m->k = calloc(p->noptions + 1, sizeof *m->k);
    m->r = calloc(cells + 1, sizeof *m->r);
    m->x = calloc(cells + 1, sizeof *m->x);
    m->y = calloc(cells * FS_PF_PLANS + 1, sizeof *m->y);
    m->u = calloc(m->slots * p->noptions + 1, sizeof *m->u);
    if (p->risk && fs_pf_exempt_runs(p->nruns, p->risk_quantile) > 0)
        m->z = calloc(p->nruns, sizeof *m->z);
    *ind = calloc(width + 1, sizeof **ind);
    *val = calloc(width + 1, sizeof **val);
    return m->base && m->k && m->r && m->x && m->y && m->u && *ind && *val &&
           (m->z || !p->risk ||
            fs_pf_exempt_runs(p->nruns, p->risk_quantile) == 0) ? 0 : -1;
}

int fs_pf_model_build(fs_pf_model *m)
{
    const fs_pf_problem *p = m->p;
    size_t maxh = 0;
    for (size_t s = 0; s < p->nruns; s++) {
        size_t n = p->hours[s] + (p->horizon_months ? (size_t)(3 +
            p->horizon_months) * (p->segments ? p->segments
                                               : FS_PF_SEGMENTS) : 0);
        maxh = n > maxh ? n : maxh;
    }
    size_t width = maxh * (p->noptions + p->npools * FS_PF_PLANS) +
                   p->npools + p->noptions + p->nruns + 8;
    int *ind = NULL;
    double *val = NULL;
    m->lp = glp_create_prob();
    glp_set_prob_name(m->lp, "fleetsim_commit");
    glp_set_obj_dir(m->lp, GLP_MIN);
    int rc = model_alloc(m, width, &ind, &val);
    double *kmax = calloc(p->noptions + 1, sizeof *kmax), cmax[FS_PF_PLANS];
    if (rc == 0 && kmax) {
        add_commitments(m, val, kmax, cmax);   /* val: scratch weights */
        size_t groups = count_groups(p);
        for (size_t s = 0; s < p->nruns; s++)
            for (size_t h = 0; h < m->count[s]; h++) {
                for (size_t q = 0; q < p->npools; q++)
                    add_pool_hour(m, s, h, q);
                for (size_t g = 0; g < groups; g++)
                    add_group_hour(m, s, h, g, ind, val);
                add_plan_hour(m, s, h, ind, val);
            }
        for (size_t s = 0; p->risk && s < p->nruns; s++)
            add_risk_row(m, s, kmax, cmax, ind, val);
        if (m->z)
            add_exempt_row(m, fs_pf_exempt_runs(p->nruns, p->risk_quantile),
                           ind, val);
    }
    rc = rc == 0 && kmax ? 0 : -1;
    free(kmax);
    free(ind);
    free(val);
    return rc;
}

void fs_pf_model_free(fs_pf_model *m)
{
    if (m->lp)
        glp_delete_prob(m->lp);
    FS_FREE_ALL(m->base, m->k, m->r, m->x, m->y, m->u, m->z);
    fs_pf_slots_free(m);
}
