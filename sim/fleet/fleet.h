/* fleet.h -- the simulated world: pools of instances whose servers serve
 * the queues of inference workloads.
 *
 * Internal to the simulator (sim.c builds it from a scenario, fleet.c runs
 * instances and billing, serve.c moves requests, autoscale.c resizes
 * pools).  All arrays are sized when the world is built, so serving a
 * request allocates nothing. */
#ifndef FS_FLEET_H
#define FS_FLEET_H

#include <gsl/gsl_rng.h>
#include "sim/engine/engine.h"
#include "sim/base/histogram.h"
#include "sim/fleet/queue.h"
#include "sim/fleet/results.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/slots.h"
#include "models/billing.h"
#include "traces/arrivals.h"

typedef struct fs_pool fs_pool;
typedef struct fs_workload fs_workload;
typedef struct fs_sim fs_sim;

typedef enum fs_server_state {
    FS_SERVER_OFF,         /* its instance is not up */
    FS_SERVER_IDLE,
    FS_SERVER_COLLECTING,  /* holding a partial batch until it fills or times out */
    FS_SERVER_BUSY,
} fs_server_state;

typedef struct fs_server {
    fs_pool *pool;
    int instance;          /* index in pool->inst */
    fs_server_state state;
    int idle_pos;          /* index in pool->idle, -1 when not idle */
    fs_workload *wl;       /* workload of the batch held or running */
    int nbatch;
    fs_request *batch;     /* pool->batch_cap slots */
    fs_event_handle timer; /* batch deadline while collecting */
} fs_server;

typedef enum fs_instance_state {
    FS_INSTANCE_FREE,          /* slot not in use */
    FS_INSTANCE_PROVISIONING,
    FS_INSTANCE_UP,
    FS_INSTANCE_DRAINING,      /* finishing its batches, then terminated */
} fs_instance_state;

typedef struct fs_instance {
    fs_instance_state state;
    double launched;
    int busy;                  /* servers collecting or busy */
    fs_event_handle ready;
} fs_instance;

struct fs_pool {
    const fs_pool_conf *conf;
    fs_sim *sim;
    int servers_per_instance;
    int max_instances;
    fs_instance *inst;
    fs_slots free_slots;       /* of inst: a launch takes the lowest */
    fs_server *servers;        /* max_instances * servers_per_instance */
    fs_request *batch_store;
    int batch_cap;
    int *idle;                 /* stack of idle server indices */
    int nidle;
    fs_workload *wls[16];      /* workloads this pool serves */
    int nwls;
    int launched, up;          /* instances launched (not terminated), up */
    int draining;
    int busy_servers;
    /* time integrals, advanced by fs_pool_account */
    double last_t;
    double area_up, area_gpus, area_busy;
    double sample_up, sample_gpus, sample_busy, sample_t;  /* at last sample */
    double scale_busy, scale_gpus_up, last_scale_in;     /* autoscaler */
    double scale_queued;       /* GPU-seconds queued for it, at the last tick */
    long *wanted;              /* recent desired counts (stabilization) */
    int nwanted, wanted_pos;
    double area_gpus_up;       /* GPU-seconds of instances up */
    long launches;
    fs_meter meter;
};

struct fs_workload {
    const fs_workload_conf *conf;
    fs_sim *sim;
    fs_arrivals *arrivals;
    gsl_rng *arrival_rng, *service_rng;
    fs_arrival next;
    fs_queue queue;
    fs_pool *pools[FS_MAX_POOLS_PER_WORKLOAD];
    double speed[FS_MAX_POOLS_PER_WORKLOAD];   /* demand multiplier per pool */
    int npools;
    fs_server *collecting;
    fs_hist latency;
    double wait_sum;
    long arrived, completed, dropped, slo_met;
    long batches;              /* batches completed (mean batch size) */
};

struct fs_sim {
    const fs_scenario *sc;
    fs_engine *engine;
    fs_calendar cal;
    fs_pool *pools;
    size_t npools;
    fs_workload *workloads;
    size_t nworkloads;
    fs_results *out;
    fs_error *err;
    int failed;
};

/* fleet.c: instances, accounting and billing */
int fs_pool_init(fs_pool *p, fs_sim *sim, const fs_pool_conf *conf);
void fs_pool_free(fs_pool *p);
void fs_pool_account(fs_pool *p, double now);
void fs_pool_start(fs_pool *p);            /* the instances up at t = 0 */
int fs_pool_launch(fs_pool *p);            /* one more instance, provisioning */
void fs_pool_shrink(fs_pool *p, int n);    /* n fewer, idle ones first */
void fs_pool_finish(fs_pool *p);           /* bill everything to the horizon */
void fs_pool_idle_push(fs_pool *p, fs_server *s);
fs_server *fs_pool_idle_pop(fs_pool *p);
void fs_pool_server_taken(fs_pool *p, fs_server *s);     /* idle -> working */
void fs_pool_server_released(fs_pool *p, fs_server *s);  /* working -> idle/off */
void fs_pool_set_busy(fs_pool *p, fs_server *s, int busy);

/* serve.c: arrivals, batching, completions */
int fs_workload_init(fs_workload *w, fs_sim *sim, const fs_workload_conf *conf,
                     unsigned replication, fs_error *err);
void fs_workload_free(fs_workload *w);
int fs_workload_start(fs_workload *w);     /* schedules the first arrival */
void fs_server_seek_work(fs_server *s);    /* an idle server looks for work */
long fs_workload_unfinished(const fs_workload *w);

/* autoscale.c */
void fs_autoscale_start(fs_pool *p);

/* Marks the run failed with a message and stops the engine. */
void fs_sim_fail(fs_sim *sim);

#endif
