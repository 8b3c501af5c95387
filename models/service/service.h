/* service.h -- service models: how long a batch of requests runs.
 *
 * The family models/service/ (the top of models/): service models (this
 * file) and the M/M/c queue in closed form (erlang.h).
 *
 * A request is what one arrival brings: its time, the service demand drawn
 * for it when it arrived, and the token counts its trace recorded.  A
 * service model does two things with requests, behind the small table of
 * functions below:
 *   - arrive: fills in a new request's demand (a draw from the workload's
 *     service stream, or the service time the trace recorded), so that two
 *     scenarios that differ only in the fleet see the same requests with
 *     the same demands (common random numbers);
 *   - batch_time: the seconds a batch of them runs on a server.
 * Each model is one module, models/service/service_NAME.c, and one line in the
 * registry (service.c); the scenario's `service = NAME(...)` selects it by
 * name, and the fleet calls it without asking which one it is.
 *
 * Demands are stated for the workload's reference GPU.  batch_time gets the
 * server's speed: its seconds per reference-GPU second (dense bf16
 * throughput of the reference GPU over its own), and the models here scale
 * their time by it; a model that computes time from the GPU itself (an LLM
 * roofline) would read the server's shape instead. */
#ifndef FS_SERVICE_H
#define FS_SERVICE_H

#include <stddef.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>
#include "sim/base/grammar.h"
#include "models/dist/dist.h"
#include "models/llm/llm.h"
#include "models/llm/llm_spec.h"

/* One request.  Small and copied by value: queues and batches hold them
 * in arrays sized once, so moving a request never allocates. */
typedef struct fs_request {
    double arrival;       /* seconds from the scenario start */
    double demand;        /* service seconds on the reference GPU */
    int32_t tokens_in;    /* prompt tokens from the trace, -1 if unknown */
    int32_t tokens_out;   /* generated tokens from the trace, -1 if unknown */
    /* llm: output tokens already generated when a full KV cache preempted
     * it (it resumes by recomputing them), and its time to first token;
     * negative (-TTFT) when its KV cache came from a prefill pool
     * (sim/fleet/serve/llm_disagg.c), so a decode pool computes none */
    int32_t generated;
    float ttft;
    /* llm prefix caching (sim/fleet/llm_prefix.c): its prefix's entry in
     * the workload's prefix store, -1 for none; the prompt tokens its
     * first admission found cached, -1 before it */
    int32_t prefix;
    int32_t cached;
    /* LoRA adapters (sim/fleet/serve/llm_adapter.c): the adapter it asks
     * for, 0 the most popular; -1 for none */
    int32_t adapter;
} fs_request;

typedef struct fs_service_model fs_service_model;

/* llm(...): the model served and how (service_llm.c).  The model's shape
 * is resolved against the LLM catalog by the scenario, which also sets the
 * token distributions of generated arrivals (tokens_in =, tokens_out =). */
typedef struct fs_llm_service {
    char model_name[48];
    const fs_llm_model *model;   /* resolved by the scenario */
    fs_precision weights, kv;
    int kv_set;                  /* kv_precision= given */
    int tp, max_batch;
    int ep;                      /* expert-parallel GPUs (MoE); a replica
                                    is max(tp, ep) GPUs */
    int max_batch_set, chunk_set;  /* given: else the engine profile's */
    long chunked_prefill;        /* prefill tokens per iteration; 0: whole */
    char engine[2 * FS_LLM_ENGINE_NAME_MAX];   /* "vllm", "vllm@0.2" */
    int engine_set;              /* engine= given */
    char profile[1024];          /* profile=FILE as written, or "" */
    const fs_llm_engines *engines;   /* the profiles engine names: the
                                        user's file or the catalog's (set
                                        by the scenario) */
    fs_llm_engines *user_engines;    /* owned: profile=FILE loaded */
    fs_dist tokens_in, tokens_out;
    int has_tokens_in, has_tokens_out;
    fs_llm_spec spec;            /* the workload's spec = (kind off: none) */
} fs_llm_service;

/* A workload's service model as configured: which model, and the
 * parameters its parse read from the `service =` call. */
typedef struct fs_service {
    const fs_service_model *model;
    fs_dist dist;                /* distributions: what demand is drawn from */
    double base, per_item;       /* linear: seconds */
    fs_llm_service llm;          /* llm(...) */
    const char *base_dir;        /* where empirical(FILE) files are */
} fs_service;

