/* llm_kvcache.c -- a replica's KV block cache (see llm_kvcache.h).
 *
 * One entry per run of blocks (a trace's 512-token hash block holds 32 of
 * vLLM's 16-token blocks), found by key through an open-addressing table
 * (linear probing, deletion by backward shift, so no tombstones build up
 * over a run).  The cost of a request is then a probe per run, not per
 * block: the Mooncake trace's replay takes a 32nd of the lookups.
 *
 * Why a run can stand for its blocks exactly: every request that takes a
 * block of a run takes the run's blocks before it, so an entry's cached
 * blocks are always a leading part [0, m) of the run and its referenced
 * ones a leading part [0, r): the entry counts its holders by how many
 * blocks they take (a block's reference count is the number of holders
 * taking more), and r is the longest hold.  A request releases its chain last block first, so
 * within an entry the idle blocks [r, m) sit on the LRU list highest
 * first; each release that leaves blocks idle appends them as one segment
 * [lo, hi) (block hi - 1 the oldest), and an entry's segments, lowest
 * first, are the most recently released first.  Eviction takes blocks
 * from the high end of the oldest segment, an acquisition takes idle
 * blocks back from the low end of the entry's lowest: both keep the order
 * a list of single blocks would have, so hits, memory and evictions are
 * those of a block-by-block cache, to the block.
 *
 * Each entry names the entry before it in its request's chain (parent),
 * so a request holds only its last run and releases its chain by walking
 * back.  Entries, segments and the table live in arrays that double when
 * full, so a run allocates only while its cache grows to its peak, never
 * per request. */
#include "sim/fleet/serve/llm_kvcache.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct kv_entry {
    uint64_t key;
    int32_t parent;          /* the chain's entry before it, or -1 */
    int32_t low;             /* its lowest idle segment, or -1; the free
                                list's link while free */
    uint64_t lens;           /* bit L: some request holds its first L */
    int16_t m, r;            /* blocks cached (0: free), referenced (the
                                longest hold: lens's highest bit) */
} kv_entry;                  /* 32 bytes: two entries a cache line */

/* An entry's holders by how many of its blocks they take (apart from the
 * entry, which a lookup reads).  A block has at most as many holders as
 * the replica runs requests (max_batch, at most 4096). */
typedef struct kv_holds {
    uint16_t n[FS_KV_RUN_MAX + 1];
} kv_holds;

/* A table slot: the entry's index (-1: empty) beside its key's hash,
 * which places it, so that a probe reads an entry only when the hashes
 * agree. */
typedef struct kv_slot {
    uint32_t hash;
    int32_t i;
} kv_slot;

/* Idle blocks [lo, hi) of one entry, on the LRU list as one piece. */
typedef struct kv_seg {
    int32_t entry;
    int32_t prev, next;      /* LRU list (older, newer), or the free list */
    int32_t down, up;        /* the entry's segments below and above */
    int32_t lo, hi;
} kv_seg;

struct fs_kv_cache {
    kv_entry *e;
    kv_holds *holds;
    size_t cap;                        /* entries */
    int32_t used, free_head;
    kv_seg *s;
    size_t scap;                       /* segments */
    int32_t sused, sfree;
    long nseg, held;         /* segments in use; entries that requests
                                hold (each release makes one segment at
                                most per entry: kept free beforehand) */
    kv_slot *table;          /* 2 * cap slots at least */
    uint32_t mask;
    long limit, live, idle;  /* most blocks; cached; unreferenced */
    int32_t lru_head, lru_tail;   /* oldest, newest segment */
    fs_kv_run *runs;         /* the chain being acquired */
    size_t runs_cap;
};

/* splitmix64's finalizer: the keys are already mixed, but a table slot
 * should not depend on their low bits alone. */
static uint32_t hash_of(uint64_t key)
{
    key ^= key >> 31;
    key *= 0x7fb5d329728ea185ULL;
    key ^= key >> 27;
    return (uint32_t)key;
}

