/* portfolio_horizon.c -- the slots of the portfolio's program and what a
 * commitment costs over them (portfolio.h, the long view).
 *
 * Without a horizon the slots are the runs' hours, each standing for
 * itself, and a commitment costs its amortized rate over the run's hours,
 * as before.  With a horizon of M months (730 hours each, from the run's
 * start), the run's hours stay exact, each standing for itself; then for
 * each later stretch (the rest of the run's last month, and every month
 * after it up to M) the run's demand duration curve: its hours sorted by
 * total demand and cut into at most `segments` steps of equal length (or
 * its distinct hours, when fewer: exact then), each step's mean demand
 * of each pool scaled by that pool's growth (its own growth =, else the
 * run's) over the stretch (forecast.h:
 * fs_fc_mean_factor, over its mean over the run) and standing for its
 * share of the stretch's hours.  The program so grows with the months by
 * `segments` slots each, not 730: a 3-year hourly portfolio stays small.
 * Hours in one stretch that differ are merged to their mean, which can
 * only understate the on-demand overflow (Jensen); the run's own hours
 * are not merged.
 *
 * A commitment is held through the horizon: a 1-year term inside a 3-year
 * horizon is renewed twice; a term that ends after the horizon is paid in
 * full (its months past the horizon weighed against no demand).  Payments
 * are monthly, the upfront at each term's start, all discounted at the
 * yearly rate compounded monthly, (1 + r)^(-k/12) for month k. */
#include "models/purchase/portfolio_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/forecast.h"
#include "models/purchase/roi.h"

/* Here, with the costs over the slots, not in portfolio_lp.c, so that
 * the calls between the files run one way (lp -> horizon). */
double fs_pf_amortized(const fs_pf_option *o)
{
    return o->hourly + o->upfront / (FS_ROI_MONTH_H * o->term_months);
}

double fs_pf_discount(double rate, int k)
{
    return pow(1 + rate, -(double)k / 12);
}

/* A run's duration curve: steps of mean demand and the share of its
 * hours each stands for. */
typedef struct curve {
    size_t n;
    double *dem;     /* [step * npools + pool] */
    double *share;   /* [step] */
} curve;

typedef struct hour_key {
    const double *d;
    size_t np, h;
    double total;
} hour_key;

/* By total demand, then pool by pool (so that equal hours sit side by
 * side), then by hour: a total order, so the sort is deterministic. */
static int cmp_hours(const void *a, const void *b)
{
    const hour_key *x = a, *y = b;
    int c = (x->total > y->total) - (x->total < y->total);
    for (size_t q = 0; c == 0 && q < x->np; q++)
        c = (x->d[q] > y->d[q]) - (x->d[q] < y->d[q]);
    return c ? c : (x->h > y->h) - (x->h < y->h);
}

static int same_hour(const hour_key *x, const hour_key *y)
{
    return memcmp(x->d, y->d, x->np * sizeof *x->d) == 0;
}

/* Steps [from, to) of the sorted hours k into curve step i. */
static void add_step(curve *c, const hour_key *k, size_t from, size_t to,
                     size_t np, size_t hours)
{
    double *d = &c->dem[c->n * np];
    for (size_t j = from; j < to; j++)
        for (size_t q = 0; q < np; q++)
            d[q] += k[j].d[q] / (double)(to - from);
    c->share[c->n++] = (double)(to - from) / (double)hours;
}

static int curve_build(const fs_pf_model *m, size_t s, size_t steps,
                       double *row, curve *c)
{
    const fs_pf_problem *p = m->p;
    size_t np = p->npools, H = p->hours[s], distinct = 0;
    hour_key *k = calloc(H + 1, sizeof *k);
    c->dem = calloc((H < steps ? H : steps) * np + 1, sizeof *c->dem);
    c->share = calloc(steps + 1, sizeof *c->share);
    if (!k || !c->dem || !c->share) {
        free(k);
        return -1;
    }
    for (size_t h = 0; h < H; h++) {
        k[h] = (hour_key){&row[h * np], np, h, 0};
        for (size_t q = 0; q < np; q++)
            k[h].total += row[h * np + q];
    }
    qsort(k, H, sizeof *k, cmp_hours);
    for (size_t h = 0; h < H; h++)
        distinct += h == 0 || !same_hour(&k[h - 1], &k[h]);
    for (size_t h = 0, from = 0; distinct <= steps && h < H; h++)
        if (h + 1 == H || !same_hour(&k[h], &k[h + 1])) {
            add_step(c, k, from, h + 1, np, H);
            from = h + 1;
        }
    for (size_t i = 0; distinct > steps && i < steps; i++)
        add_step(c, k, H * i / steps, H * (i + 1) / steps, np, H);
    free(k);
    return 0;
}

