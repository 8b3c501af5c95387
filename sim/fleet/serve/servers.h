/* servers.h -- the servers of one pool: their states and the idle stack.
 *
 * The family sim/fleet/serve/ (above run/ and capacity/): serving
 * requests: server shapes (shape.h), the servers of a pool (this file),
 * time-slicing and MPS (sharing.h), the usage integrals (usage.h),
 * dispatch and batching (dispatch.h, with its queue and the FIFO
 * recursion) and the continuous batching of LLM replicas (llm_server.h), a
 * discipline of dispatch that shares its workload.
 *
 * Each instance slot of a pool owns fs_shape_per_instance servers, all
 * made when the world is built (with room for a batch each), so serving a
 * request allocates nothing.  A server is off while its instance is not
 * up, idle (on the idle stack) while it waits for work, and collecting or
 * busy while it holds a batch; a server holding a batch holds its
 * instance (fs_capacity_hold), so a draining instance waits for it.
 * Dispatch (dispatch.h) moves requests; this file keeps the books. */
#ifndef FS_SERVERS_H
#define FS_SERVERS_H

#include <assert.h>
#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/queue.h"
#include "sim/fleet/serve/shape.h"
#include "sim/fleet/run/sim.h"
#include "sim/fleet/serve/usage.h"

typedef struct fs_servers fs_servers;
typedef struct fs_workload fs_workload;
typedef struct fs_server fs_server;
typedef struct fs_llm_run fs_llm_run;

/* How a pool's servers schedule their requests: the server discipline.
 * Dispatch (dispatch.c) queues requests and finds servers; a discipline
 * decides what a server does with them.  Two exist, registered in
 * dispatch.c and chosen by the pool's workloads' service model
 * (fs_service_model.server): "batch", lockstep batches of up to batch_max
 * (dispatch.c), and "continuous", iteration-level continuous batching of
 * an LLM (llm_server.c). */
typedef struct fs_server_discipline {
    const char *name;
    /* Requests dispatch moves from w's queue into s->batch when s, idle,
     * takes work. */
    int (*take)(const fs_server *s, const fs_workload *w);
    /* s (taken, s->wl set, s->batch[0..nbatch) filled) starts working. */
    void (*start)(fs_server *s);
    /* s's instance was taken (spot): its requests go back to the head of
     * their queue, counted as retried; the seconds of work lost are added
     * to s->pool->lost_last. */
    void (*lose)(fs_server *s, double now);
    /* Requests a busy server counts as in service for queue(target=N)
     * autoscaling: its batch as one (batch), each running request
     * (continuous).  NULL: one. */
    long (*in_service)(const fs_server *s);
    /* Frees what the discipline made for p's servers (fs_servers_free
     * calls it).  NULL: nothing. */
    void (*free_servers)(fs_servers *p);
} fs_server_discipline;
typedef struct fs_sharing fs_sharing;

/* Workloads one pool may serve. */
#define FS_MAX_WORKLOADS_PER_POOL 16

typedef enum fs_server_state {
    FS_SERVER_OFF,         /* its instance is not up (or drains) */
    FS_SERVER_IDLE,
    FS_SERVER_COLLECTING,  /* holding a partial batch until it fills or
                              times out */
    FS_SERVER_BUSY,
} fs_server_state;

struct fs_server {
    fs_servers *pool;
    int instance;          /* slot in the pool's capacity */
    const fs_server_shape *shape;
    fs_server_state state;
    int idle_pos;          /* index in pool->idle, -1 when not idle */
    fs_workload *wl;       /* workload of the batch held or running */
    int nbatch;
    fs_request *batch;     /* pool->batch_cap slots */
    fs_event_handle timer; /* batch deadline while collecting, its
                              completion while busy */
    double busy_since;     /* when its running batch started */
    int busy_k;            /* that batch's workload, index in pool->wls */
    fs_llm_run *llm;       /* continuous batching: its running requests
                              (llm_server.c); NULL for batch servers */
    const void *hosts;     /* the LLM model it hosts on a pool shared by
                              several (llm_placement.c); NULL: any */
};

/* The fields a request's dispatch and completion read come first, side
 * by side (with a thousand pools each line is cold), the shapes of a cut
 * or shared GPU and the tallies read at the end after them. */
