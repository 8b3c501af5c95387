/* heap.c -- 4-ary min-heap of events on (time, sequence); see heap.h. */
#include "sim/base/heap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define ARITY 4

/* Times are never negative (the engine schedules at or after now, from
 * 0), and the bits of a non-negative double order like the numbers, so
 * times compare as integers.  An entry's place in the order is then one
 * 128-bit integer, its time's bits above its key (sequence and id), and
 * comparing two is one wide compare (a compare and a subtract with
 * borrow): no branch on the unpredictable order of random times, and
 * half the instructions of comparing time and sequence apart, in the loop
 * that is a third of a many-pool run. */
typedef unsigned __int128 order;

static inline uint64_t time_bits(double t)
{
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    return u;
}

static inline order order_of(uint64_t tb, uint64_t key)
{
    return (order)tb << 64 | key;
}

/* Whether entry x comes before the key (tb, key). */
static inline int entry_before(const fs_heap_entry *x, uint64_t tb,
                               uint64_t key)
{
    return order_of(time_bits(x->t), x->key) < order_of(tb, key);
}

static inline int entry_less(const fs_heap_entry *x, const fs_heap_entry *y)
{
    return entry_before(x, time_bits(y->t), y->key);
}

/* b when take_b, else a, without a branch. */
static inline size_t pick(size_t a, size_t b, int take_b)
{
    return a ^ ((a ^ b) & ((size_t)0 - (size_t)take_b));
}

void fs_heap_init(fs_heap *h)
{
    h->a = NULL;
    h->mem = NULL;
    h->n = h->cap = 0;
    h->next_seq = 0;
    h->hole = 0;
}

void fs_heap_free(fs_heap *h)
{
    free(h->mem);
    fs_heap_init(h);
}

/* The least of the children of i among the first n entries (i has at
 * least one): a full node, the common case, unrolled. */
static inline size_t least_child(const fs_heap_entry *a, size_t n, size_t i)
{
    size_t c = ARITY * i + 1, best = c;
    if (c + ARITY <= n) {
        size_t b01 = pick(c, c + 1, entry_less(&a[c + 1], &a[c]));
        size_t b23 = pick(c + 2, c + 3, entry_less(&a[c + 3], &a[c + 2]));
        return pick(b01, b23, entry_less(&a[b23], &a[b01]));
    }
    for (size_t k = c + 1; k < n; k++)
        best = pick(best, k, entry_less(&a[k], &a[best]));
    return best;
}

/* Places (t, key) in the hole at the root, among the first n entries.
 * Bottom-up (Floyd's): the hole follows the least child down to a leaf
 * without comparing the entry on the way, then the entry rises to its
 * place.  The entry is a handler's new event or the heap's last one, both
 * later than most, so it rises a level or two where a top-down sift would
 * test it, and mispredict, at every level.  Keys are unique, so the order
 * entries leave in is the same whatever the heap's shape (results are
 * those of the top-down sift).  The entry travels as scalars: a struct
 * copied through the stack stalls on store forwarding in these loops. */
static inline void fill_root(fs_heap_entry *a, size_t n, double t,
                             uint64_t key)
{
    uint64_t tb = time_bits(t);
    size_t i = 0;
    while (ARITY * i + 1 < n) {
        size_t best = least_child(a, n, i);
        a[i] = a[best];
        i = best;
    }
    while (i > 0) {
        size_t p = (i - 1) / ARITY;
        if (entry_before(&a[p], tb, key))
            break;
        a[i] = a[p];
        i = p;
    }
    a[i].t = t;
    a[i].key = key;
}

/* Doubles the array, placing it so that a[1] (and every node's first
 * child, at 4i + 1) starts a 64-byte line: a[0] sits 16 bytes before one. */
static int grow(fs_heap *h)
{
    size_t cap = h->cap ? h->cap * 2 : 64;
    _Static_assert(sizeof(fs_heap_entry) == 16, "four entries to a line");
    void *mem = aligned_alloc(64, (cap + 4) * sizeof(fs_heap_entry));
    if (!mem)
        return -1;
    fs_heap_entry *a = (fs_heap_entry *)mem + 3;
    if (h->n)
        memcpy(a, h->a, h->n * sizeof *a);
    free(h->mem);
    h->mem = mem;
    h->a = a;
    h->cap = cap;
    return 0;
}

static int make_key(fs_heap *h, uint32_t id, uint64_t *key)
{
    if (id > FS_HEAP_ID_MAX || h->next_seq > FS_HEAP_SEQ_MAX)
        return -1;
    *key = h->next_seq++ << FS_HEAP_ID_BITS | id;
    return 0;
}

int fs_heap_push(fs_heap *h, double t, uint32_t id)
{
    assert(t >= 0);
    t += 0.0;   /* -0.0, whose bits would order last, becomes +0.0 */
    uint64_t key;
    if (h->hole) {
        if (make_key(h, id, &key))
            return -1;
        h->hole = 0;
        fill_root(h->a, h->n, t, key);
        return 0;
    }
    if (h->n == h->cap && grow(h))
        return -1;
    if (make_key(h, id, &key))
        return -1;
    uint64_t tb = time_bits(t);
    size_t i = h->n++;
    /* Sift up: move parents down until the entry's place is found. */
    while (i > 0) {
        size_t p = (i - 1) / ARITY;
        if (entry_before(&h->a[p], tb, key))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i].t = t;
    h->a[i].key = key;
    return 0;
}

void fs_heap_fill_hole(fs_heap *h)
{
    assert(h->hole);
    h->hole = 0;
    if (--h->n > 0) {
        const fs_heap_entry *last = &h->a[h->n];
        fill_root(h->a, h->n, last->t, last->key);
    }
}

int fs_heap_take(fs_heap *h, fs_heap_entry *out)
{
    assert(!h->hole);
    if (h->n == 0)
        return 0;
    *out = h->a[0];
    h->hole = 1;
    return 1;
}

int fs_heap_pop(fs_heap *h, fs_heap_entry *out)
{
    fs_heap_settle(h);
    if (!fs_heap_take(h, out))
        return 0;
    fs_heap_settle(h);
    return 1;
}
