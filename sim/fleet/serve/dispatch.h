/* dispatch.h -- inference workloads: their queues, and how requests reach
 * servers.
 *
 * A workload pulls arrivals from its stream, queues them FIFO and hands
 * them to the servers of its pools, in its preference order; servers that
 * fall idle take the oldest waiting request among their pool's workloads
 * (dispatch.c).  Dispatch learns which servers exist by subscribing to
 * each pool's capacity (fs_dispatch_listener), its first subscriber. */
#ifndef FS_DISPATCH_H
#define FS_DISPATCH_H

#include <gsl/gsl_rng.h>
#include "sim/base/histogram.h"
#include "sim/fleet/serve/fifo_recursion.h"
#include "sim/fleet/serve/servers.h"
#include "traces/arrivals.h"
#include "models/llm/llm.h"
#include "sim/fleet/serve/llm_prefix.h"
#include "sim/fleet/serve/llm_session.h"
#include "sim/fleet/serve/llm_disagg.h"

/* What an LLM workload measures beyond latency (continuous batching,
 * llm_server.c): time to first token, time per output token after the
 * first, their objectives, tokens, iterations and KV-cache preemptions. */
typedef struct fs_llm_stats {
    fs_hist ttft, tpot;
    long ttft_met, tpot_met, tpot_n;   /* measured requests within the
                                          objectives; those with a TPOT */
    double tokens_in, tokens_out;      /* of every completed request */
    double tokens_cached;              /* of them, prompt tokens found in
                                          the prefix cache */
    long preempted;                    /* KV cache full mid-decode */
    long too_long;                     /* dropped: in+out tokens exceed the
                                          KV cache of a whole replica */
    long over_context;                 /* dropped: in+out tokens exceed the
                                          model's max_context */
    long iterations;
    double running_sum;                /* requests running, summed over
                                          iterations (mean batch size) */
    long spec_steps;                   /* spec =: decoding requests' steps */
    double spec_tokens;                /* and the tokens they emitted */
} fs_llm_stats;

typedef struct fs_spec_run fs_spec_run;
typedef struct fs_lora_run fs_lora_run;

/* The fields every arrival and completion reads come first, side by side
 * (a few cache lines, not one per field: with a thousand workloads each
 * is cold), the set-up and LLM state after them. */
struct fs_workload {
    const fs_workload_conf *conf;
    fs_sim *sim;
    fs_arrivals *arrivals;
    gsl_rng *arrival_rng, *service_rng;
    fs_arrival next;
    int lane;               /* the engine lane of its next arrival, or -1 */
    int npools;
    fs_handler on_arrive;   /* its arrivals' handler: through the queue and
                               the servers, or by the recursion */
    fs_server *collecting;
    /* prefix caching on one of its pools: its requests' prefixes
     * (llm_prefix.h), drawn from their own stream; NULL otherwise */
    fs_prefix_store *prefix;
    /* sessions = turns(...): its open sessions (llm_session.h), drawn
     * from their own stream; NULL otherwise */
    fs_session_set *sessions;
    /* adapters = (LoRA, llm_adapter.h): its adapters' stream, popularity
     * and counters; NULL otherwise */
    fs_lora_run *lora;
    /* conf's, read on every arrival or completion (the conf's lines are
     * cold with many workloads); mig_profile a shared "" when it has none */
    const char *mig_profile;
    double slo_s;
    long batch_max, queue_max;
    fs_queue queue;
    long arrived, completed, slo_met;
    /* warmup > 0: requests that arrived after it, which alone count in
     * latency, wait and SLO figures (latency and slo_met hold only them) */
    long measured, measured_started;
    long batches;              /* batches completed (mean batch size) */
    double wait_sum;
    long dropped;
    long dropped_full;         /* of dropped: arrived to a full queue */
    fs_servers *pools[FS_MAX_POOLS_PER_WORKLOAD];   /* preference order */
    double speed[FS_MAX_POOLS_PER_WORKLOAD];   /* demand multiplier per pool */
    fs_hist latency;
    fs_hist wait;              /* arrival to start of service, of the
                                  requests that finished */
    long retried;              /* requests requeued by interruptions */
    double growth;          /* this replication's growth a month: the
                               rate drawn for `growth = G ± S`, else G */
    int fifo_applies;       /* fs_fifo_applies, decided once per world
                               (world.c) */
    fs_fifo fifo;           /* the recursion, when it serves the workload
                               (fs_workload_use_fifo); n = 0 otherwise */
    long late;              /* served by the recursion: requests that end
                               at or after the horizon */
    /* service = llm(...): its replica on each pool (pools[k]), and what it
     * measures; llm.ttft.h is NULL for other workloads */
    fs_llm_perf perf[FS_MAX_POOLS_PER_WORKLOAD];
    fs_llm_stats llm;
    gsl_rng *prefix_rng;
    /* spec = (speculative decoding): its stream and proposers
     * (llm_spec.h); NULL otherwise */
    fs_spec_run *spec;
    gsl_rng *session_rng;
    /* disaggregated prefill and decode (llm_disagg.h): the requests whose
     * KV cache reached the decode pool, waiting for a decode replica, and
     * the transfers' state; empty and NULL otherwise */
    fs_queue kv_queue;
    fs_llm_disagg *disagg;
};