/* The table slot of key, or of the empty slot where it would go. */
static uint32_t probe(const fs_kv_cache *c, uint64_t key)
{
    uint32_t h = hash_of(key), s = h & c->mask;
    while (c->table[s].i >= 0 &&
           (c->table[s].hash != h || c->e[c->table[s].i].key != key))
        s = (s + 1) & c->mask;
    return s;
}

/* The entry of key, or -1. */
static int32_t lookup(const fs_kv_cache *c, uint64_t key)
{
    return c->table[probe(c, key)].i;
}

/* Removes the entry in slot s, shifting back the entries after it that
 * probed past s (Knuth's algorithm R). */
static void table_delete(fs_kv_cache *c, uint32_t s)
{
    uint32_t j = s;
    for (;;) {
        j = (j + 1) & c->mask;
        if (c->table[j].i < 0)
            break;
        uint32_t home = c->table[j].hash & c->mask;
        int between = s <= j ? (s < home && home <= j)
                             : (s < home || home <= j);
        if (between)
            continue;
        c->table[s] = c->table[j];
        s = j;
    }
    c->table[s].i = -1;
}

/* Doubles the entries and rebuilds the table: 0, or -1. */
static int grow_entries(fs_kv_cache *c)
{
    size_t cap = c->cap, hcap = c->cap;
    if (c->cap >= INT32_MAX / 4)   /* indices are int32_t */
        return -1;
    kv_holds *h = fs_vec_grow(c->holds, &hcap, c->cap + 1, sizeof *h);
    if (!h)
        return -1;
    c->holds = h;
    kv_entry *e = fs_vec_grow(c->e, &cap, c->cap + 1, sizeof *e);
    if (!e)
        return -1;
    c->e = e;
    c->cap = cap;
    uint32_t slots = 1;
    while (slots < 2 * (uint64_t)c->cap)
        slots <<= 1;
    kv_slot *t = malloc(slots * sizeof *t);
    if (!t)
        return -1;
    free(c->table);
    c->table = t;
    c->mask = slots - 1;
    memset(t, 0xff, slots * sizeof *t);
    for (int32_t i = 0; i < c->used; i++)
        if (c->e[i].m > 0)   /* live: in the table */
            c->table[probe(c, c->e[i].key)] =
                (kv_slot){hash_of(c->e[i].key), i};
    return 0;
}

/* A fresh entry for key, in the table: its index, or -1. */
static int32_t entry_new(fs_kv_cache *c, uint64_t key)
{
    int32_t i;
    if (c->free_head >= 0) {
        i = c->free_head;
        c->free_head = c->e[i].low;
    } else {
        if ((size_t)c->used == c->cap && grow_entries(c))
            return -1;
        i = c->used++;
    }
    kv_entry *x = &c->e[i];
    x->key = key;
    x->parent = x->low = -1;
    x->m = x->r = 0;
    x->lens = 0;
    memset(&c->holds[i], 0, sizeof *c->holds);
    c->table[probe(c, key)] = (kv_slot){hash_of(key), i};
    return i;
}

static void entry_free(fs_kv_cache *c, int32_t i)
{
    table_delete(c, probe(c, c->e[i].key));
    c->e[i].m = 0;
    c->e[i].low = c->free_head;
    c->free_head = i;
}

/* A free segment: there is one (reserve_segments). */
static int32_t seg_new(fs_kv_cache *c)
{
    if (c->sfree >= 0) {
        int32_t k = c->sfree;
        c->sfree = c->s[k].next;
        return k;
    }
    return c->sused++;
}

/* Takes segment k off the LRU list and its entry's segments, and frees
 * it. */
static void seg_drop(fs_kv_cache *c, int32_t k)
{
    kv_seg *g = &c->s[k];
    if (g->prev >= 0)
        c->s[g->prev].next = g->next;
    else
        c->lru_head = g->next;
    if (g->next >= 0)
        c->s[g->next].prev = g->prev;
    else
        c->lru_tail = g->prev;
    if (g->down >= 0)
        c->s[g->down].up = g->up;
    else
        c->e[g->entry].low = g->up;
    if (g->up >= 0)
        c->s[g->up].down = g->down;
    g->next = c->sfree;
    c->sfree = k;
    c->nseg--;
}

