/* results.h -- what one simulated run produces, in memory, before it is
 * stored.
 *
 * The simulation fills an fs_results; the store writes it to SQLite in one
 * transaction (store.c).  Keeping the two apart means a run that fails
 * half-way has touched nothing on disk. */
#ifndef FS_RESULTS_H
#define FS_RESULTS_H

#include <stddef.h>
#include "sim/base/names.h"
#include "sim/base/tags.h"


typedef struct fs_cost_row {
    char month[12];             /* "YYYY-MM" */
    char pool[FS_NAME_MAX];
    char pricing[32];           /* on-demand | reserved | savings-plan |
                                   savings-plan-unused */
    double cost_usd;            /* rounded to the cent */
    double gpu_hours;           /* GPU-hours billed in that month */
} fs_cost_row;

/* One utilization sample of one pool.  There are many (every pool, every
 * metrics_interval), so a row is kept small: the pool's name is not
 * copied into it. */
typedef struct fs_util_row {
    const char *pool;           /* borrowed: the pool's name in the scenario,
                                   which outlives the results */
    double t_s;                 /* end of the sampling interval */
    double instances_up;        /* time-average over the interval */
    double gpus_provisioned;    /* time-average over the interval */
    double gpus_busy;           /* time-average over the interval */
    double queue_len;           /* requests waiting at t_s */
} fs_util_row;

/* What an LLM workload or a pool serving one adds (collect_llm.c); all
 * NaN (NULL) elsewhere.  Tokens are the completed requests'.  A
 * workload's GPUs and cost are its pools', each pool's shared among its
 * workloads by their busy GPU-seconds. */
typedef struct fs_llm_row {
    int is_llm;
    double ttft_mean_s, tpot_mean_s, ttft_p90_s, tpot_p90_s;
    double slo_ttft_s, slo_ttft_attainment;     /* NaN: no objective */
    double slo_tpot_s, slo_tpot_attainment;
    double tokens_in, tokens_out;
    double tokens_in_per_gpu_s, tokens_out_per_gpu_s;  /* per provisioned
                                                          GPU-second */
    double cost_usd;
    double cost_per_mtok_out, cost_per_mtok;    /* per million output
                                                   tokens, and all tokens */
    /* prefix caching: of tokens_in, those found cached; their share (the
     * token hit rate, NaN without a cache); the cost per million tokens
     * the replicas computed (cached input tokens left out, as API prices
     * list cached input apart) */
    double tokens_cached, token_hit_rate, cost_per_mtok_uncached;
    long preempted, too_long;
    long over_context;   /* dropped: longer than the model's context */
    long max_context;    /* the model's, for the summary */
    /* speculative decoding (a workload's spec =; spec_kind "" without):
     * the proposer ("draft", "mtp") and its draft model ("" for mtp), k
     * and the acceptance; the decoding requests' steps, the tokens a step
     * emitted on average, and the law's mean (1 - a^(k+1)) / (1 - a) */
    char spec_kind[8], spec_draft[48];
    long spec_k, spec_steps;
    double spec_acceptance, spec_accepted_mean, spec_expected;
    /* disaggregated prefill and decode (llm_disagg.c; NaN elsewhere): the
     * link's Gbps, the KV caches sent over it, their bytes, the mean
     * seconds one crossed it and waited for it */
    double kv_link_gbps, kv_transfers, kv_bytes;
    double kv_transfer_mean_s, kv_wait_mean_s;
    /* LoRA adapters (llm_adapter.c; adapters 0 without): how many, their
     * popularity's zipf exponent (0 uniform), rank, the most loaded a
     * replica, one's load seconds, the loads and the seconds iterations
     * waited for them */
    long adapters, adapter_rank, max_adapters, adapter_loads;
    double adapter_zipf_s, adapter_load_s, adapter_load_sum_s;
    /* several models on one pool (llm_placement.c): the replicas of its
     * pools that host its model; 0 where every replica serves any */
    long replicas;
} fs_llm_row;

/* One LoRA adapter of an llm workload (the adapter table): adapter 1 is
 * the most popular.  Its requests, tokens, mean TTFT and end to end of the
 * measured ones, loads, the GPU-seconds its requests took (iterations
 * split equally among the requests they ran, loads to the adapter loaded)
 * and the workload's cost in that proportion. */
