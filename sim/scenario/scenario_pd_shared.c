/* scenario_pd_shared.c -- prefill and decode on the GPUs of one instance.
 *
 *   [pool.NAME]   share_instances = PREFILL_POOL   (on the decode pool)
 *
 * A disaggregated workload (scenario_disagg.c) may split each instance
 * between its two pools instead of buying separate ones: 4 GPUs of a
 * p5.48xlarge prefill and the other 4 decode, the KV cache moving over
 * NVLink rather than the network (sim/fleet/serve/llm_disagg.c).  The two
 * pools then describe the same machines, so everything that would make
 * them different machines is refused here, at the key that causes it,
 * before any event: the key on a pool other than a decode pool, a name
 * that is no prefill pool of the same workload, instance types that
 * differ (or none), GPUs that do not fit one instance together, counts or
 * purchase options or schedules that differ, autoscaling and spot (the
 * pools would launch and lose instances apart).  Each pool bills its own
 * gpus_per_instance share of the instance's price, as any pool of fewer
 * GPUs than its instance type does (scenario_pool.c), so the instance is
 * billed once in total. */
#include "sim/scenario/scenario_impl.h"

#include <stdio.h>
#include <string.h>

int fs_scenario_parse_pd_shared(fs_reader *rd, fs_pool_conf *p)
{
    p->share_pool = -1;
    fs_config_entry *e = fs_rd_entry(rd, "share_instances");
    if (!e)
        return 0;
    if (!e->value[0] || strlen(e->value) >= sizeof p->share_with)
        return fs_rd_bad(rd, e, "%s", "expected the name of the prefill "
                         "pool whose instances this decode pool shares");
    snprintf(p->share_with, sizeof p->share_with, "%s", e->value);
    return 0;
}

/* "file:line: pool.NAME.share_instances: why". */
static int bad_share(fs_scenario *sc, const fs_pool_conf *p, fs_error *err,
                     const char *why)
{
    fs_reader rd = {sc->cfg, p->section, err};
    return fs_rd_bad(&rd, fs_config_find(sc->cfg, p->section,
                                         "share_instances"), "%s", why);
}

/* Whether one workload serves from both pools. */
static int served_together(const fs_scenario *sc, int a, int b)
{
    for (size_t i = 0; i < sc->nworkloads; i++) {
        int has_a = 0, has_b = 0;
        for (int k = 0; k < sc->workloads[i].npools; k++) {
            has_a |= sc->workloads[i].pools[k] == a;
            has_b |= sc->workloads[i].pools[k] == b;
        }
        if (has_a && has_b)
            return 1;
    }
    return 0;
}

/* The roles and the workload: d a decode pool, q a prefill pool, one
 * workload's two pools.  0, or why into why. */
static int check_roles(const fs_scenario *sc, const fs_pool_conf *d, int id,
                       int iq, char *why, size_t len)
{
    if (d->role != FS_ROLE_DECODE)
        snprintf(why, len, "applies to a role = decode pool (pool %s is "
                 "%s), naming its prefill pool", d->name,
                 d->role == FS_ROLE_PREFILL ? "prefill" : "colocated");
    else if (iq < 0)
        snprintf(why, len, "no pool named '%s'", d->share_with);
    else if (iq == id)
        snprintf(why, len, "pool %s names itself: name its prefill pool",
                 d->name);
    else if (sc->pools[iq].role != FS_ROLE_PREFILL)
        snprintf(why, len, "pool %s is not role = prefill: a decode pool "
                 "shares the instances of its prefill pool", d->share_with);
    else if (!served_together(sc, id, iq))
        snprintf(why, len, "pools %s and %s serve no workload together",
                 d->name, d->share_with);
    else
        return 0;
    return -1;
}

/* The machines: one instance type of known GPUs, split between the two
 * pools, the same count, purchase and schedule, fixed and not spot. */
static int check_machines(const fs_scenario *sc, const fs_pool_conf *d,
                          const fs_pool_conf *q, char *why, size_t len)
{
    const fs_instance_type *it = d->instance[0]
        ? fs_catalog_instance(sc->catalog, d->instance) : NULL;
    if (!d->instance[0] || !q->instance[0])
        snprintf(why, len, "pool %s names no instance type: both pools "
                 "set the same instance", d->instance[0] ? q->name : d->name);
    else if (strcmp(d->instance, q->instance) != 0)
        snprintf(why, len, "pool %s is on %s and pool %s on %s: pools that "
                 "share instances name the same instance type", d->name,
                 d->instance, q->name, q->instance);
    else if (it && d->gpus_per_instance + q->gpus_per_instance > it->gpus)
        snprintf(why, len, "%ld + %ld GPUs do not fit one %s of %d GPUs: "
                 "set each pool's gpus_per_instance to its share",
                 q->gpus_per_instance, d->gpus_per_instance, d->instance,
                 it->gpus);
    else if (!(d->gpu.nvlink_gbs > 0))
        snprintf(why, len, "%s GPUs have no NVLink (gpus.csv nvlink_gbs): "
                 "a KV cache would cross PCIe, which is not modelled",
                 d->gpu.name);
    else if (d->scale != FS_SCALE_FIXED || q->scale != FS_SCALE_FIXED)
        snprintf(why, len, "pool %s autoscales: pools that share instances "
                 "have a fixed count", d->scale != FS_SCALE_FIXED ? d->name
                                                                  : q->name);
    else if (d->count != q->count)
        snprintf(why, len, "count %ld differs from pool %s's %ld: pools "
                 "that share instances have the same count", d->count,
                 q->name, q->count);
    else if (d->purchase != q->purchase)
        snprintf(why, len, "pricing %s differs from pool %s's %s",
                 d->purchase->name, q->name, q->purchase->name);
    else if (d->purchase->interruptible)
        snprintf(why, len, "%s", "not on spot in this version: the two "
                 "pools would lose and relaunch their instances apart");
    else if (d->schedule != q->schedule)
        snprintf(why, len, "schedule differs from pool %s's", q->name);
    else
        return 0;
    return -1;
}

int fs_scenario_check_pd_shared(fs_scenario *sc, fs_error *err)
{
    char why[2 * 96 + 3 * FS_NAME_MAX + 200];
    for (size_t i = 0; i < sc->npools; i++) {
        fs_pool_conf *d = &sc->pools[i];
        if (!d->share_with[0])
            continue;
        int iq = FS_NAME_INDEX(fs_pool_conf, sc->pools, sc->npools,
                               d->share_with);
        if (check_roles(sc, d, (int)i, iq, why, sizeof why) ||
            check_machines(sc, d, &sc->pools[iq], why, sizeof why))
            return bad_share(sc, d, err, why);
        d->share_pool = iq;
        d->kv_nvlink = sc->pools[iq].kv_nvlink = 1;
    }
    return 0;
}
