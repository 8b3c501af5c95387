/* llm_prefix.h -- what each LLM request's prompt shares with others: its
 * prefix identity, as the keys of its KV blocks.
 *
 * From the trace (format=mooncake: each 512-token block named by a hash
 * of it and all before it) or from a model of generated traffic
 * (prefix = shared(tokens=N, share=F): a system prompt of N tokens that a
 * share F of the requests start with).  A workload keeps its requests'
 * prefixes in a store while they wait and run; a request names its entry
 * (fs_request.prefix).  The block cache (llm_kvcache.h) matches the keys.
 * See llm_prefix.c. */
#ifndef FS_LLM_PREFIX_H
#define FS_LLM_PREFIX_H

#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "traces/arrivals.h"
#include "sim/fleet/serve/llm_kvcache.h"

typedef struct fs_prefix_store fs_prefix_store;

/* A store for one workload: salt sets its keys apart from another
 * workload's; shared_tokens > 0 gives the share of its requests without
 * trace hashes a common system prompt of that many tokens, drawn from rng
 * (owned by the caller).  NULL when out of memory. */
fs_prefix_store *fs_prefix_store_new(uint64_t salt, long shared_tokens,
                                     double share, gsl_rng *rng);
void fs_prefix_store_free(fs_prefix_store *s);
/* The arriving request's prefix (the arrival's hashes, or the model's
 * draw; session, when not 0, names the multi-turn session whose tokens
 * its prompt continues, llm_session.h): its entry, or -1 when out of
 * memory. */
int32_t fs_prefix_store_add(fs_prefix_store *s, const fs_arrival *a,
                            uint64_t session);
/* The request left (finished or dropped): its entry is reused. */
void fs_prefix_store_drop(fs_prefix_store *s, int32_t id);
/* The first n blocks of bs tokens of entry id's prompt as runs for the
 * block cache (at most n of them): their number. */
long fs_prefix_store_runs(const fs_prefix_store *s, int32_t id, int bs,
                          long n, fs_kv_run *runs);

#endif