typedef struct fs_adapter_row {
    char workload[FS_NAME_MAX];
    long adapter;
    double share_expected;      /* the popularity's closed form */
    long requests, loads;
    double tokens_in, tokens_out;
    double ttft_mean_s, e2e_mean_s;
    double gpu_s, cost_usd, cost_per_mtok_usd;
} fs_adapter_row;

/* A pool serving an llm: latency over the measured requests of every
 * workload it serves, from its own histograms (NaN = NULL elsewhere). */
typedef struct fs_llm_pool_lat {
    double ttft_p50_s, ttft_p99_s, tpot_p50_s, tpot_p99_s;
    double e2e_p50_s, e2e_p99_s;   /* end to end: arrival to last token */
    double ttft_p90_s, tpot_p90_s, e2e_p90_s;
    double ttft_mean_s, tpot_mean_s, e2e_mean_s;
} fs_llm_pool_lat;

struct fs_hist;
/* Fill out's percentiles and means from the TTFT, TPOT and end-to-end
 * histograms; a NULL histogram leaves its figures NaN. */
void fs_llm_lat_fill(fs_llm_pool_lat *out, const struct fs_hist *ttft,
                     const struct fs_hist *tpot, const struct fs_hist *e2e);

typedef struct fs_latency_row {
    char workload[FS_NAME_MAX];
    long count;                 /* completed requests */
    long arrivals;              /* requests that arrived */
    long dropped;               /* rejected: queue full (queue_max) */
    long unfinished;            /* still waiting or in service at the horizon */
    double mean_s, p50_s, p90_s, p95_s, p99_s, p999_s;
    double wait_mean_s;         /* arrival to start of service */
    double wait_p50_s, wait_p90_s, wait_p99_s;   /* of finished requests */
    double mean_batch_size;     /* requests per completed batch; NaN if none */
    double slo_s;               /* NaN when the workload has no SLO */
    double slo_attainment;      /* fraction of completed within slo_s; NaN if none */
    double ttft_p50_s, ttft_p99_s, tpot_p50_s, tpot_p99_s;  /* NaN = NULL */
    double growth_mean, growth_spread;  /* growth = G ± S, a month; 0: none */
    double growth;              /* the rate this replication drew */
    fs_llm_row llm;             /* service = llm(...) only (is_llm) */
} fs_latency_row;

typedef struct fs_pool_row {
    char pool[FS_NAME_MAX];
    char gpu[32];
    char pricing[16];
    char instance[128];         /* what priced it: "catalog aws:g5.xlarge" or "price key" */
    double price_usd_h;         /* hourly rate per instance */
    double gpu_hours_provisioned;
    double gpu_hours_busy;      /* a MIG slice counts its compute share */
    double gpu_hours_busy_sm;   /* the same with a MIG slice's SM share
                                   (= gpu_hours_busy on other pools) */
    double energy_kwh;          /* at the meter (models/purchase/energy.h) */
    long launches;
    long interruptions;
    long cold_starts;           /* launched LLM replicas that loaded */
    double load_s;              /* seconds they spent loading */
    char instance_type[96];     /* "aws:p4d.24xlarge", or "" */
    char tags[FS_TAGS_MAX];     /* tags = k:v,... as given, or "" */
    double upfront_usd;         /* per instance for the whole term */
    int term_months;            /* commitment term; 0: none */
    long count;                 /* instances at the start (a reservation's) */
    char rate_quotes[512];      /* the pool's reserved_* quotes, or "" */
    int renew;                  /* a reservation buys its next term: 1/0;
                                   -1 for other options */
    long requests_retried;      /* requests requeued by interruptions */
    double work_lost_s;         /* service seconds lost to interruptions */
    double fallback_hours;      /* instance-hours of on-demand fallback */
    double fallback_cost_usd;   /* those hours at the fallback's price */
    double growth_mean, growth_spread;  /* the pool's growth = G ± S; 0:
                                           none (its workloads' apply) */
    double growth;              /* the rate this replication drew */
    /* FOCUS prices, set by the cli from the scenario
     * (sim/cli/shared/run_prices.c); 0 = unknown, stored as NULL */
    double list_price_usd_h;        /* on-demand list price, per instance */
    double contracted_price_usd_h;  /* a commitment's rate, per instance */
    double commitment_usd_h;        /* a commitment's $ an hour */
    long gpus_per_instance;
    fs_llm_row llm;             /* pools serving an llm only (is_llm) */
    fs_llm_pool_lat llm_lat;    /* the same pools' TTFT, TPOT, end to end */
} fs_pool_row;

