/* training_job.c -- one training job's run on its instances: restore,
 * compute in segments of checkpoint_interval, checkpoint, finish; and what
 * a spot notice or an interruption does to it.
 *
 *   placed -> [restore_cost, after a restart] -> compute checkpoint_interval
 *          -> checkpoint_cost (saved) -> compute ... -> the last segment ends
 *             the job (no checkpoint after it)
 *
 * An interruption loses everything since the job's state was last saved:
 * the work of the current segment, a checkpoint under way, a restore.
 * Those GPU-seconds are its lost GPU-hours.  A spot notice with room for a
 * checkpoint (checkpoint_cost at most the notice left, and the workload
 * checkpoints at all) saves the work done so far and stops the job when
 * the checkpoint ends; it goes back to the queue at its place.
 *
 * Invariants, asserted: only a queued job starts and only a running one
 * stops; an instance's free GPUs stay within [0, its GPUs], so the GPUs
 * allocated never exceed capacity; the running list has room. */
#include "sim/fleet/training/training_impl.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void on_phase_end(fs_engine *e, void *obj, long arg);

static const fs_training_conf *tconf(const fs_train_job *j)
{
    return &j->wl->conf->training;
}

static double gpus_of(const fs_train_job *j)
{
    return j->spec->milli / 1000.0;
}

/* Time to do work w from the start of a compute segment: w plus a
 * checkpoint after each full interval but the last. */
static double run_left(const fs_training_conf *c, double w)
{
    if (w <= 0)
        return 0;
    if (!(c->checkpoint_interval > 0) || w <= c->checkpoint_interval)
        return w;
    double n = ceil(w / c->checkpoint_interval) - 1;
    return w + n * c->checkpoint_cost;
}

double fs_train_time_left(const fs_train_job *j, double now)
{
    const fs_training_conf *c = tconf(j);
    double work = j->spec->duration_s;
    if (j->state != FS_JOB_RUNNING)
        return (j->restarts > 0 ? c->restore_cost : 0) +
               run_left(c, work - j->saved);
    if (j->stopping)
        return j->phase_end - now;
    switch (j->phase) {
    case FS_PHASE_RESTORE:
        return j->phase_end - now + run_left(c, work - j->saved);
    case FS_PHASE_COMPUTE:
        if (j->last_seg)
            return j->phase_end - now;
        return j->phase_end - now + c->checkpoint_cost +
               run_left(c, work - j->saved - j->seg_work);
    case FS_PHASE_CHECKPOINT:
    default:
        return j->phase_end - now + run_left(c, work - j->saved - j->seg_work);
    }
}

static int schedule_phase(fs_train_job *j, fs_job_phase phase, double dt)
{
    fs_sim *sim = j->wl->sched->sim;
    double now = fs_engine_now(sim->engine);
    j->phase = phase;
    j->phase_t0 = now;
    j->phase_end = now + dt;
    j->ev = fs_engine_at(sim->engine, j->phase_end, on_phase_end, j, 0);
    if (j->ev)
        return 0;
    fs_error_set(sim->err, "out of memory scheduling training job %s",
                 j->spec->id);
    fs_sim_fail(sim);
    return -1;
}

static int begin_compute(fs_train_job *j)
{
    const fs_training_conf *c = tconf(j);
    double left = j->spec->duration_s - j->saved;
    double seg = left;
    if (c->checkpoint_interval > 0 && left > c->checkpoint_interval)
        seg = c->checkpoint_interval;
    j->seg_work = seg;
    j->last_seg = seg == left;
    return schedule_phase(j, FS_PHASE_COMPUTE, seg);
}

void fs_train_account(fs_train_job *j, double t0, double t)
{
    if (t <= t0)
        return;
    const fs_calendar *cal = &j->wl->sched->sim->cal;
    const fs_pool_conf *pc = j->wl->pools[j->pool_k]->conf;
    double g = gpus_of(j);
    double *row = &j->wl->busy[(size_t)j->pool_k * cal->nmonths];
    fs_calendar_spread(cal, fs_calendar_month(cal, t0, 0), t0, t, g, row);
    j->gpu_s += (t - t0) * g;
    j->cost_usd += (t - t0) * g * pc->terms.price /
                   ((double)pc->gpus_per_instance * 3600);
    j->wl->exposed_s += t - t0;
}

