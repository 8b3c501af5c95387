/* store_query.h -- the reads the application and the commands make, each
 * by name, so that no SQL lives above the store.
 *
 * A read is one entry of the table in store_query.c (fs_query below): its
 * SQL sits beside the schema it reads, and a schema change walks through
 * the store alone.  The caller gets each row through fs_row, which reads a
 * column as a number or text by its index in the query's column list
 * (documented at each name), never SQLite's own types. */
#ifndef FS_STORE_QUERY_H
#define FS_STORE_QUERY_H

#include "sim/base/error.h"
#include "sim/store/store.h"

typedef struct fs_row fs_row;

int fs_row_null(const fs_row *r, int col);
double fs_row_double(const fs_row *r, int col);
long long fs_row_int(const fs_row *r, int col);
/* NULL for a NULL value; valid until the next row */
const char *fs_row_text(const fs_row *r, int col);

/* Called with each row: 0 goes on; a positive return stops the read
 * (fs_store_each returns 0), a negative one stops it with err filled by
 * the callback (fs_store_each returns -1). */
typedef int (*fs_row_fn)(const fs_row *row, void *ctx, fs_error *err);

/* The named reads.  The parameters: the run id, a text (a pool, a
 * workload, a run name) and a number, each used where the query says. */
typedef enum fs_query {
    FS_Q_RUN_NAME,          /* run: name */
    FS_Q_RUN_START,         /* run: start_date, horizon_s */
    FS_Q_RUN_HEAD,          /* run: name, start_date, horizon_s, scenario_text */
    FS_Q_RUN_COUNT,         /* count(*) of runs */
    FS_Q_RUN_GROUP,         /* text = a run name: run_id of the newest run of
                             * each replication, by replication */
    FS_Q_POOL_PRICING,      /* text = a pool: its pricing */
    FS_Q_POOLS,             /* every pool: pool, gpu, pricing, instance_type,
                             * tags, price_usd_h, upfront_usd, term_months,
                             * instances, list_price_usd_h,
                             * contracted_price_usd_h, commitment_usd_h,
                             * gpus_per_instance, renew */
    FS_Q_POOL_UP,           /* text = a pool: t_s, instances_up, by time */
    FS_Q_COSTS,             /* cost_monthly rows: month, pool, cost_usd,
                             * pricing */
    FS_Q_MONTHS,            /* by month: month, sum(cost_usd) */
    FS_Q_MONTH_PRICING,     /* by month and pricing: month, pricing,
                             * sum(cost_usd), sum(gpu_hours) */
    FS_Q_PRICINGS,          /* distinct pricing of cost_monthly, sorted */
    FS_Q_IDLE,              /* by pool: pool, idle cost, idle GPU-hours, cost,
                             * the GPU when cut into MIG slices (else NULL) */
    FS_Q_WORKLOADS,         /* every workload (latency and allocation): name,
                             * count, mean_s, p50_s, p99_s, slo_s,
                             * slo_attainment, its GPU-hours, all GPU-hours,
                             * its cost, unfinished + dropped, arrivals,
                             * jobs finished, jobs */
    FS_Q_SLO_MISSED,        /* number = the attainment wanted: workload,
                             * slo_s, slo_attainment below it */
    FS_Q_LATENCY,           /* workloads that finished requests: workload,
                             * p50_s, p90_s, p95_s, p99_s, p999_s, slo_s,
                             * by workload */
    FS_Q_UTILIZATION,       /* pool, t_s, gpus_provisioned, gpus_busy, by
                             * pool and time */
    FS_Q_SWEEP_POINT,       /* run_summary: total_cost_usd,
                             * cost_per_month_usd, latency_p99_s,
                             * slo_attainment, requests_unfinished,
                             * unfinished_share */
    FS_Q_LATENCY_COLUMNS,   /* the latency table's columns: name, type */
    FS_Q_GROWTH,            /* every workload: workload, growth_mean,
                             * growth_spread, growth (0 without growth =),
                             * arrivals */
    FS_Q_POOL_GROWTH,       /* pools with their own growth =: pool,
                             * growth (drawn); text: the pool */
    FS_Q_POOL_GROWTH_BILLS, /* every pool with its own growth =: pool,
                             * growth (drawn), its cost over the run */
    FS_Q_EXTRAS,            /* cost_extra rows: month, pool, workload,
                             * category, item, count, quantity, unit,
                             * unit_price_usd, cost_usd, tags, the pool's
                             * instance_type; by month, pool, workload */
    FS_Q_BUDGETS,           /* budget rows: scope, source, limit_usd,
                             * spend_usd, overrun_usd */
    FS_Q_SERVING,           /* what served a run's LLM requests, where it
                             * did: per workload then per pool, name,
                             * 'workload' or 'pool', token_hit_rate,
                             * tokens_cached, tokens_in (prefix cache),
                             * kv transfers, transfer_mean_s, wait_mean_s
                             * (P/D), cold_starts, load_s (pools),
                             * accepted_mean, expected_mean (spec) */
    FS_Q_ADAPTERS,          /* LoRA adapters: "workload · adapter N",
                             * requests, e2e_mean_s, GPU-hours, all the
                             * run's allocated GPU-hours, cost_usd, by
                             * workload and adapter */
    FS_Q_TRAINING_POOLS,    /* pools a training workload's jobs ran on:
                             * pool, pricing, instance_type, the pool's
                             * bill (cost_monthly), instances, the jobs'
                             * first start_s and last end_s (the horizon
                             * for one still running), the run's
                             * horizon_s, by stored order */
    FS_Q_POOL_USE,          /* text = a pool or NULL: pool, gpu,
                             * gpus_per_instance, gpu_hours_provisioned,
                             * gpu_hours_busy, the pool's bill
                             * (cost_monthly), the run's horizon_s,
                             * list_price_usd_h, pricing; stored order */
    FS_QUERIES
} fs_query;

