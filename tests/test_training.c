/* test_training.c -- the training scheduler against numbers known in
 * advance.
 *
 * - Checkpoint/restart under interruption: one 100 GPU-hour job on one
 *   GPU, hourly checkpoints that cost nothing, exponential interruptions
 *   every 10 h on average with instant replacement.  Each hour of work
 *   takes (e^(lambda tau) - 1) / lambda of wall time on average (tau = 1 h,
 *   lambda = 1/10 h): 105.17 h in all.  The interruptions come from a
 *   test-side GSL exponential process calling fs_capacity_interrupt on a
 *   pool with the scheduler subscribed; mean of 100 replications within 2%.
 * - EASY backfill on a hand-made trace: exact start times; the job that
 *   would delay the head's reservation waits although GPUs are free.
 * - Priorities, span_instances, fallback_after, a spot notice with room
 *   for a checkpoint, and cost_allocation of a training pool. */
#include "check.h"
#include "simulate.h"
#include "sim/fleet/world/world.h"
#include "sim/fleet/training/training_impl.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* Writes text to a temporary CSV; its path into path (size 64). */
static int write_csv(char *path, const char *text)
{
    snprintf(path, 64, "/tmp/fleetsim-jobs-XXXXXX.csv");
    int fd = mkstemps(path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* ---- Interruptions driven from the test ---------------------------------- */

typedef struct interrupter {
    fs_capacity *cap;
    gsl_rng *rng;
    double mean_s, notice_s;
    long count;
} interrupter;

static void on_interrupt(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    interrupter *it = obj;
    for (int i = 0; i < it->cap->max; i++)
        if (it->cap->inst[i].state == FS_INSTANCE_UP) {
            fs_capacity_interrupt(it->cap, i, it->notice_s);
            it->count++;
            break;
        }
    /* instant replacement (provision_delay = 0s) */
    if (it->notice_s == 0)
        fs_capacity_launch(it->cap, 1);
    fs_engine_at(e, fs_engine_now(e) + gsl_ran_exponential(it->rng,
                                                           it->mean_s),
                 on_interrupt, it, 0);
}

static void on_replace(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    interrupter *it = obj;
    fs_capacity_launch(it->cap, 1);
}

/* Runs sc's world with interruptions every mean_s on average on pool 0;
 * the results in out. */
static int run_interrupted(const fs_scenario *sc, unsigned rep, double mean_s,
                           fs_results *out, long *count)
{
    fs_world w;
    fs_error err;
    fs_results_init(out);
    if (fs_world_init(&w, sc, rep, out, &err) || fs_world_start(&w)) {
        printf("  error: %s\n", err.msg);
        fs_world_free(&w);
        return -1;
    }
    interrupter it = {&w.pools[0].cap, gsl_rng_alloc(gsl_rng_mt19937),
                      mean_s, 0, 0};
    gsl_rng_set(it.rng, 1000 + rep);
    fs_engine_at(w.sim.engine, gsl_ran_exponential(it.rng, mean_s),
                 on_interrupt, &it, 0);
    int rc = fs_world_run(&w);
    if (rc)
        printf("  error: %s\n", err.msg);
    *count = it.count;
    gsl_rng_free(it.rng);
    fs_world_free(&w);
    return rc;
}

static void check_closed_form(void)
{
    char csv[64], text[1024];
    CHECK(write_csv(csv, "job_id,submit_s,gpus,duration_s\n"
                         "big,0,1,360000\n") == 0);
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 400h\nmetrics_interval = 1d\n"
             "[pool.spot]\ngpu = A100-80GB\nprice = 1.00\ncount = 1\n"
             "provision_delay = 0s\n"
             "[workload.ft]\nkind = training\npools = spot\n"
             "jobs = trace(%s, format=generic)\n"
             "checkpoint_interval = 1h\n", csv);
    fs_scenario *sc = check_load(text);
    CHECK(sc != NULL);
    if (!sc) {
        unlink(csv);
        return;
    }
    enum { REPS = 100 };
    double sum = 0, lost = 0;
    long n = 0, interruptions = 0, counted = 0;
    for (unsigned r = 0; r < REPS; r++) {
        fs_results out;
        long count = 0;
        if (run_interrupted(sc, r, 10 * 3600.0, &out, &count) == 0 &&
            out.njobs == 1 && !isnan(out.jobs[0].end_s)) {
            sum += out.jobs[0].end_s - out.jobs[0].submit_s;
            lost += out.jobs[0].lost_gpu_hours;
            interruptions += out.jobs[0].interruptions;
            n++;
        }
        counted += count;
        fs_results_free(&out);
    }
    CHECK(n == REPS);
    double lambda = 1.0 / 10, expect = 100 * (exp(lambda * 1) - 1) / lambda;
    double mean_h = sum / (double)n / 3600;
    printf("  mean wall time %.3f h (closed form %.3f h), %ld "
           "interruptions, %.1f GPU-h lost\n", mean_h, expect,
           interruptions, lost);
    CHECK_NEAR(mean_h, expect, 0.02 * expect);
    /* the wall time beyond the 100 h of work is the work lost */
    CHECK_NEAR(lost / (double)n, mean_h - 100, 1e-6);
    CHECK(interruptions > 0 && interruptions <= counted);
    fs_scenario_free(sc);
    unlink(csv);
}

/* ---- EASY backfill on a hand-made trace ---------------------------------- */

static const fs_job_row *job(const fs_results *r, const char *id)
{
    for (size_t i = 0; i < r->njobs; i++)
        if (strcmp(r->jobs[i].job_id, id) == 0)
            return &r->jobs[i];
    return NULL;
}

static int run_jobs(const char *jobs, const char *pools, const char *extra,
                    fs_results *out)
{
    char csv[64], text[2048];
    if (write_csv(csv, jobs))
        return -1;
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2d\nmetrics_interval = 1d\n%s"
             "[workload.t]\nkind = training\npools = %s\n"
             "jobs = trace(%s, format=generic)\n%s", pools,
             strstr(pools, "[pool.b]") ? "a, b" : "a", csv, extra);
    int rc = check_simulate(text, out);
    unlink(csv);
    return rc;
}

