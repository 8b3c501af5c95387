/* portfolio_impl.h -- what portfolio.c (solving, reading the answer) and
 * portfolio_lp.c (building the program) share: the GLPK problem and where
 * each variable is in it. */
#ifndef FS_PORTFOLIO_IMPL_H
#define FS_PORTFOLIO_IMPL_H

#include <glpk.h>

#include "models/purchase/portfolio.h"

/* Column numbers (1-based; 0: no such variable) of the program. */
typedef struct fs_pf_model {
    glp_prob *lp;
    const fs_pf_problem *p;
    size_t slots;          /* run-hours over all runs */
    size_t *base;          /* [run]: its first slot */
    int *k;                /* [option] reserved count, integer */
    int c[FS_PF_PLANS];    /* plan commitment, $ an hour */
    int *r;                /* [slot * npools + pool] reserved-covered */
    int *y;                /* [(slot * npools + pool) * PLANS + plan] */
    int *x;                /* [slot * npools + pool] on demand */
    int *u;                /* [slot * noptions + option] reserved used */
    int *z;                /* [run] exempt from the risk bound (binary) */
    /* The slots (portfolio_horizon.c): each run's hours, then with a
     * horizon its future months' duration-curve steps. */
    size_t *count;         /* [run]: its slots */
    double *dem;           /* [slot * npools + pool]: demand */
    double *wt;            /* [slot]: hours it stands for */
    double *disc;          /* [slot]: the discount factor */
    int *month;            /* [slot]: its month of the horizon */
    double *opt_cost;      /* [run * noptions + option]: one instance's
                              cost (present value) */
    double *plan_cost;     /* [run * PLANS + plan]: $1 an hour's */
} fs_pf_model;

/* Fills the slots and the commitments' costs (portfolio_horizon.c): 0, or
 * -1 out of memory. */
int fs_pf_slots_build(fs_pf_model *m);
void fs_pf_slots_free(fs_pf_model *m);
/* With a horizon: each term's NPV and break-even month into s. */
void fs_pf_terms_read(const fs_pf_model *m, fs_pf_solution *s);
/* Instances of option o in use in run's slot h of a solved model: its
 * column in the run's hours; in a future slot, the group's reserved
 * usage given to its options dearest (amortized) first. */
double fs_pf_slot_use(const fs_pf_model *m, const fs_pf_solution *sol,
                      size_t run, size_t h, size_t o);
/* The discount factor of month k at a yearly rate. */
double fs_pf_discount(double rate, int k);

/* Builds the program into m (m->p set): 0, or -1 out of memory. */
int fs_pf_model_build(fs_pf_model *m);
void fs_pf_model_free(fs_pf_model *m);

#endif
