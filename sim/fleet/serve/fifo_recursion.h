/* fifo_recursion.h -- serving a plain FIFO pool without completion
 * events: the Kiefer-Wolfowitz recursion.
 *
 * In a first-come-first-served queue in front of c identical servers
 * whose number never changes, request n starts at the later of its
 * arrival and the earliest time a server frees up, and that server is
 * then free at start + service (Kiefer and Wolfowitz, 1955).  So a
 * request's start and end are known the moment it arrives, and such a
 * pool needs no completion event, no idle stack and no queue: the
 * servers' free times in a small heap are the whole state.  A busy run
 * spends most of its time on those events (two per request, and a heap
 * of one per busy server), so the plain queues a planner runs most go
 * about twice as fast this way; dispatch (dispatch.c) takes the shortcut
 * wherever fs_fifo_applies says the answer is the same.
 *
 * What the events would have measured is read back from the free times:
 * requests still waiting at a time t are those whose start is after t
 * (starts never decrease in a FIFO queue, so they are kept in order), and
 * the busy server-seconds up to t are all the service given minus what
 * the servers still have to do after t (each server's work after the
 * last arrival is one unbroken stretch).  Latencies and waits are the
 * same numbers as the events give; sums of them (the mean latency, the
 * busy GPU-hours) may differ in the last bits, being added in another
 * order. */
#ifndef FS_FIFO_RECURSION_H
#define FS_FIFO_RECURSION_H

#include <stddef.h>
#include "sim/scenario/scenario.h"

typedef struct fs_fifo {
    double *free_at;         /* 4-ary min-heap of the servers' free times */
    size_t n;                /* servers; 0: the shortcut is not in use */
    double *start;           /* ring, oldest first: starts of the requests
                                waiting at the last arrival, ascending */
    size_t head, len, cap;   /* cap is a power of two */
    double busy;             /* service seconds given, in all */
} fs_fifo;

/* For each pool of sc, how many things reach its instances: the workloads
 * that list it (training included) and the pools whose spot fallback it
 * is.  users has sc->npools entries; one pass over the scenario. */
void fs_fifo_pool_users(const fs_scenario *sc, int *users);

/* Whether workload c of sc is served the same with the shortcut as with
 * events: one pool, which serves it alone (users from
 * fs_fifo_pool_users), with a fixed number of whole servers that nothing
 * starts or stops (no autoscaler, window, spot interruption, fallback
 * into it, MIG or sharing); one request at a time (batch_max = 1), no
 * queue limit, a plain service model. */
int fs_fifo_applies(const fs_scenario *sc, const fs_workload_conf *c,
                    const int *users);

/* Makes f serve with `servers` servers, all free at time t0.  -1 when out
 * of memory. */
int fs_fifo_init(fs_fifo *f, size_t servers, double t0);
/* Safe on a zeroed fs_fifo and twice. */
void fs_fifo_free(fs_fifo *f);

/* A request arriving at `arrival` (no earlier than the last) that needs
 * `service` seconds: its start and end (start + service, computed as the
 * event list would).  -1 when out of memory. */
int fs_fifo_assign(fs_fifo *f, double arrival, double service, double *start,
                   double *end);

/* Requests waiting at time t (t no earlier than the last arrival): those
 * that start after t, or at t (at an instant, as at the horizon, what is
 * due then has not yet happened). */
size_t fs_fifo_waiting(const fs_fifo *f, double t);

/* Server-seconds of service given up to time t (t no earlier than the last
 * arrival). */
double fs_fifo_busy_to(const fs_fifo *f, double t);

#endif
