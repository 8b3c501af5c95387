/* sharing.h -- replicas sharing one GPU: time-slicing and MPS.
 *
 * sharing = timeslice(N) puts N servers (replicas) on each whole GPU with
 * no isolation: while k of them are busy each runs at 1/k of the GPU's
 * speed, times timeslice_efficiency when k >= 2 (the GPU's time lost to
 * context switches); one busy replica runs exactly as the whole GPU.
 * mps(N) runs clients side by side, each at most sm_cap of the GPU (1/N
 * by default): min(sm_cap, 1/k) each, with no switching loss.  This is
 * processor sharing: when a replica starts or finishes, the work left of
 * the others is brought up to date at the old rate and their completions
 * are rescheduled at the new one.
 *
 * The GPU counts as busy (utilization, usage) while any replica is: 1 for
 * timeslice, min(1, k x sm_cap) for MPS; each busy replica's workload is
 * allocated an equal share of that (cost_allocation). */
#ifndef FS_SHARING_H
#define FS_SHARING_H

#include "sim/fleet/serve/servers.h"

/* The sharing of pool p's GPUs (p->conf->sharing set); NULL when out of
 * memory. */
fs_sharing *fs_sharing_new(fs_servers *p);
void fs_sharing_free(fs_sharing *sh);

/* Server s (busy) starts work that takes t seconds on the GPU alone: its
 * completion, rescheduled as its GPU's other replicas come and go. */
fs_event_handle fs_sharing_start(fs_sharing *sh, fs_server *s, double t,
                                 fs_handler done);
/* s stops (finished, or its batch lost): its GPU's others speed up.  Its
 * completion event, if any, is the caller's to cancel. */
void fs_sharing_stop(fs_sharing *sh, fs_server *s, double now);
/* s (busy) joins its GPU's sharing without a completion to schedule: an
 * LLM replica that times its own iterations at fs_sharing_speed.  It
 * counts among the GPU's busy replicas (the others slow down, usage and
 * accounts as for any replica) until fs_sharing_stop. */
void fs_sharing_join(fs_sharing *sh, fs_server *s, double now);
/* s's speed now, a whole GPU's = 1: the rate at its GPU's busy count. */
double fs_sharing_speed(const fs_sharing *sh, const fs_server *s);
/* Busy time up to the horizon into the workloads' accounts. */
void fs_sharing_finish(fs_sharing *sh, double horizon);

/* A replica's speed, a whole GPU's = 1, while k replicas of its GPU are
 * busy. */
double fs_sharing_rate(fs_sharing_kind kind, double efficiency, double cap,
                       int k);

#endif
