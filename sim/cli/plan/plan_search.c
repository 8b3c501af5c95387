/* plan_search.c -- the smallest fleet of each candidate that meets the
 * SLOs.
 *
 * A closed form brackets the count: for a generic service with Poisson
 * arrivals, the M/M/c queue (models/service/erlang.h) at the service's mean on
 * the candidate's GPU gives the smallest c meeting each latency SLO.
 * For an llm service with Poisson arrivals and token draws, the roofline
 * bounds it from below (plan_candidates.c): prefill at peak compute and
 * decode at the largest batch the KV cache holds.  Without either (a
 * trace), the search starts at 1.  Full
 * simulations then decide: from the start, down (or up) in doubling steps
 * until one count passes and one fails, then bisection to the smallest
 * passing count, whose count - 1 has failed.  Each simulation is a stored
 * run, `fleetsim run` with the candidate's --set list (run_exec.h), named
 * plan[gpu=...,count=N]; every count uses the scenario's seed, so counts
 * see the same requests (common random numbers) and a pass or fail is
 * not the noise of different draws.
 *
 * Candidates run in parallel, -j at a time, each in a worker process that
 * sends its outcome back on a pipe (the database takes concurrent
 * writers: the store waits on another's lock). */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "sim/app/run_exec.h"
#include "sim/app/workers.h"
#include "sim/store/store.h"
#include "models/service/erlang.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The runs one probe stored. */
typedef struct stored_ids {
    long ids[256];
    int n, kept;
} stored_ids;

static void on_stored(void *ctx, long id, unsigned rep, int kept)
{
    stored_ids *s = ctx;
    (void)rep;
    if (kept)
        s->kept = 1;
    else if (s->n < 256)
        s->ids[s->n++] = id;
}

static int show_progress(const fs_plan *p)
{
    return p->pmode == FS_PROGRESS_ALWAYS ||
           (p->pmode == FS_PROGRESS_AUTO && isatty(STDERR_FILENO));
}

/* Simulates candidate c at count n into pr: 0, or -1 when the run could
 * not be done (its message on stderr). */
static int probe(const fs_plan *p, fs_plan_candidate *c, long n, int spot,
                 fs_plan_probe *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->count = n;
    fs_plan_run_name(p, c, n, spot, pr->run_name, sizeof pr->run_name);
    int nsets;
    char **sets = fs_plan_sets(p, c, n, spot, &nsets);
    if (!sets)
        return fs_fail("out of memory"), -1;
    stored_ids ids = {.n = 0};
    fs_run_spec spec = {
        .scenario = p->scenario, .db = p->db, .name = pr->run_name,
        .label = pr->run_name, .sets = sets, .nsets = nsets,
        .output = FS_RUN_NOTHING, .pmode = FS_PROGRESS_NEVER,
        .pinterval = 1, .max_events = p->max_events, .busy_timeout = -1,
        .stored = on_stored, .stored_ctx = &ids,
    };
    int rc = fs_run_scenario(&spec);
    fs_plan_sets_free(p, sets, nsets);
    c->sims++;
    if (rc || ids.kept || !ids.n)
        return -1;
    fs_error err;
    fs_store *s = fs_store_open(p->db, FS_STORE_READONLY, &err);
    char why[512] = "";
    rc = !s || fs_plan_judge(p, s, ids.ids, ids.n, pr, why,
                             sizeof why);
    fs_store_close(s);
    if (rc) {
        fs_plan_say("%s: %s", pr->run_name,
                s ? why : err.msg);
        return -1;
    }
    pr->run_id = ids.ids[0];
    pr->done = 1;
    if (show_progress(p))
        fprintf(stderr, "fleetsim plan: %s (run %ld): %s%s\n", pr->run_name,
                pr->run_id, pr->pass ? "meets the SLOs" : "fails: ",
                pr->pass ? "" : pr->why);
    return 0;
}

/* The closed-form start: the smallest M/M/c meeting the latency SLOs the
 * closed form covers; -1 when arrivals or service are not known. */
