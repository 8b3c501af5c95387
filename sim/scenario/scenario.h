/* scenario.h -- a scenario, typed and validated.
 *
 * Built from a config (config.h): every key is checked for its type, unit
 * and range, unknown keys are refused with the nearest known name, pools are
 * resolved against the catalog (GPU, GPUs per instance, prices), and a
 * workload's pools and arrival process are checked before any event runs.
 * Every message names the file, line and key. */
#ifndef FS_SCENARIO_H
#define FS_SCENARIO_H

#include <time.h>
#include "sim/scenario/config.h"
#include "sim/base/error.h"
#include "sim/base/grammar.h"
#include "sim/base/names.h"
#include "sim/base/tags.h"
#include "models/catalog/catalog.h"
#include "models/purchase/budget.h"
#include "models/dist/interruption.h"
#include "models/llm/llm.h"
#include "models/llm/mig.h"
#include "models/purchase/purchase.h"
#include "models/service/service.h"
#include "traces/arrivals.h"
#include "traces/jobs.h"

typedef enum fs_scale_kind {
    FS_SCALE_FIXED,        /* count = N */
    FS_SCALE_UTILIZATION,  /* autoscale = utilization(target=70%) */
    FS_SCALE_QUEUE,        /* autoscale = queue(target=4) */
} fs_scale_kind;

#define FS_MAX_POOLS_PER_WORKLOAD 8

/* A spot pool's interruptions, replacement and fallback (the spot keys,
 * scenario_spot.c).  Zeroed, with fallback -1, for other pools. */
typedef struct fs_spot_conf {
    fs_interruption interruption;   /* kind NONE: never interrupted */
    double notice_s;
    fs_dist replace_delay;          /* const(0s) by default */
    int fallback;                   /* pool index, or -1 */
    double fallback_after;
    long extra;                     /* spot_extra: already in count */
    long target;                    /* count + spot_extra */
} fs_spot_conf;

typedef enum fs_sharing_kind {
    FS_SHARING_NONE,
    FS_SHARING_TIMESLICE,
    FS_SHARING_MPS,
} fs_sharing_kind;

/* prefix_cache = (scenario_prefix.c): the engine profile's default, no,
 * yes (the replica's KV memory), unlimited, or at most N tokens. */
typedef enum fs_prefix_cache_mode {
    FS_PREFIX_CACHE_ENGINE = 0,
    FS_PREFIX_CACHE_NO,
    FS_PREFIX_CACHE_YES,
    FS_PREFIX_CACHE_UNLIMITED,
    FS_PREFIX_CACHE_TOKENS,
} fs_prefix_cache_mode;

/* routing = (scenario_prefix.c): which of a pool's busy LLM replicas
 * admits a waiting request (sim/fleet/serve/llm_route.h).  The order is
 * the registry's (llm_route.c). */
typedef enum fs_llm_routing {
    FS_ROUTING_LEAST_LOADED = 0,
    FS_ROUTING_ROUND_ROBIN,
    FS_ROUTING_PREFIX_AWARE,
    FS_ROUTING_N
} fs_llm_routing;
/* role = (scenario_disagg.c): a pool of a disaggregated LLM deployment
 * runs only prefills or only decode steps; colocated runs both. */
typedef enum fs_pool_role {
    FS_ROLE_COLOCATED = 0,
    FS_ROLE_PREFILL,
    FS_ROLE_DECODE,
} fs_pool_role;