/* The stretches after run s's hours: [from, to) hours, up to the horizon;
 * returns how many, each starting at a month boundary but the first. */
static size_t stretches(const fs_pf_problem *p, size_t s, double *from,
                        double *to)
{
    double H = (double)p->hours[s], end = FS_FC_MONTH_H * p->horizon_months;
    size_t n = 0;
    for (double a = H; a < end - 1e-9; n++) {
        double b = FS_FC_MONTH_H * (floor(a / FS_FC_MONTH_H + 1e-9) + 1);
        from[n] = a;
        to[n] = fmin(b, end);
        a = to[n];
    }
    return n;
}

static size_t slots_of(const fs_pf_problem *p, size_t s, size_t steps)
{
    double H = (double)p->hours[s];
    if (!p->horizon_months)
        return p->hours[s];
    size_t n = (size_t)ceil(FS_FC_MONTH_H * p->horizon_months / FS_FC_MONTH_H
                            - H / FS_FC_MONTH_H) + 2;
    return p->hours[s] + n * steps;
}

/* Run s's exact hours into its first slots. */
static void fill_run(fs_pf_model *m, size_t s)
{
    const fs_pf_problem *p = m->p;
    for (size_t h = 0; h < p->hours[s]; h++) {
        size_t i = m->base[s] + h;
        for (size_t q = 0; q < p->npools; q++)
            m->dem[i * p->npools + q] = p->demand[s * p->npools + q][h];
        m->wt[i] = 1;
        m->month[i] = (int)(h / FS_FC_MONTH_H);
        m->disc[i] = p->horizon_months
            ? fs_pf_discount(p->discount_rate, m->month[i]) : 1;
    }
    m->count[s] = p->hours[s];
}

/* Pool q of run s's growth over hours [from, to) against the run: the
 * mean factor over the stretch over its mean over the run's hours, at the
 * pool's own rate where it has one, else the run's. */
static double pool_factor(const fs_pf_problem *p, size_t s, size_t q,
                          double from, double to)
{
    double g = p->pool_growth ? p->pool_growth[s * p->npools + q]
             : p->growth ? p->growth[s] : 0;
    return fs_fc_mean_factor(g, from, to) /
           fs_fc_mean_factor(g, 0, (double)p->hours[s]);
}

/* Run s's future stretches, each a scaled copy of its duration curve,
 * each pool grown by its own rate. */
static int fill_future(fs_pf_model *m, size_t s, size_t steps)
{
    const fs_pf_problem *p = m->p;
    size_t np = p->npools, H = p->hours[s], nst = slots_of(p, s, 1) - H;
    double *row = calloc(H * np + 1, sizeof *row);
    double *from = calloc(nst + 1, sizeof *from), *to = calloc(nst + 1,
                                                               sizeof *to);
    curve c = {0};
    int rc = row && from && to ? 0 : -1;
    for (size_t h = 0; rc == 0 && h < H; h++)
        for (size_t q = 0; q < np; q++)
            row[h * np + q] = p->demand[s * np + q][h];
    if (rc == 0)
        rc = curve_build(m, s, steps, row, &c);
    size_t n = rc == 0 ? stretches(p, s, from, to) : 0;
    for (size_t j = 0; j < n; j++) {
        int month = (int)floor(from[j] / FS_FC_MONTH_H + 1e-9);
        for (size_t i = 0; i < c.n; i++) {
            size_t slot = m->base[s] + m->count[s]++;
            for (size_t q = 0; q < np; q++)
                m->dem[slot * np + q] = c.dem[i * np + q] *
                    pool_factor(p, s, q, from[j], to[j]);
            m->wt[slot] = c.share[i] * (to[j] - from[j]);
            m->month[slot] = month;
            m->disc[slot] = fs_pf_discount(p->discount_rate, month);
        }
    }
    free(row);
    free(from);
    free(to);
    free(c.dem);
    free(c.share);
    return rc;
}

