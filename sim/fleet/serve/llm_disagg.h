/* llm_disagg.h -- disaggregated prefill and decode of an LLM workload.
 *
 * A workload whose pools have role = prefill and role = decode
 * (sim/scenario/scenario_disagg.c) runs each request's prompt on a
 * replica of the prefill pool (iterations of prefill only), sends its KV
 * cache over the network (over NVLink where the pools share instances:
 * share_instances =) to the decode pool, and decodes it there
 * (iterations of decode only, never interrupted by a prompt).  Its first
 * token is out when the KV cache has arrived.  See llm_disagg.c. */
#ifndef FS_LLM_DISAGG_H
#define FS_LLM_DISAGG_H

#include "sim/fleet/serve/servers.h"

typedef struct fs_llm_disagg fs_llm_disagg;

/* What a disaggregated workload's transfers add up to (collect_llm.c). */
typedef struct fs_llm_disagg_stats {
    double link_gbps;        /* the link: the lower of the pools' Gbps,
                                or a prefill replica's NVLink's */
    long transfers;          /* KV caches sent */
    double bytes;            /* their bytes */
    double transfer_s;       /* seconds on the link, summed */
    double wait_s;           /* seconds waiting for the prefill instance's
                                link, busy with earlier transfers, summed */
} fs_llm_disagg_stats;

/* Workload w (its llm replicas made, w->perf) is served disaggregated when
 * one of its pools has a role: its state in w->disagg.  0 (w->disagg NULL
 * when no pool has a role), or -1 with err set when out of memory. */
int fs_llm_disagg_init(fs_workload *w, fs_error *err);
void fs_llm_disagg_free(fs_workload *w);

/* Prefill server s's request r (its prompt prefilled, its first token
 * computed) sends its KV cache to
 * the decode pool now: it arrives after the prefill instance's link has
 * carried the transfers before it and this one's bytes. */
void fs_llm_disagg_send(fs_server *s, const fs_request *r, double now);

/* KV caches on the way, for the requests unfinished at the horizon. */
long fs_llm_disagg_in_flight(const fs_workload *w);
void fs_llm_disagg_stats_of(const fs_workload *w, fs_llm_disagg_stats *out);

/* A server of pool p hands a request whose prefill is done to the decode
 * pool (a prefill pool's), instead of decoding it. */
static inline int fs_llm_disagg_hands_off(const fs_servers *p)
{
    return p->conf->role == FS_ROLE_PREFILL;
}

/* A request's wait (arrival to admission) is counted where its prefill
 * starts: not on a decode pool. */
static inline int fs_llm_disagg_counts_wait(const fs_servers *p)
{
    return p->conf->role != FS_ROLE_DECODE;
}

#endif
