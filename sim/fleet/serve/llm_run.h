/* llm_run.h -- the running set of an LLM replica, private to the
 * continuous-batching server (llm_server.c, one iteration at a time) and
 * the pool's slots that hold it (llm_pool.c, made once per pool).
 *
 * A replica's running requests are llm_seq slots in fs_llm_run; a pool
 * keeps every server's run, their slots and the pool's TTFT, TPOT and
 * end-to-end histograms in one llm_store, so an iteration allocates
 * nothing. */
#ifndef FS_LLM_RUN_H
#define FS_LLM_RUN_H

#include "sim/fleet/serve/servers.h"
#include "sim/fleet/serve/llm_kvcache.h"
#include "sim/base/histogram.h"
#include "models/llm/llm.h"

#define KV_BLOCK 16

typedef struct llm_seq {
    fs_request r;
    int32_t in, out;        /* prompt and output tokens, >= 1 */
    int32_t fill;           /* tokens to prefill: the prompt, and after a
                               preemption the tokens it had generated */
    int32_t prefilled, generated;
    int32_t step;           /* prompt tokens the running iteration fills */
    int32_t decoding;       /* it decodes a token in the running iteration */
    long blocks;            /* KV blocks held alone */
    long shared;            /* KV blocks of its cached prefix chain, held
                               with any other request that shares them */
    fs_kv_hold hold;        /* that chain in the replica's cache */
    double admitted, first_t;
} llm_seq;

struct fs_llm_run {
    llm_seq *seq;           /* running, oldest admitted first */
    int n, cap;
    long free_blocks, total_blocks, watermark;
    int preempted;          /* in the iteration being planned */
    const fs_llm_perf *perf;    /* its workload's replica on this pool */
    long chunk;             /* prefill tokens per iteration */
    fs_kv_cache *kv;        /* prefix caching: the replica's blocks, or
                               NULL (llm_prefix.h, llm_kvcache.h) */
    int bs, per;            /* a cache block's tokens, and KV blocks */
    long routed;            /* requests it admitted from the queue, for
                               routing = round-robin (llm_route_rr.c) */
    int in_memory;          /* cached blocks no request holds live in the
                               free KV memory (evicted when it is wanted);
                               0: an unbounded tier beside it */
    struct fs_lora_slots *lora; /* LoRA adapters loaded (llm_adapter.c),
                               made at the first; NULL without */
};

typedef struct llm_store {
    fs_llm_run *runs;
    llm_seq *seqs;
    fs_hist ttft, tpot, e2e;    /* the pool's measured requests */
} llm_store;

#endif
