/* usage.c -- time integrals of a pool's instances and busy GPUs; see
 * usage.h. */
#include "sim/fleet/serve/usage.h"

#include <assert.h>
#include <string.h>

void fs_usage_init(fs_usage *u, long gpus_per_instance)
{
    memset(u, 0, sizeof *u);
    u->gpus_per_instance = (double)gpus_per_instance;
}

int fs_usage_sample(fs_usage *u, double now, fs_util_row *row)
{
    fs_usage_advance(u, now);
    double dt = now - u->sample_t;
    if (dt <= 0)
        return 0;
    row->t_s = now;
    row->instances_up = (u->area_up - u->sample_up) / dt;
    row->gpus_provisioned = (u->area_gpus - u->sample_gpus) / dt;
    row->gpus_busy = (u->area_busy - u->sample_busy) / dt;
    u->sample_up = u->area_up;
    u->sample_gpus = u->area_gpus;
    u->sample_busy = u->area_busy;
    u->sample_t = now;
    return 1;
}

static void on_provisioning(void *ctx, fs_capacity *cap, int inst)
{
    (void)inst;
    fs_usage *u = ctx;
    fs_usage_advance(u, fs_capacity_now(cap));
    u->launched++;
}

static void on_up(void *ctx, fs_capacity *cap, int inst)
{
    (void)inst;
    fs_usage *u = ctx;
    fs_usage_advance(u, fs_capacity_now(cap));
    u->up++;
}

static void on_gone(void *ctx, fs_capacity *cap, int inst)
{
    fs_usage *u = ctx;
    fs_usage_advance(u, fs_capacity_now(cap));
    if (cap->inst[inst].state != FS_INSTANCE_PROVISIONING)
        u->up--;
    u->launched--;
}

const fs_capacity_listener fs_usage_listener = {
    .name = "usage",
    .on = {
        [FS_CAPACITY_PROVISIONING] = on_provisioning,
        [FS_CAPACITY_UP] = on_up,
        /* INTERRUPTED is always followed by DOWN: counted there once. */
        [FS_CAPACITY_DOWN] = on_gone,
    },
};
