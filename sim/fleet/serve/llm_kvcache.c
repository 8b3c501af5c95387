/* llm_kvcache.c -- a replica's KV block cache (see llm_kvcache.h).
 *
 * Blocks live in one array of entries, found by key through an
 * open-addressing table (linear probing, deletion by backward shift, so
 * no tombstones build up over a run).  Each entry names the block before
 * it in its request's chain (parent), so a request holds only its last
 * block and releases its chain by walking back, tail first: the head of a
 * shared prefix is the most recently released, and LRU eviction takes
 * tails before heads, as vLLM frees a request's blocks in reverse.
 * Unreferenced entries sit on a doubly linked LRU list, evicted from its
 * head.  The arrays double when full, up to the limit, so a run
 * allocates only while its cache grows to its peak, never per request. */
#include "sim/fleet/serve/llm_kvcache.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct kv_entry {
    uint64_t key;
    int32_t ref;
    int32_t parent;          /* the chain's block before it, or -1 */
    int32_t prev, next;      /* LRU list (ref == 0), or the free list */
} kv_entry;

struct fs_kv_cache {
    kv_entry *e;
    int32_t cap, used;       /* entries allocated; ever handed out */
    int32_t free_head;       /* evicted entries, for reuse */
    int32_t *table;          /* entry index or -1; 2 * cap slots */
    uint32_t mask;
    long limit, live, idle;  /* most entries; in the table; unreferenced */
    int32_t lru_head, lru_tail;   /* oldest, newest */
    uint64_t *keys;          /* the chain being acquired */
    long keys_cap;
};

/* splitmix64's finalizer: the keys are already mixed, but a table slot
 * should not depend on their low bits alone. */
static uint32_t slot_of(const fs_kv_cache *c, uint64_t key)
{
    key ^= key >> 31;
    key *= 0x7fb5d329728ea185ULL;
    key ^= key >> 27;
    return (uint32_t)key & c->mask;
}

static void lru_unlink(fs_kv_cache *c, int32_t i)
{
    kv_entry *x = &c->e[i];
    if (x->prev >= 0)
        c->e[x->prev].next = x->next;
    else
        c->lru_head = x->next;
    if (x->next >= 0)
        c->e[x->next].prev = x->prev;
    else
        c->lru_tail = x->prev;
    c->idle--;
}

static void lru_append(fs_kv_cache *c, int32_t i)
{
    kv_entry *x = &c->e[i];
    x->next = -1;
    x->prev = c->lru_tail;
    if (c->lru_tail >= 0)
        c->e[c->lru_tail].next = i;
    else
        c->lru_head = i;
    c->lru_tail = i;
    c->idle++;
}

/* The table slot of key, or of the empty slot where it would go. */
static uint32_t probe(const fs_kv_cache *c, uint64_t key)
{
    uint32_t s = slot_of(c, key);
    while (c->table[s] >= 0 && c->e[c->table[s]].key != key)
        s = (s + 1) & c->mask;
    return s;
}

/* Removes the entry in slot s, shifting back the entries after it that
 * probed past s (Knuth's algorithm R). */
static void table_delete(fs_kv_cache *c, uint32_t s)
{
    uint32_t j = s;
    for (;;) {
        j = (j + 1) & c->mask;
        if (c->table[j] < 0)
            break;
        uint32_t home = slot_of(c, c->e[c->table[j]].key);
        int between = s <= j ? (s < home && home <= j)
                             : (s < home || home <= j);
        if (between)
            continue;
        c->table[s] = c->table[j];
        s = j;
    }
    c->table[s] = -1;
}

static void evict(fs_kv_cache *c, int32_t i)
{
    lru_unlink(c, i);
    table_delete(c, probe(c, c->e[i].key));
    c->e[i].ref = -1;   /* not live: grow() leaves it out of the table */
    c->e[i].next = c->free_head;
    c->free_head = i;
    c->live--;
}

/* Doubles the entries and rebuilds the table: 0, or -1. */
static int grow(fs_kv_cache *c)
{
    long want = c->cap ? 2L * c->cap : 1024;
    if (want > c->limit)
        want = c->limit;
    if (want > INT32_MAX / 4)
        want = INT32_MAX / 4;
    if (want <= c->cap)
        return -1;
    kv_entry *e = realloc(c->e, (size_t)want * sizeof *e);
    if (!e)
        return -1;
    c->e = e;
    uint32_t slots = 1;
    while (slots < 2 * (uint64_t)want)
        slots <<= 1;
    int32_t *t = malloc(slots * sizeof *t);
    if (!t)
        return -1;
    free(c->table);
    c->table = t;
    c->mask = slots - 1;
    memset(t, 0xff, slots * sizeof *t);
    for (int32_t i = 0; i < c->used; i++)
        if (c->e[i].ref >= 0)   /* live: in the table */
            c->table[probe(c, c->e[i].key)] = i;
    c->cap = (int32_t)want;
    return 0;
}

