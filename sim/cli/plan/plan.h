/* plan.h -- `fleetsim plan`: the cheapest fleet that meets the SLOs.
 *
 * The planner's pieces, one file each:
 *   plan_slo.c        --slo: metrics (any REAL column of the latency
 *                     table), reading a run's values, pass or fail;
 *   plan_candidates.c the candidates (GPU x precision x TP), memory
 *                     exclusion (models/llm/llm.h), each one's --set list;
 *   plan_lists.c      the --gpus, --precision and --tp lists checked;
 *   plan_choices.c    the choices a scenario makes searchable: routing,
 *                     spec on or off, the prefill:decode ratio;
 *   plan_check.c      each candidate's scenario read before any run;
 *   plan_prune.c      candidates a lone request already rules out (a
 *                     TTFT or TPOT bound missed at any count), excluded
 *                     before simulating;
 *   plan_search.c     the count: an Erlang C bracket (models/service/erlang.h),
 *                     then simulations (run_exec.h) bisected to the
 *                     smallest passing count, candidates in parallel;
 *   plan_user_price.c a pool's own prices (price =, quotes) per
 *                     candidate: per GPU, or the candidate excluded;
 *   plan_cost.c       how to buy the chosen fleet, from roi (roi_run.h);
 *   plan_output.c     the ranked table, frontier and exclusions, in
 *                     table, CSV, JSON or Markdown;
 *   cmd_plan.c        the command line. */
#ifndef FS_PLAN_H
#define FS_PLAN_H

#include <stdio.h>
#include "sim/base/names.h"
#include "models/llm/llm_engine.h"
#include "models/llm/llm_spec.h"
#include "sim/app/progress.h"
#include "sim/store/store.h"

#define FS_PLAN_SLOS_MAX 8
#define FS_PLAN_PURCHASES 4
#define FS_PLAN_USER_PRICES 8   /* price, upfront_price, reserved_* */
#define FS_PLAN_PD_MAX 8        /* --pd-ratio items */

/* One SLO: METRIC<=VALUE or METRIC>=VALUE. */
typedef struct fs_plan_slo {
    char metric[40];       /* as the user wrote it: "ttft_p99" */
    char column[48];       /* the latency column: "ttft_p99_s" */
    int ge;                /* >= (attainment); else <= */
    int percent;           /* a share, printed in % */
    double value;          /* seconds, or a fraction */
} fs_plan_slo;

enum { FS_PLAN_OD, FS_PLAN_RESERVED, FS_PLAN_SAVINGS, FS_PLAN_SPOT };
/* The name of plan's way to buy k (FS_PLAN_*): the registered purchase
 * option with the property plan prices it by (plan_cost.c). */
const char *fs_plan_purchase_name(int k);

/* What one simulated count measured. */
typedef struct fs_plan_probe {
    long count;
    int done, pass;
    long run_id;           /* the first replication's run */
    char run_name[FS_NAME_MAX];
    double value[FS_PLAN_SLOS_MAX];   /* pessimistic side with replications */
    double unfinished;     /* (dropped + unfinished) / arrivals */
    char why[256];         /* why it failed */
} fs_plan_probe;

