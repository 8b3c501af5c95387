/* run_parallel.c -- `fleetsim run --replications N -j K`: the
 * replications of one scenario in up to K worker processes.
 *
 * Why it is built this way:
 * - Each replication is one worker (fork; the same fs_run_scenario, run
 *   for that replication alone).  Its random streams come from the seed
 *   and the replication, so the runs are those of -j 1.
 * - The scenario is validated and the database checked before any worker
 *   starts: a bad scenario is one message, nothing written.
 * - Runs are stored in replication order: a worker that has simulated
 *   waits (on a pipe) for its turn, given when every earlier replication's
 *   worker has ended; so the run ids are those of -j 1, too.  Replications
 *   are started in order, so the one whose turn it is always runs.
 * - Each worker's standard output goes to a pipe, and the parent prints
 *   the replications' outputs in replication order, as -j 1 prints them.
 *   Its stderr (warnings, errors) is the parent's.  Workers draw no
 *   progress line (several would garble one terminal line). */
#include "sim/app/run_exec.h"
#include "sim/app/workers.h"
#include "sim/cli/commands.h"
#include "sim/scenario/scenario.h"
#include "sim/store/store.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A replication's worker and what it printed. */
typedef struct rep_worker {
    pid_t pid;
    int out;                /* its stdout, read end; -1 once at EOF */
    int go;                 /* write end of its turn pipe; -1 once given */
    int started, ended, status;
    char *text;             /* what it printed */
    size_t len, cap;
} rep_worker;

/* In the worker: waits for the parent's byte on fd *ctx. */
static void wait_turn(void *ctx, unsigned replication)
{
    (void)replication;
    char b;
    ssize_t n;
    while ((n = read(*(int *)ctx, &b, 1)) < 0 && errno == EINTR)
        ;
}

/* In the child: replication r alone of sc (the parent's, copied by
 * fork), stdout to out, turn from go. */
static void worker_main(const fs_run_spec *o, fs_scenario *sc, unsigned r,
                        int out, int go)
{
    if (dup2(out, STDOUT_FILENO) < 0)
        _exit(FS_EXIT_FAIL);
    close(out);
    fs_run_spec spec = *o;
    spec.rep_first = r;
    spec.rep_count = 1;
    spec.warnings = o->warnings && r == 0;
    spec.pmode = FS_PROGRESS_NEVER;
    spec.before_store = wait_turn;
    spec.before_ctx = &go;
    spec.db_alone = 0;     /* the parent removes an empty file it made */
    int rc = fs_run_loaded(&spec, sc);
    fflush(NULL);
    _exit(rc);
}

static int start(const fs_run_spec *o, fs_scenario *sc, rep_worker *ws,
                 long nreps, unsigned r)
{
    int fds[2][2], *out = fds[0], *go = fds[1];
    pid_t pid = fs_worker_fork_pipes(fds, 2);
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(out[0]);
        close(go[1]);
        for (long k = 0; k < nreps; k++) {
            if (ws[k].out >= 0)
                close(ws[k].out);
            if (ws[k].go >= 0)
                close(ws[k].go);
        }
        worker_main(o, sc, r, out[1], go[0]);
    }
    close(out[1]);
    close(go[0]);
    ws[r].pid = pid;
    ws[r].out = out[0];
    ws[r].go = go[1];
    ws[r].started = 1;
    return 0;
}

/* Reads what worker w printed; at EOF waits for it.  1 when it ended. */
static int drain(rep_worker *w)
{
    char scratch[4096];
    if (w->len + 4096 > w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8192;
        char *t = realloc(w->text, cap);
        if (t) {
            w->text = t;
            w->cap = cap;
        }
    }
    /* out of memory: its output is lost, its run is not */
    int room = w->len + 4096 <= w->cap;
    ssize_t n = read(w->out, room ? w->text + w->len : scratch,
                     room ? w->cap - w->len : sizeof scratch);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n > 0) {
        w->len += room ? (size_t)n : 0;
        return 0;
    }
    close(w->out);
    w->out = -1;
    fs_worker_wait(w->pid, &w->status);
    w->ended = 1;
    return 1;
}

/* Writes the turn byte to fd.  A worker that ended before its turn (its
 * replication refused) has closed the pipe: EPIPE, not a SIGPIPE that
 * would kill the parent; its own exit status tells what happened. */
static int give_turn(int fd)
{
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    ssize_t n = write(fd, "g", 1);
    int e = errno;
    sigaction(SIGPIPE, &old, NULL);
    errno = e;
    return n == 1 || (n < 0 && e == EPIPE) ? 0 : -1;
}

/* Gives the turn to store to the first replication whose earlier ones
 * have all ended, and prints the outputs of ended ones in order. */
