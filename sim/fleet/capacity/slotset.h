/* slotset.h -- a set of instance slots that finds the highest member below
 * a bound in O(log n).
 *
 * Releasing instances takes the newest slot of a kind first (provisioning,
 * then idle, then held ones).  Scanning the whole table for each release
 * made a pool of N instances cost N^2 (65,536 spot instances with a
 * fallback took 12 s).  The set is a tree of 64-bit words: level 0 has one
 * bit per slot, each level above one bit per non-empty word below, so a
 * query examines at most two words per level: O(log64 n).  Sized at init;
 * adding and removing never allocate. */
#ifndef FS_SLOTSET_H
#define FS_SLOTSET_H

#include <stdint.h>

#define FS_SLOTSET_LEVELS 6   /* 64^6 slots: far above any pool's bound */

typedef struct fs_slotset {
    uint64_t *w[FS_SLOTSET_LEVELS];
    int levels;
    long probes;              /* words examined, for tests */
} fs_slotset;

/* A set of slots 0..cap-1, empty.  -1 when out of memory (free is safe). */
int fs_slotset_init(fs_slotset *s, int cap);
void fs_slotset_free(fs_slotset *s);
void fs_slotset_put(fs_slotset *s, int slot, int member);
/* The highest member below `below`; -1 when there is none. */
int fs_slotset_prev(fs_slotset *s, int below);

#endif
