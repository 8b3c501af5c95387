/* training_collect.c -- what the training scheduler leaves in the results:
 * one job row per job of every training workload (finished, running at
 * the horizon, queued, rejected with its reason, or submitted after the
 * horizon), the busy GPU-seconds cost_allocation splits the pools' cost
 * by, and a summary note per workload with the Young/Daly checkpoint
 * interval for the interruption rate it saw:
 *
 *   interval = sqrt(2 x checkpoint_cost x MTBF),
 *   MTBF = job-hours run on instances / interruptions. */
#include "sim/fleet/training/training_impl.h"
#include "sim/fleet/run/notes.h"

#include <math.h>
#include <stdio.h>

size_t fs_training_nworkloads(const fs_training *t)
{
    return t ? t->nwls : 0;
}

const fs_workload_conf *fs_training_workload(const fs_training *t, size_t i)
{
    return t->wls[i].conf;
}

double fs_training_busy(const fs_training *t, size_t i,
                        const fs_pool_conf *p, size_t m)
{
    const fs_trainer *w = &t->wls[i];
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k]->conf == p)
            return w->busy[(size_t)k * t->sim->cal.nmonths + m];
    return 0;
}

static const char *status_of(const fs_train_job *j)
{
    switch (j->state) {
    case FS_JOB_DONE: return "finished";
    case FS_JOB_RUNNING: return "running";
    case FS_JOB_QUEUED: return "queued";
    case FS_JOB_REJECTED: return "rejected";
    case FS_JOB_PENDING:
    default: return "not-submitted";
    }
}

/* Missed: not finished by a deadline that fell within the run (or
 * rejected); met: finished by it; unknown (-1): no deadline, or one after
 * the horizon for a job still queued or running. */
static int met_deadline(const fs_train_job *j, double horizon)
{
    double d = j->spec->deadline_s;
    if (isnan(d))
        return -1;
    if (j->state == FS_JOB_DONE)
        return j->end_s <= d;
    if (j->state == FS_JOB_REJECTED || d <= horizon)
        return 0;
    return -1;
}

static int add_row(fs_training *t, const fs_train_job *j, double horizon)
{
    fs_job_row *row = fs_results_add_job(t->sim->out);
    if (!row)
        return fs_error_set(t->sim->err, "out of memory");
    const fs_job_spec *s = j->spec;
    snprintf(row->workload, sizeof row->workload, "%s", j->wl->conf->name);
    snprintf(row->job_id, sizeof row->job_id, "%s", s->id);
    row->submit_s = s->submit_s;
    row->start_s = j->start_s;
    row->end_s = j->end_s;
    row->gpus = s->gpus;
    row->gpu_hours = j->gpu_s / 3600;
    row->lost_gpu_hours = j->lost_gpu_s / 3600;
    row->interruptions = j->interruptions;
    row->deadline_s = s->deadline_s;
    row->met_deadline = met_deadline(j, horizon);
    row->cost_usd = j->cost_usd;
    snprintf(row->status, sizeof row->status, "%s", status_of(j));
    snprintf(row->reason, sizeof row->reason, "%s", s->reject);
    return 0;
}

/* "train: 40 jobs: 38 finished, 1 running, 1 queued, 0 rejected; ..." */
static void note_workload(fs_training *t, const fs_trainer *w)
{
    long n[5] = {0}, missed = 0;
    double wait = 0, lost = 0, cost = 0;
    long started = 0;
    for (size_t i = 0; i < w->njobs; i++) {
        const fs_train_job *j = &w->jobs[i];
        n[j->state]++;
        lost += j->lost_gpu_s;
        cost += j->cost_usd;
        if (!isnan(j->start_s)) {
            wait += j->start_s - j->spec->submit_s;
            started++;
        }
        missed += met_deadline(j, t->sim->cal.horizon_s) == 0;
    }
    fs_results_add_note(t->sim->out, "%s: %zu jobs: %ld finished, %ld "
                        "running, %ld queued, %ld rejected, %ld after the "
                        "horizon; first-start wait mean %.4g h; %ld missed "
                        "their deadline; %.4g GPU-hours lost; $%.2f",
                        w->conf->name, w->njobs, n[FS_JOB_DONE],
                        n[FS_JOB_RUNNING], n[FS_JOB_QUEUED],
                        n[FS_JOB_REJECTED], n[FS_JOB_PENDING],
                        started ? wait / (double)started / 3600 : 0.0, missed,
                        lost / 3600, cost);
    if (w->conf->training.jobs.skipped > 0)
        fs_results_add_note(t->sim->out, "%s: %ld rows of %s ask for no GPU "
                            "(not GPU jobs): skipped", w->conf->name,
                            w->conf->training.jobs.skipped,
                            w->conf->training.jobs.path);
    if (w->interruptions == 0)
        return;
    const fs_training_conf *c = &w->conf->training;
    double mtbf = w->exposed_s / (double)w->interruptions;
    double yd = sqrt(2 * c->checkpoint_cost * mtbf);
    char m[32], y[32], now[32];
    fs_format_duration(mtbf, m, sizeof m);
    fs_format_duration(yd, y, sizeof y);
    fs_format_duration(c->checkpoint_interval, now, sizeof now);
    fs_results_add_note(t->sim->out, "%s: %ld interruptions, MTBF %s; "
                        "Young/Daly checkpoint interval sqrt(2 x "
                        "checkpoint_cost x MTBF) = %s (checkpoint_interval "
                        "= %s)", w->conf->name, w->interruptions, m,
                        c->checkpoint_cost > 0 ? y : "as short as possible",
                        now);
}

int fs_training_collect(fs_training *t, double horizon)
{
    for (size_t i = 0; i < t->nrunning; i++) {
        fs_train_job *j = t->running[i];
        fs_train_account(j, j->run_t0, horizon);
        j->run_t0 = horizon;
    }
    for (size_t w = 0; w < t->nwls; w++) {
        for (size_t i = 0; i < t->wls[w].njobs; i++)
            if (add_row(t, &t->wls[w].jobs[i], horizon))
                return -1;
        note_workload(t, &t->wls[w]);
    }
    return fs_training_storage_rows(t);
}
