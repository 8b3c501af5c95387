/* sweep_workers.c -- the worker processes of `fleetsim sweep`: each run
 * of the sweep (one replication of one point) in a process of its own
 * (fork; the same fs_run_scenario as `fleetsim run`, no shell), at most -j
 * at a time, all storing into the one database (the store waits on
 * another writer's lock).  A worker that fails or is killed loses only its
 * run: its transaction is never committed.  Each worker reports the run
 * ids it stored on a pipe; the parent reads them with poll(), and a pipe
 * at EOF means its worker has ended.
 *
 * Test hook: FLEETSIM_TEST_SWEEP_KILL=N makes the workers of point N
 * (1-based) kill themselves with SIGKILL before they simulate. */
#include "sim/cli/sweep/sweep_impl.h"
#include "sim/cli/commands.h"
#include "sim/app/run_exec.h"
#include "sim/app/workers.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The most worker processes at once (-j is clamped to it). */
#define FS_SWEEP_MAX_JOBS 256

/* A running worker. */
typedef struct worker {
    pid_t pid;
    int fd;                 /* read end of its pipe; -1 when free */
    long point;
    long unit;
    char buf[256];
    size_t len;
} worker;

/* ---- the points' scenarios ------------------------------------------ */

char **fs_sweep_point_sets(const fs_sweep_options *o,
                           const fs_sweep_point *pt, long p, int *n)
{
    int total = o->c.nsets + o->grid.naxes + 1;
    char **sets = calloc((size_t)total, sizeof *sets);
    if (!sets)
        return NULL;
    memcpy(sets, o->c.sets, (size_t)o->c.nsets * sizeof *sets);
    int ok = 1;
    for (int a = 0; a < o->grid.naxes; a++)
        ok &= (sets[o->c.nsets + a] = fs_sweep_assignment(&o->grid, p, a)) !=
              NULL;
    ok &= asprintf(&sets[total - 1], "scenario.name=%s", pt->name) >= 0;
    *n = total;
    if (!ok) {
        for (int k = o->c.nsets; k < total; k++)
            free(sets[k]);
        free(sets);
        return NULL;
    }
    return sets;
}

void fs_sweep_free_sets(const fs_sweep_options *o, char **sets, int n)
{
    for (int k = o->c.nsets; sets && k < n; k++)
        free(sets[k]);
    free(sets);
}

/* fs_run_stored_fn of a worker: "ID REPLICATION KEPT\n" on its pipe (one
 * write, shorter than PIPE_BUF: never interleaved). */
static void report_stored(void *ctx, long id, unsigned rep, int kept)
{
    char line[96];
    int n = snprintf(line, sizeof line, "%ld %u %d\n", id, rep, kept);
    if (write(*(int *)ctx, line, (size_t)n) != n)
        fprintf(stderr, "fleetsim: sweep: could not report run %ld: %s\n",
                id, strerror(errno));
}

/* In the child: runs replication rep of point p as `fleetsim run` would,
 * then exits.  The first run of the sweep (or shard) prints the
 * scenario's warnings. */
static void worker_main(const fs_sweep_options *o, const fs_sweep_point *pt,
                        long p, long rep, int first, int fd)
{
    const char *kill_at = getenv("FLEETSIM_TEST_SWEEP_KILL");
    if (kill_at && atol(kill_at) == p + 1)
        raise(SIGKILL);
    int n;
    char **sets = fs_sweep_point_sets(o, pt, p, &n);
    int rc = FS_EXIT_FAIL;
    if (!sets) {
        fs_fail("out of memory");
    } else {
        fs_run_spec spec = {
            .scenario = o->scenario, .db = o->c.db, .name = pt->name,
            .label = pt->name,
            .sets = sets, .nsets = n, .warnings = !o->c.quiet && first,
            .rep_first = (unsigned)rep, .rep_count = 1,
            .output = FS_RUN_NOTHING, .pinterval = 1,
            /* the parent draws the sweep's progress line */
            .pmode = FS_PROGRESS_NEVER,
            .max_events = o->c.max_events, .busy_timeout = o->c.busy_timeout,
            .stored = report_stored, .stored_ctx = &fd,
        };
        rc = fs_run_scenario(&spec);
    }
    fs_sweep_free_sets(o, sets, n);
    fflush(NULL);
    _exit(rc);
}

/* Starts the worker of run u in slot w of ws[0..nws).  0, or -1 with
 * a message. */
