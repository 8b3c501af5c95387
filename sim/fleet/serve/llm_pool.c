/* llm_pool.c -- a pool's slots for continuous batching, and its latency.
 *
 * Made once per pool (never per request or iteration): a run per server,
 * room for the largest max_batch of the pool's LLM workloads, and the
 * pool's own TTFT, TPOT and end-to-end histograms, which llm_server.c
 * fills as requests retire and the results read here. */
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_run.h"
#include "sim/fleet/serve/llm_adapter.h"

#include <stdlib.h>

/* The largest max_batch among the pool's llm workloads. */
static int pool_batch_cap(const fs_servers *p)
{
    const fs_scenario *sc = p->sim->sc;
    int ipool = (int)(p->conf - sc->pools), cap = 1;
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload_conf *c = &sc->workloads[i];
        if (!c->service.model || !c->service.model->server)
            continue;
        for (int k = 0; k < c->npools; k++)
            if (c->pools[k] == ipool && c->service.llm.max_batch > cap)
                cap = c->service.llm.max_batch;
    }
    return cap;
}

int fs_llm_servers_init(fs_servers *p)
{
    if (p->llm_store)
        return 0;
    llm_store *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    p->llm_store = st;
    if (fs_hist_init(&st->ttft) || fs_hist_init(&st->tpot) ||
        fs_hist_init(&st->e2e))
        return -1;
    size_t n = p->nservers ? p->nservers : 1;
    int cap = pool_batch_cap(p);
    st->runs = calloc(n, sizeof *st->runs);
    st->seqs = calloc(n * (size_t)cap, sizeof *st->seqs);
    if (!st->runs || !st->seqs)
        return -1;
    for (size_t i = 0; i < p->nservers; i++) {
        st->runs[i].seq = &st->seqs[i * (size_t)cap];
        p->servers[i].llm = &st->runs[i];
    }
    return 0;
}

void fs_llm_servers_free(fs_servers *p)
{
    llm_store *st = p->llm_store;
    if (!st)
        return;
    for (size_t i = 0; st->runs && i < p->nservers; i++) {
        fs_kv_cache_free(st->runs[i].kv);
        fs_lora_slots_free(&st->runs[i]);
    }
    free(st->runs);
    free(st->seqs);
    fs_hist_free(&st->ttft);
    fs_hist_free(&st->tpot);
    fs_hist_free(&st->e2e);
    free(st);
    p->llm_store = NULL;
}

void fs_llm_servers_latency(const fs_servers *p, fs_llm_pool_lat *out)
{
    const llm_store *st = p->llm_store;
    if (!st)
        fs_llm_lat_fill(out, NULL, NULL, NULL);
    else
        fs_llm_lat_fill(out, &st->ttft, &st->tpot, &st->e2e);
}