static long bracket(const fs_plan *p, const fs_plan_candidate *c)
{
    if (p->llm || isnan(p->lambda) || isnan(p->mean_s) || p->mean_s <= 0 ||
        !(p->ref_tflops > 0) || !(c->gpu_tflops > 0))
        return -1;
    double mu = 1 / (p->mean_s * p->ref_tflops / c->gpu_tflops);
    long n = (long)floor(p->lambda / mu) + 1;
    for (; n < p->max_count; n++) {
        int ok = 1;
        for (int k = 0; k < p->nslo && ok; k++) {
            const fs_plan_slo *s = &p->slo[k];
            const char *m = s->metric;
            double v = NAN;
            if (m[0] == 'p' && m[1] >= '0' && m[1] <= '9') {
                double q = atof(m + 1);
                q = q >= 100 ? q / 1000 : q / 100;   /* p999 */
                v = fs_mmc_sojourn_quantile(n, p->lambda, mu, q);
            } else if (strcmp(m, "wait_mean") == 0) {
                v = fs_mmc_wait_mean(n, p->lambda, mu);
            } else if (strcmp(m, "mean") == 0) {
                v = fs_mmc_wait_mean(n, p->lambda, mu) + 1 / mu;
            }
            ok = isnan(v) || v <= s->value;
        }
        if (ok)
            return n;
    }
    return n;
}

static const fs_plan_probe *find(const fs_plan_probe *seen, int n, long k)
{
    for (int i = 0; i < n; i++)
        if (seen[i].count == k)
            return &seen[i];
    return NULL;
}

/* Probes count n once (seen: a cache of what was simulated) and narrows
 * the bracket: *hi = n when it passes, *lo = n when it fails.  1 pass, 0
 * fail, -1 error. */
static int test(const fs_plan *p, fs_plan_candidate *c, long n,
                fs_plan_probe *seen, int *nseen, long *lo, long *hi)
{
    const fs_plan_probe *known = find(seen, *nseen, n);
    if (!known && (*nseen == 64 || probe(p, c, n, 0, &seen[*nseen])))
        return -1;
    int t = known ? known->pass : seen[(*nseen)++].pass;
    *(t ? hi : lo) = n;
    return t;
}

/* Two failing counts, b at least twice a, whose every SLO value is the
 * and unfinished share are the same within 0.5%: adding instances
 * no longer moves the metrics (a prompt whose prefill alone is over the
 * TTFT bound, say), so the SLO cannot be met by count. */
static int plateau(const fs_plan *p, const fs_plan_probe *a,
                   const fs_plan_probe *b)
{
    if (!a || !b || a->pass || b->pass || b->count < 2 * a->count)
        return 0;
    if (fabs(a->unfinished - b->unfinished) > 0.005 * a->unfinished + 1e-9)
        return 0;   /* the share unfinished still moves */
    for (int k = 0; k < p->nslo; k++) {
        double x = a->value[k], y = b->value[k];
        if (isnan(x) || isnan(y) || fabs(x - y) > 0.005 * fabs(x))
            return 0;
    }
    return 1;
}

/* The search of one candidate, its outcome in c.  0, or -1 when a run
 * could not be done. */
static int search_one(const fs_plan *p, fs_plan_candidate *c)
{
    fs_plan_probe seen[64];
    int nseen = 0, t;
    long lo = 0, hi = -1, step = 1;   /* lo fails (0: none), hi passes */
    if (!p->llm)
        c->estimate = bracket(p, c);   /* llm: the roofline's, if any */
    long start = c->estimate > 0 ? c->estimate : 1;
    if (test(p, c, start, seen, &nseen, &lo, &hi) < 0)
        return -1;
    long flat = 0;   /* a count at which more instances stopped helping */
    while (hi < 0 && lo < p->max_count && !flat) {   /* up, doubling */
        long was = lo, n = lo + step > p->max_count ? p->max_count
                                                    : lo + step;
        if ((t = test(p, c, n, seen, &nseen, &lo, &hi)) < 0)
            return -1;
        if (!t && plateau(p, find(seen, nseen, was), find(seen, nseen, n)))
            flat = was;
        step *= 2;
    }
    /* down, doubling, to the first count that fails (lo > 0 ends it) */
    for (step = 1; hi > 1 && lo == 0; step *= 2)
        if (test(p, c, hi - step < 1 ? 1 : hi - step, seen, &nseen, &lo,
                 &hi) < 0)
            return -1;
    while (hi > 0 && hi - lo > 1)             /* bisection */
        if (test(p, c, lo + (hi - lo) / 2, seen, &nseen, &lo, &hi) < 0)
            return -1;
    const fs_plan_probe *below = find(seen, nseen, lo);
    if (below)
        c->below = *below;
    if (hi < 0 && flat) {
        c->feasible = 0;
        snprintf(c->reason, sizeof c->reason, "%.280s at %s=%ld as at %ld: "
                 "more instances do not help", below ? below->why : "fails",
                 p->autoscale ? "max" : "count", lo, flat);
        return 0;
    }
    if (hi < 0) {
        c->feasible = 0;
        snprintf(c->reason, sizeof c->reason, "%s at %s=%ld, the most "
                 "tried (--max-count)", below ? below->why : "fails",
                 p->autoscale ? "max" : "count", lo);
        return 0;
    }
    c->best = *find(seen, nseen, hi);
    c->feasible = 1;
    c->count = hi;
    c->min = p->autoscale ? (p->base_min > hi ? hi : p->base_min) : -1;
    if (below)
        snprintf(c->reason, sizeof c->reason, "meets every SLO at %s=%ld; "
                 "at %ld: %.300s", p->autoscale ? "max" : "count", hi, lo,
                 below->why);
    else
        snprintf(c->reason, sizeof c->reason, "meets every SLO at %s=1",
                 p->autoscale ? "max" : "count");
    return 0;
}