static void check_backfill(void)
{
    /* One instance of 6 GPUs.  a holds 3 until 10 h; b needs 5: the head,
     * reserved at 10 h, when 6 are free, one spare.  c (1 GPU, 30 h) takes
     * the spare; d (1 GPU, 30 h) would delay b: it waits although 2 GPUs
     * are free; e (2 GPUs, 8 h) ends at 10 h exactly: backfilled. */
    fs_results out;
    CHECK(run_jobs("job_id,submit_s,gpus,duration_s\n"
                   "a,0,3,36000\n"
                   "b,3600,5,18000\n"
                   "c,7200,1,108000\n"
                   "d,7200,1,108000\n"
                   "e,7200,2,28800\n",
                   "[pool.a]\ngpu = A100-80GB\ngpus_per_instance = 6\n"
                   "price = 6.00\ncount = 1\n", "", &out) == 0);
    const fs_job_row *a = job(&out, "a"), *b = job(&out, "b"),
                     *c = job(&out, "c"), *d = job(&out, "d"),
                     *e = job(&out, "e");
    CHECK(a && b && c && d && e);
    if (a && b && c && d && e) {
        CHECK(a->start_s == 0 && a->end_s == 36000);
        CHECK(b->start_s == 36000 && b->end_s == 54000);  /* as reserved */
        CHECK(c->start_s == 7200);
        CHECK(e->start_s == 7200 && e->end_s == 36000);
        CHECK(d->start_s == 54000);                       /* after b */
        CHECK(d->end_s == 54000 + 108000);
        CHECK(c->end_s == 7200 + 108000);
        CHECK(strcmp(c->status, "finished") == 0);
    }
    fs_results_free(&out);

    /* Priority: p (priority 5) submitted after q goes first when both
     * wait. */
    CHECK(run_jobs("job_id,submit_s,gpus,duration_s,deadline_s,priority\n"
                   "x,0,2,3600,,0\n"
                   "q,60,2,3600,7200,0\n"
                   "p,120,2,3600,7200,5\n",
                   "[pool.a]\ngpu = L4\ngpus_per_instance = 2\n"
                   "price = 2.00\ncount = 1\n", "", &out) == 0);
    const fs_job_row *p = job(&out, "p"), *q = job(&out, "q");
    CHECK(p && q);
    if (p && q) {
        CHECK(p->start_s == 3600 && q->start_s == 7200);
        CHECK(p->met_deadline == 1 && q->met_deadline == 0);
        /* its GPU-seconds at the pool's price: 2 GPUs x 1 h x $1/GPU-h */
        CHECK_NEAR(p->cost_usd, 2.0, 1e-9);
    }
    fs_results_free(&out);
}

/* span_instances: a 4-GPU job over two 2-GPU instances; fallback_after:
 * the second pool only after waiting 1 h. */
