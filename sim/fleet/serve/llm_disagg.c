/* llm_disagg.c -- a KV cache's way from a prefill pool to a decode pool.
 *
 * Disaggregated serving (Splitwise, DistServe, Mooncake, NVIDIA Dynamo)
 * runs prompts and decode steps on separate replicas, so that a long
 * prompt never stalls the decode batch: each pool is sized, bought and
 * autoscaled on its own.  The continuous-batching server (llm_server.c)
 * does the iterations; this file joins the two pools:
 *
 *   - a prefill replica's request whose prompt is done (its first token
 *     computed) leaves the replica, its KV blocks freed there, and its KV
 *     cache (the prompt's tokens x the replica's KV bytes per token,
 *     fs_llm_perf.kv_bytes_per_token) crosses the network: the lower of
 *     the two pools' bandwidths (network_gbps, from the catalog's
 *     instance types with their source); or, where the two pools split
 *     each instance's GPUs (share_instances =), NVLink (set_link);
 *   - each prefill instance's link (each prefill replica's, on NVLink)
 *     carries one transfer at a time, in the order they were sent (a
 *     FIFO: a transfer waits for the ones before it); the receiving side
 *     is not modelled as a bottleneck;
 *   - when it has arrived the request has its first token (TTFT = its wait
 *     + prefill + the queueing at the link + bytes / bandwidth) and goes to
 *     an idle decode server, or waits for one in the workload's kv_queue,
 *     which the decode pool's replicas admit from (dispatch.h's
 *     fs_workload_queue_of) as colocated replicas admit from the arrivals.
 *
 * A decode replica admits a request with its KV cache in place (nothing to
 * prefill).  One preempted there by a full cache, or lost with a spot
 * instance, recomputes its context on the decode replica, as vLLM does.
 * Transfers are kept in slots that double to their peak: no allocation
 * per request once warm. */
#include "sim/fleet/serve/llm_disagg.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/base/vec.h"

#include <math.h>
#include <stdlib.h>

struct fs_llm_disagg {
    fs_workload *w;
    fs_servers *prefill, *decode;
    double bytes_per_s;         /* the link */
    double kv_bytes_per_token;  /* of the prefill replica */
    double *link_free;          /* per prefill instance: when its link is
                                   done with what it was sent */
    size_t nlinks;
    int per_server;             /* a link per prefill replica (NVLink),
                                   else per prefill instance */
    fs_request *flight;         /* requests whose KV cache is on the way */
    size_t nflight, cap;
    size_t *free_slots;         /* of flight, to reuse */
    size_t nfree, free_cap;
    fs_llm_disagg_stats st;
};

static void on_arrived(fs_engine *e, void *obj, long arg);

/* The pool of w with role r, and its index in w->pools. */
static int pool_with(const fs_workload *w, fs_pool_role r)
{
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k]->conf->role == r)
            return k;
    return -1;
}

/* The link a KV cache crosses.  Across the network: the lower of the two
 * pools' bandwidths, one link per prefill instance (its NIC).  Inside a
 * shared instance (share_instances =, scenario_pd_shared.c): NVLink, one
 * link per prefill replica, as each GPU has its own NVLink ports to the
 * NVSwitch; a replica of k GPUs holds its KV cache in k shards, each sent
 * by its own GPU at one direction's bandwidth, half of the datasheet's
 * both-directions nvlink_gbs (H100 SXM: 900 GB/s, 450 each way). */
static void set_link(fs_llm_disagg *d)
{
    const fs_servers *p = d->prefill;
    double gbps;
    if (d->decode->conf->kv_nvlink) {
        long gpus = p->per_instance > 0
            ? p->conf->gpus_per_instance / p->per_instance : 1;
        gbps = p->conf->gpu.nvlink_gbs / 2 * 8 * (double)(gpus > 0 ? gpus : 1);
        d->nlinks = p->nservers;
        d->per_server = 1;
    } else {
        gbps = fmin(p->conf->network_gbps, d->decode->conf->network_gbps);
        d->nlinks = p->per_instance > 0
            ? p->nservers / (size_t)p->per_instance : 0;
    }
    d->st.link_gbps = gbps;
    d->bytes_per_s = gbps * 1e9 / 8;
}