/* A fresh entry: from the free list, the unused tail, a bigger array, or
 * the least recently used idle block; -1 when none (all held). */
static int32_t take_entry(fs_kv_cache *c)
{
    if (c->live >= c->limit) {
        if (c->lru_head < 0)
            return -1;
        evict(c, c->lru_head);
    }
    if (c->free_head < 0 && c->used == c->cap && grow(c)) {
        if (c->lru_head < 0)
            return -1;
        evict(c, c->lru_head);
    }
    int32_t i;
    if (c->free_head >= 0) {
        i = c->free_head;
        c->free_head = c->e[i].next;
    } else {
        i = c->used++;
    }
    c->live++;
    return i;
}

fs_kv_cache *fs_kv_cache_new(long limit)
{
    fs_kv_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->limit = limit > 0 ? limit : 1;
    c->free_head = c->lru_head = c->lru_tail = -1;
    if (grow(c)) {
        fs_kv_cache_free(c);
        return NULL;
    }
    return c;
}

void fs_kv_cache_free(fs_kv_cache *c)
{
    if (!c)
        return;
    free(c->e);
    free(c->table);
    free(c->keys);
    free(c);
}

void fs_kv_cache_clear(fs_kv_cache *c)
{
    memset(c->table, 0xff, ((size_t)c->mask + 1) * sizeof *c->table);
    c->used = c->live = c->idle = 0;
    c->free_head = c->lru_head = c->lru_tail = -1;
}

uint64_t *fs_kv_cache_keys(fs_kv_cache *c, long n)
{
    if (n > c->keys_cap) {
        long cap = c->keys_cap ? c->keys_cap : 256;
        while (cap < n)
            cap *= 2;
        uint64_t *k = realloc(c->keys, (size_t)cap * sizeof *k);
        if (!k)
            return NULL;
        c->keys = k;
        c->keys_cap = cap;
    }
    return c->keys;
}

/* References the block of key after parent: 1 if it was cached, 0 if
 * added, -1 when it could not be; *newly counts a first reference. */
static int acquire_one(fs_kv_cache *c, uint64_t key, int32_t parent,
                       int32_t *out, long *newly)
{
    uint32_t s = probe(c, key);
    int32_t i = c->table[s];
    int found = i >= 0;
    if (found) {
        if (c->e[i].ref == 0)
            lru_unlink(c, i);
    } else {
        i = take_entry(c);
        if (i < 0)
            return -1;
        s = probe(c, key);   /* an eviction may have moved the slot */
        c->table[s] = i;
        c->e[i] = (kv_entry){key, 0, -1, -1, -1};
    }
    if (c->e[i].ref++ == 0)
        (*newly)++;
    c->e[i].parent = parent;
    *out = i;
    return found;
}

int fs_kv_cache_acquire(fs_kv_cache *c, long n, fs_kv_hold *h, long *newly)
{
    int32_t last = -1;
    long got = 0, hit = 0;
    *newly = 0;
    for (; got < n; got++) {
        int32_t i;
        int rc = acquire_one(c, c->keys[got], last, &i, newly);
        if (rc < 0)
            break;
        if (rc == 1 && hit == got)
            hit++;
        last = i;
    }
    h->last = last;
    h->n = (int32_t)got;
    h->hit = (int32_t)hit;
    return 0;
}

long fs_kv_cache_release(fs_kv_cache *c, fs_kv_hold *h)
{
    long freed = 0;
    int32_t i = h->last;
    for (int32_t k = 0; k < h->n; k++) {
        kv_entry *x = &c->e[i];
        int32_t parent = x->parent;
        if (--x->ref == 0) {
            lru_append(c, i);
            freed++;
        }
        i = parent;
    }
    h->last = -1;
    h->n = h->hit = 0;
    return freed;
}

void fs_kv_cache_trim(fs_kv_cache *c, long max)
{
    while (c->idle > max && c->lru_head >= 0)
        evict(c, c->lru_head);
}

long fs_kv_cache_idle(const fs_kv_cache *c)
{
    return c->idle;
}