static void check_span_and_fallback(void)
{
    fs_results out;
    CHECK(run_jobs("job_id,submit_s,gpus,duration_s\n"
                   "wide,0,4,3600\n",
                   "[pool.a]\ngpu = L4\ngpus_per_instance = 2\n"
                   "price = 2.00\ncount = 2\n",
                   "span_instances = yes\n", &out) == 0);
    CHECK(out.njobs == 1 && out.jobs[0].start_s == 0 &&
          out.jobs[0].end_s == 3600);
    fs_results_free(&out);

    /* A spread head reserves the pool: b (4 GPUs over two 2-GPU
     * instances) waits for a at 10 h; c (2 GPUs, 20 h) would delay it
     * and waits although 2 GPUs are free; d (1 GPU, 8 h) ends by 10 h. */
    CHECK(run_jobs("job_id,submit_s,gpus,duration_s\n"
                   "a,0,2,36000\n"
                   "b,3600,4,3600\n"
                   "c,7200,2,72000\n"
                   "d,7200,1,28800\n",
                   "[pool.a]\ngpu = L4\ngpus_per_instance = 2\n"
                   "price = 2.00\ncount = 2\n",
                   "span_instances = yes\n", &out) == 0);
    const fs_job_row *b = job(&out, "b"), *c = job(&out, "c"),
                     *d = job(&out, "d");
    CHECK(b && c && d);
    if (b && c && d) {
        CHECK(b->start_s == 36000 && b->end_s == 39600);
        CHECK(d->start_s == 7200 && d->end_s == 36000);
        CHECK(c->start_s == 39600);
    }
    fs_results_free(&out);

    CHECK(run_jobs("job_id,submit_s,gpus,duration_s\n"
                   "one,0,1,36000\n"
                   "two,0,1,3600\n",
                   "[pool.a]\ngpu = L4\nprice = 1.00\ncount = 1\n"
                   "[pool.b]\ngpu = L4\nprice = 3.00\ncount = 1\n",
                   "fallback_after = 1h\n", &out) == 0);
    const fs_job_row *two = job(&out, "two");
    CHECK(two && two->start_s == 3600 && two->end_s == 7200);
    /* cost_allocation: pool b's 2 days billed; "t" used one GPU-hour */
    int found = 0;
    for (size_t i = 0; i < out.nallocs; i++)
        if (strcmp(out.allocs[i].pool, "b") == 0 &&
            strcmp(out.allocs[i].workload, "t") == 0) {
            found = 1;
            CHECK_NEAR(out.allocs[i].gpu_hours, 1.0, 1e-9);
            CHECK_NEAR(out.allocs[i].cost_usd, 3.0, 1e-9);
        }
    CHECK(found);
    fs_results_free(&out);
}

/* A spot notice of 2 min with a 1 min checkpoint: the work done so far is
 * saved; nothing is lost (the interruption still counts); the job
 * restarts on the replacement. */
static void check_notice_checkpoint(void)
{
    char csv[64], text[1024];
    CHECK(write_csv(csv, "job_id,submit_s,gpus,duration_s\n"
                         "j,0,1,36000\n") == 0);
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2d\nmetrics_interval = 1d\n"
             "[pool.spot]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "provision_delay = 0s\n"
             "[workload.ft]\nkind = training\npools = spot\n"
             "jobs = trace(%s, format=generic)\n"
             "checkpoint_interval = 4h\ncheckpoint_cost = 1m\n"
             "restore_cost = 5m\n", csv);
    fs_scenario *sc = check_load(text);
    fs_results out;
    fs_results_init(&out);
    fs_world w;
    fs_error err;
    CHECK(sc && fs_world_init(&w, sc, 0, &out, &err) == 0 &&
          fs_world_start(&w) == 0);
    if (sc) {
        fs_capacity *cap = &w.pools[0].cap;
        fs_engine_run(w.sim.engine, 5400);          /* 1.5 h of work */
        CHECK(fs_capacity_interrupt(cap, 0, 120) == 0);
        interrupter it = {cap, NULL, 0, 120, 0};
        fs_engine_at(w.sim.engine, 5400 + 120, on_replace, &it, 0);
        CHECK(fs_world_run(&w) == 0);
        CHECK(out.njobs == 1);
        if (out.njobs == 1) {
            const fs_job_row *j = &out.jobs[0];
            CHECK(j->interruptions == 1 && j->lost_gpu_hours == 0);
            /* 1.5 h + 1 min checkpoint; at 1.5 h + 2 min on the new
             * instance: 5 min restore, 8.5 h left with two 1 min
             * checkpoints (after 4 h and 8 h of work) */
            double expect = 5400 + 120 + 300 + 30600 + 2 * 60;
            CHECK_NEAR(j->end_s, expect, 1e-6);
        }
        fs_world_free(&w);
    }
    fs_results_free(&out);
    fs_scenario_free(sc);
    unlink(csv);
}

