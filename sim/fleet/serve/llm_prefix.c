/* llm_prefix.c -- the prefix identities of a workload's requests (see
 * llm_prefix.h).
 *
 * A block's key stands for its tokens and every token before it, so two
 * requests' blocks match exactly where their prompts agree from the start:
 *   - a trace's hash ids (Mooncake) already name a block and its prefix:
 *     engine block j (tokens j*bs to (j+1)*bs) takes the id of the hash
 *     block its last token falls in, and its own position j;
 *   - a shared system prompt: the blocks wholly inside it are the same
 *     for every request that has it;
 *   - anything else is the request's own (its serial number in the key).
 * Entries and the hash ids (in chunks of CHUNK ids, linked) are pooled:
 * arrays that double when full and free lists, so the store allocates
 * only while it grows to the most requests waiting and running at once. */
#include "sim/fleet/serve/llm_prefix.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/owned.h"

#define CHUNK 31   /* ids per chunk: with its link, 128 bytes */

typedef struct pfx {
    uint64_t serial;         /* the request's own blocks */
    int32_t chunk;           /* first chunk of its hash ids, -1: none */
    int32_t nhash, hash_tokens;
    int32_t shared;          /* tokens of the shared system prompt */
    int32_t next_free;
} pfx;

typedef struct chunk {
    uint32_t id[CHUNK];
    int32_t next;
} chunk;

struct fs_prefix_store {
    uint64_t salt, serial;
    long shared_tokens;
    double share;
    gsl_rng *rng;
    pfx *p;
    int32_t np, pcap, pfree;
    chunk *c;
    int32_t nc, ccap, cfree;
};

/* splitmix64's output function: a bijection that mixes every bit. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

fs_prefix_store *fs_prefix_store_new(uint64_t salt, long shared_tokens,
                                     double share, gsl_rng *rng)
{
    fs_prefix_store *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->salt = mix(salt);
    s->shared_tokens = shared_tokens;
    s->share = share;
    s->rng = rng;
    s->pfree = s->cfree = -1;
    return s;
}

void fs_prefix_store_free(fs_prefix_store *s)
{
    if (s)
        FS_FREE_ALL(s->p, s->c, s);
}

/* Doubles *arr (of *cap items of size sz): 0, or -1. */
static int grow(void **arr, int32_t *cap, size_t sz)
{
    int32_t want = *cap ? *cap * 2 : 256;
    if (want < *cap)
        return -1;
    void *a = realloc(*arr, (size_t)want * sz);
    if (!a)
        return -1;
    *arr = a;
    *cap = want;
    return 0;
}

/* A slot of a pooled array *arr (*n used of *cap, items of sz bytes):
 * the head of its free list when there is one (*head then moves on to the
 * free slot named by the int32_t at byte link of that item), else a new
 * slot at the end, the array doubled when full.  -1: out of memory. */
static int32_t take_slot(void **arr, int32_t *n, int32_t *cap, int32_t *head,
                         size_t sz, size_t link)
{
    if (*head >= 0) {
        int32_t i = *head;
        memcpy(head, (char *)*arr + (size_t)i * sz + link, sizeof *head);
        return i;
    }
    if (*n == *cap && grow(arr, cap, sz))
        return -1;
    return (*n)++;
}

static int32_t take_chunk(fs_prefix_store *s)
{
    return take_slot((void **)&s->c, &s->nc, &s->ccap, &s->cfree,
                     sizeof *s->c, offsetof(chunk, next));
}

static int32_t take_entry(fs_prefix_store *s)
{
    return take_slot((void **)&s->p, &s->np, &s->pcap, &s->pfree,
                     sizeof *s->p, offsetof(pfx, next_free));
}

/* Copies the arrival's ids into linked chunks: 0, or -1. */
static int copy_hashes(fs_prefix_store *s, pfx *e, const fs_arrival *a)
{
    int32_t prev = -1;   /* an index: take_chunk may move the chunks */
    for (int i = 0; i < a->nhashes; i += CHUNK) {
        int32_t k = take_chunk(s);
        if (k < 0)
            return -1;
        if (prev < 0)
            e->chunk = k;
        else
            s->c[prev].next = k;
        int n = a->nhashes - i < CHUNK ? a->nhashes - i : CHUNK;
        memcpy(s->c[k].id, a->hashes + i, (size_t)n * sizeof *a->hashes);
        s->c[k].next = -1;
        prev = k;
    }
    e->nhash = a->nhashes;
    e->hash_tokens = a->hash_tokens;
    return 0;
}