struct fs_servers {
    const fs_pool_conf *conf;
    fs_sim *sim;
    fs_capacity *cap;          /* the instances they run on */
    fs_usage *usage;           /* told when a server is busy */
    fs_server *servers;
    int *idle;                 /* stack of idle server indices */
    int nidle;
    int nwls;
    int per_instance;
    fs_pool_role role;         /* conf->role, read on every dispatch */
    const fs_server_discipline *disc;   /* set by the first workload that
                                           binds to the pool (dispatch.c) */
    /* A server of a discipline that finishes on its own (continuous) ran
     * dry: dispatch's fs_dispatch_done, set with disc, so that the
     * discipline calls down, never up into dispatch. */
    void (*done)(fs_server *s);
    /* Busy GPU-seconds per workload served and calendar month, for
     * cost_allocation: wl_busy[k * nmonths + m], made at build so that
     * accounting a batch allocates nothing; then, from row
     * FS_MAX_WORKLOADS_PER_POOL, the same per MIG slot (a slice's idle
     * share, allocate.c). */
    double *wl_busy;
    size_t nmonths;
    size_t month_hint;         /* the month fs_servers_account last found */
    long placed;               /* several models (llm_placement.c): the
                                  replicas placed at the start; 0: none */
    fs_workload *wls[FS_MAX_WORKLOADS_PER_POOL];   /* workloads it serves */
    fs_server_shape shape;     /* every server's, unless shapes[] is used */
    int nshapes;
    fs_sharing *sharing;
    size_t nservers;           /* cap->max * per_instance */
    fs_request *batch_store;
    int batch_cap;             /* the largest batch_max of its workloads */
    /* Spot interruptions (dispatch.c): requests requeued, and the service
     * seconds lost, in all and at the last interruption. */
    long retried;
    double lost_s, lost_last;
    void *llm_store;           /* continuous batching: every server's
                                  running requests, made once */
    /* Tokens served on the pool (continuous batching): prompt tokens of
     * the requests completed (on a prefill pool, also of those it handed
     * to the decode pool, llm_disagg.h), and their output tokens. */
    double tokens_in, tokens_out;
    double tokens_cached;      /* of tokens_in, found in prefix caches */
    /* A pool whose GPUs are cut (mig) or shared: the shapes of each GPU's
     * servers (fs_shape_of_gpu), their busy seconds, and the processor
     * sharing of a shared GPU's replicas (sharing.c); nshapes 0 and
     * sharing NULL otherwise. */
    fs_server_shape shapes[FS_SHAPES_PER_GPU];
    double slot_busy_s[FS_SHAPES_PER_GPU];
};

/* Servers for every slot of cap, shaped as conf says, with batches of up
 * to batch_cap requests.  -1 when out of memory (fs_servers_free is still
 * safe). */
int fs_servers_init(fs_servers *p, fs_sim *sim, const fs_pool_conf *conf,
                    fs_capacity *cap, fs_usage *usage, int batch_cap);
void fs_servers_free(fs_servers *p);

/* The first of instance inst's per_instance servers. */
static inline fs_server *fs_servers_of(fs_servers *p, int inst)
{
    return &p->servers[(size_t)inst * (size_t)p->per_instance];
}

/* The idle stack's push, and the hold taken and let go with every request
 * (fs_servers_taken, fs_servers_released), are inline: the event path
 * runs them once per request. */
static inline void fs_servers_idle_push(fs_servers *p, fs_server *s)
{
    assert(s->idle_pos < 0 && s->state == FS_SERVER_IDLE);
    s->idle_pos = p->nidle;
    p->idle[p->nidle++] = (int)(s - p->servers);
}
/* The most recently idle server of MIG profile profile ("": any) that
 * hosts model (llm_placement.c; NULL: a workload of no LLM): the top of
 * the stack inline when any will do (every arrival asks). */
fs_server *fs_servers_idle_find(fs_servers *p, const char *profile,
                                const void *model);
static inline fs_server *fs_servers_idle_pop_for(fs_servers *p,
                                                 const char *profile,
                                                 const void *model)
{
    if (profile[0] || p->placed)
        return fs_servers_idle_find(p, profile, model);
    if (p->nidle == 0)
        return NULL;
    fs_server *s = &p->servers[p->idle[--p->nidle]];
    assert(s->state == FS_SERVER_IDLE);
    s->idle_pos = -1;
    return s;
}
/* s may run work of a workload with this mig_profile ("": any) and
 * model. */
