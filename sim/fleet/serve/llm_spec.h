/* llm_spec.h -- speculative decoding on an llm workload's replicas: each
 * step's time and the tokens each decoding request gets from it.
 *
 * The hooks the continuous-batching server (llm_server.c) calls once per
 * iteration and once per decoding request; without spec = they give what
 * it did before (the plain iteration time, one token, no look-ahead), and
 * draw nothing. */
#ifndef FS_LLM_SPEC_FLEET_H
#define FS_LLM_SPEC_FLEET_H

#include "sim/fleet/serve/dispatch.h"

/* w's spec = (workload conf): its stream "spec:NAME" of the run's seed
 * and the proposer's timing on each of its pools (w->perf[k] filled);
 * nothing without one.  -1 with err set (out of memory). */
int fs_spec_workload_init(fs_workload *w, unsigned replication,
                          fs_error *err);
void fs_spec_workload_free(fs_workload *w);

/* Seconds of an iteration on w's replica perf (one of w->perf): the
 * speculative step's (models/llm/llm_spec.h), or fs_llm_iteration_time. */
double fs_spec_iteration_time(const fs_workload *w, const fs_llm_perf *perf,
                              long prefill_tokens, double attn_ctx_tokens,
                              int decode_batch, long decode_kv_tokens);

/* Tokens a decoding request's step emitted: 1..k+1 drawn, counted in
 * w->llm.spec_steps and spec_tokens; 1 without spec. */
int fs_spec_tokens(fs_workload *w);

/* KV slots a decoding request with `left` tokens to go after its next
 * one needs beyond it: the drafted tokens the verify pass writes, k but
 * no more than it still wants (so a request that fits a replica's cache
 * alone still does); 0 without spec. */
int fs_spec_lookahead(const fs_workload *w, long left);

/* Whether w's steps are plain: one token each, no look-ahead, nothing
 * drawn (no spec =), so that they may be counted in totals. */
int fs_spec_plain(const fs_workload *w);

#endif
