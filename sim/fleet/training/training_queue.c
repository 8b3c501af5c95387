/* training_queue.c -- the training queue: jobs in order of priority, then
 * submission; fallback_after's wake-ups; and the kick that asks for a
 * scheduling pass; see training_impl.h.
 *
 * Apart from training.c (the pass: placement and backfill) so that the job
 * runner (training_job.c), which requeues jobs and kicks the scheduler
 * when GPUs come free, calls down into the queue and never up into the
 * pass: the kick schedules the pass through fs_training.pass. */
#include "sim/fleet/training/training_impl.h"
#include "sim/base/vec.h"

#include <math.h>
#include <string.h>

static int before(const fs_train_job *a, const fs_train_job *b)
{
    if (a->spec->priority != b->spec->priority)
        return a->spec->priority > b->spec->priority;
    return a->seq < b->seq;
}

static void on_wake(fs_engine *e, void *obj, long arg);

/* fallback_after: the pools of its list a job may take now. */
int fs_train_allowed_pools(const fs_train_job *j, double now)
{
    double fa = j->wl->conf->training.fallback_after;
    if (!(fa > 0))
        return j->wl->npools;
    double steps = floor((now - j->queued_since) / fa);
    return steps + 1 >= j->wl->npools ? j->wl->npools : (int)steps + 1;
}

/* The next fallback step of a queued job, if its list has one. */
static int schedule_wake(fs_training *t, fs_train_job *j)
{
    double fa = j->wl->conf->training.fallback_after, now =
        fs_engine_now(t->sim->engine);
    int k = fs_train_allowed_pools(j, now);
    if (!(fa > 0) || k >= j->wl->npools)
        return 0;
    j->wake = fs_engine_at(t->sim->engine, j->queued_since + fa * k, on_wake,
                           j, 0);
    return j->wake ? 0 : fs_error_set(t->sim->err, "out of memory");
}

int fs_train_enqueue(fs_training *t, fs_train_job *j)
{
    fs_train_job **q = fs_vec_grow(t->queue, &t->queue_cap, t->nqueue + 1,
                                   sizeof *q);
    if (!q)
        return fs_error_set(t->sim->err, "out of memory");
    t->queue = q;
    size_t at = t->nqueue;
    while (at > 0 && before(j, q[at - 1]))
        at--;
    memmove(&q[at + 1], &q[at], (t->nqueue - at) * sizeof *q);
    q[at] = j;
    t->nqueue++;
    fs_train_kick(t);
    return schedule_wake(t, j);
}

void fs_train_kick(fs_training *t)
{
    if (t->kick_pending)
        return;
    if (!fs_engine_at(t->sim->engine, fs_engine_now(t->sim->engine), t->pass,
                      t, 0)) {
        fs_error_set(t->sim->err, "out of memory scheduling training");
        fs_sim_fail(t->sim);
        return;
    }
    t->kick_pending = 1;
}

static void on_wake(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_train_job *j = obj;
    j->wake = 0;
    if (j->state != FS_JOB_QUEUED)
        return;
    fs_train_kick(j->wl->sched);
    if (schedule_wake(j->wl->sched, j))
        fs_sim_fail(j->wl->sched->sim);
}
