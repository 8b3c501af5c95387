/* portfolio.c -- the commitment portfolio (portfolio.h): solves the
 * program portfolio_lp.c builds with GLPK's branch and cut (glp_intopt,
 * its presolver on), then reads the answer back run by run: each run's
 * cost in its parts (reservations, plans, on demand), which add up to its
 * total, and its unused commitment. */
#include "models/purchase/portfolio_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


static double col(const fs_pf_model *m, int j)
{
    return j ? glp_mip_col_val(m->lp, j) : 0;
}

static int solution_alloc(fs_pf_solution *s, const fs_pf_problem *p)
{
    size_t r = p->nruns;
    s->count = calloc(p->noptions + 1, sizeof *s->count);
    s->option_used = calloc(p->noptions + 1, sizeof *s->option_used);
    double **runs[] = {&s->run_cost, &s->run_reserved, &s->run_plan,
                       &s->run_on_demand, &s->run_unused, &s->run_committed};
    int ok = s->count && s->option_used;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
        ok = (*runs[i] = calloc(r, sizeof **runs[i])) && ok;
    s->pool_plan_hours = calloc(p->npools * FS_PF_PLANS + 1, sizeof(double));
    s->pool_reserved_hours = calloc(p->npools + 1, sizeof(double));
    s->pool_on_demand_hours = calloc(p->npools + 1, sizeof(double));
    s->run_all_on_demand = calloc(r + 1, sizeof(double));
    return ok && s->pool_plan_hours && s->pool_reserved_hours &&
           s->pool_on_demand_hours && s->run_all_on_demand ? 0 : -1;
}

/* Run s's usage: the pools' covered hours and on-demand cost, the
 * options' hours used (hours as each slot stands for); the dollars of
 * commitment used into *used, and all on demand into *all (each
 * discounted as the objective). */
static double read_run_usage(const fs_pf_model *m, fs_pf_solution *s,
                             size_t run, double *used, double *all)
{
    const fs_pf_problem *p = m->p;
    double od = 0;
    *used = *all = 0;
    for (size_t h = 0; h < m->count[run]; h++) {
        size_t slot = m->base[run] + h;
        double w = m->wt[slot] / (double)p->nruns, d = m->disc[slot];
        for (size_t q = 0; q < p->npools; q++) {
            size_t i = slot * p->npools + q;
            double x = col(m, m->x[i]);
            od += d * m->wt[slot] * x * p->pools[q].on_demand;
            *all += d * m->wt[slot] * m->dem[i] * p->pools[q].on_demand;
            s->pool_on_demand_hours[q] += w * x;
            s->pool_reserved_hours[q] += w * col(m, m->r[i]);
            for (int t = 0; t < FS_PF_PLANS; t++) {
                double y = col(m, m->y[i * FS_PF_PLANS + t]);
                s->pool_plan_hours[q * FS_PF_PLANS + t] += w * y;
                if (y > 0)
                    *used += d * m->wt[slot] * y * p->pools[q].plan_rate[t];
            }
        }
        for (size_t o = 0; o < p->noptions; o++) {
            double u = fs_pf_slot_use(m, s, run, h, o);
            s->option_used[o] += w * u;
            *used += d * m->wt[slot] * u * fs_pf_amortized(&p->options[o]);
        }
    }
    return od;
}

/* The answer of a solved model into s. */
static void read_solution(const fs_pf_model *m, fs_pf_solution *s)
{
    const fs_pf_problem *p = m->p;
    for (size_t o = 0; o < p->noptions; o++)
        s->count[o] = lround(col(m, m->k[o]));
    for (int t = 0; t < FS_PF_PLANS; t++)
        s->plan[t] = col(m, m->c[t]);
    for (size_t r = 0; r < p->nruns; r++) {
        double used, reserved = 0, plan = 0;
        for (size_t o = 0; o < p->noptions; o++)
            reserved += (double)s->count[o] *
                        m->opt_cost[r * p->noptions + o];
        for (int t = 0; t < FS_PF_PLANS; t++)
            plan += s->plan[t] * m->plan_cost[r * FS_PF_PLANS + t];
        s->run_on_demand[r] = read_run_usage(m, s, r, &used,
                                             &s->run_all_on_demand[r]);
        s->run_reserved[r] = reserved;
        s->run_plan[r] = plan;
        s->run_cost[r] = s->run_reserved[r] + s->run_plan[r] +
                         s->run_on_demand[r];
        s->run_committed[r] = reserved + plan;
        s->run_unused[r] = fmax(0, s->run_committed[r] - used);
    }
    s->slots = 0;
    for (size_t r = 0; r < p->nruns; r++)
        s->slots += m->count[r];
    fs_pf_terms_read(m, s);
    s->objective = glp_mip_obj_val(m->lp);
    s->exempt = m->z ? fs_pf_exempt_runs(p->nruns, p->risk_quantile) : 0;
}

static int solve_model(fs_pf_model *m, char *why, size_t len)
{
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    int rc = glp_intopt(m->lp, &parm);
    int st = rc == 0 ? glp_mip_status(m->lp) : 0;
    if (rc == 0 && st == GLP_OPT)
        return 0;
    snprintf(why, len, "%s", rc == GLP_ENOPFS || st == GLP_NOFEAS
             ? "no portfolio meets the risk bound (loosen --risk)"
             : "the solver (GLPK glp_intopt) found no optimal portfolio");
    return -1;
}

int fs_pf_solve(const fs_pf_problem *p, const char *lp_path,
                fs_pf_solution *s, char *why, size_t len)
{
    fs_pf_model m = {.p = p};
    int rc = -1;
    glp_term_out(GLP_OFF);
    if (solution_alloc(s, p) || fs_pf_model_build(&m))
        snprintf(why, len, "out of memory");
    else if (lp_path && glp_write_lp(m.lp, NULL, lp_path) != 0)
        snprintf(why, len, "%s: cannot write the model", lp_path);
    else if (solve_model(&m, why, len) == 0) {
        read_solution(&m, s);
        rc = 0;
    }
    fs_pf_model_free(&m);
    if (rc)
        fs_pf_solution_free(s);
    return rc;
}

void fs_pf_solution_free(fs_pf_solution *s)
{
    free(s->count);
    free(s->option_used);
    free(s->run_cost);
    free(s->run_reserved);
    free(s->run_plan);
    free(s->run_on_demand);
    free(s->run_unused);
    free(s->run_committed);
    free(s->pool_plan_hours);
    free(s->pool_reserved_hours);
    free(s->pool_on_demand_hours);
    free(s->run_all_on_demand);
    *s = (fs_pf_solution){0};
}