/* Entry i's blocks [lo, hi) are idle now, the newest on the LRU list and
 * the entry's lowest (the room was made when it was acquired). */
static void seg_push(fs_kv_cache *c, int32_t i, int32_t lo, int32_t hi)
{
    int32_t k = seg_new(c);
    c->nseg++;
    kv_seg *g = &c->s[k];
    *g = (kv_seg){i, c->lru_tail, -1, -1, c->e[i].low, lo, hi};
    if (c->lru_tail >= 0)
        c->s[c->lru_tail].next = k;
    else
        c->lru_head = k;
    c->lru_tail = k;
    if (g->up >= 0)
        c->s[g->up].down = k;
    c->e[i].low = k;
    c->idle += hi - lo;
}

/* Evicts the d least recently used idle blocks (fewer when fewer are
 * idle): each from the high end of the oldest segment, which is its
 * entry's highest. */
static void evict(fs_kv_cache *c, long d)
{
    while (d > 0 && c->lru_head >= 0) {
        int32_t k = c->lru_head;
        kv_seg *g = &c->s[k];
        int32_t i = g->entry;
        long x = g->hi - g->lo < d ? g->hi - g->lo : d;
        g->hi -= (int32_t)x;
        c->e[i].m = (int16_t)(c->e[i].m - x);
        c->live -= x;
        c->idle -= x;
        d -= x;
        if (g->hi == g->lo)
            seg_drop(c, k);
        if (c->e[i].m == 0)
            entry_free(c, i);
    }
}

fs_kv_cache *fs_kv_cache_new(long limit)
{
    fs_kv_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->limit = limit > 0 ? limit : 1;
    c->free_head = c->sfree = c->lru_head = c->lru_tail = -1;
    if (grow_entries(c))
        return FS_DISCARD(fs_kv_cache_free, c);
    return c;
}

void fs_kv_cache_free(fs_kv_cache *c)
{
    if (c)
        FS_FREE_ALL(c->e, c->holds, c->s, c->table, c->runs, c);
}

void fs_kv_cache_clear(fs_kv_cache *c)
{
    memset(c->table, 0xff, ((size_t)c->mask + 1) * sizeof *c->table);
    c->used = c->sused = 0;
    c->live = c->idle = c->nseg = c->held = 0;
    c->free_head = c->sfree = c->lru_head = c->lru_tail = -1;
}

fs_kv_run *fs_kv_cache_runs(fs_kv_cache *c, long n)
{
    fs_kv_run *k = fs_vec_grow(c->runs, &c->runs_cap, (size_t)n, sizeof *k);
    if (k)
        c->runs = k;
    return k;
}

/* References the first f cached blocks of entry i (f <= m): the idle
 * ones among them leave the LRU list, taken from its lowest segments.
 * (The hold is counted once the request's length in it is known.) */
static void reference(fs_kv_cache *c, int32_t i, int32_t f, long *newly)
{
    kv_entry *x = &c->e[i];
    if (f > x->r) {
        while (x->low >= 0 && c->s[x->low].lo < f) {
            kv_seg *g = &c->s[x->low];
            if (g->hi <= f)
                seg_drop(c, x->low);
            else
                g->lo = f;
        }
        c->idle -= f - x->r;
        *newly += f - x->r;
        x->r = (int16_t)f;
    }
}

/* Adds up to want blocks after entry i's m cached ones (i = -1: a new
 * entry for key), evicting the least recently used idle blocks while the
 * cache is full: the entry, or -1; *added, what fitted. */
static int32_t add_blocks(fs_kv_cache *c, int32_t i, uint64_t key,
                          int32_t want, int32_t *added)
{
    long room = c->limit - c->live;
    long can = want < room + c->idle ? want : room + c->idle;
    *added = 0;
    if (can <= 0)
        return i;
    if (can > room)
        evict(c, can - room);
    if (i < 0 && (i = entry_new(c, key)) < 0)
        return -2;
    kv_entry *x = &c->e[i];
    x->m = (int16_t)(x->m + can);
    x->r = x->m;
    c->live += can;
    *added = (int32_t)can;
    return i;
}

