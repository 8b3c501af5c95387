/* slots.c -- free instance slots, lowest first; see slots.h. */
#include "sim/fleet/capacity/slots.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int fs_slots_init(fs_slots *s, int cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
    s->heap = malloc((cap > 0 ? (size_t)cap : 1) * sizeof *s->heap);
    return s->heap ? 0 : -1;
}

void fs_slots_free(fs_slots *s)
{
    free(s->heap);
    s->heap = NULL;
}

/* Moves the root down to its place; the heap is a[0..n). */
static void sift_down(fs_slots *s)
{
    int *a = s->heap, i = 0, v = a[0];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= s->n)
            break;
        if (c + 1 < s->n && a[c + 1] < a[c])
            c++;
        s->probes++;
        if (a[c] >= v)
            break;
        a[i] = a[c];
        i = c;
    }
    a[i] = v;
}

int fs_slots_take(fs_slots *s)
{
    s->probes++;
    if (s->n > 0) {
        /* Every given-back slot is below next, so the heap's least wins. */
        int slot = s->heap[0];
        s->heap[0] = s->heap[--s->n];
        if (s->n > 0)
            sift_down(s);
        return slot;
    }
    return s->next < s->cap ? s->next++ : -1;
}

void fs_slots_give(fs_slots *s, int slot)
{
    assert(slot >= 0 && slot < s->next && s->n < s->cap);
    int *a = s->heap, i = s->n++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        s->probes++;
        if (a[parent] <= slot)
            break;
        a[i] = a[parent];
        i = parent;
    }
    a[i] = slot;
}
