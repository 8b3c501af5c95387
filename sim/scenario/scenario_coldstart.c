/* scenario_coldstart.c -- the keys of an LLM replica's cold start.
 *
 *   [pool]  load_time = auto | DURATION
 *
 * A replica that launches (autoscaling, a spot relaunch or fallback,
 * scaling from zero) serves nothing until its weights are in GPU memory
 * and its engine has started: sim/fleet/pool/coldstart.c times it from
 * the weights and the bandwidth read here.  `auto` (the default) pulls
 * the weights from object storage over the instance's network, its
 * published bandwidth (instances.csv's network_gbps) shared by its GPUs;
 * a DURATION replaces the whole cold start (load and start-up) with a
 * measured one.  The instance type is the pool's `instance`, else the
 * catalog instance that would price its GPU (the cheapest on-demand one
 * with its GPU count, at its provider).
 *
 * Refused: load_time on a pool that serves no llm(...) workload (a
 * non-LLM server is up when its instance is), a negative or non-finite
 * DURATION, and `auto` on an LLM pool that can launch when the catalog
 * has no bandwidth for its instance type (say load_time then). */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int fs_scenario_parse_load_pool(fs_reader *rd, fs_scenario *sc,
                                fs_pool_conf *p, const fs_instance_type *it)
{
    fs_config_entry *e = fs_rd_entry(rd, "load_time");
    p->load_time = NAN;
    p->load_gbps_gpu = NAN;
    if (!it)
        it = fs_catalog_cheapest_at(sc->catalog,
                                    p->provider[0] ? p->provider : NULL,
                                    p->gpu.name, (int)p->gpus_per_instance,
                                    FS_PRICE_ON_DEMAND);
    if (it) {
        snprintf(p->load_from, sizeof p->load_from, "%s:%s", it->provider,
                 it->name);
        if (!isnan(it->network_gbps))
            p->load_gbps_gpu = it->network_gbps / it->gpus;
    }
    /* a pool's network_gbps = (scenario_disagg.c, read before) is its
     * instances' bandwidth for loading too */
    if (fs_rd_entry(rd, "network_gbps") && p->gpus_per_instance > 0)
        p->load_gbps_gpu = p->network_gbps / (double)p->gpus_per_instance;
    if (!e || strcmp(e->value, "auto") == 0)
        return 0;
    if (fs_rd_double(rd, "load_time", fs_parse_duration, 0, &p->load_time))
        return -1;
    if (!isfinite(p->load_time) || p->load_time < 0)
        return fs_rd_bad(rd, e, "%s", "expected auto or a duration >= 0 "
                         "(e.g. 90s)");
    return 0;
}

/* Whether pool i can launch instances during the run: it autoscales, is
 * spot (relaunches), or is a spot pool's on-demand fallback. */
static int launches(const fs_scenario *sc, size_t i)
{
    const fs_pool_conf *p = &sc->pools[i];
    if (p->scale != FS_SCALE_FIXED || p->purchase->interruptible)
        return 1;
    for (size_t k = 0; k < sc->npools; k++)
        if (sc->pools[k].spot.fallback == (int)i)
            return 1;
    return 0;
}

static int serves_llm(const fs_scenario *sc, size_t i)
{
    for (size_t w = 0; w < sc->nworkloads; w++) {
        const fs_workload_conf *wc = &sc->workloads[w];
        for (int k = 0; k < wc->npools; k++)
            if (wc->pools[k] == (int)i && wc->service.model &&
                wc->service.model->server)
                return 1;
    }
    return 0;
}

int fs_scenario_check_load(fs_scenario *sc, fs_error *err)
{
    for (size_t i = 0; i < sc->npools; i++) {
        fs_pool_conf *p = &sc->pools[i];
        fs_reader rd = {sc->cfg, p->section, err};
        const fs_config_entry *e = fs_config_find(sc->cfg, p->section,
                                                  "load_time");
        p->cold_start = serves_llm(sc, i);
        if (!p->cold_start && e)
            return fs_rd_bad(&rd, e, "%s", "applies to pools serving "
                             "llm(...) only (other servers are ready when "
                             "their instance is)");
        if (p->cold_start && isnan(p->load_time) &&
            isnan(p->load_gbps_gpu) && launches(sc, i)) {
            char what[400];
            snprintf(what, sizeof what, "load_time = DURATION: the catalog "
                     "has no network bandwidth (network_gbps) for %s, so a "
                     "launching replica's weights load cannot be timed",
                     p->load_from[0] ? p->load_from : p->gpu.name);
            return fs_rd_missing(&rd, what);
        }
    }
    return 0;
}
