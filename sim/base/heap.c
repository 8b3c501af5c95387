/* heap.c -- binary min-heap of events on (time, sequence); see heap.h. */
#include "sim/base/heap.h"

#include <assert.h>
#include <stdlib.h>

static inline int entry_less(const fs_heap_entry *x, const fs_heap_entry *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

void fs_heap_init(fs_heap *h)
{
    h->a = NULL;
    h->n = h->cap = 0;
    h->next_seq = 0;
}

void fs_heap_free(fs_heap *h)
{
    free(h->a);
    fs_heap_init(h);
}

int fs_heap_push(fs_heap *h, double t, uint32_t id)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        fs_heap_entry *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return -1;
        h->a = a;
        h->cap = cap;
    }
    fs_heap_entry e = {t, h->next_seq++, id};
    size_t i = h->n++;
    /* Sift up: move parents down until e's place is found. */
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!entry_less(&e, &h->a[p]))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = e;
    return 0;
}

int fs_heap_pop(fs_heap *h, fs_heap_entry *out)
{
    if (h->n == 0)
        return 0;
    *out = h->a[0];
    fs_heap_entry last = h->a[--h->n];
    size_t n = h->n, i = 0;
    /* Sift down the last entry from the root. */
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && entry_less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!entry_less(&h->a[c], &last))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (n)
        h->a[i] = last;
    assert(i == 0 || !entry_less(&h->a[i], &h->a[(i - 1) / 2]));
    return 1;
}