/* One spot interruption (the interruption table). */
typedef struct fs_interrupt_row {
    const char *pool;           /* borrowed: the scenario's pool name */
    double t_s;                 /* when the instance was taken */
    int instance_id;            /* its slot in the pool */
    double notice_s;            /* the notice it had */
    double work_lost_s;         /* service seconds of batches lost */
} fs_interrupt_row;

/* One share of a pool's monthly cost (cost_allocation): a workload's, by
 * the busy GPU-seconds it used, or the idle rest (workload ""); a MIG
 * pool's idle rest is split by slice profile (profile set), the part of
 * its GPUs outside any slice left in the row without one. */
typedef struct fs_alloc_row {
    char month[12];
    char workload[FS_NAME_MAX]; /* "" = idle, stored as NULL */
    char profile[24];           /* MIG profile of an idle row; "" = NULL */
    char pool[FS_NAME_MAX];
    char tags[FS_TAGS_JSON_MAX];    /* JSON object: pool's + workload's */
    double cost_usd;            /* to the cent; a pool-month's rows add up
                                   to its cost_monthly row exactly */
    double gpu_hours;           /* busy GPU-hours, or idle ones */
    double energy_kwh;          /* those hours at the meter: busy at the
                                   GPU's TDP, idle at its idle power */
} fs_alloc_row;

/* One MIG profile of a pool cut into slices (slice_utilization). */
typedef struct fs_slice_row {
    char pool[FS_NAME_MAX];
    char profile[24];           /* "2g.20gb" */
    int slices_per_gpu;         /* of this profile in the layout */
    double compute_share;       /* one slice's compute slices / the GPU's */
    double sm_share;            /* one slice's SMs / the GPU's */
    double slice_hours;         /* provisioned slice-hours */
    double busy_hours;          /* slice-hours holding work */
    double utilization;         /* busy / provisioned; NaN when none */
    double idle_cost_usd;       /* the pool's cost x these slices' compute
                                   share x their idle fraction */
} fs_slice_row;

/* One cost beside the GPU hour (cost_extra): a workload's checkpoints on a
 * pool in a calendar month, stored (GB-months) or moved (GB), at the
 * provider's published price.  A row's cost is its quantity times its
 * price, to the cent. */
typedef struct fs_extra_row {
    char month[12];
    char pool[FS_NAME_MAX];
    char workload[FS_NAME_MAX];
    char category[16];          /* FOCUS ServiceCategory: Storage |
                                   Networking */
    char item[32];              /* checkpoint-storage | checkpoint-transfer */
    char unit[16];              /* GB-Month | GB */
    double quantity;            /* in unit */
    double unit_price_usd;
    double cost_usd;
    long count;                 /* checkpoints written, or restores */
    char tags[FS_TAGS_JSON_MAX];    /* JSON object: pool's + workload's */
} fs_extra_row;

/* One budget checked against a run (budget): the whole run's, or a tag's
 * (tag "team:ml"), its limit and the run's 730-hour run rate under it. */
typedef struct fs_budget_row {
    char scope[FS_TAGS_MAX];    /* "" for the whole run, else "KEY:VALUE" */
    char source[32];            /* "scenario", "--budget" */
    double limit_usd;           /* per 730-hour month */
    double spend_usd;           /* the run's 730-hour run rate in scope */
    double overrun_usd;         /* spend - limit when over, else 0 */
} fs_budget_row;