struct fs_service_model {
    const char *name;            /* the call's name: "exponential" */
    const char *usage;           /* "exponential(mean=D)": for messages */
    int reads_trace_service;     /* needs a trace that records service times */
    /* How its servers schedule: NULL for batches that run in lockstep
     * (dispatch's batch server), "continuous" for iteration-level
     * continuous batching (sim/fleet/serve/llm_server.c). */
    const char *server;
    /* Reads the call's arguments into s (s->model is set); 0, or -1 with
     * the reason in why. */
    int (*parse)(const fs_call *c, fs_service *s, char *why, size_t whylen);
    /* Sets r->demand; r holds the arrival time and the trace's token
     * counts, recorded_s the trace's service time (-1: none).  Draws come
     * from rng, the workload's service stream, in arrival order.  NULL for
     * a name the contract reserves but this version does not implement. */
    void (*arrive)(const fs_service *s, gsl_rng *rng, double recorded_s,
                   fs_request *r);
    /* Seconds the n >= 1 requests of batch run together on a server whose
     * seconds per reference-GPU second are speed. */
    double (*batch_time)(const fs_service *s, const fs_request *batch, int n,
                         double speed);
    /* Set when arrive is one draw from s->dist and batch_time the longest
     * demand (the distributions): a request alone on a server then runs
     * for that draw x speed, which fs_service_lone_time takes directly
     * (and fs_service_request and fs_service_batch_time, inline). */
    int lone_is_draw;
};

/* The registry, in the order messages list them; NULL-ended. */
extern const fs_service_model *const fs_service_models[];

/* The model named name, or NULL. */
const fs_service_model *fs_service_find(const char *name);

/* Selects the model by the call's name and reads its arguments.  An
 * unknown name gets the nearest known one: "unknown distribution 'expo'
 * (did you mean 'exponential'?)".  0, or -1 with the reason in why. */
int fs_service_parse(const fs_call *c, fs_service *s, char *why,
                     size_t whylen);
/* The same, with empirical(FILE) resolved against base_dir (the
 * scenario's directory). */
int fs_service_parse_in(const fs_call *c, const char *base_dir,
                        fs_service *s, char *why, size_t whylen);
/* Frees what a parse read (empirical samples). */
void fs_service_free(fs_service *s);

/* The batch time shared by the models whose requests run in lockstep: the
 * longest demand in the batch, scaled by speed. */
double fs_service_longest(const fs_service *s, const fs_request *batch,
                          int n, double speed);

/* A new request, arriving at time arrival with what the trace recorded
 * for it (-1 where it recorded nothing): its demand set by the model. */
static inline fs_request fs_service_request(const fs_service *s,
                                            gsl_rng *rng, double arrival,
                                            double recorded_s, int tokens_in,
                                            int tokens_out)
{
    fs_request r = {arrival, 0, tokens_in, tokens_out, 0, 0, -1, -1, -1};
    /* A distribution's draw is taken here, as its arrive would: through
     * the call the request went to memory and came back in halves, which
     * stalled the copy into its server or queue. */
    if (s->model->lone_is_draw)
        r.demand = fs_dist_draw(&s->dist, rng);
    else
        s->model->arrive(s, rng, recorded_s, &r);
    return r;
}

static inline double fs_service_batch_time(const fs_service *s,
                                           const fs_request *batch, int n,
                                           double speed)
{
    if (n == 1 && s->model->lone_is_draw)   /* as fs_service_longest */
        return (batch->demand > 0 ? batch->demand : 0) * speed;
    return s->model->batch_time(s, batch, n, speed);
}

/* The seconds a request arriving now runs alone on a server of the given
 * speed, its demand drawn from rng as arrive draws it: the same number as
 * fs_service_batch_time of the fs_service_request, without making the
 * request where the model allows (lone_is_draw: the FIFO recursion's every
 * request, sim/fleet/serve/dispatch_fifo.c). */
static inline double fs_service_lone_time(const fs_service *s, gsl_rng *rng,
                                          double arrival, double recorded_s,
                                          int tokens_in, int tokens_out,
                                          double speed)
{
    if (s->model->lone_is_draw) {
        double d = fs_dist_draw(&s->dist, rng);
        return (d > 0 ? d : 0) * speed;   /* as fs_service_longest */
    }
    fs_request r = fs_service_request(s, rng, arrival, recorded_s, tokens_in,
                                      tokens_out);
    return fs_service_batch_time(s, &r, 1, speed);
}

#endif
