/* workers.c -- worker processes that die with their command; see
 * workers.h.
 *
 * The live workers' pids are the one piece of process-wide state here: a
 * signal handler can find them nowhere else.  The table is changed with
 * the terminating signals blocked (so the handler never sees it half
 * grown), and a worker leaves it before it is reaped (so the handler never
 * signals a pid the system has given to another process). */
#include "sim/app/workers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const int terminating[] = {SIGTERM, SIGINT, SIGHUP};
#define NTERM (sizeof terminating / sizeof terminating[0])

static struct {
    pid_t *pid;             /* live workers; 0: a free slot */
    size_t n, cap;
    int guarded;            /* the handlers are installed */
} live;

/* SIGTERM to every live worker, a wait for each, then this process dies
 * of sig as it would have.  Only async-signal-safe calls. */
static void on_terminate(int sig)
{
    int saved = errno;
    for (size_t i = 0; i < live.n; i++)
        if (live.pid[i] > 0)
            kill(live.pid[i], SIGTERM);
    for (size_t i = 0; i < live.n; i++)
        while (live.pid[i] > 0 && waitpid(live.pid[i], NULL, 0) < 0 &&
               errno == EINTR)
            ;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    errno = saved;
}

/* Installs the handler for each terminating signal this process does not
 * ignore (a command started in the background ignores SIGINT: so do we). */
static void guard(void)
{
    for (size_t i = 0; i < NTERM && !live.guarded; i++) {
        struct sigaction old, sa;
        if (sigaction(terminating[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_terminate;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < NTERM; k++)
            sigaddset(&sa.sa_mask, terminating[k]);
        sa.sa_flags = SA_RESTART;
        sigaction(terminating[i], &sa, NULL);
    }
    live.guarded = 1;
}

static void block_terminating(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NTERM; i++)
        sigaddset(&set, terminating[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* A slot for one more pid; -1 when out of memory. */
static long free_slot(void)
{
    for (size_t i = 0; i < live.n; i++)
        if (live.pid[i] == 0)
            return (long)i;
    if (live.n == live.cap) {
        size_t cap = live.cap ? 2 * live.cap : 16;
        pid_t *p = realloc(live.pid, cap * sizeof *p);
        if (!p)
            return -1;
        live.pid = p;
        live.cap = cap;
    }
    live.pid[live.n] = 0;
    return (long)live.n++;
}

/* In the new worker: SIGKILL when the parent dies, the default actions
 * back, and no workers of its own to signal. */
static void become_worker(pid_t parent, const sigset_t *mask)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)        /* the parent died before prctl */
        _exit(1);
    for (size_t i = 0; i < NTERM; i++) {
        struct sigaction old;
        if (sigaction(terminating[i], NULL, &old) == 0 &&
            old.sa_handler == on_terminate)
            signal(terminating[i], SIG_DFL);
    }
    free(live.pid);
    memset(&live, 0, sizeof live);
    sigprocmask(SIG_SETMASK, mask, NULL);
}

pid_t fs_worker_fork(void)
{
    sigset_t old;
    block_terminating(&old);
    guard();
    pid_t parent = getpid();
    long slot = free_slot();
    pid_t pid = slot < 0 ? (errno = ENOMEM, -1) : fork();
    if (pid == 0)
        become_worker(parent, &old);
    else {
        if (pid > 0)
            live.pid[slot] = pid;
        int e = errno;
        sigprocmask(SIG_SETMASK, &old, NULL);
        errno = e;
    }
    return pid;
}

pid_t fs_worker_fork_pipes(int fds[][2], int n)
{
    int made = 0;
    while (made < n && pipe(fds[made]) == 0)
        made++;
    pid_t pid = -1;
    if (made == n) {
        fflush(NULL);
        pid = fs_worker_fork();
    }
    int e = errno;
    for (int k = 0; pid < 0 && k < made; k++) {
        close(fds[k][0]);
        close(fds[k][1]);
    }
    errno = e;
    return pid;
}

pid_t fs_worker_wait(pid_t pid, int *status)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    /* WNOWAIT: find which worker ended without reaping it, so that it
     * leaves the table while its pid is still its own. */
    while (waitid(pid > 0 ? P_PID : P_ALL, pid > 0 ? (id_t)pid : 0, &si,
                  WEXITED | WNOWAIT) < 0)
        if (errno != EINTR)
            return -1;
    for (size_t i = 0; i < live.n; i++)
        if (live.pid[i] == si.si_pid)
            live.pid[i] = 0;
    pid_t got;
    while ((got = waitpid(si.si_pid, status, 0)) < 0 && errno == EINTR)
        ;
    return got;
}
