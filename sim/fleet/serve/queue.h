/* queue.h -- a workload's FIFO of waiting requests: a growable ring buffer.
 *
 * Requests (models/service/service.h: arrival time, service demand, token counts)
 * are small values copied in and out, so a queue that has grown to its
 * peak length never allocates again.
 * The queue keeps the sum of its requests' demand: the autoscaler reads a
 * growing or shrinking backlog as demand. */
#ifndef FS_QUEUE_H
#define FS_QUEUE_H

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "models/service/service.h"
#include "sim/base/vec.h"

typedef struct fs_queue {
    fs_request *buf;
    size_t head, len, cap;   /* cap is a power of two */
    double work;             /* sum of the waiting requests' demand */
} fs_queue;

static inline void fs_queue_init(fs_queue *q)
{
    memset(q, 0, sizeof *q);
}

static inline void fs_queue_free(fs_queue *q)
{
    free(q->buf);
    fs_queue_init(q);
}

static inline int fs_queue_push(fs_queue *q, fs_request r)
{
    if (q->len == q->cap) {
        fs_request *b = fs_ring_grow(q->buf, &q->head, q->len, &q->cap, 64,
                                     sizeof *b);
        if (!b)
            return -1;
        q->buf = b;
    }
    q->buf[(q->head + q->len++) & (q->cap - 1)] = r;
    q->work += r.demand;
    return 0;
}

/* r goes to the head, before every waiting request (a retry). */
static inline int fs_queue_push_front(fs_queue *q, fs_request r)
{
    if (fs_queue_push(q, r))
        return -1;
    q->len--;                       /* taken back from the tail ... */
    q->head = (q->head + q->cap - 1) & (q->cap - 1);
    q->buf[q->head] = r;            /* ... and put at the head */
    q->len++;
    return 0;
}

static inline fs_request fs_queue_pop(fs_queue *q)
{
    assert(q->len > 0);
    fs_request r = q->buf[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->len--;
    /* Exactly 0 when empty: no rounding residue builds up over a run. */
    q->work = q->len ? q->work - r.demand : 0;
    return r;
}

static inline const fs_request *fs_queue_peek(const fs_queue *q)
{
    return q->len ? &q->buf[q->head] : NULL;
}

#endif