typedef struct fs_pool_conf {
    char name[FS_NAME_MAX];
    char section[FS_NAME_MAX + 8];
    fs_gpu gpu;                   /* resolved from the catalog */
    char instance[96];            /* "aws:p4d.24xlarge" or "" */
    char provider[16];            /* provider key: "aws", ... or "" */
    long gpus_per_instance;
    long gpus_per_server;         /* GPUs one replica needs */
    const fs_purchase_option *purchase;   /* pricing = (models/purchase/purchase.h) */
    fs_scale_kind scale;
    long count;                   /* fixed size, or the start size */
    long min, max;
    double scale_target;          /* utilization fraction, or queue per instance */
    double scale_interval, cooldown, provision_delay;
    fs_purchase_terms terms;      /* price and what its purchase option
                                     resolved from the pool's keys */
    char tags[FS_TAGS_MAX];       /* tags = k:v,... normalised, or "" */
    int schedule;                 /* schedule = WINDOW: its index in
                                     windows[]; -1: always up */
    int drain;                    /* drain = yes: up past the close until
                                     its queue is empty */
    const fs_config_entry *schedule_entry;   /* NULL when not set */
    fs_spot_conf spot;
    char rate_quotes[512];        /* the reserved_* quote keys, as roi's
                                     --rate reads them: "1y:none=2.10/h
                                     3y:all=40000", or "" */
    double mfu, bw_efficiency;    /* LLM serving efficiencies; 0: the
                                     engine's default (models/llm/llm.h) */
    fs_llm_engines *llm_profile;  /* owned: llm_profile = FILE, or NULL */
    long kv_cache_tokens;         /* a replica's KV cache; 0: computed */
    fs_prefix_cache_mode prefix_cache;
    long prefix_cache_tokens;     /* FS_PREFIX_CACHE_TOKENS: its size */
    fs_llm_routing routing;
    /* Cold starts (scenario_coldstart.c): a launching LLM replica is
     * ready after provision_delay plus load_time; NaN: auto, its weights
     * over load_gbps_gpu (the instance's network bandwidth per GPU,
     * Gbit/s; NaN: unknown) plus the engine's startup_s.  cold_start:
     * the pool serves an llm(...) workload. */
    double load_time, load_gbps_gpu;
    char load_from[96];           /* the instance type it is read from */
    int cold_start;
    /* mig = LAYOUT (scenario_mig.c): the instances of each GPU; n == 0:
     * whole GPUs.  sharing = timeslice(N) | mps(N): N replicas on each
     * whole GPU (sim/fleet/serve/sharing.c); 0: none. */
    fs_mig_layout mig;
    char mig_text[96];            /* the layout as written back */
    fs_sharing_kind sharing;
    int sharing_n;
    double sharing_efficiency;    /* timeslice: speed kept when shared */
    double sharing_cap;           /* mps: a client's most SM share */
    fs_pool_role role;
    double network_gbps;          /* between instances: network_gbps = or
                                     the catalog's; NaN: unknown */
    /* share_instances = POOL (scenario_pd_shared.c): this decode pool's
     * replicas run on the named prefill pool's instances, its KV caches
     * crossing NVLink; share_pool is that pool's index, kv_nvlink is set
     * on both pools of such a pair once checked. */
    char share_with[FS_NAME_MAX];
    int share_pool;
    int kv_nvlink;
    double growth;                /* growth = G ± S: the pool's demand over
                                     the long view (commit --horizon,
                                     forecast), a month; 0: the workloads' */
    double growth_spread;
    const fs_config_entry *growth_entry;   /* NULL when not set */
} fs_pool_conf;

typedef enum fs_workload_kind {
    FS_KIND_INFERENCE,
    FS_KIND_BATCH,
    FS_KIND_TRAINING,
} fs_workload_kind;

/* kind = training: the jobs and how they checkpoint (scenario_training.c). */
typedef struct fs_training_conf {
    fs_jobs jobs;                 /* read at load: every job of the trace */
    const fs_config_entry *jobs_entry;
    double checkpoint_interval;   /* work between checkpoints; 0: none */
    double checkpoint_cost, restore_cost;
    double fallback_after;        /* 0: every pool of its list at once */
    int span_instances;           /* a job may spread over instances */
    /* What checkpoints cost beside the GPU hour (scenario_storage.c): a
     * checkpoint's GB (0: not priced; model = derives it), how long each
     * is kept, where a restore reads it from (FS_TRANSFER_*), and per
     * pool of the workload's list its provider's object-storage $ per
     * GB-month and transfer $ per GB (or storage_price/transfer_price) */
    double checkpoint_gb, checkpoint_retention;
    int checkpoint_transfer;
    double storage_usd_gb_month[FS_MAX_POOLS_PER_WORKLOAD];
    double transfer_usd_gb[FS_MAX_POOLS_PER_WORKLOAD];
} fs_training_conf;

/* LoRA adapters on an llm workload's base model (scenario_adapter.c; the
 * fleet's sim/fleet/serve/llm_adapter.c): n = 0 for none. */
typedef struct fs_adapter_conf {
    long n;                       /* adapters = N */
    double zipf_s;                /* adapter_popularity = zipf(S); 0: uniform */
    long rank;                    /* adapter_rank */
    long max_loaded;              /* max_adapters: per replica (max_loras) */
    double load_s;                /* adapter_load_time; NaN: its bytes over
                                     the GPU's PCIe link */
    double overhead_s;            /* adapter_overhead: per iteration */
    const fs_config_entry *entry; /* the adapters key (messages at build) */
    const fs_config_entry *max_entry;   /* max_adapters, or NULL */
} fs_adapter_conf;

/* An llm workload's weights in object storage (scenario_storage.c; the
 * fleet's sim/fleet/pool/weights.c): where each cold start pulls them from
 * (FS_WEIGHTS_*; FS_WEIGHTS_NONE: not priced, no line), and per pool of
 * the workload's list its provider's object-storage $ per GB-month and
 * the $ per GB of that pull (or storage_price/transfer_price). */
enum { FS_WEIGHTS_NONE, FS_WEIGHTS_SAME_REGION, FS_WEIGHTS_OTHER_ZONE,
       FS_WEIGHTS_OTHER_REGION, FS_WEIGHTS_INTERNET, FS_WEIGHTS_N };
extern const char *const fs_weights_from_names[FS_WEIGHTS_N + 1];
typedef struct fs_weights_conf {
    int from;
    double storage_usd_gb_month[FS_MAX_POOLS_PER_WORKLOAD];
    double transfer_usd_gb[FS_MAX_POOLS_PER_WORKLOAD];
} fs_weights_conf;

