/* coldstart.c -- a launched LLM replica's load, in seconds.
 *
 * The model (doc/llm.md, Cold starts): a launching instance pulls every
 * replica's weights from object storage over its network at the
 * published bandwidth (models/catalog/instances.csv, network_gbps), all
 * its replicas at once, so an instance's load is the weight bytes it
 * holds over its bandwidth: a tp-GPU replica's shard (weights / tp) over
 * the GPU's share (network / GPUs).  Then the serving engine starts
 * (engines.csv's startup_s: its init, profiling run and CUDA-graph
 * capture).  The instance is billed all along (it runs), and counted
 * provisioned but not busy: idle cost.  A pool's load_time replaces the
 * whole with a measured figure. */
#include "sim/fleet/pool/coldstart.h"
#include "sim/fleet/serve/dispatch.h"

#include <math.h>

double fs_coldstart_bytes(const fs_workload *w, int k, const fs_servers *p)
{
    return w->perf[k].weight_bytes * p->per_instance;
}

/* One LLM workload's load on the pool's instances (its k-th pool). */
static double workload_load(const fs_workload *w, int k,
                            const fs_servers *p)
{
    const fs_pool_conf *c = p->conf;
    const fs_llm_perf *perf = &w->perf[k];
    const fs_llm_engine *e = fs_llm_engines_find(perf->cfg.engines,
                                                 perf->cfg.engine,
                                                 c->gpu.generation);
    double bytes = fs_coldstart_bytes(w, k, p);
    double bytes_per_s = c->load_gbps_gpu * 1e9 / 8 *
                         (double)c->gpus_per_instance;
    return bytes / bytes_per_s + (e ? e->startup_s : 0);
}

double fs_coldstart_seconds(const fs_servers *p)
{
    const fs_pool_conf *c = p->conf;
    if (!c->cold_start)
        return 0;
    if (!isnan(c->load_time))
        return c->load_time;
    if (isnan(c->load_gbps_gpu))
        return 0;   /* nothing launches (scenario_coldstart.c) */
    double load = 0;
    for (int i = 0; i < p->nwls; i++) {
        const fs_workload *w = p->wls[i];
        if (!w->llm.ttft.n)
            continue;
        for (int k = 0; k < w->npools; k++)
            if (w->pools[k] == p && workload_load(w, k, p) > load)
                load = workload_load(w, k, p);
    }
    return load;
}
