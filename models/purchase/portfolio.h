/* portfolio.h -- commitments as a portfolio: every reservation option
 * and savings plan chosen at once, over all pools and runs, by one
 * mixed-integer linear program solved with GLPK (portfolio.c builds and
 * solves it, portfolio_lp.c writes its rows).  No SQLite and no catalog
 * here: `fleetsim commit` (sim/cli/commit/) reads the demand and rates.
 *
 * Reservations are regional: an option's count, an integer, covers any
 * pool of its group (an instance type in a region), so pools busy at
 * different hours share it.  A savings plan (1y, 3y) is a commitment in $
 * an hour covering any eligible pool's usage at that pool's own plan rate.
 * The rest of each pool's hourly demand is on demand.  The objective is the
 * expected cost over the runs (each a scenario or replication, weighted
 * alike), the upfront amortized over the term's hours (730 a month) as roi
 * does.  The risk bound: in at least the stated share of runs, the unused
 * commitment (reserved hours not used at their amortized rate, plan
 * dollars not used) is at most `bound` of the commitment; a binary per
 * run marks the runs allowed to exceed it (none at p100).  With a
 * horizon both are measured over the whole horizon (the run's grown
 * future months, every term paid in full), as run_unused and
 * run_committed report them. */
#ifndef FS_PORTFOLIO_H
#define FS_PORTFOLIO_H

#include <stddef.h>

#define FS_PF_PLANS 2   /* savings plans: 0 the 1-year, 1 the 3-year */

/* One reservation option of a group: term and upfront, per instance. */
typedef struct fs_pf_option {
    size_t group;
    int term_months;        /* 12 or 36 */
    int upfront_kind;       /* 0 none, 1 partial, 2 all */
    double hourly, upfront; /* recurring $ an hour; $ for the whole term */
} fs_pf_option;

typedef struct fs_pf_pool {
    size_t group;
    double on_demand;               /* $ per instance-hour uncommitted */
    double plan_rate[FS_PF_PLANS];  /* $ per instance-hour under the plan;
                                       NaN: the pool is not eligible */
} fs_pf_pool;

typedef struct fs_pf_problem {
    size_t npools, noptions, nruns;
    const fs_pf_pool *pools;
    const fs_pf_option *options;
    const size_t *hours;            /* [run] */
    const double *const *demand;    /* [run * npools + pool][hour]:
                                       instances in use, each hour */
    int risk;                       /* the bound applies */
    double risk_bound;              /* unused / commitment, 0..1 */
    double risk_quantile;           /* the share of runs within it, 0..1 */
    /* The long view (portfolio_horizon.c): 0 months, the run alone (each
     * commitment at its amortized rate over the run's hours, as before).
     * Else the demand of horizon_months months of 730 hours: the run's
     * hours exactly, then each later month a copy of the run's demand
     * duration curve (at most `segments` steps; its distinct hours when
     * fewer) scaled by the run's growth (growth[run], a month; NULL: none)
     * as forecast.h grows a bill.  A commitment is held through the
     * horizon: a shorter term renewed, each term paid in full; payments
     * and usage discounted at discount_rate a year, monthly. */
    int horizon_months;
    double discount_rate;
    const double *growth;           /* [run], or NULL */
    const double *pool_growth;      /* [run * npools + pool]: each pool's
                                       own rate, in place of growth[run];
                                       NULL: growth[run] for every pool */
    size_t segments;                /* 0: FS_PF_SEGMENTS */
} fs_pf_problem;

#define FS_PF_SEGMENTS 12

/* The chosen portfolio and what it costs, run by run. */
typedef struct fs_pf_solution {
    long *count;                    /* [option] */
    double plan[FS_PF_PLANS];       /* $ an hour committed */
    double *run_cost;               /* [run]: the total */
    double *run_reserved;           /* [run]: reservations, amortized */
    double *run_plan;               /* [run]: the plans' commitments */
    double *run_on_demand;          /* [run]: the rest */
    double *run_unused;             /* [run]: unused commitment, $ */
    double *run_committed;          /* [run]: the commitment, $ */
    double *option_used;            /* [option]: instance-hours used, mean
                                       over runs */
    double *pool_plan_hours;        /* [pool * FS_PF_PLANS + plan]: the
                                       plan's covered instance-hours, mean */
    double *pool_reserved_hours;    /* [pool]: reserved-covered, mean */
    double *pool_on_demand_hours;   /* [pool]: on demand, mean */
    double objective;               /* the solver's expected cost */
    size_t exempt;                  /* runs the risk bound lets exceed it */
    /* With a horizon (else NULL / NaN): every run's demand on demand over
     * it, and per term (0: the 1-year commitments, 1: the 3-year ones,
     * reservations and plan together) its net present value against on
     * demand (the on-demand price of the usage it covers, less what it
     * pays, discounted) and its break-even month (1-based: the first whose
     * cumulative saving, undiscounted, is at least 0; NaN: none bought or
     * never). */
    double *run_all_on_demand;      /* [run] */
    double term_npv[FS_PF_PLANS];
    double term_breakeven[FS_PF_PLANS];
    size_t slots;                   /* the program's run-hours and segments */
} fs_pf_solution;

/* $ an hour of one reserved instance, its upfront spread over the term. */
double fs_pf_amortized(const fs_pf_option *o);

/* Runs that may exceed the bound so that the bound holds at the quantile
 * (linear interpolation between order statistics, as GSL's
 * gsl_stats_quantile_from_sorted_data): n - 1 - ceil((n - 1) q). */
size_t fs_pf_exempt_runs(size_t nruns, double quantile);

/* Builds the program, writes it to lp_path in CPLEX LP format when not
 * NULL, solves it (glp_intopt, presolve on) and fills *s (free with
 * fs_pf_solution_free).  0, or -1 with why (no feasible portfolio, a
 * solver failure, a file that cannot be written). */
int fs_pf_solve(const fs_pf_problem *p, const char *lp_path,
                fs_pf_solution *s, char *why, size_t len);
void fs_pf_solution_free(fs_pf_solution *s);

#endif
