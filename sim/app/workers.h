/* workers.h -- worker processes that never outlive the command that
 * forked them (run -j, sweep, plan).
 *
 * A worker simulates and stores runs.  Were it left running after its
 * parent was killed, it would store runs after the command had ended
 * (`timeout 60 fleetsim plan` overran).  So:
 * - each worker asks the kernel for SIGKILL when its parent dies
 *   (PR_SET_PDEATHSIG): a parent killed with SIGKILL takes its workers
 *   with it;
 * - a parent sent SIGTERM, SIGINT or SIGHUP first sends SIGTERM to its
 *   live workers and waits for each to end, then dies of the signal: when
 *   the command has ended, so have they.
 * A run is stored in one transaction, so a worker killed while storing
 * leaves no part of it. */
#ifndef FS_WORKERS_H
#define FS_WORKERS_H

#include <sys/types.h>

/* fork() for a worker: -1 with errno, 0 in the worker, its pid in the
 * parent (which now signals it when terminated). */
pid_t fs_worker_fork(void);

/* fs_worker_fork after n pipes (fds[k][0] the end to read, fds[k][1] the
 * end to write) and a flush of stdio, so that no buffered output is
 * written twice: the worker's pid, 0 in the worker, or -1 with errno and
 * every pipe closed when a pipe or the fork failed. */
pid_t fs_worker_fork_pipes(int fds[][2], int n);

/* Waits for worker pid (-1: any worker) to end, retrying on EINTR, and
 * stops signalling it before it is reaped (its pid is then free for
 * reuse).  Returns the pid reaped with its status, or -1 with errno. */
pid_t fs_worker_wait(pid_t pid, int *status);

#endif