typedef struct fs_workload_conf {
    fs_workload_kind kind;
    fs_training_conf training;    /* kind = training only */
    char name[FS_NAME_MAX];
    char section[FS_NAME_MAX + 12];
    int pools[FS_MAX_POOLS_PER_WORKLOAD];   /* indices, preference order */
    int npools;
    fs_call arrivals;
    const fs_config_entry *arrivals_entry;
    fs_service service;           /* service = NAME(...): the model and its
                                     parameters (models/service/service.h) */
    int service_from_trace;       /* the model reads the trace's service
                                     times: checked when the trace opens */
    long batch_max;
    double batch_wait;
    double slo_s;                 /* NaN: none */
    double slo_ttft_s, slo_tpot_s;   /* llm: NaN when not set */
    fs_llm_model custom_model;       /* llm(model=custom): model = custom(..) */
    double rate_scale;
    double growth;                /* per month, a fraction; 0: none */
    double growth_spread;         /* ± S: the standard deviation of the
                                     rate each replication draws; 0: none */
    const fs_config_entry *growth_entry;   /* NULL when not set */
    int repeat;
    fs_bad_rows bad_rows;
    long queue_max;               /* FS_QUEUE_MAX unless lowered */
    fs_gpu reference_gpu;         /* service times are stated for this GPU */
    char tags[FS_TAGS_MAX];       /* tags = k:v,... normalised, or "" */
    char mig_profile[24];         /* mig_profile = : the slices it takes;
                                     "" any server of its pools */
    long prefix_tokens;           /* prefix = shared(tokens=, share=); 0:
                                     none */
    double prefix_share;
    double session_turns;         /* sessions = turns(mean=, think=): the
                                     mean turns of a session; 0: none */
    double session_think_s;       /* mean think time between turns */
    fs_adapter_conf adapters;     /* llm: LoRA adapters; n = 0: none */
    fs_weights_conf weights;      /* llm: its weights stored and pulled */
    long replicas;                /* llm: replicas = N of a pool shared by
                                     several models that host its model;
                                     0: by demand (llm_placement.c) */
    const fs_config_entry *replicas_entry;
} fs_workload_conf;

typedef struct fs_window_conf {
    char name[FS_NAME_MAX];
    char section[FS_NAME_MAX + 8];
    double every, open, duration;  /* seconds; open = time of day of the
                                      first opening on the start day */
    unsigned days;                 /* days = : bit d for weekday d (0 =
                                      Sunday); 0: every/duration */
    double close;                  /* days = : time of day it closes */
} fs_window_conf;

typedef struct fs_scenario {
    char name[FS_NAME_MAX];
    char path[1024];
    char dir[1024];               /* relative paths resolve against this */
    time_t start;
    char start_date[16];
    double start_hour;            /* hour of day at t = 0 */
    char timezone[72];            /* windows' time zone: "UTC" by default */
    double horizon_s;
    double warmup_s;              /* latency counts arrivals from here */
    unsigned long seed;
    long replications;
    double metrics_interval;
    fs_pool_conf *pools;
    size_t npools;
    fs_workload_conf *workloads;
    size_t nworkloads;
    fs_window_conf *windows;
    size_t nwindows;
    char (*warnings)[1024];       /* for the user: "file:line: key: ..." */
    size_t nwarnings;
    fs_config *cfg;               /* owned: entries referenced above */
    fs_catalog *catalog;          /* owned */
    char llm_catalog_csv[4096];   /* the catalog's models.csv */
    fs_llm_catalog *llm_models;   /* owned: loaded when a workload serves
                                     an llm (scenario_llm.c); NULL else */
    fs_llm_catalog *llm_user_models;   /* models = FILE, looked up first */
    fs_llm_engines *llm_engines;  /* owned: engines.csv, loaded with the
                                     models (scenario_llm_engine.c) */
    fs_mig_catalog *mig;          /* owned; read when a pool sets mig */
    char mig_csv[4096];           /* beside gpus.csv, else the installed */
    /* budget = and budgets = (scenario_budget.c): [0] the whole run's
     * (limit 0: none), then the tags' */
    fs_budget budgets[FS_BUDGETS_MAX];
    int nbudgets;
} fs_scenario;

/* Loads path, applies the --set assignments in order, and validates.
 * NULL with a file:line: key: message on any error. */
fs_scenario *fs_scenario_load(const char *path, char *const *sets, int nsets,
                              fs_error *err);
void fs_scenario_free(fs_scenario *sc);

/* The LLM configuration of workload wc's replicas on pool pc
 * (scenario_llm.c): its model, precisions, TP and EP, engine (the pool's
 * llm_profile = first), the pool's efficiencies and the workload's spec;
 * what the fleet times (llm_setup.c) and plan bounds (plan_prune.c). */
void fs_scenario_llm_config(const fs_workload_conf *wc,
                            const fs_pool_conf *pc, fs_llm_config *c);

#endif
