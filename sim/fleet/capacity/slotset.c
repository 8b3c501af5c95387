/* slotset.c -- slots by kind, highest first in O(log n); see slotset.h. */
#include "sim/fleet/capacity/slotset.h"

#include <stdlib.h>
#include <string.h>

int fs_slotset_init(fs_slotset *s, int cap)
{
    memset(s, 0, sizeof *s);
    size_t n = cap > 0 ? (size_t)cap : 1;
    do {
        n = (n + 63) / 64;
        if (s->levels == FS_SLOTSET_LEVELS)
            return -1;
        s->w[s->levels] = calloc(n, sizeof **s->w);
        if (!s->w[s->levels++])
            return -1;
    } while (n > 1);
    return 0;
}

void fs_slotset_free(fs_slotset *s)
{
    for (int i = 0; i < s->levels; i++)
        free(s->w[i]);
    memset(s, 0, sizeof *s);
}

void fs_slotset_put(fs_slotset *s, int slot, int member)
{
    size_t i = (size_t)slot;
    for (int l = 0; l < s->levels; l++) {
        uint64_t *w = &s->w[l][i / 64], bit = (uint64_t)1 << (i % 64);
        int was_empty = *w == 0;
        if (member)
            *w |= bit;
        else
            *w &= ~bit;
        /* the level above changes only when this word turns (non-)empty */
        if (member ? !was_empty : *w != 0)
            return;
        i /= 64;
    }
}

static int top_bit(uint64_t w)
{
    return 63 - __builtin_clzll(w);
}

int fs_slotset_prev(fs_slotset *s, int below)
{
    if (below <= 0)
        return -1;
    /* climb until a word holds a member below the position */
    long i = below;     /* exclusive bound at this level */
    int l = 0;
    for (; l < s->levels; l++) {
        long word = i / 64;
        int bit = (int)(i % 64);
        s->probes++;
        uint64_t w = bit ? s->w[l][word] & (((uint64_t)1 << bit) - 1) : 0;
        if (w) {
            i = word * 64 + top_bit(w);
            break;
        }
        if (word == 0)
            return -1;
        i = word;       /* words 0..word-1 at the level above */
    }
    if (l == s->levels)
        return -1;
    /* descend, taking the highest member each time */
    for (; l > 0; l--) {
        s->probes++;
        i = i * 64 + top_bit(s->w[l - 1][i]);
    }
    return (int)i;
}