static void on_fixed_interrupt(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_capacity *cap = obj;
    CHECK(fs_capacity_interrupt(cap, 0, 0) == 0);
    CHECK(fs_capacity_launch(cap, 1) == 1);
}

/* Interruptions at 5 h and 10.5 h of a 20 h job with hourly checkpoints of
 * 72 s: it saves 4 h by 4 x 3672 s, loses 3312 s; saves 5 more hours by
 * 37800 - 1440, loses 1440 s; then 11 h and 10 checkpoints: ends at
 * 37800 + 39600 + 720 = 78120 s, 1.32 GPU-hours lost.  The note gives
 * the Young/Daly interval sqrt(2 x 72 s x MTBF), MTBF = 78120 s / 2. */
static void check_young_daly(void)
{
    char csv[64], text[1024];
    CHECK(write_csv(csv, "job_id,submit_s,gpus,duration_s\n"
                         "j,0,1,72000\n") == 0);
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2d\nmetrics_interval = 1d\n"
             "[pool.spot]\ngpu = L4\nprice = 1.00\ncount = 1\n"
             "provision_delay = 0s\n"
             "[workload.ft]\nkind = training\npools = spot\n"
             "jobs = trace(%s, format=generic)\n"
             "checkpoint_interval = 1h\ncheckpoint_cost = 72s\n", csv);
    fs_scenario *sc = check_load(text);
    fs_results out;
    fs_results_init(&out);
    fs_world w;
    fs_error err;
    CHECK(sc && fs_world_init(&w, sc, 0, &out, &err) == 0 &&
          fs_world_start(&w) == 0);
    if (sc) {
        fs_engine_at(w.sim.engine, 18000, on_fixed_interrupt,
                     &w.pools[0].cap, 0);
        fs_engine_at(w.sim.engine, 37800, on_fixed_interrupt,
                     &w.pools[0].cap, 0);
        CHECK(fs_world_run(&w) == 0);
        CHECK(out.njobs == 1);
        if (out.njobs == 1) {
            CHECK_NEAR(out.jobs[0].end_s, 78120, 1e-6);
            CHECK_NEAR(out.jobs[0].lost_gpu_hours, 1.32, 1e-9);
            CHECK(out.jobs[0].interruptions == 2);
        }
        char m[32], y[32], want[256];
        fs_format_duration(78120 / 2.0, m, sizeof m);
        fs_format_duration(sqrt(72 * 78120.0), y, sizeof y);
        snprintf(want, sizeof want, "ft: 2 interruptions, MTBF %s; "
                 "Young/Daly checkpoint interval sqrt(2 x checkpoint_cost "
                 "x MTBF) = %s (checkpoint_interval = 1h)", m, y);
        int found = 0;
        for (int i = 0; i < out.nnotes; i++)
            found |= strcmp(out.notes[i], want) == 0;
        CHECK(found);
        if (!found)
            printf("     want: %s\n     note: %s\n", want,
                   out.nnotes > 1 ? out.notes[1] : "(none)");
        fs_world_free(&w);
    }
    fs_results_free(&out);
    fs_scenario_free(sc);
    unlink(csv);
}

/* What a job costs in memory while a run holds it stays within the
 * documented FS_JOBS_BYTES: its record, the scheduler's state, a queue and
 * a running slot, and its result row. */
static void check_job_cost(void)
{
    size_t bytes = sizeof(fs_job_spec) + sizeof(fs_train_job) +
                   2 * sizeof(fs_train_job *) + sizeof(fs_job_row);
    printf("  a job holds %zu bytes (documented: at most %d)\n", bytes,
           FS_JOBS_BYTES);
    CHECK(bytes <= FS_JOBS_BYTES);
    CHECK(bytes * 2 > FS_JOBS_BYTES);   /* and the figure is not loose */
}

int main(void)
{
    check_job_cost();
    check_young_daly();
    check_closed_form();
    check_backfill();
    check_span_and_fallback();
    check_notice_checkpoint();
    return check_report("training");
}