int fs_server_takes(const fs_server *s, const char *profile,
                    const void *model);
/* s (busy) runs its batch for t seconds alone: its completion event
 * (done(engine, s, 0)), or the processor sharing's on a shared GPU. */
fs_event_handle fs_servers_run(fs_servers *p, fs_server *s, double t,
                               fs_handler done);
/* Adds gpus x (t1 - t0) busy GPU-seconds to workload p->wls[k], split at
 * month boundaries (the sharing's accounting uses it too).  A stretch
 * inside the month last found, nearly every one (a batch is seconds, a
 * month 2.6 million), is added inline: the sum fs_servers_account_any
 * would make (servers_account.c), without its calls, once per request. */
void fs_servers_account_any(fs_servers *p, int k, double t0, double t1,
                            double gpus);
static inline void fs_servers_account(fs_servers *p, int k, double t0,
                                      double t1, double gpus)
{
    const fs_calendar *cal = &p->sim->cal;
    size_t m = p->month_hint;
    if (k >= 0 && t1 > t0 && m < cal->nmonths && t0 >= cal->bound[m] &&
        t1 < cal->bound[m + 1]) {
        p->wl_busy[(size_t)k * p->nmonths + m] += (t1 - t0) * gpus;
        return;
    }
    fs_servers_account_any(p, k, t0, t1, gpus);
}
/* Takes s off the idle stack, wherever it is (no-op when not on it). */
void fs_servers_idle_remove(fs_servers *p, fs_server *s);

/* s (idle, off the stack) takes a batch: it holds its instance. */
static inline void fs_servers_taken(fs_servers *p, fs_server *s)
{
    assert(s->state == FS_SERVER_IDLE && s->idle_pos < 0);
    fs_capacity_hold(p->cap, s->instance);
}
/* s is done with its batch: idle again, or off when its instance drains
 * (which may terminate the instance). */
static inline void fs_servers_released(fs_servers *p, fs_server *s)
{
    /* Off before the hold goes: a draining instance may terminate on it. */
    s->state = fs_capacity_takes_work(p->cap, s->instance) ? FS_SERVER_IDLE
                                                           : FS_SERVER_OFF;
    fs_capacity_unhold(p->cap, s->instance);
}
/* s starts (busy = 1) or stops running a batch: busy GPU accounting.
 * Inline for a pool of whole, unshared servers (twice per request);
 * fs_servers_set_busy_any for every pool (servers.c). */
void fs_servers_set_busy_any(fs_servers *p, fs_server *s, int busy);
/* s starts a batch of its workload now: from when, and which of p's
 * workloads its busy time goes to (-1: none of them). */
static inline void fs_servers_busy_from(fs_servers *p, fs_server *s,
                                        double now)
{
    s->busy_since = now;
    s->busy_k = -1;
    for (int k = 0; k < p->nwls; k++)
        if (p->wls[k] == s->wl)
            s->busy_k = k;
}
static inline void fs_servers_set_busy(fs_servers *p, fs_server *s,
                                       int busy)
{
    if ((s->state == FS_SERVER_BUSY) == busy)
        return;
    if (p->sharing || p->nshapes) {
        fs_servers_set_busy_any(p, s, busy);
        return;
    }
    double now = fs_engine_now(p->sim->engine);
    fs_usage_busy(p->usage, now, s->shape, busy);
    if (!busy) {
        fs_servers_account(p, s->busy_k, s->busy_since, now,
                           fs_shape_busy_gpus(s->shape));
        return;
    }
    fs_servers_busy_from(p, s, now);
}
/* The batches still running at the horizon: their busy time to it. */
void fs_servers_finish(fs_servers *p, double horizon);
/* Busy GPU-seconds of workload p->wls[k] in month m. */
static inline double fs_servers_wl_busy(const fs_servers *p, int k, size_t m)
{
    return p->wl_busy[(size_t)k * p->nmonths + m];
}

/* Busy GPU-seconds (seconds x its compute share) of MIG slot `slot` of
 * every GPU of the pool in calendar month m. */
static inline double fs_servers_slot_busy(const fs_servers *p, int slot,
                                          size_t m)
{
    return fs_servers_wl_busy(p, FS_MAX_WORKLOADS_PER_POOL + slot, m);
}

#endif
