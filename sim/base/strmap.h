/* strmap.h -- a hash table from byte strings to indexes.
 *
 * What a lookup by name needs when names come in thousands (a scenario's
 * keys by section, its sections by name): open addressing with linear
 * probing on a 64-bit FNV-1a hash, at most 1/2 full, so a lookup costs a
 * hash and about one string comparison whatever the table's size.  Keys
 * are any bytes (a NUL inside one is fine: the length is given) and are
 * copied; values are size_t (an index into the caller's array).  There is
 * no removal: the tables it serves only grow, then are freed whole. */
#ifndef FS_STRMAP_H
#define FS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct fs_strmap_slot {
    char *key;          /* NULL: empty */
    size_t len;
    uint64_t hash;
    size_t value;
} fs_strmap_slot;

typedef struct fs_strmap {
    fs_strmap_slot *slot;
    size_t cap, n;      /* cap: 0 or a power of two */
} fs_strmap;

void fs_strmap_init(fs_strmap *m);
void fs_strmap_free(fs_strmap *m);
/* Sets key's value (adding the key, or replacing its value); -1 when out
 * of memory (the map is as it was). */
int fs_strmap_put(fs_strmap *m, const void *key, size_t len, size_t value);
/* 1 and *value when key is there, else 0. */
int fs_strmap_get(const fs_strmap *m, const void *key, size_t len,
                  size_t *value);
static inline size_t fs_strmap_count(const fs_strmap *m) { return m->n; }

#endif