/* One commitment's cost over the horizon for run s: per instance (or per
 * $1 an hour, hourly 1 and upfront 0), each term paid in full. */
static double commit_cost(const fs_pf_problem *p, size_t s, int term,
                          double hourly, double upfront, double amortized)
{
    if (!p->horizon_months)
        return (double)p->hours[s] * amortized;
    int terms = (p->horizon_months + term - 1) / term;
    double sum = 0;
    for (int k = 0; k < terms * term; k++)
        sum += fs_pf_discount(p->discount_rate, k) *
               (FS_FC_MONTH_H * hourly + (k % term ? 0 : upfront));
    return sum;
}

static void fill_costs(fs_pf_model *m)
{
    const fs_pf_problem *p = m->p;
    for (size_t s = 0; s < p->nruns; s++) {
        for (size_t o = 0; o < p->noptions; o++) {
            const fs_pf_option *op = &p->options[o];
            m->opt_cost[s * p->noptions + o] = commit_cost(
                p, s, op->term_months, op->hourly, op->upfront,
                fs_pf_amortized(op));
        }
        for (int t = 0; t < FS_PF_PLANS; t++)
            m->plan_cost[s * FS_PF_PLANS + t] =
                commit_cost(p, s, t ? 36 : 12, 1, 0, 1);
    }
}

int fs_pf_slots_build(fs_pf_model *m)
{
    const fs_pf_problem *p = m->p;
    size_t steps = p->segments ? p->segments : FS_PF_SEGMENTS, cap = 0;
    m->base = calloc(p->nruns + 1, sizeof *m->base);
    m->count = calloc(p->nruns + 1, sizeof *m->count);
    for (size_t s = 0; m->base && s < p->nruns; s++) {
        m->base[s] = cap;
        cap += slots_of(p, s, steps);
    }
    m->dem = calloc(cap * p->npools + 1, sizeof *m->dem);
    m->wt = calloc(cap + 1, sizeof *m->wt);
    m->disc = calloc(cap + 1, sizeof *m->disc);
    m->month = calloc(cap + 1, sizeof *m->month);
    m->opt_cost = calloc(p->nruns * p->noptions + 1, sizeof *m->opt_cost);
    m->plan_cost = calloc(p->nruns * FS_PF_PLANS + 1, sizeof *m->plan_cost);
    if (!m->base || !m->count || !m->dem || !m->wt || !m->disc ||
        !m->month || !m->opt_cost || !m->plan_cost)
        return -1;
    for (size_t s = 0; s < p->nruns; s++) {
        fill_run(m, s);
        if (p->horizon_months && fill_future(m, s, steps))
            return -1;
    }
    m->slots = cap;
    fill_costs(m);
    return 0;
}

void fs_pf_slots_free(fs_pf_model *m)
{
    void *blocks[] = {m->count, m->dem, m->wt, m->disc, m->month,
                      m->opt_cost, m->plan_cost};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        free(blocks[i]);
}

double fs_pf_slot_use(const fs_pf_model *m, const fs_pf_solution *sol,
                      size_t run, size_t h, size_t o)
{
    const fs_pf_problem *p = m->p;
    size_t slot = m->base[run] + h;
    int u = m->u[slot * p->noptions + o];
    if (h < p->hours[run] || u)   /* u: a future slot under a risk bound */
        return u ? glp_mip_col_val(m->lp, u) : 0;
    /* a future slot: the group's reserved-covered instances, given to its
     * options dearest first (amortized), as the reward does in the run's
     * hours: what leaves least unused */
    size_t g = p->options[o].group;
    double used = 0, before = 0, a = fs_pf_amortized(&p->options[o]);
    for (size_t q = 0; q < p->npools; q++) {
        int r = m->r[slot * p->npools + q];
        if (r && p->pools[q].group == g)
            used += glp_mip_col_val(m->lp, r);
    }
    for (size_t j = 0; j < p->noptions; j++) {
        double aj = fs_pf_amortized(&p->options[j]);
        if (p->options[j].group == g && (aj > a || (aj == a && j < o)))
            before += (double)sol->count[j];
    }
    return fmin((double)sol->count[o], fmax(0, used - before));
}