/* An instance's free GPUs (thousandths) stay within it: jobs never hold
 * more than it has, nor give back more than they took. */
static void assert_free(const fs_train_pool *tp, int inst)
{
    assert(tp->free_milli[inst] >= 0 &&
           tp->free_milli[inst] <= (int)tp->conf->gpus_per_instance * 1000);
    (void)tp;
    (void)inst;
}

/* The job leaves its instances (all but skip, which is being taken away):
 * its GPUs are free again, its busy time accounted. */
static void stop_run(fs_train_job *j, int skip)
{
    fs_training *t = j->wl->sched;
    fs_train_pool *tp = j->wl->pools[j->pool_k];
    double now = fs_engine_now(t->sim->engine);
    assert(j->state == FS_JOB_RUNNING && j->nparts > 0);
    fs_engine_cancel(t->sim->engine, j->ev);
    j->ev = 0;
    fs_train_account(j, j->run_t0, now);
    fs_usage_busy(tp->usage, now, &j->shape, 0);
    for (size_t i = 0; i < t->nrunning; i++)
        if (t->running[i] == j) {
            t->running[i] = t->running[--t->nrunning];
            break;
        }
    fs_train_part *parts = j->parts;
    int n = j->nparts;
    j->parts = NULL;
    j->nparts = 0;
    j->stopping = 0;
    for (int i = 0; i < n; i++) {
        tp->free_milli[parts[i].inst] += parts[i].milli;
        assert_free(tp, parts[i].inst);
    }
    /* holds last: a draining instance may terminate on the last one */
    for (int i = 0; i < n; i++)
        if (parts[i].inst != skip)
            fs_capacity_unhold(tp->cap, parts[i].inst);
    fs_train_kick(t);
}

/* Back to the queue at its place (its seq), to restart from its last
 * checkpoint. */
static void requeue(fs_train_job *j)
{
    j->restarts++;
    j->state = FS_JOB_QUEUED;
    j->queued_since = fs_engine_now(j->wl->sched->sim->engine);
    if (fs_train_enqueue(j->wl->sched, j))
        fs_sim_fail(j->wl->sched->sim);
}

static void finish(fs_train_job *j)
{
    stop_run(j, -1);
    j->state = FS_JOB_DONE;
    j->end_s = fs_engine_now(j->wl->sched->sim->engine);
}

static void on_phase_end(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_train_job *j = obj;
    double now = fs_engine_now(e);
    j->ev = 0;
    switch (j->phase) {
    case FS_PHASE_RESTORE:
        begin_compute(j);
        return;
    case FS_PHASE_COMPUTE:
        if (j->last_seg) {
            finish(j);
        } else if (tconf(j)->checkpoint_cost > 0) {
            schedule_phase(j, FS_PHASE_CHECKPOINT, tconf(j)->checkpoint_cost);
        } else {
            j->saved += j->seg_work;
            j->safe_t = now;
            fs_train_count(j, j->wl->saves);
            begin_compute(j);
        }
        return;
    case FS_PHASE_CHECKPOINT:
        j->saved += j->seg_work;
        j->safe_t = now;
        fs_train_count(j, j->wl->saves);
        if (j->stopping) {
            stop_run(j, -1);
            requeue(j);
        } else {
            begin_compute(j);
        }
        return;
    }
}

