/* vec.c -- growing an array by doubling; see vec.h. */
#include "sim/base/vec.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The slow path of fs_vec_grow (vec.h): the array must grow, or is empty. */
void *fs_vec_realloc(void *items, size_t *cap, size_t need, size_t elem)
{
    assert(cap && elem > 0 && (items || *cap == 0));
    if (need == 0)
        need = 1;          /* so that success always returns an array */
    if (need <= *cap)
        return items;
    size_t n = *cap ? *cap : FS_VEC_FIRST;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            goto overflow;
        n *= 2;
    }
    if (n > SIZE_MAX / elem)
        goto overflow;
    void *p = realloc(items, n * elem);
    if (!p)
        return NULL;       /* realloc set errno; items is untouched */
    *cap = n;
    return p;
overflow:
    errno = ENOMEM;
    return NULL;
}

void *fs_ring_grow(void *ring, size_t *head, size_t len, size_t *cap,
                   size_t first, size_t elem)
{
    size_t new_cap = *cap ? *cap * 2 : first;
    assert(len <= *cap && len <= new_cap && (*cap == 0 || *head < *cap));
    char *b = malloc(new_cap * elem);
    if (!b)
        return NULL;
    size_t run = *cap - *head < len ? *cap - *head : len;  /* to the wrap */
    if (len) {
        memcpy(b, (char *)ring + *head * elem, run * elem);
        memcpy(b + run * elem, ring, (len - run) * elem);
    }
    free(ring);
    *head = 0;
    *cap = new_cap;
    return b;
}
