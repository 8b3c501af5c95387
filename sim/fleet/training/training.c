/* training.c -- the training scheduler: submissions, gang placement and
 * EASY backfill; see training.h.  The queue itself (order, fallback
 * wake-ups, the kick) is training_queue.c's.
 *
 * A pass runs as an event (never inside a capacity handler, so that
 * holding and releasing instances never re-enters it): it starts queued
 * jobs in order while they fit; the first that does not is the head, and
 * gets a reservation (reserve()); the jobs behind it start only where
 * backfill_ok() says the reservation is not delayed.  A pass stops looking
 * once no instance has a free GPU. */
#include "sim/fleet/training/training_impl.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The queue ---------------------------------------------------------- */

static void dequeue(fs_training *t, size_t i)
{
    memmove(&t->queue[i], &t->queue[i + 1],
            (t->nqueue - i - 1) * sizeof *t->queue);
    t->nqueue--;
}

/* ---- Reservation and backfill ------------------------------------------- */

/* Where and when the head job will start: on instance inst of pool tp (-1:
 * spread over the pool), at time at, with free thousandths left there then
 * (the backfill may use what the head does not need). */
typedef struct reservation {
    const fs_train_pool *tp;
    int inst;
    double at;
    int free_at;
    int need;
} reservation;

typedef struct fs_train_release {
    int inst;
    double at;
    int milli;
} release;

