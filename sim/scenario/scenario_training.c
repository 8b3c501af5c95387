/* scenario_training.c -- a [workload.NAME] of kind = training.
 *
 *   jobs = trace(PATH, format=generic|openb)   (or PATH(format=...), or PATH)
 *   checkpoint_interval, checkpoint_cost, restore_cost, span_instances,
 *   fallback_after
 *
 * The jobs file is read here, at load, so that a malformed file or a job
 * no pool can ever hold is refused before anything runs, with the file and
 * line of the job.  What training does not share with inference:
 *   - keys of the other kind are refused ("applies to ... workloads only");
 *   - a pool serves inference or training workloads, not both (their busy
 *     GPUs would be counted twice over the same instances), and a training
 *     pool has a fixed count (no autoscale): both refused at `pools`. */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const inference_only[] = {
    "arrivals", "service", "reference_gpu", "batch_max", "batch_wait",
    "slo_p99", "rate_scale", "repeat", "growth", "bad_rows", "statuses",
    "queue_max", "tokens_in", "tokens_out", "slo_ttft", "slo_tpot", NULL,
};

static const char *const training_only[] = {
    "jobs", "checkpoint_interval", "checkpoint_cost", "restore_cost",
    "span_instances", "fallback_after", "checkpoint_size",
    "checkpoint_retention", "checkpoint_transfer",
    NULL,   /* model: llm's too; storage_price, transfer_price: the weights'
               of an llm (scenario_storage.c) */
};

int fs_scenario_refuse_keys(fs_reader *rd, int training)
{
    const char *const *keys = training ? inference_only : training_only;
    for (const char *const *k = keys; *k; k++) {
        fs_config_entry *e = fs_rd_entry(rd, *k);
        if (e)
            return fs_rd_bad(rd, e, "%s", training
                             ? "applies to inference workloads only (this "
                               "one is kind = training)"
                             : "applies to training workloads only (kind = "
                               "training)");
    }
    return 0;
}

/* The jobs value as a call: trace(PATH, format=F), PATH(format=F), PATH. */
static int jobs_call(const char *v, fs_call *call, char *why, size_t len)
{
    char buf[2048];
    const char *paren = strchr(v, '(');
    if (strncmp(v, "trace(", 6) == 0)
        return fs_parse_call(v, call, why, len);
    if (!paren)
        snprintf(buf, sizeof buf, "trace(%s)", v);
    else
        snprintf(buf, sizeof buf, "trace(%.*s, %s", (int)(paren - v), v,
                 paren + 1);
    return fs_parse_call(buf, call, why, len);
}

/* Each pool of the workload: not shared with inference, fixed size. */
int fs_scenario_check_pool_kinds(fs_reader *rd, const fs_scenario *sc,
                                  const fs_workload_conf *w)
{
    fs_config_entry *e = fs_rd_entry(rd, "pools");
    char why[300];
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        if (w->kind == FS_KIND_TRAINING && p->scale != FS_SCALE_FIXED) {
            snprintf(why, sizeof why, "pool %s autoscales: a training pool "
                     "has a fixed count in this version", p->name);
            return fs_rd_bad(rd, e, "%s", why);
        }
        for (size_t i = 0; i < sc->nworkloads; i++) {
            const fs_workload_conf *o = &sc->workloads[i];
            for (int j = 0; j < o->npools; j++)
                if (o->pools[j] == w->pools[k] &&
                    (o->kind == FS_KIND_TRAINING) !=
                        (w->kind == FS_KIND_TRAINING)) {
                    snprintf(why, sizeof why, "pool %s also serves %s "
                             "workload %s: a pool serves inference or "
                             "training workloads, not both", p->name,
                             o->kind == FS_KIND_TRAINING ? "training"
                                                         : "inference",
                             o->name);
                    return fs_rd_bad(rd, e, "%s", why);
                }
        }
    }
    return 0;
}

/* A job none of the pools can ever hold.  generic: refused (exit 1, at the
 * job's line); openb, a trace of another cluster: the job is kept, refused
 * with the reason, and counted in the results. */
static int check_sizes(const fs_scenario *sc, fs_workload_conf *w,
                       fs_error *err)
{
    fs_training_conf *t = &w->training;
    long widest = 0, most = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        if (p->gpus_per_instance > widest)
            widest = p->gpus_per_instance;
        if (p->gpus_per_instance * p->count > most)
            most = p->gpus_per_instance * p->count;
    }
    long room = t->span_instances ? most : widest;
    int generic = strcmp(t->jobs.format, "generic") == 0;
    for (size_t i = 0; i < t->jobs.n; i++) {
        fs_job_spec *j = &t->jobs.jobs[i];
        if (j->reject[0] || j->gpus <= room)
            continue;
        char why[96];
        if (t->span_instances)
            snprintf(why, sizeof why, "needs %d GPUs; its pools hold %ld in "
                     "all", j->gpus, room);
        else
            snprintf(why, sizeof why, "needs %d GPUs; the largest instance "
                     "of its pools has %ld", j->gpus, room);
        if (generic)
            return fs_error_at(err, t->jobs.path,
                               (int)j->line, "gpus", "job %s %s (set "
                               "span_instances = yes to spread a job over "
                               "instances)", j->id, why);
        snprintf(j->reject, sizeof j->reject, "%s", why);
    }
    return 0;
}

int fs_scenario_parse_training(fs_reader *rd, fs_scenario *sc,
                               fs_workload_conf *w)
{
    fs_training_conf *t = &w->training;
    char why[512];
    if (fs_scenario_refuse_keys(rd, 1) || fs_scenario_check_pool_kinds(rd, sc, w) ||
        fs_rd_double(rd, "checkpoint_interval", fs_parse_duration, 0,
                     &t->checkpoint_interval) ||
        fs_rd_double(rd, "checkpoint_cost", fs_parse_duration, 0,
                     &t->checkpoint_cost) ||
        fs_rd_double(rd, "restore_cost", fs_parse_duration, 0,
                     &t->restore_cost) ||
        fs_rd_double(rd, "fallback_after", fs_parse_duration, 0,
                     &t->fallback_after) ||
        fs_rd_bool(rd, "span_instances", 0, &t->span_instances))
        return -1;
    fs_config_entry *e = fs_rd_entry(rd, "jobs");
    if (!e)
        return fs_rd_missing(rd, "jobs (trace(PATH, format=generic|openb))");
    t->jobs_entry = e;
    if (jobs_call(e->value, &w->arrivals, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    w->arrivals_entry = e;
    char key[FS_NAME_MAX + 24];
    snprintf(key, sizeof key, "%s.jobs", w->section);
    if (fs_jobs_read(&w->arrivals, fs_config_entry_dir(e, sc->dir), e->file,
                     e->line, key, &t->jobs,
                     rd->err))
        return -1;
    if (check_sizes(sc, w, rd->err))
        return -1;
    w->slo_s = NAN;
    w->reference_gpu = sc->pools[w->pools[0]].gpu;
    if (fs_scenario_training_model(rd, sc, w))
        return -1;
    return fs_scenario_training_storage(rd, sc, w);
}