static void advance(rep_worker *ws, long nreps, long *printed)
{
    while (*printed < nreps && ws[*printed].ended) {
        rep_worker *w = &ws[*printed];
        fwrite(w->text ? w->text : "", 1, w->len, stdout);
        fflush(stdout);
        free(w->text);
        w->text = NULL;
        ++*printed;
    }
    if (*printed < nreps && ws[*printed].started && ws[*printed].go >= 0) {
        rep_worker *w = &ws[*printed];
        if (give_turn(w->go))
            fprintf(stderr, "fleetsim: run: cannot signal replication %ld: "
                    "%s\n", *printed, strerror(errno));
        close(w->go);
        w->go = -1;
    }
}

/* The exit status of the whole: 0 when every worker exited 0; 3 when
 * they all stored their runs and one is over a budget. */
static int outcome(const rep_worker *ws, long nreps)
{
    int rc = FS_EXIT_OK;
    for (long r = 0; r < nreps; r++) {
        int st = ws[r].status;
        if (!ws[r].started) {
            rc = FS_EXIT_FAIL;
        } else if (WIFSIGNALED(st)) {
            fprintf(stderr, "fleetsim: replication %ld: killed by signal "
                    "%d\n", r, WTERMSIG(st));
            rc = FS_EXIT_FAIL;
        } else if (WEXITSTATUS(st) == FS_EXIT_BUDGET) {
            if (rc == FS_EXIT_OK)
                rc = FS_EXIT_BUDGET;   /* stored, over a budget */
        } else if (WEXITSTATUS(st)) {
            rc = FS_EXIT_FAIL;
        }
    }
    return rc;
}

/* Checks the database, as fs_run_loaded does first. */
static int check(const fs_run_spec *o)
{
    fs_error err = {{0}};
    fs_store_set_busy_timeout(o->busy_timeout);
    fs_store *s = fs_store_open(o->db, FS_STORE_CREATE, &err);
    int bad = !s || fs_store_check_writable(s, &err);
    fs_store_close(s);
    return bad ? fs_fail(err.msg) : FS_EXIT_OK;
}

int fs_run_parallel(const fs_run_spec *o, long jobs)
{
    /* loaded once: the workers get it with fork */
    fs_error err = {{0}};
    fs_scenario *sc = fs_scenario_load(o->scenario, o->sets, o->nsets, &err);
    if (!sc)
        return fs_fail(err.msg);
    long nreps = sc->replications;
    if (jobs <= 1 || nreps <= 1)
        return fs_run_loaded(o, sc);
    int created = o->db_alone && fs_run_db_missing(o->db);
    int rc = check(o);
    rep_worker *ws = calloc((size_t)nreps, sizeof *ws);
    struct pollfd *pfd = calloc((size_t)nreps, sizeof *pfd);
    if (rc != FS_EXIT_OK || !ws || !pfd) {
        free(ws);
        free(pfd);
        fs_scenario_free(sc);
        return rc != FS_EXIT_OK ? rc : fs_fail("out of memory");
    }
    /* the workers print the scenario's warnings; the parent has none */
    for (long r = 0; r < nreps; r++)
        ws[r].out = ws[r].go = -1;
    long next = 0, running = 0, ended = 0, printed = 0;
    int start_failed = 0;
    while (ended < next || next < nreps) {
        while (next < nreps && running < jobs) {
            if (start(o, sc, ws, nreps, (unsigned)next)) {
                fprintf(stderr, "fleetsim: run: cannot start a worker: "
                        "%s\n", strerror(errno));
                nreps = next;     /* let the started ones finish */
                start_failed = 1;
                break;
            }
            next++;
            running++;
            advance(ws, nreps, &printed);
        }
        if (ended == next)
            break;
        long n = 0;
        for (long r = 0; r < next; r++)
            if (ws[r].out >= 0)
                pfd[n++] = (struct pollfd){.fd = ws[r].out, .events = POLLIN};
        if (poll(pfd, (nfds_t)n, -1) < 0 && errno != EINTR)
            break;
        for (long r = 0; r < next; r++)
            for (long k = 0; k < n; k++)
                if (pfd[k].fd == ws[r].out && ws[r].out >= 0 &&
                    (pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) &&
                    drain(&ws[r]) == 1) {
                    ended++;
                    running--;
                    advance(ws, nreps, &printed);
                }
    }
    rc = start_failed ? FS_EXIT_FAIL : outcome(ws, nreps);
    for (long r = 0; r < nreps; r++) {
        if (ws[r].go >= 0)
            close(ws[r].go);
        free(ws[r].text);
    }
    free(ws);
    free(pfd);
    fs_scenario_free(sc);
    if (created)   /* every worker is done: nothing else writes there */
        fs_run_drop_empty_db(o->db);
    return rc;
}
