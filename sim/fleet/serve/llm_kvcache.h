/* llm_kvcache.h -- a replica's KV block cache for prefix caching.
 *
 * Blocks of the engine's block size, held by reference count; blocks no
 * running request holds stay cached, on an LRU list, until evicted.  As
 * vLLM's automatic prefix caching and SGLang's radix cache: a request's
 * longest cached prefix skips its prefill, and a block shared by several
 * running requests is one block of memory.
 *
 * A request's prompt comes as runs: consecutive blocks that always go
 * together (a 512-token block of a trace's hashes, or up to FS_KV_RUN_MAX
 * blocks of one identity), each run named by a 64-bit key that stands for
 * its tokens and every token before it (llm_prefix.h makes the runs).  A
 * request takes a leading part of each run of its chain; the cache keeps
 * one entry per run and counts hits, memory and evictions block by block
 * exactly as a cache of single blocks would.  See llm_kvcache.c. */
#ifndef FS_LLM_KVCACHE_H
#define FS_LLM_KVCACHE_H

#include <stdint.h>

#define FS_KV_RUN_MAX 32   /* blocks in a run, at most */

typedef struct fs_kv_cache fs_kv_cache;

/* A run of a request's chain: its key and how many of its blocks the
 * request takes (1 to FS_KV_RUN_MAX; only the chain's last run may take
 * fewer than every request that goes past it). */
typedef struct fs_kv_run {
    uint64_t key;
    int32_t len;
} fs_kv_run;

/* What a request holds: the entry of its chain's last run (each entry
 * names the one before it), the blocks it takes of that run, and of the
 * whole chain how many blocks and how many it found cached. */
typedef struct fs_kv_hold {
    int32_t last;       /* -1: none */
    int32_t last_len;
    int32_t n, hit;
} fs_kv_hold;

/* A cache of at most limit blocks (LONG_MAX: unlimited); it grows by
 * doubling to its peak and never allocates after.  NULL: out of memory. */
fs_kv_cache *fs_kv_cache_new(long limit);
void fs_kv_cache_free(fs_kv_cache *c);
/* Forgets every block (a replica that restarts on a new instance). */
void fs_kv_cache_clear(fs_kv_cache *c);

/* Room for n runs, for the caller to fill before fs_kv_cache_acquire or
 * fs_kv_cache_match: NULL when out of memory. */
fs_kv_run *fs_kv_cache_runs(fs_kv_cache *c, long n);
/* References the chain of the n runs fs_kv_cache_runs holds, in order:
 * h->hit leading blocks were cached; the others are added, evicting the
 * least recently used unreferenced block when the cache is full; when
 * nothing can be evicted the chain stops there (h->n short of the runs'
 * blocks).  *newly: the blocks no running request held before (they take
 * memory now).  -1 when out of memory. */
int fs_kv_cache_acquire(fs_kv_cache *c, long n, fs_kv_hold *h, long *newly);
/* The leading blocks of the chain of n runs (from any cache's
 * fs_kv_cache_runs) found cached in c, changing nothing: what acquiring
 * it now would hit, but for the evictions it makes. */
long fs_kv_cache_match(const fs_kv_cache *c, const fs_kv_run *runs, long n);
/* Drops h's references, last block first (so the chain's tail is evicted
 * before its head); the number of blocks left unreferenced. */
long fs_kv_cache_release(fs_kv_cache *c, fs_kv_hold *h);
/* Evicts least recently used unreferenced blocks until at most max are
 * left (their memory is wanted). */
void fs_kv_cache_trim(fs_kv_cache *c, long max);
/* Unreferenced blocks cached. */
long fs_kv_cache_idle(const fs_kv_cache *c);

#endif