int fs_llm_disagg_init(fs_workload *w, fs_error *err)
{
    int kp = pool_with(w, FS_ROLE_PREFILL), kd = pool_with(w, FS_ROLE_DECODE);
    if (kp < 0 || kd < 0)   /* the scenario refused one without the other */
        return 0;
    fs_llm_disagg *d = calloc(1, sizeof *d);
    if (!d)
        return fs_error_set(err, "out of memory");
    w->disagg = d;
    d->w = w;
    d->prefill = w->pools[kp];
    d->decode = w->pools[kd];
    d->kv_bytes_per_token = w->perf[kp].kv_bytes_per_token;
    set_link(d);
    d->link_free = calloc(d->nlinks ? d->nlinks : 1, sizeof *d->link_free);
    return d->link_free ? 0 : fs_error_set(err, "out of memory");
}

void fs_llm_disagg_free(fs_workload *w)
{
    fs_llm_disagg *d = w->disagg;
    w->disagg = NULL;
    if (d) {    /* its arrays, then itself */
        free(d->link_free);
        free(d->flight);
        free(d->free_slots);
    }
    free(d);
}

/* A slot for a transfer: a freed one, else a new one; -1 when out of
 * memory. */
static long take_slot(fs_llm_disagg *d)
{
    if (d->nfree)
        return (long)d->free_slots[--d->nfree];
    fs_request *f = fs_vec_grow(d->flight, &d->cap, d->nflight + 1,
                                sizeof *f);
    size_t *fr = f ? fs_vec_grow(d->free_slots, &d->free_cap, d->cap,
                                 sizeof *fr) : NULL;
    if (f)
        d->flight = f;
    if (!fr)
        return -1;
    d->free_slots = fr;
    return (long)d->nflight++;
}

static void fail(fs_llm_disagg *d, const char *what)
{
    fs_error_set(d->w->sim->err, "out of memory %s", what);
    fs_sim_fail(d->w->sim);
}

void fs_llm_disagg_send(fs_server *s, const fs_request *r, double now)
{
    fs_llm_disagg *d = s->wl->disagg;
    double bytes = d->kv_bytes_per_token *
                   (double)(r->tokens_in > 0 ? r->tokens_in : 1);
    double t = bytes / d->bytes_per_s;
    size_t link = d->per_server ? (size_t)(s - d->prefill->servers)
                                : (size_t)s->instance;
    double *free_at = &d->link_free[link < d->nlinks ? link : 0];
    double start = *free_at > now ? *free_at : now;
    *free_at = start + t;
    d->st.transfers++;
    d->st.bytes += bytes;
    d->st.transfer_s += t;
    d->st.wait_s += start - now;
    long slot = take_slot(d);
    if (slot < 0) {
        fail(d, "sending KV caches");
        return;
    }
    d->flight[slot] = *r;
    if (!fs_engine_at(d->w->sim->engine, start + t, on_arrived, d, slot))
        fail(d, "scheduling a KV transfer");
}

/* A KV cache has arrived: its request has its first token now, and
 * decodes on an idle decode server or waits for one. */
static void on_arrived(fs_engine *e, void *obj, long arg)
{
    fs_llm_disagg *d = obj;
    fs_workload *w = d->w;
    fs_request r = d->flight[arg];
    d->free_slots[d->nfree++] = (size_t)arg;
    r.ttft = -(float)(fs_engine_now(e) - r.arrival);   /* its cache is in */
    fs_server *s = fs_servers_idle_pop_for(d->decode, w->conf->mig_profile,
                                           fs_workload_model(w));
    if (s) {
        fs_servers_taken(d->decode, s);
        s->wl = w;
        s->nbatch = 1;
        s->batch[0] = r;
        d->decode->disc->start(s);
    } else if (fs_queue_push(&w->kv_queue, r)) {
        fail(d, "queueing KV caches");
    }
}

long fs_llm_disagg_in_flight(const fs_workload *w)
{
    const fs_llm_disagg *d = w->disagg;
    return d ? (long)(d->nflight - d->nfree) : 0;
}

void fs_llm_disagg_stats_of(const fs_workload *w, fs_llm_disagg_stats *out)
{
    if (w->disagg)
        *out = w->disagg->st;
    else
        *out = (fs_llm_disagg_stats){.link_gbps = NAN};
}
