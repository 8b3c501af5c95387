/* allocate.c -- cost_allocation: each pool's monthly cost split among the
 * workloads it served, by the busy GPU-seconds each used, and the idle
 * rest (provisioned, not busy) as a row of its own; see collect.h.
 *
 * The shares are the pool-month's billed GPU-seconds (the meter's
 * GPU-hours: on-demand launch to end, a reservation every hour) used by
 * each workload; each share is rounded to the cent (never past what is
 * left of the total) and idle is the rounded total minus them, so a
 * pool-month's rows add up to its cost_monthly row to the cent and idle is
 * never negative.
 *
 * A pool cut into MIG slices splits its idle rest by slice profile: each
 * profile's slices are billed_s x their compute share (compute slices /
 * the GPU's: 1/7 for a 1g on an A100) x their count GPU-seconds a month,
 * of which the busy ones went to the workloads; the rest is that
 * profile's idle row (profile named).  What is left, the compute slices
 * outside every slice of the layout (a 3g.40gb alone leaves 4 of 7) and
 * the cents of rounding, stays in the row without a profile.  The SMs no
 * slice can hold (98 of an A100's 108 make seven 1g) are not idle: the
 * slices holding the GPU pay for them, as they count for the whole GPU
 * in utilization (shape.h).  So "98% of this A100 is idle" is the sum of
 * a pool's idle rows over its cost, and each slice's part of it is a
 * row. */
#include "sim/fleet/world/collect.h"
#include "sim/fleet/world/world.h"

#include <stdio.h>
#include <string.h>

/* A row's energy (models/purchase/energy.h): its GPU-hours busy at the
 * GPU's TDP, or idle at its idle power, in the pool's facility; a pool's
 * rows add up to its energy when its billed GPU-hours are its provisioned
 * ones (the model is linear: idle x all + (TDP - idle) x busy). */
static double row_energy_kwh(const fs_pool *p, double gpu_hours, int busy)
{
    fs_energy_model e;
    fs_purchase_energy_model(p->conf->purchase, &p->conf->terms,
                             p->conf->gpu.tdp_w, p->conf->gpu.idle_w, &e);
    return busy ? fs_energy_kwh(&e, gpu_hours, gpu_hours)
                : fs_energy_kwh(&e, gpu_hours, 0);
}

static int add_row(fs_world *w, const fs_pool *p, size_t m,
                   const fs_workload_conf *wc, double usd, double gpu_hours,
                   const char *profile)
{
    fs_sim *sim = &w->sim;
    fs_alloc_row *row = fs_results_add_alloc(sim->out);
    if (!row)
        return fs_error_set(sim->err, "out of memory");
    snprintf(row->month, sizeof row->month, "%s", sim->cal.label[m]);
    snprintf(row->pool, sizeof row->pool, "%s", p->conf->name);
    snprintf(row->workload, sizeof row->workload, "%s", wc ? wc->name : "");
    snprintf(row->profile, sizeof row->profile, "%s", profile ? profile : "");
    fs_tags_json(p->conf->tags, wc ? wc->tags : NULL, row->tags,
                 sizeof row->tags);
    row->cost_usd = usd;
    row->gpu_hours = gpu_hours;
    row->energy_kwh = row_energy_kwh(p, gpu_hours, wc != NULL);
    return 0;
}

/* One workload's share of a pool-month: its busy GPU-seconds over the
 * billed ones, rounded to the cent and never past what is left. */
static int add_share(fs_world *w, const fs_pool *p, size_t m,
                     const fs_workload_conf *wc, double busy, double total,
                     double billed_s, double *used_usd, double *used_s)
{
    if (busy <= 0)
        return 0;
    double share = billed_s > 0 ? busy / billed_s : 0;
    double usd = fs_round_cents(total * (share < 1 ? share : 1));
    /* rounding up never takes more than is left: idle stays >= 0 */
    if (usd > fs_round_cents(total - *used_usd))
        usd = fs_round_cents(total - *used_usd);
    if (add_row(w, p, m, wc, usd, busy / 3600, NULL))
        return -1;
    *used_usd += usd;
    *used_s += busy;
    return 0;
}

/* The idle rows of a MIG pool's month, one per slice profile of its
 * layout (its first slot names it): the profile's slice GPU-seconds
 * billed less their busy ones, at the month's price per GPU-second. */
static int add_slice_idle(fs_world *w, const fs_pool *p, size_t m,
                          double total, double billed_s, double *used_usd,
                          double *used_s)
{
    const fs_servers *s = &p->servers;
    for (int j = 0; j < s->nshapes; j++) {
        const char *prof = s->shapes[j].profile;
        int first = 1;
        for (int k = 0; k < j; k++)
            first &= strcmp(s->shapes[k].profile, prof) != 0;
        if (!first)
            continue;
        double slice_s = 0, busy = 0;
        for (int k = j; k < s->nshapes; k++)
            if (strcmp(s->shapes[k].profile, prof) == 0) {
                slice_s += billed_s * fs_shape_busy_gpus(&s->shapes[k]);
                busy += fs_servers_slot_busy(s, k, m);
            }
        double idle = slice_s > busy ? slice_s - busy : 0;
        double usd = fs_round_cents(billed_s > 0 ? total * idle / billed_s
                                                 : 0);
        if (usd > fs_round_cents(total - *used_usd))
            usd = fs_round_cents(total - *used_usd);
        if (add_row(w, p, m, NULL, usd, idle / 3600, prof))
            return -1;
        *used_usd += usd;
        *used_s += idle;
    }
    return 0;
}

static int allocate_month(fs_world *w, const fs_pool *p, size_t m)
{
    const fs_servers *s = &p->servers;
    /* the pool's own lines too (an owned pool's power, colocation and
     * maintenance): the showback shares its whole bill */
    double total = fs_meter_cents(p->meter.usd, m) +
                   fs_pool_lines_usd(p, m, 1);
    double billed_s = p->meter.gpu_hours[m] * 3600;
    double used_usd = 0, used_s = 0;
    for (int k = 0; k < s->nwls; k++)
        if (add_share(w, p, m, s->wls[k]->conf, fs_servers_wl_busy(s, k, m),
                      total, billed_s, &used_usd, &used_s))
            return -1;
    /* training jobs, by the same rule (a pool serves one kind or the
     * other) */
    for (size_t k = 0; k < fs_training_nworkloads(w->training); k++)
        if (add_share(w, p, m, fs_training_workload(w->training, k),
                      fs_training_busy(w->training, k, p->conf, m), total,
                      billed_s, &used_usd, &used_s))
            return -1;
    if (p->conf->mig.n && add_slice_idle(w, p, m, total, billed_s,
                                         &used_usd, &used_s))
        return -1;
    double idle_h = (billed_s - used_s) / 3600;
    return add_row(w, p, m, NULL, fs_round_cents(total - used_usd),
                   idle_h > 0 ? idle_h : 0, NULL);
}

int fs_collect_allocation(fs_world *w)
{
    for (size_t m = 0; m < w->sim.cal.nmonths; m++)
        for (size_t i = 0; i < w->npools; i++) {
            const fs_pool *p = &w->pools[i];
            if (p->meter.usd[m] == 0 && p->meter.gpu_hours[m] == 0)
                continue;
            if (allocate_month(w, p, m))
                return -1;
        }
    return 0;
}
