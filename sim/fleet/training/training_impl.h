/* training_impl.h -- what the files of the training scheduler share:
 * training.c (the queue, placement and EASY backfill), training_job.c (a
 * job's run: restore, compute, checkpoint, interruption) and
 * training_collect.c (job rows, notes, busy time for cost_allocation),
 * training_queue.c (the queue and the kick that schedules a pass).
 * Not for other modules: they use training.h. */
#ifndef FS_TRAINING_IMPL_H
#define FS_TRAINING_IMPL_H

#include "sim/fleet/training/training.h"
#include "sim/fleet/serve/shape.h"

typedef enum fs_job_state {
    FS_JOB_PENDING,        /* not submitted yet */
    FS_JOB_QUEUED,
    FS_JOB_RUNNING,
    FS_JOB_DONE,
    FS_JOB_REJECTED,
} fs_job_state;

typedef enum fs_job_phase {
    FS_PHASE_RESTORE,      /* loading its checkpoint after a restart */
    FS_PHASE_COMPUTE,      /* making progress */
    FS_PHASE_CHECKPOINT,   /* saving; no progress */
} fs_job_phase;

typedef struct fs_train_part {
    int inst;              /* slot in its pool's capacity */
    int milli;             /* thousandths of a GPU it holds there */
} fs_train_part;

typedef struct fs_trainer fs_trainer;

typedef struct fs_train_job {
    const fs_job_spec *spec;
    fs_trainer *wl;
    fs_job_state state;
    long seq;              /* submit order: its place among equal priorities */
    double queued_since;   /* for fallback_after */
    fs_event_handle wake;  /* next fallback step */
    /* while running */
    int pool_k;            /* index in wl->pools */
    fs_train_part *parts;  /* &one, or heap when it spans instances */
    int nparts;
    fs_train_part one;
    fs_train_part *heap;   /* kept from run to run: no allocation per */
    int heap_cap;          /* placement once it is large enough */
    fs_server_shape shape; /* its busy GPUs, for the pool's usage */
    fs_job_phase phase;
    double phase_t0, phase_end;
    double seg_work;       /* work of the segment computed or being saved */
    int last_seg;          /* the segment ends the job */
    int stopping;          /* checkpointing before an interruption */
    double run_t0;         /* placed at */
    double safe_t;         /* its state was last saved (or it was placed) */
    fs_event_handle ev;
    /* progress and results */
    double saved;          /* work saved by checkpoints */
    int restarts;
    long interruptions;
    double start_s, end_s, gpu_s, lost_gpu_s, cost_usd;
    char reject[96];
} fs_train_job;

struct fs_trainer {
    const fs_workload_conf *conf;
    fs_training *sched;
    fs_train_pool *pools[FS_MAX_POOLS_PER_WORKLOAD];
    int npools;
    fs_train_job *jobs;
    size_t njobs, next_submit;
    double *busy;          /* [k * nmonths + m]: GPU-seconds, pool k of its
                              list, calendar month m */
    long interruptions;
    double exposed_s;      /* job-seconds on instances: for the MTBF */
    double *saves;         /* [k * nmonths + m]: checkpoints written and */
    double *restores;      /* restores read, pool k, calendar month m */
};

struct fs_training {
    fs_sim *sim;
    fs_trainer *wls;
    size_t nwls;
    fs_train_job **queue;  /* by priority, then seq */
    size_t nqueue, queue_cap;
    fs_train_job **running;
    size_t nrunning, running_cap;
    long seq;
    int kick_pending;
    fs_handler pass;       /* the scheduling pass (training.c's on_pass):
                              kick schedules it */
    /* Scratch arrays of the scheduling passes, grown and kept: a pass
     * allocates nothing once they are large enough. */
    struct fs_train_release *rel;
    size_t rel_cap;
    fs_train_part *spread;
    size_t spread_cap;
};

/* training_queue.c */
/* A scheduling pass soon (an event now: never inside a capacity handler). */
void fs_train_kick(fs_training *t);
int fs_train_enqueue(fs_training *t, fs_train_job *j);
/* fallback_after: the pools of its list a job may take now. */
int fs_train_allowed_pools(const fs_train_job *j, double now);

/* training_job.c */
/* Seconds job j still needs to finish from now if nothing interrupts it
 * (a queued job: its restore and the rest of its work). */
double fs_train_time_left(const fs_train_job *j, double now);
/* j starts on pool k with its parts (taken from the caller's array). */
int fs_train_run(fs_train_job *j, int k, const fs_train_part *parts,
                 int nparts);
/* Instance inst of tp: a spot notice, or an interruption. */
void fs_train_notice(fs_train_pool *tp, int inst);
void fs_train_interrupted(fs_train_pool *tp, int inst);
/* Busy time of running job j to t into its results and its workload's
 * month rows (at the horizon). */
void fs_train_account(fs_train_job *j, double t0, double t);

/* training_storage.c */
/* One more of a job's checkpoints written, or restored, now (counted by
 * its pool and month for the storage and transfer lines). */
void fs_train_count(fs_train_job *j, double *per_pool_month);
/* The workloads' checkpoint storage and transfer cost rows. */
int fs_training_storage_rows(fs_training *t);

#endif