typedef struct fs_job_row {
    char workload[FS_NAME_MAX];
    char job_id[64];
    double submit_s, start_s, end_s;   /* NaN = NULL (never started/ended) */
    int gpus;
    double gpu_hours, lost_gpu_hours;
    long interruptions;
    double deadline_s;                 /* NaN = NULL */
    int met_deadline;                  /* -1 = NULL */
    double cost_usd;                   /* its GPU-seconds at its pools' price */
    char status[16];                   /* finished | running | queued |
                                          rejected | not-submitted */
    char reason[96];                   /* why it was rejected, or "" */
} fs_job_row;

typedef struct fs_results {
    /* run identity */
    char name[FS_NAME_MAX];
    char scenario[1024];        /* scenario file path as given */
    char *scenario_text;        /* full text (includes expanded, --set listed);
                                   owned: malloc'd, freed by fs_results_free */
    unsigned long seed;
    unsigned replication;
    char started_at[32], finished_at[32];   /* ISO 8601 UTC */
    char start_date[16];        /* scenario start, YYYY-MM-DD */
    double horizon_s;
    double months;              /* calendar months the horizon covers, fractional */
    double cost_unrounded_usd;  /* the horizon's cost, all pools, before the
                                   bill's rounding to cents: what the monthly
                                   run rate scales */
    /* run-level aggregates over all workloads */
    long requests, requests_dropped;
    double latency_mean_s, latency_p50_s, latency_p99_s, wait_mean_s;
    double slo_attainment;      /* NaN when no workload has an SLO */
    long events;                /* engine events processed */
    char warnings[8][512];      /* for the user, e.g. malformed rows skipped */
    int nwarnings;
    char notes[8][512];         /* summary lines, e.g. trace rows skipped by
                                   status (notes.h) */
    int nnotes;

    fs_cost_row *costs;       size_t ncosts, costs_cap;
    fs_util_row *util;        size_t nutil, util_cap;
    fs_latency_row *latency;  size_t nlatency, latency_cap;
    fs_pool_row *pools;       size_t npools, pools_cap;
    fs_job_row *jobs;         size_t njobs, jobs_cap;
    fs_alloc_row *allocs;     size_t nallocs, allocs_cap;
    fs_interrupt_row *interrupts; size_t ninterrupts, interrupts_cap;
    fs_slice_row *slices;     size_t nslices, slices_cap;
    fs_extra_row *extras;     size_t nextras, extras_cap;
    fs_budget_row *budgets;   size_t nbudgets, budgets_cap;
    fs_adapter_row *adapters; size_t nadapters, adapters_cap;
} fs_results;

void fs_results_init(fs_results *r);
void fs_results_free(fs_results *r);
/* Append a zeroed row and return it; NULL when out of memory. */
fs_cost_row *fs_results_add_cost(fs_results *r);
fs_slice_row *fs_results_add_slice(fs_results *r);
fs_util_row *fs_results_add_util(fs_results *r);
fs_latency_row *fs_results_add_latency(fs_results *r);
fs_pool_row *fs_results_add_pool(fs_results *r);
fs_job_row *fs_results_add_job(fs_results *r);
fs_alloc_row *fs_results_add_alloc(fs_results *r);
fs_interrupt_row *fs_results_add_interrupt(fs_results *r);
fs_extra_row *fs_results_add_extra(fs_results *r);
/* A cost_extra line (checkpoints: training_storage.c; an llm's weights:
 * sim/fleet/pool/weights.c) as one row: transfer picks Networking, GB
 * and transfer_item, else Storage, GB-Month and storage_item; its cost is
 * quantity x price rounded to the cent, its tags the pool's and the
 * workload's.  -1 when out of memory. */
typedef struct fs_extra_line {
    const char *month, *pool, *workload;
    int transfer;
    const char *storage_item, *transfer_item;
    long count;
    double quantity, unit_price_usd;
    const char *pool_tags, *workload_tags;
} fs_extra_line;
int fs_results_add_extra_line(fs_results *r, const fs_extra_line *l);
fs_budget_row *fs_results_add_budget(fs_results *r);
fs_adapter_row *fs_results_add_adapter(fs_results *r);

/* Bytes held by the row arrays of all fs_results now, and the most held at
 * once since fs_results_reset_peak: for the test that a run's memory does
 * not grow with its replications. */
size_t fs_results_bytes(void);
size_t fs_results_peak_bytes(void);
void fs_results_reset_peak(void);

#endif