/* Searches c, marking it failed when a run could not be done. */
static void search_or_fail(const fs_plan *p, fs_plan_candidate *c)
{
    int rc = search_one(p, c);
    /* --purchase spot: the chosen fleet again, its pool priced as spot
     * (the same requests; interruptions only if the scenario gives the
     * pool spot keys; an autoscaled pool is refused before: cmd_plan.c) */
    if (!rc && c->feasible && p->purchases[FS_PLAN_SPOT] &&
        probe(p, c, c->count, 1, &c->spot))
        snprintf(c->cost_note, sizeof c->cost_note, "spot: its run failed "
                 "(the message above)");
    if (rc) {
        c->feasible = 0;
        c->failed = 1;
        snprintf(c->reason, sizeof c->reason, "the simulation failed (its "
                 "message above)");
    }
}

/* In a child: searches candidate i and writes it to fd. */
static void worker(const fs_plan *p, int i, int fd)
{
    fs_plan_candidate c = p->cand[i];
    search_or_fail(p, &c);
    fflush(NULL);
    const char *b = (const char *)&c;
    size_t left = sizeof c;
    while (left) {
        ssize_t w = write(fd, b, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(1);
        b += w;
        left -= (size_t)w;
    }
    _exit(0);
}

/* Reads a child's candidate from fd into c. */
static int collect(int fd, fs_plan_candidate *c)
{
    char *b = (char *)c;
    size_t got = 0;
    while (got < sizeof *c) {
        ssize_t r = read(fd, b + got, sizeof *c - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* Waits for any child; fills its candidate.  0, or -1. */
static int reap(fs_plan *p, pid_t *pids, int *fds)
{
    int st;
    pid_t pid;
    pid = fs_worker_wait(-1, &st);
    for (int i = 0; pid > 0 && i < p->ncand; i++)
        if (pids[i] == pid) {
            pids[i] = 0;
            fs_plan_candidate keep = p->cand[i];
            if (collect(fds[i], &p->cand[i])) {
                p->cand[i] = keep;
                p->cand[i].failed = 1;
                snprintf(p->cand[i].reason, sizeof p->cand[i].reason,
                         "its worker ended without an answer");
            }
            close(fds[i]);
            return 0;
        }
    return -1;
}

int fs_plan_search(fs_plan *p)
{
    int todo = 0;
    for (int i = 0; i < p->ncand; i++)
        todo += fs_plan_searched(&p->cand[i]);
    if (p->jobs <= 1 || todo <= 1) {
        for (int i = 0; i < p->ncand; i++)
            if (fs_plan_searched(&p->cand[i]))
                search_or_fail(p, &p->cand[i]);
        return 0;
    }
    pid_t *pids = calloc((size_t)p->ncand, sizeof *pids);
    int *fds = calloc((size_t)p->ncand, sizeof *fds);
    if (!pids || !fds) {
        free(pids);
        free(fds);
        return fs_fail("out of memory");
    }
    int running = 0, rc = 0;
    for (int i = 0; i < p->ncand && !rc; i++) {
        if (!fs_plan_searched(&p->cand[i]))
            continue;
        if (running == p->jobs && reap(p, pids, fds) == 0)
            running--;
        int pf[1][2];
        if ((pids[i] = fs_worker_fork_pipes(pf, 1)) < 0) {
            rc = fs_fail("plan: could not start a worker");
            break;
        }
        if (pids[i] == 0) {
            close(pf[0][0]);
            worker(p, i, pf[0][1]);
        }
        close(pf[0][1]);
        fds[i] = pf[0][0];
        running++;
    }
    while (running > 0 && reap(p, pids, fds) == 0)
        running--;
    free(pids);
    free(fds);
    return rc;
}
