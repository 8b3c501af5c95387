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
} fs_pf_model;

/* Builds the program into m (m->p set): 0, or -1 out of memory. */
int fs_pf_model_build(fs_pf_model *m);
void fs_pf_model_free(fs_pf_model *m);

#endif