typedef struct fs_plan_candidate {
    char gpu[64];
    char precision[16];    /* "" for a generic service */
    int tp;                /* 0 for a generic service */
    int ep;                /* llm: expert-parallel GPUs (1: none) */
    char routing[16];      /* plan_choices.c: the routing tried, or "" */
    int pd[2];             /* prefill:decode tried; {0, 0} colocated */
    int spec_off;          /* spec = none tried */
    char choice[96];       /* those in words: "routing=prefix-aware,pd=1:2" */
    char tag[40];          /* and in a run's name (64 bytes): "pa,pd1:2" */
    double gpu_tflops;     /* dense bf16, for the service speed */
    char instance[96];     /* instance = PROVIDER:TYPE to set, or "" */
    char memory[384];      /* fs_llm_memory_format */
    int excluded_memory;
    int excluded_other;    /* no instance type sells it, or no price */
    int excluded_bound;    /* a lone request misses an SLO (plan_prune.c) */
    int gpus_per_instance; /* of the candidate's instances */
    char scaled_price[FS_PLAN_USER_PRICES][48];   /* the pool's own
                              prices per GPU at this size, "" unchanged */
    /* the outcome */
    int feasible;
    int failed;            /* a simulation could not be done */
    char reason[640];
    long count, min;       /* min: the autoscaling floor, or -1 */
    long estimate;         /* the closed-form bracket */
    int sims;
    fs_plan_probe best;    /* the smallest passing count */
    fs_plan_probe below;   /* count - 1 (failing), count 0 when none */
    fs_plan_probe spot;    /* the chosen count priced as spot (--purchase
                              spot), run_id 0 when not run */
    long spot_k;           /* reserved under spot */
    /* buying it: 730-hour run rates */
    double cost[FS_PLAN_PURCHASES];   /* NaN: not asked or not priced */
    double as_run;         /* the run's own bill (the scenario's pools
                              and purchase options), run rate */
    double usd_per_mtok;   /* monthly's $ per million tokens (llm) */
    long reserved_k;
    double commitment;
    int purchase;          /* the cheapest asked */
    double monthly;        /* its cost */
    char cost_note[256];
} fs_plan_candidate;

/* A request known before the runs (plan_prune.c): its prompt's tokens,
 * and whether it has more than one output token (it then has a time per
 * output token, which an engine's output lag adds to its TTFT). */
typedef struct fs_plan_prompt {
    int tokens;
    int lagged;
} fs_plan_prompt;

typedef struct fs_plan {
    const char *scenario, *db, *workload;
    const char *pool_arg;        /* --pool: the pool sized, or NULL */
    char *const *sets;
    int nsets;
    fs_plan_slo slo[FS_PLAN_SLOS_MAX];
    int nslo;
    double max_unfinished;
    int purchases[FS_PLAN_PURCHASES];   /* asked, by FS_PLAN_* */
    long jobs, replications, max_count;
    double max_events;
    fs_progress_mode pmode;
    double pinterval;
    /* from the scenario */
    char workload_name[FS_NAME_MAX];   /* p->workload points here */
    char pool[FS_NAME_MAX];      /* the pool whose size is searched */
    int autoscale;               /* search max (min kept) */
    long base_min;
    int llm;                     /* service = llm(...) */
    char llm_model[64];
    char llm_engine[48];         /* engine= of the llm call, or "" */
    const fs_llm_engines *engines;   /* while candidates are made */
    char service_args[512];      /* the llm call's other arguments */
    const char *eps;             /* --ep N,...: for an MoE, or NULL */
    char llm_spec[300];          /* the workload's spec = as written, or "" */
    fs_llm_spec spec;            /* it read (plan_spec.c; kind off: none or
                                    unreadable, which the runs refuse) */
    double lambda, mean_s;       /* for the bracket: NaN when unknown */
    double tokens_in, tokens_out;   /* llm: the draws' means, or NaN */
    double ref_tflops;           /* the workload's reference GPU */
    char ref_gpu[64], pool_gpu[64];
    char pool_instance[96];      /* instance = of the pool, or "" */
    int pool_instance_gpus;
    int pin_ref;                 /* set reference_gpu = the pool's GPU, so
                                    that service times scale by GPU */
    int npools;                  /* the workload's pools */
    int pool_on_demand;          /* the pool's pricing is on-demand */
    int pool_has_price;          /* price = : the user's on-demand rate */
    int pool_has_quote;          /* reserved_1y = : the user's quote */
    int pool_gpus;               /* GPUs per instance of the pool */
    char user_price[FS_PLAN_USER_PRICES][64];   /* the pool's own price
                                    keys (plan_user_price.c), "" unset */
    /* plan_choices.c: what the scenario makes a choice */
    char cache_pool[FS_NAME_MAX];   /* a pool keeping a prefix cache of
                                       prompts with a prefix identity */
    char routings[3][16];
    int nrouting;                /* 0: routing not searched */
    char partner[FS_NAME_MAX];   /* the other pool of a P/D deployment */
    int partner_autoscale, pool_prefill;   /* the searched pool prefills */
    int pd[FS_PLAN_PD_MAX][2];   /* prefill:decode ratios; {0, 0} colocated */
    int npd;
    int spec_choice, spec_on, spec_off;   /* spec = set; searched on, off */
    int no_prune;                /* --no-prune: simulate every candidate */
    int prompt_state;            /* plan_prune.c: 0 unread, 1 known, 2 all
                                    one length, -1 not known */
    fs_plan_prompt *prompt;      /* the runs' requests */
    long nprompt;
    int prompt_scale;            /* each that many times (rate_scale) */
    fs_plan_candidate *cand;
    int ncand;
} fs_plan;

