/* heap.h -- the pending-event heap: a binary min-heap on (time, sequence).
 *
 * Entries carry their keys inline so that sifting touches one array and
 * never follows a pointer; the payload is the index of the event record in
 * the engine's pool.  Equal times pop in the order they were pushed
 * (the sequence number breaks the tie), which makes runs deterministic. */
#ifndef FS_HEAP_H
#define FS_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct fs_heap_entry {
    double t;
    uint64_t seq;
    uint32_t id;
} fs_heap_entry;

typedef struct fs_heap {
    fs_heap_entry *a;
    size_t n, cap;
    uint64_t next_seq;
} fs_heap;

void fs_heap_init(fs_heap *h);
void fs_heap_free(fs_heap *h);
/* Pushes (t, next sequence, id); -1 when out of memory. */
int fs_heap_push(fs_heap *h, double t, uint32_t id);
/* Pops the smallest entry into *out; 0 when the heap is empty. */
int fs_heap_pop(fs_heap *h, fs_heap_entry *out);
static inline size_t fs_heap_size(const fs_heap *h) { return h->n; }
static inline const fs_heap_entry *fs_heap_top(const fs_heap *h)
{
    return h->n ? &h->a[0] : NULL;
}

#endif