static int by_inst_then_time(const void *a, const void *b)
{
    const release *x = a, *y = b;
    if (x->inst != y->inst)
        return x->inst < y->inst ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

static int by_time(const void *a, const void *b)
{
    const release *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* What each running job on tp gives back and when; n returned, NULL and
 * -1 when out of memory. */
static release *releases_of(fs_training *t, const fs_train_pool *tp,
                            double now, int *n)
{
    size_t k = 0;
    release *r = t->rel;
    for (size_t i = 0; i < t->nrunning; i++) {
        fs_train_job *j = t->running[i];
        if (j->wl->pools[j->pool_k] != tp)
            continue;
        double at = now + fs_train_time_left(j, now);
        for (int p = 0; p < j->nparts; p++) {
            release *g = fs_vec_grow(t->rel, &t->rel_cap, k + 1, sizeof *g);
            if (!g) {
                *n = -1;
                return NULL;
            }
            r = t->rel = g;
            r[k++] = (release){j->parts[p].inst, at, j->parts[p].milli};
        }
    }
    *n = (int)k;
    return r;
}

/* Whole GPUs only, when a job spans instances. */
static int whole(int milli)
{
    return milli / 1000 * 1000;
}

/* The earliest start of head on tp (INFINITY when never, from what runs
 * now), into *best when earlier than it.  -1 when out of memory. */
static int reserve_on(fs_training *t, const fs_train_job *head,
                      const fs_train_pool *tp, double now, reservation *best)
{
    int n, need = head->spec->milli;
    release *r = releases_of(t, tp, now, &n);
    if (n < 0)
        return fs_error_set(t->sim->err, "out of memory");
    if (head->wl->conf->training.span_instances) {
        if (n > 1)
            qsort(r, (size_t)n, sizeof *r, by_time);
        int f = 0;
        for (int i = 0; i < tp->cap->max; i++)
            if (fs_capacity_takes_work(tp->cap, i))
                f += whole(tp->free_milli[i]);
        for (int i = 0; i < n && f < need; i++) {
            if (!fs_capacity_takes_work(tp->cap, r[i].inst))
                continue;
            f += r[i].milli;
            if (f >= need && r[i].at < best->at)
                *best = (reservation){tp, -1, r[i].at, f, need};
        }
        return 0;
    }
    if (n > 1)
        qsort(r, (size_t)n, sizeof *r, by_inst_then_time);
    for (int i = 0; i < n;) {
        int inst = r[i].inst, f = tp->free_milli[inst];
        double at = INFINITY;
        for (; i < n && r[i].inst == inst; i++) {
            if (f >= need && r[i].at > at)
                continue;       /* already enough; count ties only */
            f += r[i].milli;
            if (f >= need && at == INFINITY)
                at = r[i].at;
        }
        if (fs_capacity_takes_work(tp->cap, inst) && at < best->at)
            *best = (reservation){tp, inst, at, f, need};
    }
    return 0;
}

/* May job j start now on instance inst of tp (-1: spread over tp) without
 * delaying the reservation?  Takes the GPUs it uses from the reservation's
 * spare ones when it does. */
static int backfill_ok(const fs_train_job *j, const fs_train_pool *tp,
                       int inst, reservation *res, double now)
{
    if (!res || !res->tp || res->tp != tp)
        return 1;
    if (res->inst >= 0 && inst >= 0 && inst != res->inst)
        return 1;
    if (now + fs_train_time_left(j, now) <= res->at)
        return 1;
    if (res->free_at - j->spec->milli < res->need)
        return 0;
    res->free_at -= j->spec->milli;
    return 1;
}

/* ---- Placement ---------------------------------------------------------- */

/* On one instance of tp, first fit in slot order. */
static int place_one(fs_train_job *j, int k, reservation *res, double now)
{
    fs_train_pool *tp = j->wl->pools[k];
    for (int i = 0; i < tp->cap->max; i++)
        if (fs_capacity_takes_work(tp->cap, i) &&
            tp->free_milli[i] >= j->spec->milli &&
            backfill_ok(j, tp, i, res, now)) {
            fs_train_part part = {i, j->spec->milli};
            return fs_train_run(j, k, &part, 1) ? -1 : 1;
        }
    return 0;
}

/* Over several instances of tp, whole GPUs in slot order. */
static int place_spread(fs_train_job *j, int k, reservation *res, double now)
{
    fs_train_pool *tp = j->wl->pools[k];
    int need = j->spec->milli, have = 0, n = 0;
    for (int i = 0; i < tp->cap->max && have < need; i++)
        if (fs_capacity_takes_work(tp->cap, i))
            have += whole(tp->free_milli[i]);
    if (have < need || !backfill_ok(j, tp, -1, res, now))
        return 0;
    fs_training *t = j->wl->sched;
    fs_train_part *parts = fs_vec_grow(t->spread, &t->spread_cap,
                                       (size_t)tp->cap->max, sizeof *parts);
    if (!parts)
        return fs_error_set(t->sim->err, "out of memory");
    t->spread = parts;
    for (int i = 0; i < tp->cap->max && need > 0; i++) {
        int f = fs_capacity_takes_work(tp->cap, i) ? whole(tp->free_milli[i])
                                                   : 0;
        if (f <= 0)
            continue;
        int take = f < need ? f : need;
        parts[n++] = (fs_train_part){i, take};
        need -= take;
    }
    return fs_train_run(j, k, parts, n) ? -1 : 1;
}

/* 1 when j started, 0 when it does not fit (or may not backfill), -1 when
 * the run failed. */
static int try_place(fs_train_job *j, reservation *res, double now)
{
    int allowed = fs_train_allowed_pools(j, now);
    for (int k = 0; k < allowed; k++) {
        int rc = place_one(j, k, res, now);
        if (rc == 0 && j->wl->conf->training.span_instances)
            rc = place_spread(j, k, res, now);
        if (rc)
            return rc;
    }
    return 0;
}

/* The largest free GPU share (thousandths) of one instance taking work,
 * over every pool in use; 0 when none is free. */
static int max_free(const fs_training *t)
{
    int best = 0;
    for (size_t w = 0; w < t->nwls; w++)
        for (int k = 0; k < t->wls[w].npools; k++) {
            const fs_train_pool *tp = t->wls[w].pools[k];
            for (int i = 0; i < tp->cap->max; i++)
                if (tp->free_milli[i] > best &&
                    fs_capacity_takes_work(tp->cap, i))
                    best = tp->free_milli[i];
        }
    return best;
}

static int any_free(const fs_training *t)
{
    return max_free(t) > 0;
}

/* Whether a job behind the head could start on the free shares at all:
 * a job that spans instances may gather them, any other needs one
 * instance with room.  When none could, the head's reservation (a sort of
 * every running job's end) need not be computed. */
static int backfill_possible(const fs_training *t)
{
    int room = max_free(t);
    if (room == 0)
        return 0;
    for (size_t i = 1; i < t->nqueue; i++) {
        const fs_train_job *j = t->queue[i];
        if (j->wl->conf->training.span_instances ||
            j->spec->milli <= room)
            return 1;
    }
    return 0;
}

static int pass(fs_training *t, double now)
{
    int rc;
    while (t->nqueue > 0 && (rc = try_place(t->queue[0], NULL, now)) != 0) {
        if (rc < 0)
            return -1;
        dequeue(t, 0);
    }
    if (t->nqueue < 2 || !backfill_possible(t))
        return 0;
    fs_train_job *head = t->queue[0];
    reservation res = {NULL, -1, INFINITY, 0, 0};
    for (int k = 0; k < fs_train_allowed_pools(head, now); k++)
        if (reserve_on(t, head, head->wl->pools[k], now, &res))
            return -1;
    for (size_t i = 1; i < t->nqueue;) {
        rc = try_place(t->queue[i], res.tp ? &res : NULL, now);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            i++;
            continue;
        }
        dequeue(t, i);
        if (!any_free(t))
            break;
    }
    return 0;
}

static void on_pass(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_training *t = obj;
    t->kick_pending = 0;
    if (pass(t, fs_engine_now(e)))
        fs_sim_fail(t->sim);
}

/* ---- Submissions ---------------------------------------------------------- */

static void on_submit(fs_engine *e, void *obj, long arg);

static int schedule_submit(fs_trainer *w)
{
    if (w->next_submit >= w->njobs)
        return 0;
    double at = w->jobs[w->next_submit].spec->submit_s;
    if (at >= w->sched->sim->cal.horizon_s)
        return 0;
    if (fs_engine_at(w->sched->sim->engine, at, on_submit, w, 0))
        return 0;
    fs_error_set(w->sched->sim->err, "out of memory scheduling a job");
    fs_sim_fail(w->sched->sim);
    return -1;
}

static void on_submit(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_trainer *w = obj;
    double now = fs_engine_now(e);
    while (w->next_submit < w->njobs &&
           w->jobs[w->next_submit].spec->submit_s <= now) {
        fs_train_job *j = &w->jobs[w->next_submit++];
        if (j->state == FS_JOB_REJECTED)
            continue;
        assert(j->state == FS_JOB_PENDING);   /* submitted once */
        j->state = FS_JOB_QUEUED;
        j->seq = w->sched->seq++;
        j->queued_since = now;
        if (fs_train_enqueue(w->sched, j)) {
            fs_sim_fail(w->sched->sim);
            return;
        }
    }
    schedule_submit(w);
}

/* ---- Life of the scheduler ----------------------------------------------- */

void fs_train_pool_init(fs_train_pool *tp, const fs_pool_conf *conf,
                        fs_capacity *cap, fs_usage *usage)
{
    memset(tp, 0, sizeof *tp);
    tp->conf = conf;
    tp->cap = cap;
    tp->usage = usage;
}

void fs_train_pool_free(fs_train_pool *tp)
{
    free(tp->free_milli);
    tp->free_milli = NULL;
}

static void on_up(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_train_pool *tp = ctx;
    if (!tp->sched)
        return;
    tp->free_milli[inst] = (int)tp->conf->gpus_per_instance * 1000;
    fs_train_kick(tp->sched);
}

static void on_notice(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_train_pool *tp = ctx;
    if (tp->sched)
        fs_train_notice(tp, inst);
}

static void on_interrupted(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_train_pool *tp = ctx;
    if (tp->sched)
        fs_train_interrupted(tp, inst);
}

static void on_down(void *ctx, fs_capacity *cap, int inst)
{
    (void)cap;
    fs_train_pool *tp = ctx;
    if (tp->sched)
        tp->free_milli[inst] = 0;
}

const fs_capacity_listener fs_training_listener = {
    .name = "training",
    .on = {
        [FS_CAPACITY_UP] = on_up,
        [FS_CAPACITY_NOTICE] = on_notice,
        [FS_CAPACITY_INTERRUPTED] = on_interrupted,
        [FS_CAPACITY_DOWN] = on_down,
    },
};

static int init_trainer(fs_training *t, fs_trainer *w,
                        const fs_workload_conf *c,
                        fs_train_pool *const *pools)
{
    w->conf = c;
    w->sched = t;
    size_t njobs = c->training.jobs.n;
    w->jobs = calloc(njobs ? njobs : 1, sizeof *w->jobs);
    size_t cells = (size_t)c->npools * t->sim->cal.nmonths + 1;
    w->busy = calloc(cells, sizeof *w->busy);
    w->saves = calloc(cells, sizeof *w->saves);
    w->restores = calloc(cells, sizeof *w->restores);
    if (!w->jobs || !w->busy || !w->saves || !w->restores)
        return -1;
    w->njobs = njobs;     /* only now: the free walks njobs jobs */
    for (size_t i = 0; i < w->njobs; i++) {
        fs_train_job *j = &w->jobs[i];
        j->spec = &c->training.jobs.jobs[i];
        j->wl = w;
        j->start_s = j->end_s = NAN;
        /* refused from the start: the reason does not wait for a submit */
        if (j->spec->reject[0])
            j->state = FS_JOB_REJECTED;
    }
    for (int k = 0; k < c->npools; k++) {
        fs_train_pool *tp = pools[c->pools[k]];
        w->pools[k] = tp;
        if (tp->sched)
            continue;
        tp->sched = t;
        tp->free_milli = calloc((size_t)tp->cap->max + 1,
                                sizeof *tp->free_milli);
        if (!tp->free_milli)
            return -1;
    }
    w->npools = c->npools;
    return 0;
}

fs_training *fs_training_new(fs_sim *sim, fs_train_pool *const *pools)
{
    const fs_scenario *sc = sim->sc;
    fs_training *t = calloc(1, sizeof *t);
    size_t n = 0, gpus = 0, njobs = 0;
    for (size_t i = 0; i < sc->nworkloads; i++)
        if (sc->workloads[i].kind == FS_KIND_TRAINING) {
            n++;
            njobs += sc->workloads[i].training.jobs.n;
        }
    for (size_t i = 0; i < sc->npools; i++)
        gpus += (size_t)(pools[i]->cap->max * sc->pools[i].gpus_per_instance);
    if (t) {
        t->sim = sim;
        t->pass = on_pass;
        t->wls = calloc(n ? n : 1, sizeof *t->wls);
        /* a job holds at least a share of one GPU: this many at most run */
        t->running_cap = (gpus * 1000 < njobs ? gpus * 1000 : njobs) + 1;
        if (n)
            t->running = calloc(t->running_cap, sizeof *t->running);
    }
    if (!t || !t->wls || (n && !t->running)) {
        fs_training_free(t);
        fs_error_set(sim->err, "out of memory building the training "
                     "scheduler");
        return NULL;
    }
    for (size_t i = 0; i < sc->nworkloads; i++) {
        if (sc->workloads[i].kind != FS_KIND_TRAINING)
            continue;
        if (init_trainer(t, &t->wls[t->nwls++], &sc->workloads[i], pools)) {
            fs_error_set(sim->err, "out of memory building the training "
                         "scheduler");
            return FS_DISCARD(fs_training_free, t);
        }
    }
    return t;
}

void fs_training_free(fs_training *t)
{
    if (!t)
        return;
    for (size_t w = 0; w < t->nwls; w++) {
        for (size_t i = 0; t->wls[w].jobs && i < t->wls[w].njobs; i++)
            free(t->wls[w].jobs[i].heap);
        FS_FREE_ALL(t->wls[w].jobs, t->wls[w].busy, t->wls[w].saves,
                    t->wls[w].restores);
    }
    FS_FREE_ALL(t->wls, t->queue, t->running, t->rel, t->spread, t);
}

int fs_training_start(fs_training *t)
{
    for (size_t w = 0; w < t->nwls; w++)
        if (schedule_submit(&t->wls[w]))
            return -1;
    return 0;
}
