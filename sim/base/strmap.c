/* strmap.c -- open-addressing hash table of byte strings; see strmap.h. */
#include "sim/base/strmap.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_CAP 16

static uint64_t hash_bytes(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h ^ (h >> 29);   /* the low bits pick the slot: fold the high */
}

void fs_strmap_init(fs_strmap *m)
{
    m->slot = NULL;
    m->cap = m->n = 0;
}

void fs_strmap_free(fs_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slot[i].key);
    free(m->slot);
    fs_strmap_init(m);
}

/* The slot holding key, or the empty slot where it would go. */
static fs_strmap_slot *probe(fs_strmap_slot *slot, size_t cap,
                             const void *key, size_t len, uint64_t h)
{
    size_t mask = cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        fs_strmap_slot *s = &slot[i];
        if (!s->key || (s->hash == h && s->len == len &&
                        memcmp(s->key, key, len) == 0))
            return s;
    }
}

/* Doubles the table, moving every key to its new slot. */
static int grow(fs_strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : FIRST_CAP;
    fs_strmap_slot *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        fs_strmap_slot *s = &m->slot[i];
        if (s->key)
            *probe(slot, cap, s->key, s->len, s->hash) = *s;
    }
    free(m->slot);
    m->slot = slot;
    m->cap = cap;
    return 0;
}

int fs_strmap_put(fs_strmap *m, const void *key, size_t len, size_t value)
{
    if (2 * (m->n + 1) > m->cap && grow(m))
        return -1;
    uint64_t h = hash_bytes(key, len);
    fs_strmap_slot *s = probe(m->slot, m->cap, key, len, h);
    if (!s->key) {
        char *copy = malloc(len ? len : 1);
        if (!copy)
            return -1;
        memcpy(copy, key, len);
        *s = (fs_strmap_slot){copy, len, h, value};
        m->n++;
        return 0;
    }
    s->value = value;
    return 0;
}

int fs_strmap_get(const fs_strmap *m, const void *key, size_t len,
                  size_t *value)
{
    if (!m->cap)
        return 0;
    const fs_strmap_slot *s = probe(m->slot, m->cap, key, len,
                                    hash_bytes(key, len));
    if (!s->key)
        return 0;
    *value = s->value;
    return 1;
}