static int start_worker(const fs_sweep_options *o, fs_sweep_point *pts,
                        const fs_sweep_unit *units, long u, worker *ws, long nws,
                        long w)
{
    long p = units[u].point;
    int fds[1][2];
    pid_t pid = fs_worker_fork_pipes(fds, 1);
    if (pid < 0) {
        fprintf(stderr, "fleetsim: sweep: could not start a worker: %s\n",
                strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(fds[0][0]);
        for (long k = 0; k < nws; k++)
            if (ws[k].fd >= 0)
                close(ws[k].fd);
        worker_main(o, &pts[p], p, units[u].rep, u == 0, fds[0][1]);
    }
    close(fds[0][1]);
    ws[w] = (worker){.pid = pid, .fd = fds[0][0], .point = p, .unit = u};
    return 0;
}

/* Takes the complete lines in w's buffer: the runs its point stored. */
static void take_lines(worker *w, fs_sweep_point *pt)
{
    char *nl;
    while ((nl = memchr(w->buf, '\n', w->len))) {
        *nl = '\0';
        long id;
        unsigned rep;
        int kept;
        if (sscanf(w->buf, "%ld %u %d", &id, &rep, &kept) == 3) {
            if (kept)
                pt->kept = 1;
            else if (pt->nids < pt->nreps) {
                /* in replication order (the replications of a point end
                 * in any order): insertion */
                long k = pt->nids++;
                for (; k > 0 && pt->reps[k - 1] > (long)rep; k--) {
                    pt->ids[k] = pt->ids[k - 1];
                    pt->reps[k] = pt->reps[k - 1];
                }
                pt->ids[k] = id;
                pt->reps[k] = rep;
            }
        }
        size_t used = (size_t)(nl + 1 - w->buf);
        memmove(w->buf, nl + 1, w->len - used);
        w->len -= used;
    }
}

/* Reads what w has written; at EOF waits for it and frees the slot.
 * Returns 1 when the worker has ended. */
static int drain(worker *w, fs_sweep_point *pts)
{
    fs_sweep_point *pt = &pts[w->point];
    ssize_t n = read(w->fd, w->buf + w->len, sizeof w->buf - 1 - w->len);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n > 0) {
        w->len += (size_t)n;
        take_lines(w, pt);
        return 0;
    }
    close(w->fd);
    w->fd = -1;
    int status = 0;
    fs_worker_wait(w->pid, &status);
    if (!pt->wstatus)
        pt->wstatus = status;
    if (--pt->units_left > 0)
        return 0;
    pt->done = 1;
    pt->ok = WIFEXITED(pt->wstatus) && WEXITSTATUS(pt->wstatus) == 0 &&
             !pt->kept && pt->nids == pt->nreps;
    return 1;
}

/* The sweep's progress line: points done of the total. */
static void draw_progress(fs_progress_mode mode, int tty, long done,
                          long total, long running, long failed, int last)
{
    if (mode == FS_PROGRESS_NEVER || (mode == FS_PROGRESS_AUTO && !tty))
        return;
    fprintf(stderr, "%sfleetsim sweep: %ld of %ld points done, %ld running"
            ", %ld failed%s", tty ? "\r" : "", done, total, running, failed,
            tty ? "\033[K" : "\n");
    if (tty && last)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

int fs_sweep_run_units(const fs_sweep_options *o, fs_sweep_point *pts,
                       const fs_sweep_unit *units, long nunits,
                       long npoints, fs_progress_mode mode)
{
    long n = nunits, next = 0, ended = 0, done = 0, running = 0, failed = 0;
    long jobs = o->c.jobs < n ? o->c.jobs : n;
    /* A worker is a process and a pipe: more than FS_SWEEP_MAX_JOBS at once
     * only queues them for the processors. */
    if (jobs > FS_SWEEP_MAX_JOBS)
        jobs = FS_SWEEP_MAX_JOBS;
    if (jobs < 1)
        jobs = 1;
    worker *ws = calloc((size_t)jobs, sizeof *ws);
    struct pollfd *pfd = calloc((size_t)jobs, sizeof *pfd);
    if (!ws || !pfd) {
        free(ws);
        free(pfd);
        return fs_fail("out of memory");
    }
    int tty = isatty(STDERR_FILENO), rc = FS_EXIT_OK;
    for (long k = 0; k < jobs; k++)
        ws[k].fd = -1;
    while (ended < n && rc == FS_EXIT_OK) {
        long started = next;
        for (long k = 0; k < jobs && next < n; k++)
            if (ws[k].fd < 0) {
                if (start_worker(o, pts, units, next, ws, jobs, k)) {
                    rc = FS_EXIT_FAIL;
                    break;
                }
                next++;
                running++;
            }
        if (started == 0 && next > 0)
            draw_progress(mode, tty, done, npoints, running, failed, 0);
        for (long k = 0; k < jobs; k++)
            pfd[k] = (struct pollfd){.fd = ws[k].fd, .events = POLLIN};
        if (poll(pfd, (nfds_t)jobs, -1) < 0 && errno != EINTR)
            break;
        for (long k = 0; k < jobs; k++) {
            if (ws[k].fd < 0 || !(pfd[k].revents & (POLLIN | POLLHUP |
                                                     POLLERR)))
                continue;
            long before = ws[k].fd;
            int point_done = drain(&ws[k], pts);
            if (before >= 0 && ws[k].fd < 0) {
                ended++;
                running--;
            }
            if (point_done) {
                done++;
                failed += !pts[ws[k].point].ok;
                draw_progress(mode, tty, done, npoints, running, failed, 0);
            }
        }
    }
    /* a failed fork: let the workers already started finish */
    for (long k = 0; k < jobs; k++)
        while (ws[k].fd >= 0)
            drain(&ws[k], pts);
    if (tty)
        draw_progress(mode, tty, done, npoints, 0, failed, 1);
    free(ws);
    free(pfd);
    return rc;
}