int fs_train_run(fs_train_job *j, int k, const fs_train_part *parts,
                 int nparts)
{
    fs_training *t = j->wl->sched;
    fs_train_pool *tp = j->wl->pools[k];
    double now = fs_engine_now(t->sim->engine);
    /* only a queued job starts, on at least one part, and the running
     * list (sized for the most jobs the GPUs can hold) has room */
    assert(j->state == FS_JOB_QUEUED && nparts > 0);
    assert(t->nrunning < t->running_cap);
    if (nparts > 1 && nparts > j->heap_cap) {
        fs_train_part *h = realloc(j->heap, (size_t)nparts * sizeof *h);
        if (!h)
            return fs_error_set(t->sim->err, "out of memory");
        j->heap = h;
        j->heap_cap = nparts;
    }
    j->parts = nparts > 1 ? j->heap : &j->one;
    memcpy(j->parts, parts, (size_t)nparts * sizeof *parts);
    j->nparts = nparts;
    j->pool_k = k;
    j->state = FS_JOB_RUNNING;
    j->run_t0 = j->safe_t = now;
    if (isnan(j->start_s))
        j->start_s = now;
    fs_engine_cancel(t->sim->engine, j->wake);
    j->wake = 0;
    j->shape = (fs_server_shape){1, 1, 1, 0, 1, NULL, 0};
    if (j->spec->milli >= 1000)
        j->shape.gpus = j->spec->milli / 1000;
    else
        j->shape.compute = j->spec->milli / 1000.0;
    for (int i = 0; i < nparts; i++) {
        assert(parts[i].milli > 0);
        tp->free_milli[parts[i].inst] -= parts[i].milli;
        assert_free(tp, parts[i].inst);   /* never more than it has */
        fs_capacity_hold(tp->cap, parts[i].inst);
    }
    fs_usage_busy(tp->usage, now, &j->shape, 1);
    t->running[t->nrunning++] = j;
    if (j->restarts > 0 && j->saved > 0)   /* a checkpoint to read back */
        fs_train_count(j, j->wl->restores);
    if (j->restarts > 0 && tconf(j)->restore_cost > 0)
        return schedule_phase(j, FS_PHASE_RESTORE, tconf(j)->restore_cost);
    return begin_compute(j);
}

/* Whether running job j has a part on instance inst of tp. */
static int runs_on(const fs_train_job *j, const fs_train_pool *tp, int inst)
{
    if (j->wl->pools[j->pool_k] != tp)
        return 0;
    for (int i = 0; i < j->nparts; i++)
        if (j->parts[i].inst == inst)
            return 1;
    return 0;
}

void fs_train_notice(fs_train_pool *tp, int inst)
{
    fs_training *t = tp->sched;
    double left = fs_capacity_notice_left(tp->cap, inst);
    if (isinf(left))
        return;               /* a drain: the jobs finish first */
    double now = fs_engine_now(t->sim->engine);
    for (size_t i = 0; i < t->nrunning; i++) {
        fs_train_job *j = t->running[i];
        const fs_training_conf *c = tconf(j);
        if (!runs_on(j, tp, inst) || j->stopping || !(left > 0) ||
            !(c->checkpoint_interval > 0) || c->checkpoint_cost > left)
            continue;
        if (j->phase == FS_PHASE_CHECKPOINT) {
            j->stopping = 1;
        } else if (j->phase == FS_PHASE_COMPUTE) {
            fs_engine_cancel(t->sim->engine, j->ev);
            j->seg_work = now - j->phase_t0;
            j->stopping = 1;
            schedule_phase(j, FS_PHASE_CHECKPOINT, c->checkpoint_cost);
        }
        /* Saved in time, but interrupted all the same: it counts (and
         * goes into the MTBF of the Young/Daly note). */
        if (j->stopping) {
            j->interruptions++;
            j->wl->interruptions++;
        }
    }
}

void fs_train_interrupted(fs_train_pool *tp, int inst)
{
    fs_training *t = tp->sched;
    double now = fs_engine_now(t->sim->engine);
    for (size_t i = 0; i < t->nrunning;) {
        fs_train_job *j = t->running[i];
        if (!runs_on(j, tp, inst)) {
            i++;
            continue;
        }
        if (!j->stopping) {   /* else counted at its notice */
            j->interruptions++;
            j->wl->interruptions++;
        }
        j->lost_gpu_s += (now - j->safe_t) * gpus_of(j);
        stop_run(j, inst);    /* takes j off running[] */
        requeue(j);
    }
}