/* Room for the segments the held chains' releases may make, so that a
 * release never allocates: 0, or -1. */
static int reserve_segments(fs_kv_cache *c)
{
    kv_seg *g = fs_vec_grow(c->s, &c->scap, (size_t)(c->nseg + c->held),
                            sizeof *g);
    if (!g)
        return -1;
    c->s = g;
    return 0;
}

int fs_kv_cache_acquire(fs_kv_cache *c, long n, fs_kv_hold *h, long *newly)
{
    int32_t last = -1, last_len = 0;
    long got = 0, hit = 0;
    int streak = 1;   /* every block so far was cached */
    int oom = 0;
    *newly = 0;
    for (long k = 0; k < n; k++) {
        const fs_kv_run *run = &c->runs[k];
        int32_t i = lookup(c, run->key);
        int32_t f = i >= 0 ? (c->e[i].m < run->len ? c->e[i].m : run->len)
                           : 0;
        if (streak) {
            hit += f;
            streak = f == run->len;
        }
        if (i >= 0)
            reference(c, i, f, newly);
        int32_t added = 0;
        if (f < run->len) {
            int32_t j = add_blocks(c, i, run->key, run->len - f, &added);
            if (j == -2) {
                oom = 1;
                break;
            }
            i = j;
            *newly += added;
        }
        if (f + added == 0)
            break;
        c->e[i].parent = last;
        if (c->holds[i].n[f + added]++ == 0)
            c->e[i].lens |= 1ULL << (f + added);
        c->held++;
        last = i;
        last_len = f + added;
        got += last_len;
        if (last_len < run->len)
            break;
    }
    h->last = last;
    h->last_len = last_len;
    h->n = (int32_t)got;
    h->hit = (int32_t)hit;
    return reserve_segments(c) || oom ? -1 : 0;
}

long fs_kv_cache_match(const fs_kv_cache *c, const fs_kv_run *runs, long n)
{
    long hit = 0;
    for (long k = 0; k < n; k++) {
        int32_t i = lookup(c, runs[k].key);
        int32_t f = i < 0 ? 0 : c->e[i].m < runs[k].len ? c->e[i].m
                                                        : runs[k].len;
        hit += f;
        if (f < runs[k].len)
            break;
    }
    return hit;
}

/* Drops one hold of entry i's first len blocks: the blocks no request
 * holds any more (those past the longest hold left) become a segment of
 * idle blocks.  Their number. */
static long unreference(fs_kv_cache *c, int32_t i, int32_t len)
{
    kv_entry *x = &c->e[i];
    if (--c->holds[i].n[len] > 0)
        return 0;   /* another hold as long keeps them all */
    x->lens &= ~(1ULL << len);
    if (len < x->r)
        return 0;   /* and a longer one */
    int32_t r = x->lens ? 63 - __builtin_clzll(x->lens) : 0;
    seg_push(c, i, r, len);
    x->r = (int16_t)r;
    return len - r;
}

long fs_kv_cache_release(fs_kv_cache *c, fs_kv_hold *h)
{
    long freed = 0, left = h->n;
    int32_t i = h->last, len = h->last_len;
    while (left > 0 && i >= 0) {
        int32_t parent = c->e[i].parent;
        freed += unreference(c, i, len);
        c->held--;
        left -= len;
        i = parent;
        len = i >= 0 ? c->e[i].r : 0;   /* held whole: the longest hold */
    }
    h->last = -1;
    h->last_len = h->n = h->hit = 0;
    return freed;
}

void fs_kv_cache_trim(fs_kv_cache *c, long max)
{
    if (c->idle > max)
        evict(c, c->idle - max);
}

long fs_kv_cache_idle(const fs_kv_cache *c)
{
    return c->idle;
}
