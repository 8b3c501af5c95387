/* scenario_disagg.c -- the keys of disaggregated prefill and decode.
 *
 *   [pool]      role = colocated|prefill|decode   what the pool's LLM
 *                               replicas run (default colocated: both)
 *               network_gbps = N   its instances' network bandwidth
 *                               (default: the catalog instance's)
 *
 * A workload served disaggregated names one prefill pool and one decode
 * pool in pools (either order): its prompts are prefilled on the first,
 * their KV caches cross the network to the second, which decodes
 * (sim/fleet/serve/llm_disagg.c).  Everything that cannot be simulated is
 * refused here, at the key that causes it, before any event: a role on a
 * pool that serves anything but an llm, a decode pool without a prefill
 * pool (or the reverse), a colocated pool beside them, a link of unknown
 * bandwidth. */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const role_words[] = {"colocated", "prefill", "decode",
                                         NULL};

int fs_scenario_parse_disagg_pool(fs_reader *rd, fs_pool_conf *p,
                                  const fs_instance_type *it)
{
    int role;
    if (fs_rd_choice(rd, "role", role_words, FS_ROLE_COLOCATED, &role))
        return -1;
    p->role = (fs_pool_role)role;
    double catalog = it ? it->network_gbps : NAN;
    if (fs_rd_double(rd, "network_gbps", fs_parse_number, catalog,
                     &p->network_gbps))
        return -1;
    fs_config_entry *e = fs_rd_entry(rd, "network_gbps");
    if (e && !(p->network_gbps > 0 && p->network_gbps <= 100000))
        return fs_rd_bad(rd, e, "%s", "expected a bandwidth above 0, at "
                         "most 100000 Gbps");
    return 0;
}

/* "file:line: pool.NAME.role: why" (at the section when role is unset). */
static int bad_role(fs_scenario *sc, const fs_pool_conf *p, fs_error *err,
                    const char *why)
{
    fs_reader rd = {sc->cfg, p->section, err};
    return fs_rd_bad(&rd, fs_config_find(sc->cfg, p->section, "role"), "%s",
                     why);
}

static int serves_llm(const fs_workload_conf *w)
{
    return w->kind == FS_KIND_INFERENCE && w->service.model &&
           w->service.model->server;
}

/* A pool with a role serves llm workloads only. */
static int check_pool(fs_scenario *sc, const fs_pool_conf *p, int ip,
                      fs_error *err)
{
    char why[3 * FS_NAME_MAX + 200];
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload_conf *w = &sc->workloads[i];
        for (int k = 0; k < w->npools; k++)
            if (w->pools[k] == ip && !serves_llm(w)) {
                snprintf(why, sizeof why, "applies to pools that serve "
                         "service = llm(...) only; workload %s on pool %s "
                         "does not", w->name, p->name);
                return bad_role(sc, p, err, why);
            }
    }
    if (isnan(p->network_gbps) && !p->kv_nvlink) {
        snprintf(why, sizeof why, "pool %s sends or receives KV caches, but "
                 "its network bandwidth is unknown (%s%s): set "
                 "network_gbps", p->name, p->instance[0] ? "the catalog has "
                 "none for " : "no instance type", p->instance);
        return bad_role(sc, p, err, why);
    }
    return 0;
}

/* A workload on a pool with a role: one prefill pool and one decode pool,
 * nothing else. */
static int check_workload(fs_scenario *sc, const fs_workload_conf *w,
                          fs_error *err)
{
    int n[3] = {0, 0, 0};
    const char *colocated = NULL;
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        n[p->role]++;
        if (p->role == FS_ROLE_COLOCATED)
            colocated = p->name;
    }
    if (!n[FS_ROLE_PREFILL] && !n[FS_ROLE_DECODE])
        return 0;
    char why[2 * FS_NAME_MAX + 200];
    if (!n[FS_ROLE_PREFILL] || !n[FS_ROLE_DECODE])
        snprintf(why, sizeof why, "a %s pool without a %s pool: a "
                 "disaggregated workload names one pool with role = "
                 "prefill and one with role = decode",
                 n[FS_ROLE_PREFILL] ? "prefill" : "decode",
                 n[FS_ROLE_PREFILL] ? "decode" : "prefill");
    else if (colocated)
        snprintf(why, sizeof why, "pool %s is colocated beside a prefill "
                 "and a decode pool: name one of each and nothing else",
                 colocated);
    else if (n[FS_ROLE_PREFILL] > 1 || n[FS_ROLE_DECODE] > 1)
        snprintf(why, sizeof why, "%d prefill and %d decode pools: name one "
                 "of each", n[FS_ROLE_PREFILL], n[FS_ROLE_DECODE]);
    else
        return 0;
    fs_reader rd = {sc->cfg, w->section, err};
    return fs_rd_bad(&rd, fs_config_find(sc->cfg, w->section, "pools"), "%s",
                     why);
}

int fs_scenario_check_disagg(fs_scenario *sc, fs_error *err)
{
    if (fs_scenario_check_pd_shared(sc, err))
        return -1;
    for (size_t i = 0; i < sc->npools; i++)
        if (sc->pools[i].role != FS_ROLE_COLOCATED &&
            check_pool(sc, &sc->pools[i], (int)i, err))
            return -1;
    for (size_t i = 0; i < sc->nworkloads; i++)
        if (check_workload(sc, &sc->workloads[i], err))
            return -1;
    return 0;
}