/* "fleetsim: plan: MESSAGE" on stderr, its bytes made visible
 * (fs_text_visible: a name never drives the terminal).  plan_output.c. */
void fs_plan_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- plan_slo.c ---- */
/* Parses "ttft_p99<=500ms,attainment>=99.5%" into p->slo: 0, or -1 with
 * why.  Metric names are checked against the latency columns of the
 * database's schema (any REAL column NAME_s, and attainment). */
int fs_plan_parse_slo(fs_plan *p, const char *arg, fs_store *db,
                      char *why, size_t len);
/* Reads the probe's metrics from runs ids[0..n) and decides pass. */
int fs_plan_judge(const fs_plan *p, fs_store *db, const long *ids, int n,
                  fs_plan_probe *pr, char *err, size_t len);
/* "ttft_p99<=500ms" into buf. */
void fs_plan_slo_format(const fs_plan_slo *s, char *buf, size_t len);
/* A metric value as the SLO states it: "412ms", "99.70%". */
void fs_plan_value_format(const fs_plan_slo *s, double v, char *buf,
                          size_t len);

/* ---- plan_candidates.c ---- */
/* Reads the scenario (workload, pool, service) into p: 0, or an exit
 * status after a message. */
int fs_plan_read_scenario(fs_plan *p);
/* The candidates from the lists (comma-separated; NULL: the scenario's),
 * memory-excluded ones marked: 0, or an exit status after a message. */
/* plan_spec.c: the workload's spec = (speculative decoding) read against
 * the model catalog mc (the draft's row must outlive the candidates), so
 * that a candidate's memory counts the proposer and its roofline bound
 * the tokens a step; and that bound's seconds a decode token at batch b
 * holding kv tokens. */
void fs_plan_spec_read(fs_plan *p, const fs_llm_catalog *mc);
double fs_plan_decode_token_s(const fs_plan *p, const fs_llm_perf *perf,
                              int batch, long kv);
int fs_plan_candidates(fs_plan *p, const char *gpus, const char *precs,
                       const char *tps);
/* The --set list of candidate c at count n: malloc'd, *nsets entries, the
 * first p->nsets borrowed from p->sets (free with fs_plan_sets_free). */
char **fs_plan_sets(const fs_plan *p, const fs_plan_candidate *c, long n,
                    int spot, int *nsets);
void fs_plan_sets_free(const fs_plan *p, char **sets, int n);
/* plan[gpu=...,precision=...,tp=...,count=N] (",spot]": the pool priced
 * as spot, spot true). */
void fs_plan_run_name(const fs_plan *p, const fs_plan_candidate *c, long n,
                      int spot, char *buf, size_t len);

/* ---- plan_lists.c ---- */
/* Option opt's comma list v: 0, or the usage error's status when it is
 * empty (--gpus ,) or longer than max. */
int fs_plan_check_list(const char *opt, const char *v, int max);
/* The lists' items: each GPU known to cat, each precision and TP valid
 * (an llm service's), none given twice.  0, or the usage error's status. */