/* Whether a request starts with the shared system prompt: a draw, or
 * for a session's turn the same for all its turns (from its id). */
static int has_shared(fs_prefix_store *s, uint64_t session)
{
    if (s->shared_tokens <= 0)
        return 0;
    if (s->share >= 1)
        return 1;
    if (session)
        return (double)(mix(s->salt ^ ~session) >> 11) * 0x1.0p-53 < s->share;
    return gsl_rng_uniform(s->rng) < s->share;
}

int32_t fs_prefix_store_add(fs_prefix_store *s, const fs_arrival *a,
                            uint64_t session)
{
    int32_t i = take_entry(s);
    if (i < 0)
        return -1;
    pfx *e = &s->p[i];
    /* a session's turns share its own blocks: the same serial */
    uint64_t own = session ? mix(s->salt + mix(session)) : ++s->serial;
    *e = (pfx){mix(s->salt ^ own), -1, 0, 0, 0, -1};
    if (a->nhashes > 0 && a->hash_tokens > 0) {
        if (copy_hashes(s, e, a)) {
            fs_prefix_store_drop(s, i);
            return -1;
        }
    } else if (has_shared(s, session)) {
        e->shared = (int32_t)s->shared_tokens;
    }
    return i;
}

void fs_prefix_store_drop(fs_prefix_store *s, int32_t id)
{
    pfx *e = &s->p[id];
    for (int32_t k = e->chunk; k >= 0;) {
        int32_t next = s->c[k].next;
        s->c[k].next = s->cfree;
        s->cfree = k;
        k = next;
    }
    e->chunk = -1;
    e->next_free = s->pfree;
    s->pfree = id;
}

/* Where block j's identity starts and ends, and its key's base: a trace
 * hash id, the shared system prompt, or the request's own.  *k and *base
 * walk the hash ids' chunks forward (j never goes back). */
static uint64_t identity(const fs_prefix_store *s, const pfx *e, int bs,
                         long j, int32_t *k, long *base, long *end)
{
    if (e->nhash > 0) {
        long h = ((j + 1) * (long)bs - 1) / e->hash_tokens;
        while (*k >= 0 && h >= *base + CHUNK) {
            *k = s->c[*k].next;
            *base += CHUNK;
        }
        if (h < e->nhash && *k >= 0) {
            /* the first block whose last token is in the next hash block */
            *end = (h + 1) * (long)e->hash_tokens / bs;
            return mix(s->salt ^ ((uint64_t)s->c[*k].id[h - *base] << 1));
        }
        *end = LONG_MAX;
        return e->serial;
    }
    long shared = e->shared / bs;   /* blocks wholly inside the prompt */
    *end = j < shared ? shared : LONG_MAX;
    return j < shared ? mix(s->salt ^ 1) : e->serial;
}

/* Runs of blocks of one identity within one group of FS_KV_RUN_MAX blocks:
 * a run's key is its identity's and its first block's, so the blocks of
 * a hash id or of the system prompt are the same run for every request
 * that has them, whatever its length. */
long fs_prefix_store_runs(const fs_prefix_store *s, int32_t id, int bs,
                          long n, fs_kv_run *runs)
{
    const pfx *e = &s->p[id];
    int32_t k = e->chunk;
    long base = 0, nr = 0;
    for (long j = 0; j < n;) {
        long end, group = (j / FS_KV_RUN_MAX + 1) * FS_KV_RUN_MAX;
        uint64_t ident = identity(s, e, bs, j, &k, &base, &end);
        if (end > group)
            end = group;
        if (end > n)
            end = n;
        runs[nr++] = (fs_kv_run){mix(ident + (uint64_t)j), (int32_t)(end - j)};
        j = end;
    }
    return nr;
}
