/* llm_kvcache.h -- a replica's KV block cache for prefix caching.
 *
 * Blocks of the engine's block size, each named by a 64-bit key that
 * stands for its tokens and every token before it (llm_prefix.h makes the
 * keys), held by reference count; blocks no running request holds stay
 * cached, on an LRU list, until evicted.  As vLLM's automatic prefix
 * caching and SGLang's radix cache: a request's longest cached prefix
 * skips its prefill, and a block shared by several running requests is
 * one block of memory.  See llm_kvcache.c. */
#ifndef FS_LLM_KVCACHE_H
#define FS_LLM_KVCACHE_H

#include <stdint.h>

typedef struct fs_kv_cache fs_kv_cache;

/* What a request holds: the last block of its chain (each block names
 * the one before it), how many, and how many of them it found cached. */
typedef struct fs_kv_hold {
    int32_t last;       /* -1: none */
    int32_t n, hit;
} fs_kv_hold;

/* A cache of at most limit blocks (LONG_MAX: unlimited); it grows by
 * doubling to its peak and never allocates after.  NULL: out of memory. */
fs_kv_cache *fs_kv_cache_new(long limit);
void fs_kv_cache_free(fs_kv_cache *c);
/* Forgets every block (a replica that restarts on a new instance). */
void fs_kv_cache_clear(fs_kv_cache *c);

/* Room for n keys, for the caller to fill before fs_kv_cache_acquire:
 * NULL when out of memory. */
uint64_t *fs_kv_cache_keys(fs_kv_cache *c, long n);
/* References the chain of the n keys fs_kv_cache_keys holds, in order:
 * h->hit leading blocks were cached; the others are added, evicting the
 * least recently used unreferenced block when the cache is full; when
 * nothing can be evicted the chain stops there (h->n < n).  *newly: the
 * blocks no running request held before (they take memory now).  -1 when
 * out of memory. */
int fs_kv_cache_acquire(fs_kv_cache *c, long n, fs_kv_hold *h, long *newly);
/* Drops h's references, last block first (so the chain's tail is evicted
 * before its head); the number of blocks left unreferenced. */
long fs_kv_cache_release(fs_kv_cache *c, fs_kv_hold *h);
/* Evicts least recently used unreferenced blocks until at most max are
 * left (their memory is wanted). */
void fs_kv_cache_trim(fs_kv_cache *c, long max);
/* Unreferenced blocks cached. */
long fs_kv_cache_idle(const fs_kv_cache *c);

#endif