struct fs_catalog;
int fs_plan_check_lists(const fs_plan *p, const struct fs_catalog *cat,
                        char *const *gl, int ng, char *const *pl, int np,
                        char *const *tl, int nt);
/* A list of GPU counts (--tp, --ep): each 1, 2, 4 or 8, none twice. */
int fs_plan_check_sizes(const char *opt, char *const *tl, int nt);

/* ---- plan_user_price.c ---- */
/* The pool key of user price i (0 price, 1 upfront_price, 2.. quotes). */
const char *fs_plan_user_price_key(int i);
/* Keeps the pool's values of those keys (values[i], NULL when unset). */
void fs_plan_user_prices_read(fs_plan *p, const char *const *values);
/* Prices candidate c, in instances of gpus GPUs, from the pool's own
 * prices: scaled per GPU, or c excluded (another GPU) with the reason. */
void fs_plan_user_price(const fs_plan *p, fs_plan_candidate *c, int gpus);

/* ---- plan_choices.c ---- */
/* What the scenario's config c makes a choice for workload section ws
 * (after p->pool is known). */
struct fs_config;
void fs_plan_choices_read(fs_plan *p, const struct fs_config *c,
                          const char *ws);
/* Whether a pool of workload section ws shares its instances with
 * another (share_instances =): plan does not search such a pair (its
 * prefill:decode ratio is a split of each instance's GPUs, not counts),
 * and says so at that key into msg: 1, else 0. */
int fs_plan_shared_pools(const struct fs_config *c, const char *ws,
                         char *msg, size_t len);
/* The choices searched: each --try NAME=LIST of tries[0..n), and the
 * defaults where the scenario makes a choice no --try names: 0 or a
 * usage error. */
int fs_plan_choices(fs_plan *p, char *const *tries, int n);
/* How many combinations; candidate c takes combination j. */
int fs_plan_choice_count(const fs_plan *p);
void fs_plan_choice_apply(const fs_plan *p, fs_plan_candidate *c, int j);
/* A P/D ratio's other pool at n of the searched one: n x its share of
 * the ratio over the searched pool's, rounded up. */
long fs_plan_partner_count(const fs_plan *p, const fs_plan_candidate *c,
                           long n);
/* Appends candidate c's --set lines at count n to s from index k: the new
 * count, or -1 out of memory (at most 4 lines). */
int fs_plan_choice_sets(const fs_plan *p, const fs_plan_candidate *c,
                        long n, char **s, int k);

/* ---- plan_check.c ---- */
/* Loads each candidate's scenario: an error all share is said once (an
 * exit status), one alone excludes its candidate.  0, or exit status. */
int fs_plan_check(fs_plan *p);
/* After the SLOs are read: each searched candidate's scenario handed to
 * fs_plan_prune (plan_prune.c), unless --no-prune. */
void fs_plan_prune_all(fs_plan *p);

/* ---- plan_prune.c ---- */
/* Excludes candidate c (c->excluded_bound, the reason) when its scenario
 * sc's lone request already misses a TTFT or TPOT SLO at any count. */
struct fs_scenario;
void fs_plan_prune(fs_plan *p, fs_plan_candidate *c,
                   const struct fs_scenario *sc);
/* Whether c is searched: not excluded for memory, price or a bound. */
int fs_plan_searched(const fs_plan_candidate *c);

/* ---- plan_search.c ---- */
/* Searches every candidate, p->jobs at a time: 0, or an exit status. */
int fs_plan_search(fs_plan *p);

/* ---- plan_cost.c ---- */
/* Prices each feasible candidate's run by every asked purchase mix. */
int fs_plan_price(fs_plan *p);

/* ---- plan_output.c ---- */
enum { FS_PLAN_TABLE, FS_PLAN_CSV, FS_PLAN_JSON, FS_PLAN_MARKDOWN };
/* Ranks the candidates: feasible by cost first, then the others. */
void fs_plan_rank(fs_plan *p);
void fs_plan_print(FILE *out, const fs_plan *p, int format);

#endif
