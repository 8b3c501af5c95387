/* heap.h -- the pending-event heap: a 4-ary min-heap on (time, sequence).
 *
 * Entries carry their keys inline so that sifting touches one array and
 * never follows a pointer; the payload is the index of the event record in
 * the engine's pool.  Equal times pop in the order they were pushed
 * (the sequence number breaks the tie), which makes runs deterministic:
 * the keys are unique, so the order entries leave in does not depend on
 * the heap's shape.
 *
 * Four children per node halve the depth of a binary heap, and a node's
 * children sit side by side in memory.  The event loop takes the top out
 * with fs_heap_take, which leaves a hole at the root: the handler's first
 * push (most handlers schedule one event) drops into the hole and sifts
 * down once, instead of a pop's sift-down followed by a push's sift-up.
 * fs_heap_settle fills a hole no push took. */
#ifndef FS_HEAP_H
#define FS_HEAP_H

#include <stddef.h>
#include <stdint.h>

/* An entry is 16 bytes, so a node's four children fill one 64-byte cache
 * line (the array is placed so that they start on one): the sequence
 * number and the payload share a word, the sequence above
 * FS_HEAP_ID_BITS bits of payload.  Sequences are unique, so comparing
 * the words orders entries by sequence. */
#define FS_HEAP_ID_BITS 24
#define FS_HEAP_ID_MAX ((UINT32_C(1) << FS_HEAP_ID_BITS) - 1)
#define FS_HEAP_SEQ_MAX ((UINT64_C(1) << (64 - FS_HEAP_ID_BITS)) - 1)

typedef struct fs_heap_entry {
    double t;
    uint64_t key;       /* seq << FS_HEAP_ID_BITS | id */
} fs_heap_entry;

static inline uint32_t fs_heap_entry_id(const fs_heap_entry *x)
{
    return (uint32_t)(x->key & FS_HEAP_ID_MAX);
}
static inline uint64_t fs_heap_entry_seq(const fs_heap_entry *x)
{
    return x->key >> FS_HEAP_ID_BITS;
}

typedef struct fs_heap {
    fs_heap_entry *a;   /* a[1] starts a cache line */
    void *mem;          /* the allocation a points into */
    size_t n, cap;      /* n counts the hole, if any */
    uint64_t next_seq;
    int hole;           /* a[0] was taken and not yet refilled */
} fs_heap;

void fs_heap_init(fs_heap *h);
void fs_heap_free(fs_heap *h);
/* Pushes (t, next sequence, id); -1 when out of memory, or when id is
 * above FS_HEAP_ID_MAX or the sequence numbers are spent (FS_HEAP_SEQ_MAX,
 * 1.1e12 schedules). */
int fs_heap_push(fs_heap *h, double t, uint32_t id);
/* Pops the smallest entry into *out; 0 when the heap is empty. */
int fs_heap_pop(fs_heap *h, fs_heap_entry *out);
/* Like fs_heap_pop, but leaves a hole at the root for the next push to
 * fill (or fs_heap_settle).  Call it with no hole. */
int fs_heap_take(fs_heap *h, fs_heap_entry *out);
/* Fills the hole fs_heap_take left, if no push has: the test inline, as
 * the event loop makes it before every event. */
void fs_heap_fill_hole(fs_heap *h);
static inline void fs_heap_settle(fs_heap *h)
{
    if (h->hole)
        fs_heap_fill_hole(h);
}
static inline size_t fs_heap_size(const fs_heap *h)
{
    return h->n - (size_t)h->hole;
}
/* Takes the next sequence number, for an entry kept outside the heap that
 * must order among its entries as if pushed now (the engine's lanes). */
static inline uint64_t fs_heap_ticket(fs_heap *h)
{
    return h->next_seq++;
}
/* The smallest entry, or NULL; call it with no hole (fs_heap_settle). */
static inline const fs_heap_entry *fs_heap_top(const fs_heap *h)
{
    return h->n && !h->hole ? &h->a[0] : NULL;
}

#endif