typedef struct fs_query_arg {
    long run;
    const char *text;
    double num;
} fs_query_arg;

/* Runs query q with a's parameters and hands each row to fn.  0 when the
 * rows were read; -1 with err filled (naming the database) when SQLite
 * failed, or when fn returned a negative value. */
int fs_store_each(fs_store *s, fs_query q, const fs_query_arg *a,
                  fs_row_fn fn, void *ctx, fs_error *err);

/* The name of run id into buf ("" when none); -1 on a read error. */
int fs_store_run_name(fs_store *s, long id, char *buf, size_t size,
                      fs_error *err);
/* The start date (buf, "" when none) and the horizon (0 when none) of run
 * id; -1 on a read error. */
int fs_store_run_start(fs_store *s, long id, char *buf, size_t size,
                       double *horizon, fs_error *err);
/* The pricing of the run's pool into buf ("" when none). */
int fs_store_pool_pricing(fs_store *s, long id, const char *pool,
                          char *buf, size_t size, fs_error *err);
/* One run_summary column of run id (a name of fs_summary_columns): NaN
 * when NULL, when the run has no row or the schema no such column. */
double fs_store_summary_value(fs_store *s, long id, const char *column);
/* One latency column (a REAL column of the latency table) of a workload of
 * run id, NaN when NULL, with its arrivals and its unfinished + dropped
 * requests.  0; 1 when the run has no row for the workload; -1 with err
 * when the column is not the latency table's or the read failed. */
int fs_store_latency_value(fs_store *s, long id, const char *workload,
                           const char *column, double *v, double *arrivals,
                           double *unfinished, fs_error *err);

/* A run's growth a month (store_growth.c): its workloads' rates weighted
 * by their arrivals (a workload without growth = counts 0; with no
 * arrivals, a plain mean): the rate drawn (`growth = G ± S`), the mean G
 * and the spread S.  0, or -1 with err. */
typedef struct fs_run_growth {
    double rate, mean, spread;
} fs_run_growth;
int fs_store_run_growth(fs_store *s, long id, fs_run_growth *out,
                        fs_error *err);
/* Pool `pool` of run id's own growth = (schema 24), the rate it drew,
 * into *rate, or fallback when the pool has none.  0, or -1 with err. */
int fs_store_pool_growth(fs_store *s, long id, const char *pool,
                         double fallback, double *rate, fs_error *err);
/* The pools of run id with their own growth =: each one's cost over the
 * run into bill[i] and its drawn rate into rate[i], i < *n (both
 * allocated, free them; NULL when none).  0, or -1 with err. */
int fs_store_pool_growth_bills(fs_store *s, long id, double **bill,
                               double **rate, size_t *n, fs_error *err);

/* For tests: a read-only store over an open SQLite handle (a table made
 * by hand in memory), named path in messages; fs_store_close closes the
 * handle.  NULL when out of memory. */
struct sqlite3;
fs_store *fs_store_adopt(struct sqlite3 *db, const char *path);

#endif
