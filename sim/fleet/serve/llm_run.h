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

/* The running totals of a replica's decoding requests, taken when an
 * iteration is planned request by request (llm_totals.c): while every
 * running request decodes, none retires and none need be preempted, each
 * iteration changes them all alike (one token more each, a new KV block
 * for those whose tokens reach a multiple of KV_BLOCK), so the next one is
 * planned from these instead of a visit to each request. */
typedef struct fs_llm_totals {
    int plain;              /* one token per step, no look-ahead (no
                               spec =), no hand-off to a decode pool, and
                               the decoding requests lead the running
                               set: the totals may stand in */
    int n;                  /* requests decoding when they were taken */
    long lazy;              /* iterations planned from them since: each of
                               those requests' generated and blocks lag
                               by this many (fs_llm_totals_catch_up) */
    long tokens;            /* their prompt + generated tokens then */
    long next_done;         /* iterations until the first of them has its
                               last token */
    int phase[KV_BLOCK];    /* how many had prompt + generated = r mod
                               KV_BLOCK, r = 0..KV_BLOCK - 1 */
} fs_llm_totals;

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
    fs_llm_totals tot;      /* its decoding requests, summed */
};

typedef struct llm_store {
    fs_llm_run *runs;
    llm_seq *seqs;
    fs_hist ttft, tpot, e2e;    /* the pool's measured requests */
} llm_store;

/* Forgets the totals (a full pass is about to take them again): plain
 * when the workload's steps give one token and look ahead none. */
void fs_llm_totals_reset(fs_llm_run *run, int plain);
/* Counts q, decoding in the iteration being planned, into the totals. */
void fs_llm_totals_add(fs_llm_run *run, const llm_seq *q);
/* q, the first request after those of the totals, had its first token
 * (its prefill ended) in an iteration planned from them: it joins them. */
void fs_llm_totals_enter(fs_llm_run *run, llm_seq *q);
/* The tokens q, one of the totals', lacks after the iteration that ends
 * (0: that one gave its last). */
long fs_llm_totals_left(const fs_llm_run *run, const llm_seq *q);
/* q leaves the totals (it retires): its token count brought up to date;
 * the caller sets next_done from those that stay. */
void fs_llm_totals_leave(fs_llm_run *run, llm_seq *q);
/* Whether the iteration that ends and the next may be run from the
 * totals: the requests of the totals decode, those admitted since are
 * prefilling, and no request need be preempted. */
int fs_llm_totals_skip(const fs_llm_run *run);
/* Plans that iteration from the totals: reserves the blocks its tokens
 * take and gives the tokens in flight (the decode batch's KV). */
long fs_llm_totals_step(fs_llm_run *run);

/* The replica's prefix cache (llm_server_prefix.c).  q takes the cached
 * chain of its prompt's blocks (its prefill skips their tokens); gives it
 * back (blocks no request holds stay cached, free memory); the cache
 * gives up blocks no request holds to the running requests' memory; a
 * request that leaves for good drops its prefix from the store; and the
 * cache is made for s's replica the first time (0, or -1 out of memory). */
void fs_llm_prefix_acquire(fs_server *s, llm_seq *q);
void fs_llm_prefix_release(fs_llm_run *run, llm_seq *q);
void fs_llm_prefix_trim(fs_llm_run *run);
void fs_llm_prefix_forget(fs_workload *w, const fs_request *r);
int fs_llm_prefix_setup(fs_server *s);

/* Request q has its last token at now (llm_server_retire.c). */
void fs_llm_retire(fs_server *s, llm_seq *q, double now);

#endif
