/* block.c -- a pool inside its capacity blocks; see block.h. */
#include "sim/fleet/pool/block.h"
#include "sim/fleet/run/notes.h"

#include <string.h>

static void on_open(fs_engine *e, void *obj, long arg);
static void on_close(fs_engine *e, void *obj, long arg);

int fs_block_applies(const fs_pool_conf *conf)
{
    return conf->purchase->windows != NULL;
}

static int at(fs_block_run *r, double t, fs_handler fn, long k)
{
    if (fs_engine_at(r->sim->engine, t, fn, r, k))
        return 0;
    fs_error_set(r->sim->err, "out of memory scheduling the capacity block "
                 "of pool %s", r->conf->name);
    fs_sim_fail(r->sim);
    return -1;
}

static void on_open(fs_engine *e, void *obj, long k)
{
    (void)e;
    fs_block_run *r = obj;
    if (fs_capacity_active(r->cap) < r->conf->count)
        fs_capacity_start(r->cap, r->conf->count -
                                      fs_capacity_active(r->cap));
    at(r, r->close[k], on_close, k);
}

/* The provider takes the instances back: those at work are interrupted
 * (their work since the last checkpoint lost), the rest terminate. */
static void on_close(fs_engine *e, void *obj, long k)
{
    (void)e, (void)k;
    fs_block_run *r = obj;
    fs_capacity *cap = r->cap;
    for (int i = 0; i < cap->max; i++)
        r->at_work += (cap->inst[i].state == FS_INSTANCE_UP ||
                       cap->inst[i].state == FS_INSTANCE_DRAINING) &&
                      cap->inst[i].holds > 0;
    /* an interrupted job lets go of its other instances: look again */
    for (int i = 0; i < cap->max; i++) {
        fs_instance_state s = cap->inst[i].state;
        if ((s == FS_INSTANCE_UP || s == FS_INSTANCE_DRAINING) &&
            cap->inst[i].holds > 0 && fs_capacity_interrupt(cap, i, 0)) {
            fs_error_set(r->sim->err, "out of memory closing the capacity "
                         "block of pool %s", r->conf->name);
            fs_sim_fail(r->sim);
            return;
        }
    }
    fs_capacity_release(cap, cap->launched);
}

int fs_block_start(fs_block_run *r, fs_sim *sim, const fs_pool_conf *conf,
                   fs_capacity *cap, fs_usage *usage)
{
    memset(r, 0, sizeof *r);
    if (!fs_block_applies(conf))
        return 0;
    r->sim = sim;
    r->conf = conf;
    r->cap = cap;
    r->usage = usage;
    r->n = conf->purchase->windows(&conf->terms, r->open, r->close,
                                   FS_BLOCK_WINDOWS);
    for (int k = 0; k < r->n; k++)
        if (r->open[k] < sim->cal.horizon_s &&
            at(r, r->open[k], on_open, k))
            return -1;
    return 0;
}

void fs_block_finish(fs_block_run *r)
{
    if (!r->sim)
        return;
    double hours = 0;
    for (int k = 0; k < r->n; k++)
        hours += (r->close[k] - r->open[k]) / 3600;
    double paid = hours * (double)r->conf->count, price = r->conf->terms.price;
    double busy = r->usage->area_busy / 3600 / r->usage->gpus_per_instance;
    double list = r->conf->purchase->list_rate
                      ? r->conf->purchase->list_rate(&r->conf->terms) : 0;
    char od[96] = "";
    if (list > 0)
        snprintf(od, sizeof od, "; on demand at $%.2f/h the same busy "
                 "instance-hours cost $%.2f", list, busy * list);
    fs_results_add_note(r->sim->out, "%s: capacity blocks %.0f instance-h "
                        "x $%.2f = $%.2f paid whole; its work kept %.1f "
                        "instance-h busy (%.1f%%)%s; %ld instances at work "
                        "when a block closed (taken back, work and all)",
                        r->conf->name, paid, price, paid * price, busy,
                        paid > 0 ? 100 * busy / paid : 0, od, r->at_work);
}
