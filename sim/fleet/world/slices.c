/* slices.c -- per-profile results of MIG pools; see slices.h. */
#include "sim/fleet/world/slices.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The pool's cost over the run, every month and its unused part. */
static double pool_cost(const fs_pool *p, size_t nmonths)
{
    double usd = 0;
    for (size_t m = 0; m < nmonths; m++)
        usd += p->meter.usd[m] + (p->unused.usd ? p->unused.usd[m] : 0) +
               (p->after_term.usd ? p->after_term.usd[m] : 0) +
               fs_pool_lines_usd(p, m, 0);
    return usd;
}

static int add_profile(fs_world *w, const fs_pool *p, int slot, double cost)
{
    const fs_servers *sv = &p->servers;
    const fs_server_shape *sh = &sv->shapes[slot];
    fs_slice_row *row = fs_results_add_slice(w->sim.out);
    if (!row)
        return fs_error_set(w->sim.err, "out of memory");
    memset(row, 0, sizeof *row);
    snprintf(row->pool, sizeof row->pool, "%s", p->conf->name);
    snprintf(row->profile, sizeof row->profile, "%s", sh->profile);
    double busy = 0;
    for (int j = 0; j < sv->nshapes; j++)
        if (strcmp(sv->shapes[j].profile, sh->profile) == 0) {
            row->slices_per_gpu++;
            busy += sv->slot_busy_s[j];
        }
    row->compute_share = sh->compute;
    row->sm_share = sh->speed;
    row->slice_hours = p->usage.area_gpus / 3600 * row->slices_per_gpu;
    row->busy_hours = busy / 3600;
    row->utilization = row->slice_hours > 0
        ? row->busy_hours / row->slice_hours : NAN;
    row->idle_cost_usd = row->slice_hours > 0
        ? cost * sh->compute * row->slices_per_gpu * (1 - row->utilization)
        : 0;
    return 0;
}

int fs_collect_slices(fs_world *w)
{
    for (size_t i = 0; i < w->npools; i++) {
        const fs_pool *p = &w->pools[i];
        const fs_servers *sv = &p->servers;
        if (!p->conf->mig.n)
            continue;
        double cost = pool_cost(p, w->sim.cal.nmonths);
        for (int j = 0; j < sv->nshapes; j++) {
            int first = 1;
            for (int k = 0; k < j; k++)
                first &= strcmp(sv->shapes[k].profile,
                                sv->shapes[j].profile) != 0;
            if (first && add_profile(w, p, j, cost))
                return -1;
        }
    }
    return 0;
}

double fs_slices_busy_sm_hours(const fs_pool *p)
{
    const fs_servers *sv = &p->servers;
    if (!p->conf->mig.n)
        return p->usage.area_busy / 3600;
    double sm_s = 0;
    for (int j = 0; j < sv->nshapes; j++)
        sm_s += sv->slot_busy_s[j] * sv->shapes[j].speed;
    return sm_s / 3600;
}