/* The LLM model w serves (a server hosting it may take its requests:
 * llm_placement.c), NULL for other workloads. */
static inline const void *fs_workload_model(const fs_workload *w)
{
    return w->conf->service.model->server ? w->conf->service.llm.model
                                           : NULL;
}

/* The queue pool p's servers take w's requests from: on a decode pool the
 * KV caches that arrived (llm_disagg.c), else the arrivals. */
static inline fs_queue *fs_workload_queue_of(fs_workload *w,
                                             const fs_servers *p)
{
    return p->role == FS_ROLE_DECODE ? &w->kv_queue : &w->queue;
}

/* Subscribe it to a pool's capacity with ctx = the pool's fs_servers. */
extern const fs_capacity_listener fs_dispatch_listener;

/* Builds workload c: its streams, and its place in the servers of its
 * pools (pools[i] is the servers of the scenario's pool i).  -1 with a
 * file:line message in err. */
int fs_workload_init(fs_workload *w, fs_sim *sim, const fs_workload_conf *c,
                     fs_servers *const *pools, unsigned replication,
                     fs_error *err);
void fs_workload_free(fs_workload *w);
/* Schedules the first arrival; -1 when the run failed. */
int fs_workload_start(fs_workload *w);
/* Pulls w's next arrival from its stream into w->next: 1, 0 when the
 * stream has ended, -1 when the run failed (marked so). */
int fs_workload_pull(fs_workload *w);
/* Schedules the arrival in w->next (w->on_arrive, in w's lane). */
void fs_workload_schedule(fs_workload *w);
/* Both: pulls w's next arrival and schedules it. */
void fs_workload_schedule_next(fs_workload *w);
/* Runs w's arrival due now, its handler's work, through serve (-1 when
 * the run failed), then pulls the next.  Nothing but w's own events reads
 * w until the next pending event (a completion, a metrics sample), so an
 * arrival before it runs at once, counted as an event
 * (fs_engine_run_ahead); the first at or after it is scheduled.  The
 * order of events, and so every result, is the loop's: only the trips
 * through it are saved.  Inline, so that serve is compiled in. */
static inline void fs_workload_arrivals(fs_engine *e, fs_workload *w,
                                        int (*serve)(fs_workload *w))
{
    do {
        if (serve(w) || fs_workload_pull(w) <= 0)
            return;
    } while (fs_engine_run_ahead(e, w->next.t));
    fs_workload_schedule(w);
}
/* Server s has no work left: it stops being busy and takes the next
 * waiting request, goes idle, or goes off with a draining instance (for
 * disciplines whose servers finish work on their own). */
void fs_dispatch_done(fs_server *s);
/* Server s (idle, not on the idle stack) takes the oldest waiting request
 * among its pool's workloads (a batch of them), or goes on the idle
 * stack. */
void fs_dispatch_seek_work(fs_server *s);
/* Requests waiting or in service at the horizon. */
long fs_workload_unfinished(const fs_workload *w);
/* Requests waiting at time t (now, or the horizon). */
long fs_workload_waiting(const fs_workload *w, double t);
/* Serves w by the Kiefer-Wolfowitz recursion (fifo_recursion.h,
 * dispatch_fifo.c) instead of events, from now on, when w->fifo_applies
 * says it may; call it after the pools started, before
 * fs_workload_start.  -1 when out of memory. */
int fs_workload_use_fifo(fs_workload *w);

#endif
