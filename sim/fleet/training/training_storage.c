/* training_storage.c -- the costs a training workload's checkpoints add
 * beside the GPU hour, per pool and calendar month (cost_extra rows):
 *
 *   checkpoint-storage (Storage):  checkpoints written x checkpoint_size GB
 *       x checkpoint_retention / 730 h = GB-months, at the provider's
 *       object-storage $ per GB-month; each checkpoint's whole retention
 *       is billed in the month it is written (the horizon cuts nothing:
 *       it is kept all the same);
 *   checkpoint-transfer (Networking):  restores x checkpoint_size GB, at
 *       the provider's $ per GB for checkpoint_transfer (zone, region,
 *       internet; none: no row): a spot job restarted on another instance
 *       reads its last checkpoint back from there.
 *
 * A restore is a restart of a job that has saved work (a checkpoint to
 * read); a checkpoint is every save of a segment's work, those a spot
 * notice forces included.  Each row's cost is quantity x price rounded to
 * the cent, so a bill's lines are size x count x price to the cent. */
#include "sim/fleet/training/training_impl.h"

void fs_train_count(fs_train_job *j, double *per_pool_month)
{
    const fs_calendar *cal = &j->wl->sched->sim->cal;
    double now = fs_engine_now(j->wl->sched->sim->engine);
    per_pool_month[(size_t)j->pool_k * cal->nmonths +
                   fs_calendar_month(cal, now, 0)] += 1;
}

static int add_row(fs_training *t, const fs_trainer *w, int k, size_t m,
                   int transfer, double count)
{
    const fs_training_conf *c = &w->conf->training;
    const fs_pool_conf *p = w->pools[k]->conf;
    double per = transfer ? c->checkpoint_gb
                          : c->checkpoint_gb * c->checkpoint_retention /
                                (730 * 3600.0);
    fs_extra_line l = {
        t->sim->cal.label[m], p->name, w->conf->name, transfer,
        "checkpoint-storage", "checkpoint-transfer", (long)count,
        count * per, transfer ? c->transfer_usd_gb[k]
                              : c->storage_usd_gb_month[k],
        p->tags, w->conf->tags,
    };
    if (fs_results_add_extra_line(t->sim->out, &l))
        return fs_error_set(t->sim->err, "out of memory");
    return 0;
}

int fs_training_storage_rows(fs_training *t)
{
    size_t nm = t ? t->sim->cal.nmonths : 0;
    for (size_t i = 0; t && i < t->nwls; i++) {
        const fs_trainer *w = &t->wls[i];
        const fs_training_conf *c = &w->conf->training;
        if (!(c->checkpoint_gb > 0))
            continue;
        for (int k = 0; k < w->npools; k++)
            for (size_t m = 0; m < nm; m++) {
                double s = w->saves[(size_t)k * nm + m];
                double r = w->restores[(size_t)k * nm + m];
                if ((s > 0 && add_row(t, w, k, m, 0, s)) ||
                    (r > 0 && c->checkpoint_transfer != FS_TRANSFER_NONE &&
                     add_row(t, w, k, m, 1, r)))
                    return -1;
            }
    }
    return 0;
}
