/* vec.h -- arrays that grow by doubling: the one place that is written.
 *
 * Rows appended one at a time (result rows, catalog rows, scenario
 * entries, CSV fields, listings) live in an array that doubles its
 * capacity when full, so n appends cost O(n) copies in all and about
 * log2(n) allocations, and nothing is allocated per append once the array
 * is large enough.  The caller keeps the array, its count and its
 * capacity; fs_vec_grow only makes room:
 *
 *     row *rows = fs_vec_grow(t->rows, &t->cap, t->n + 1, sizeof *rows);
 *     if (!rows)
 *         return -1;              (t->rows and t->cap are as they were)
 *     t->rows = rows;
 *     rows[t->n++] = ...;
 *
 * Like realloc it returns the array, which may have moved, rather than
 * taking a void **: passing a row ** as void ** is not portable C. */
#ifndef FS_VEC_H
#define FS_VEC_H

#include <stddef.h>

/* The capacity of an array's first allocation, in items. */
#define FS_VEC_FIRST 16

/* Makes room for at least need items (at least one) of elem bytes in the
 * array items of capacity *cap: returns items itself when it has room,
 * else the array reallocated to FS_VEC_FIRST items doubled as often as
 * needed, with *cap updated; the items it holds keep their values.
 * NULL (errno ENOMEM) when out of memory or when the size would overflow:
 * then items is still valid and *cap unchanged.  An empty array is NULL
 * with *cap 0. */
void *fs_vec_realloc(void *items, size_t *cap, size_t need, size_t elem);

/* The common case, room already there, inline: the CSV reader asks for
 * room for every field it reads. */
static inline void *fs_vec_grow(void *items, size_t *cap, size_t need,
                                size_t elem)
{
    if (items && need != 0 && need <= *cap)
        return items;
    return fs_vec_realloc(items, cap, need, elem);
}

/* A full ring buffer (the FIFOs of waiting requests and of start times):
 * len items of elem bytes from index *head on, wrapping at *cap (a power
 * of two, or 0 for none yet), unrolled oldest first into a new array of
 * twice *cap items (first when *cap is 0), the ring freed.  Returns the
 * array, with *head 0 and *cap the new capacity; NULL when out of memory,
 * the ring, *head and *cap as they were. */
void *fs_ring_grow(void *ring, size_t *head, size_t len, size_t *cap,
                   size_t first, size_t elem);

#endif
