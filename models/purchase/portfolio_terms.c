/* portfolio_terms.c -- each term's break-even month and net present value
 * on a portfolio solved over a horizon (portfolio.h).
 *
 * A term's commitments are its reservations (1-year or 3-year, every
 * upfront option) and its savings plan.  Month by month over the months
 * they are paid (the horizon, rounded up to whole terms), what they save
 * is the on-demand price of the usage they cover (a reservation's
 * instance-hours at its instance type's on-demand rate, a plan's at each
 * pool's), mean over the runs, and what they cost is their payments (the
 * upfront at each term's start, the hourly fee or the plan's commitment
 * every month).  The break-even month is the first whose cumulative
 * saving less cost, undiscounted, is at least 0; the NPV is the sum of
 * each month's saving less cost discounted at the horizon's rate. */
#include "models/purchase/portfolio_impl.h"

#include <math.h>
#include <stdlib.h>

#include "models/purchase/forecast.h"

static double group_on_demand(const fs_pf_problem *p, size_t g)
{
    for (size_t q = 0; q < p->npools; q++)
        if (p->pools[q].group == g)
            return p->pools[q].on_demand;
    return 0;
}

/* What term t's commitments saved in each month (value[month]). */
static void term_value(const fs_pf_model *m, const fs_pf_solution *s,
                       int t, int term, double *value)
{
    const fs_pf_problem *p = m->p;
    for (size_t r = 0; r < p->nruns; r++)
        for (size_t h = 0; h < m->count[r]; h++) {
            size_t slot = m->base[r] + h;
            double v = 0, w = m->wt[slot] / (double)p->nruns;
            for (size_t o = 0; o < p->noptions; o++)
                if (p->options[o].term_months == term)
                    v += fs_pf_slot_use(m, s, r, h, o) *
                         group_on_demand(p, p->options[o].group);
            for (size_t q = 0; q < p->npools; q++) {
                int y = m->y[(slot * p->npools + q) * FS_PF_PLANS + t];
                if (y)
                    v += glp_mip_col_val(m->lp, y) * p->pools[q].on_demand;
            }
            value[m->month[slot]] += w * v;
        }
}

/* Term t's payments in month k. */
static double term_cost(const fs_pf_model *m, const fs_pf_solution *s,
                        int t, int term, int k)
{
    const fs_pf_problem *p = m->p;
    double cost = s->plan[t] * FS_FC_MONTH_H;
    for (size_t o = 0; o < p->noptions; o++)
        if (p->options[o].term_months == term)
            cost += (double)s->count[o] * (FS_FC_MONTH_H *
                    p->options[o].hourly + (k % term ? 0
                                                     : p->options[o].upfront));
    return cost;
}

static int term_bought(const fs_pf_problem *p, const fs_pf_solution *s,
                       int t, int term)
{
    int any = s->plan[t] > 1e-9;
    for (size_t o = 0; o < p->noptions; o++)
        any |= p->options[o].term_months == term && s->count[o] > 0;
    return any;
}

void fs_pf_terms_read(const fs_pf_model *m, fs_pf_solution *s)
{
    const fs_pf_problem *p = m->p;
    for (int t = 0; t < FS_PF_PLANS; t++) {
        int term = t ? 36 : 12;
        s->term_npv[t] = s->term_breakeven[t] = NAN;
        if (!p->horizon_months || !term_bought(p, s, t, term))
            continue;
        int paid = (p->horizon_months + term - 1) / term * term;
        double *value = calloc((size_t)paid + 1, sizeof *value);
        if (!value)
            continue;
        term_value(m, s, t, term, value);
        double npv = 0, cum = 0;
        for (int k = 0; k < paid; k++) {
            double net = value[k] - term_cost(m, s, t, term, k);
            npv += fs_pf_discount(p->discount_rate, k) * net;
            cum += net;
            if (isnan(s->term_breakeven[t]) && cum >= -1e-9)
                s->term_breakeven[t] = k + 1;
        }
        s->term_npv[t] = npv;
        free(value);
    }
}
