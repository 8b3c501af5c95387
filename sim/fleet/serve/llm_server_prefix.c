/* llm_server_prefix.c -- an LLM replica's running requests and its
 * prefix cache (llm_kvcache.c): what a request takes from the cache when
 * it is admitted, gives back when it leaves, and the cache's own memory.
 *
 * Kept apart from llm_server.c (the iteration loop) because these are the
 * only places the replica's KV block accounting meets the block cache:
 * a request's cached prompt blocks count once in memory however many
 * running requests share them, and blocks no request holds stay cached
 * until the running requests' memory needs them (LRU). */
#include "sim/fleet/serve/llm_run.h"
#include "sim/fleet/serve/llm_kvcache.h"
#include "sim/fleet/serve/llm_prefix.h"
#include "sim/fleet/serve/dispatch.h"

#include <limits.h>

/* Prefix caching: q references the chain of its prompt's blocks that
 * end before its last token (the one whose logits give the first output
 * token is always computed, as in vLLM); the leading blocks found cached
 * are its prefill skipped.  The blocks no running request held before
 * now take KV memory, once however many requests share them.  Its first
 * admission's hit is what the results count. */
void fs_llm_prefix_acquire(fs_server *s, llm_seq *q)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    long n = ((long)q->in - 1) / run->bs, newly = 0;
    fs_kv_run *runs = n > 0 ? fs_kv_cache_runs(run->kv, n) : NULL;
    if (n > 0 && (!runs ||
        fs_kv_cache_acquire(run->kv, fs_prefix_store_runs(w->prefix,
            q->r.prefix, run->bs, n, runs), &q->hold, &newly))) {
        fs_error_set(w->sim->err, "out of memory caching prefixes");
        fs_sim_fail(w->sim);
    }
    if (n <= 0)
        return;
    q->shared = (long)q->hold.n * run->per;
    run->free_blocks -= newly * run->per;
    q->prefilled = q->hold.hit * run->bs;
    if (q->r.cached < 0)
        q->r.cached = q->prefilled;
}

/* q's chain goes back to the cache: the blocks no request holds any
 * more are free memory, cached until it is wanted. */
void fs_llm_prefix_release(fs_llm_run *run, llm_seq *q)
{
    if (!run->kv || q->hold.n == 0)
        return;
    run->free_blocks += fs_kv_cache_release(run->kv, &q->hold) * run->per;
    q->shared = 0;
}

/* Cached blocks no request holds give way to the memory running requests
 * take (LRU first). */
void fs_llm_prefix_trim(fs_llm_run *run)
{
    if (run->kv && run->in_memory)
        fs_kv_cache_trim(run->kv, run->free_blocks > 0
                                      ? run->free_blocks / run->per : 0);
}

/* A request leaves for good: its prefix's entry in the store too. */
void fs_llm_prefix_forget(fs_workload *w, const fs_request *r)
{
    if (w->prefix && r->prefix >= 0)
        fs_prefix_store_drop(w->prefix, r->prefix);
}

/* Prefix caching on s's replica (perf->prefix_cache, llm_setup.c): its
 * block cache, made the first time (never per request): as large as its
 * KV memory (yes), unbounded, or prefix_cache = TOKENS. */
int fs_llm_prefix_setup(fs_server *s)
{
    fs_llm_run *run = s->llm;
    const fs_llm_perf *perf = run->perf;
    if (!perf->prefix_cache || !s->wl->prefix)
        return 0;
    run->bs = perf->block_size;
    run->per = run->bs / KV_BLOCK;
    run->in_memory = perf->prefix_cache != FS_PREFIX_CACHE_UNLIMITED;
    long limit = perf->prefix_cache == FS_PREFIX_CACHE_UNLIMITED ? LONG_MAX
        : perf->prefix_cache == FS_PREFIX_CACHE_TOKENS
            ? perf->prefix_cache_tokens / run->bs
            : run->total_blocks / run->per;
    if (!run->kv)
        run->kv = fs_kv_cache_new(limit > 0 ? limit : 1);
    return run->kv ? 0 : -1;
}
