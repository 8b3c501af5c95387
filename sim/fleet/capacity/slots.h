/* slots.h -- the free slots of a pool's instance table, lowest first.
 *
 * A launch takes the lowest free slot.  The slot decides which servers an
 * instance owns, and so the order in which idle servers are handed work:
 * keeping "lowest first" keeps every run bit-identical to earlier versions.
 * Slots never used yet are a high-water mark, so starting N instances costs
 * O(N); slots given back wait on a binary min-heap, O(log N) each.  The
 * heap is sized with the table, so taking and giving never allocate. */
#ifndef FS_SLOTS_H
#define FS_SLOTS_H

typedef struct fs_slots {
    int *heap;      /* slots given back, all below next */
    int n;          /* slots on the heap */
    int next;       /* slots next..cap-1 were never taken */
    int cap;        /* table size */
    long probes;    /* slots examined, for tests: O(1) per take from next */
} fs_slots;

int fs_slots_init(fs_slots *s, int cap);
void fs_slots_free(fs_slots *s);
/* The lowest free slot, now taken; -1 when every slot is taken. */
int fs_slots_take(fs_slots *s);
/* Frees a taken slot. */
void fs_slots_give(fs_slots *s, int slot);

#endif
