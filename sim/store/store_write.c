/* store_write.c -- writing one run into the results database; see
 * store.h.
 *
 * A run is written as BEGIN IMMEDIATE ... COMMIT: the write lock is taken
 * up front (waiting at most the busy timeout for another writer), every
 * row goes through one prepared statement per table, and any failure
 * rolls the whole run back, so a database never holds half a run.  A test
 * hook (fs_store_fail_after) makes the Nth row fail through SQLite's own
 * error path, to check that rollback. */
#include "sim/store/store_impl.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#ifdef PACKAGE_VERSION
#define FS_VERSION_STRING PACKAGE_VERSION
#else
#define FS_VERSION_STRING "dev"
#endif

/* The bind helpers keep the first error in *rc and do nothing after it,
 * so a row is a list of binds and one step_row(). */
static void bind_int(sqlite3_stmt *st, int i, long long v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = sqlite3_bind_int64(st, i, v);
}

/* NaN is NULL: "no value" (no SLO, never started, ...). */
static void bind_real(sqlite3_stmt *st, int i, double v, int *rc)
{
    if (*rc == SQLITE_OK)
        *rc = isnan(v) ? sqlite3_bind_null(st, i)
                       : sqlite3_bind_double(st, i, v);
}

/* Text of at most max bytes (a fixed-size field); "" and NULL are NULL. */
static void bind_text(sqlite3_stmt *st, int i, const char *v, size_t max,
                      int *rc)
{
    if (*rc != SQLITE_OK)
        return;
    size_t n = v ? strnlen(v, max) : 0;
    if (n == 0)
        *rc = sqlite3_bind_null(st, i);
    else if (n > INT_MAX)
        *rc = SQLITE_TOOBIG;
    else
        *rc = sqlite3_bind_text(st, i, v, (int)n, SQLITE_STATIC);
}

/* Parameter 1 of every child row: the run id.  The test hook makes the
 * Nth insert bind NULL instead, which the NOT NULL constraint rejects,
 * so the failure takes SQLite's own error path. */
static void bind_run_id(fs_store *s, sqlite3_stmt *st, long long run_id,
                        int *rc)
{
    s->inserts++;
    if (*rc != SQLITE_OK)
        return;
    if (s->fail_after > 0 && s->inserts == s->fail_after)
        *rc = sqlite3_bind_null(st, 1);
    else
        *rc = sqlite3_bind_int64(st, 1, run_id);
}

/* Steps a bound insert and resets it for the next row. */
static int step_row(sqlite3_stmt *st, int rc)
{
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            rc = SQLITE_OK;
    }
    sqlite3_reset(st);
    return rc;
}

#define FIELD(row, f) (row)->f, sizeof (row)->f

/* A new run identity (run.uid): 128 random bits as 32 hex digits.  Random
 * rather than derived from the scenario, so that the same scenario run
 * twice on purpose gives two runs; kept when a run is copied (import,
 * merge), so that a copy is recognised. */
static int new_uid(char out[33])
{
    unsigned char b[16];
    size_t got = 0;
    while (got < sizeof b) {
        ssize_t n = getrandom(b + got, sizeof b - got, 0);
        if (n <= 0)
            return SQLITE_IOERR;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return SQLITE_OK;
}

static int insert_run(fs_store *s, const fs_results *r, long long *run_id)
{
    static const char sql[] =
        "INSERT INTO run (name, scenario, scenario_text, seed, replication,"
        " started_at, finished_at, fleetsim_version, start_date, horizon_s,"
        " months, requests, requests_dropped, latency_mean_s, latency_p50_s,"
        " latency_p99_s, wait_mean_s, slo_attainment, events, uid,"
        " cost_unrounded_usd)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?)";
    sqlite3_stmt *st;
    char uid[33];
    int rc = new_uid(uid);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    s->inserts++;
    if (s->fail_after > 0 && s->inserts == s->fail_after)
        rc = sqlite3_bind_null(st, 1);      /* name is NOT NULL */
    else
        bind_text(st, 1, r->name, sizeof r->name, &rc);
    bind_text(st, 2, FIELD(r, scenario), &rc);
    bind_text(st, 3, r->scenario_text, SIZE_MAX, &rc);
    /* seeds above 2^63 are stored as their two's-complement value */
    bind_int(st, 4, (long long)r->seed, &rc);
    bind_int(st, 5, r->replication, &rc);
    bind_text(st, 6, FIELD(r, started_at), &rc);
    bind_text(st, 7, FIELD(r, finished_at), &rc);
    bind_text(st, 8, FS_VERSION_STRING, SIZE_MAX, &rc);
    bind_text(st, 9, FIELD(r, start_date), &rc);
    bind_real(st, 10, r->horizon_s, &rc);
    bind_real(st, 11, r->months, &rc);
    bind_int(st, 12, r->requests, &rc);
    bind_int(st, 13, r->requests_dropped, &rc);
    bind_real(st, 14, r->latency_mean_s, &rc);
    bind_real(st, 15, r->latency_p50_s, &rc);
    bind_real(st, 16, r->latency_p99_s, &rc);
    bind_real(st, 17, r->wait_mean_s, &rc);
    bind_real(st, 18, r->slo_attainment, &rc);
    bind_int(st, 19, r->events, &rc);
    bind_text(st, 20, uid, sizeof uid, &rc);
    bind_real(st, 21, r->cost_unrounded_usd, &rc);
    rc = step_row(st, rc);
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        *run_id = sqlite3_last_insert_rowid(s->db);
    return rc;
}

/* ---- The child tables: columns declared once ------------------------------
 *
 * Each child table of a run is a list of columns, each naming its SQL
 * column, the field of the row it stores and how (its kind); the INSERT
 * (or the UPDATE of the LLM columns) is made from the list, and every row
 * of fs_results' array is bound column by column.  Adding a column is one
 * line here (and its migration in store_schema.c). */

typedef enum col_kind {
    COL_TEXT,       /* char field[N]; "" is NULL */
    COL_NAME,       /* const char *, at most FS_NAME_MAX bytes */
    COL_INT,        /* int or long */
    COL_REAL,       /* double; NaN is NULL */
    COL_POSITIVE,   /* double; NULL unless above 0 */
    COL_RENEW,      /* int stored as a real; NULL when below 0 */
    COL_BOOL,       /* int: 0 or 1, NULL when below 0 */
} col_kind;

typedef struct col {
    const char *sql;
    col_kind kind;
    size_t off, size;
} col;

#define COL(T, kind, sql, f) {sql, kind, offsetof(T, f), sizeof ((T *)0)->f}

/* A child table: its columns, and where fs_results holds its rows.  An
 * LLM update (key set) writes its columns into rows the inserts made,
 * found by run_id and the key column.  keep, where set, says which rows
 * are written (NULL: every row). */
typedef struct table {
    const char *name;
    const col *cols;
    size_t ncols;
    size_t rows_off, count_off, row_size;
    const col *key;                 /* UPDATE ... WHERE run_id AND key */
    int (*keep)(const void *row);
} table;

#define ROWS(field, n, T) offsetof(fs_results, field), \
                          offsetof(fs_results, n), sizeof (T)
#define NCOLS(a) (sizeof (a) / sizeof *(a))

static const col cost_cols[] = {
    COL(fs_cost_row, COL_TEXT, "month", month),
    COL(fs_cost_row, COL_TEXT, "pool", pool),
    COL(fs_cost_row, COL_TEXT, "pricing", pricing),
    COL(fs_cost_row, COL_REAL, "cost_usd", cost_usd),
    COL(fs_cost_row, COL_REAL, "gpu_hours", gpu_hours),
};

static const col util_cols[] = {
    COL(fs_util_row, COL_NAME, "pool", pool),
    COL(fs_util_row, COL_REAL, "t_s", t_s),
    COL(fs_util_row, COL_REAL, "instances_up", instances_up),
    COL(fs_util_row, COL_REAL, "gpus_provisioned", gpus_provisioned),
    COL(fs_util_row, COL_REAL, "gpus_busy", gpus_busy),
    COL(fs_util_row, COL_REAL, "queue_len", queue_len),
};

#define LAT(kind, f) COL(fs_latency_row, kind, #f, f)
static const col latency_cols[] = {
    LAT(COL_TEXT, workload), LAT(COL_INT, count), LAT(COL_REAL, mean_s),
    LAT(COL_REAL, p50_s), LAT(COL_REAL, p90_s), LAT(COL_REAL, p95_s),
    LAT(COL_REAL, p99_s), LAT(COL_REAL, p999_s), LAT(COL_REAL, slo_s),
    LAT(COL_REAL, slo_attainment), LAT(COL_REAL, ttft_p50_s),
    LAT(COL_REAL, ttft_p99_s), LAT(COL_REAL, tpot_p50_s),
    LAT(COL_REAL, tpot_p99_s), LAT(COL_INT, arrivals), LAT(COL_INT, dropped),
    LAT(COL_INT, unfinished), LAT(COL_REAL, wait_mean_s),
    LAT(COL_REAL, mean_batch_size), LAT(COL_REAL, wait_p50_s),
    LAT(COL_REAL, wait_p90_s), LAT(COL_REAL, wait_p99_s),
};

#define POOL(kind, f) COL(fs_pool_row, kind, #f, f)
static const col pool_cols[] = {
    POOL(COL_TEXT, pool), POOL(COL_TEXT, gpu), POOL(COL_TEXT, pricing),
    POOL(COL_TEXT, instance), POOL(COL_REAL, price_usd_h),
    POOL(COL_REAL, gpu_hours_provisioned), POOL(COL_REAL, gpu_hours_busy),
    POOL(COL_INT, launches), POOL(COL_INT, interruptions),
    POOL(COL_TEXT, instance_type), POOL(COL_TEXT, tags),
    POOL(COL_REAL, upfront_usd), POOL(COL_INT, term_months),
    COL(fs_pool_row, COL_INT, "instances", count),
    POOL(COL_INT, requests_retried), POOL(COL_REAL, work_lost_s),
    POOL(COL_REAL, fallback_hours), POOL(COL_REAL, fallback_cost_usd),
    POOL(COL_RENEW, renew), POOL(COL_TEXT, rate_quotes),
    POOL(COL_POSITIVE, list_price_usd_h),
    POOL(COL_POSITIVE, contracted_price_usd_h),
    POOL(COL_POSITIVE, commitment_usd_h), POOL(COL_INT, gpus_per_instance),
    POOL(COL_REAL, gpu_hours_busy_sm),
    POOL(COL_INT, cold_starts), POOL(COL_REAL, load_s),
    POOL(COL_REAL, energy_kwh),
};

#define JOB(kind, f) COL(fs_job_row, kind, #f, f)
static const col job_cols[] = {
    JOB(COL_TEXT, workload), JOB(COL_TEXT, job_id), JOB(COL_REAL, submit_s),
    JOB(COL_REAL, start_s), JOB(COL_REAL, end_s), JOB(COL_INT, gpus),
    JOB(COL_REAL, gpu_hours), JOB(COL_INT, interruptions),
    JOB(COL_REAL, lost_gpu_hours), JOB(COL_REAL, deadline_s),
    JOB(COL_BOOL, met_deadline), JOB(COL_REAL, cost_usd),
    JOB(COL_TEXT, status), JOB(COL_TEXT, reason),
};

static const col interrupt_cols[] = {
    COL(fs_interrupt_row, COL_NAME, "pool", pool),
    COL(fs_interrupt_row, COL_REAL, "t_s", t_s),
    COL(fs_interrupt_row, COL_INT, "instance_id", instance_id),
    COL(fs_interrupt_row, COL_REAL, "notice_s", notice_s),
    COL(fs_interrupt_row, COL_REAL, "work_lost_s", work_lost_s),
};

#define SLICE(kind, f) COL(fs_slice_row, kind, #f, f)
static const col slice_cols[] = {
    SLICE(COL_TEXT, pool), SLICE(COL_TEXT, profile),
    SLICE(COL_INT, slices_per_gpu), SLICE(COL_REAL, compute_share),
    SLICE(COL_REAL, slice_hours), SLICE(COL_REAL, busy_hours),
    SLICE(COL_REAL, utilization), SLICE(COL_REAL, idle_cost_usd),
    SLICE(COL_REAL, sm_share),
};

/* cost_allocation: an idle row's workload is "" (NULL), and so is the
 * profile of every row but a MIG slice's idle one. */
#define ALLOC(kind, f) COL(fs_alloc_row, kind, #f, f)
static const col alloc_cols[] = {
    ALLOC(COL_TEXT, month), ALLOC(COL_TEXT, workload), ALLOC(COL_TEXT, pool),
    ALLOC(COL_TEXT, tags), ALLOC(COL_REAL, cost_usd),
    ALLOC(COL_REAL, gpu_hours), ALLOC(COL_TEXT, profile),
    ALLOC(COL_REAL, energy_kwh),
};

/* The LLM columns (schema version 6 on) of latency and pool rows; rows of
 * other workloads and pools keep them NULL. */
#define LLM(T, sql, f) COL(T, COL_REAL, sql, llm.f)
#define LLM_COMMON(T) \
    LLM(T, "tokens_in", tokens_in), LLM(T, "tokens_out", tokens_out), \
    LLM(T, "tokens_in_per_gpu_s", tokens_in_per_gpu_s), \
    LLM(T, "tokens_out_per_gpu_s", tokens_out_per_gpu_s), \
    LLM(T, "cost_per_mtok_out_usd", cost_per_mtok_out), \
    LLM(T, "cost_per_mtok_usd", cost_per_mtok)
static const col latency_llm_cols[] = {
    LLM_COMMON(fs_latency_row),
    LLM(fs_latency_row, "ttft_mean_s", ttft_mean_s),
    LLM(fs_latency_row, "tpot_mean_s", tpot_mean_s),
    LLM(fs_latency_row, "slo_ttft_s", slo_ttft_s),
    LLM(fs_latency_row, "slo_ttft_attainment", slo_ttft_attainment),
    LLM(fs_latency_row, "slo_tpot_s", slo_tpot_s),
    LLM(fs_latency_row, "slo_tpot_attainment", slo_tpot_attainment),
    LLM(fs_latency_row, "cost_usd", cost_usd),
    COL(fs_latency_row, COL_INT, "preempted", llm.preempted),
    LLM(fs_latency_row, "ttft_p90_s", ttft_p90_s),
    LLM(fs_latency_row, "tpot_p90_s", tpot_p90_s),
};
#define LAT_POOL(f) COL(fs_pool_row, COL_REAL, #f, llm_lat.f)
static const col pool_llm_cols[] = {
    LLM_COMMON(fs_pool_row),
    LAT_POOL(ttft_p50_s), LAT_POOL(ttft_p99_s), LAT_POOL(tpot_p50_s),
    LAT_POOL(tpot_p99_s), LAT_POOL(e2e_p50_s), LAT_POOL(e2e_p99_s),
    LAT_POOL(ttft_p90_s), LAT_POOL(tpot_p90_s), LAT_POOL(e2e_p90_s),
    LAT_POOL(ttft_mean_s), LAT_POOL(tpot_mean_s), LAT_POOL(e2e_mean_s),
};

/* Which rows an LLM update or the prefix_cache table writes: those of
 * llm workloads and pools, and of them those a prefix cache served. */
static int latency_is_llm(const void *row)
{
    return ((const fs_latency_row *)row)->llm.is_llm;
}

static int pool_is_llm(const void *row)
{
    return ((const fs_pool_row *)row)->llm.is_llm;
}

static int latency_cached(const void *row)
{
    const fs_llm_row *l = &((const fs_latency_row *)row)->llm;
    return l->is_llm && !isnan(l->tokens_cached);
}

static int pool_cached(const void *row)
{
    const fs_llm_row *l = &((const fs_pool_row *)row)->llm;
    return l->is_llm && !isnan(l->tokens_cached);
}

/* prefix_cache (version 16): one row per llm workload (pool NULL) and per
 * pool serving one (workload NULL) where a prefix cache served. */
#define PREFIX_CACHE(T) \
    LLM(T, "tokens_in", tokens_in), \
    LLM(T, "tokens_cached", tokens_cached), \
    LLM(T, "token_hit_rate", token_hit_rate), \
    LLM(T, "cost_per_mtok_usd", cost_per_mtok), \
    LLM(T, "cost_per_mtok_uncached_usd", cost_per_mtok_uncached)
static const col latency_prefix_cols[] = {
    LAT(COL_TEXT, workload), PREFIX_CACHE(fs_latency_row),
};
static const col pool_prefix_cols[] = {
    POOL(COL_TEXT, pool), PREFIX_CACHE(fs_pool_row),
};

/* spec_decode (version 17): one row per llm workload that drafts. */
static int latency_spec(const void *row)
{
    const fs_llm_row *l = &((const fs_latency_row *)row)->llm;
    return l->is_llm && l->spec_kind[0];
}

static const col spec_cols[] = {
    LAT(COL_TEXT, workload),
    COL(fs_latency_row, COL_TEXT, "kind", llm.spec_kind),
    COL(fs_latency_row, COL_TEXT, "draft_model", llm.spec_draft),
    COL(fs_latency_row, COL_INT, "k", llm.spec_k),
    LLM(fs_latency_row, "acceptance", spec_acceptance),
    COL(fs_latency_row, COL_INT, "steps", llm.spec_steps),
    LLM(fs_latency_row, "accepted_mean", spec_accepted_mean),
    LLM(fs_latency_row, "expected_mean", spec_expected),
};

static int latency_disagg(const void *row)
{
    const fs_llm_row *l = &((const fs_latency_row *)row)->llm;
    return l->is_llm && !isnan(l->kv_link_gbps);
}

/* kv_transfer (version 18): one row per llm workload served by a prefill
 * pool and a decode pool. */
static const col latency_kv_cols[] = {
    LAT(COL_TEXT, workload),
    LLM(fs_latency_row, "link_gbps", kv_link_gbps),
    LLM(fs_latency_row, "transfers", kv_transfers),
    LLM(fs_latency_row, "kv_bytes", kv_bytes),
    LLM(fs_latency_row, "transfer_mean_s", kv_transfer_mean_s),
    LLM(fs_latency_row, "wait_mean_s", kv_wait_mean_s),
};

/* run_growth (version 21): one row per workload with growth =, the rate
 * it was given (G ± S) and the one this replication drew. */
static int latency_grown(const void *row)
{
    const fs_latency_row *l = row;
    return l->growth_mean > 0 || l->growth_spread > 0;
}

static const col growth_cols[] = {
    LAT(COL_TEXT, workload), LAT(COL_REAL, growth_mean),
    LAT(COL_REAL, growth_spread), LAT(COL_REAL, growth),
};

/* cost_extra and budget (version 22). */
#define EXTRA(kind, f) COL(fs_extra_row, kind, #f, f)
static const col extra_cols[] = {
    EXTRA(COL_TEXT, month), EXTRA(COL_TEXT, pool), EXTRA(COL_TEXT, workload),
    EXTRA(COL_TEXT, category), EXTRA(COL_TEXT, item), EXTRA(COL_INT, count),
    EXTRA(COL_REAL, quantity), EXTRA(COL_TEXT, unit),
    EXTRA(COL_REAL, unit_price_usd), EXTRA(COL_REAL, cost_usd),
    EXTRA(COL_TEXT, tags),
};
#define BUDGET(kind, f) COL(fs_budget_row, kind, #f, f)
static const col budget_cols[] = {
    BUDGET(COL_TEXT, scope), BUDGET(COL_TEXT, source),
    BUDGET(COL_REAL, limit_usd), BUDGET(COL_REAL, spend_usd),
    BUDGET(COL_REAL, overrun_usd),
};

/* tenancy (version 23): one row per llm workload with adapters or on a
 * pool shared by several models; adapter: one row per adapter. */
static int latency_tenant(const void *row)
{
    const fs_llm_row *l = &((const fs_latency_row *)row)->llm;
    return l->is_llm && (l->adapters > 0 || l->replicas > 0);
}

static const col tenancy_cols[] = {
    LAT(COL_TEXT, workload),
    COL(fs_latency_row, COL_INT, "replicas", llm.replicas),
    COL(fs_latency_row, COL_INT, "adapters", llm.adapters),
    COL(fs_latency_row, COL_INT, "adapter_rank", llm.adapter_rank),
    COL(fs_latency_row, COL_INT, "max_adapters", llm.max_adapters),
    LLM(fs_latency_row, "zipf_s", adapter_zipf_s),
    LLM(fs_latency_row, "load_s", adapter_load_s),
    COL(fs_latency_row, COL_INT, "loads", llm.adapter_loads),
    LLM(fs_latency_row, "load_wait_s", adapter_load_sum_s),
};

/* an adapter's: what it is, what it served, what it cost */
#define ADAPTER(kind, f) COL(fs_adapter_row, kind, #f, f)
static const col adapter_cols[] = {
    ADAPTER(COL_TEXT, workload), ADAPTER(COL_INT, adapter),
    ADAPTER(COL_INT, requests),
    ADAPTER(COL_REAL, share_expected), ADAPTER(COL_REAL, tokens_in),
    ADAPTER(COL_REAL, tokens_out), ADAPTER(COL_REAL, ttft_mean_s),
    ADAPTER(COL_REAL, e2e_mean_s), ADAPTER(COL_INT, loads),
    ADAPTER(COL_REAL, gpu_s), ADAPTER(COL_REAL, cost_usd),
    ADAPTER(COL_REAL, cost_per_mtok_usd),
};

/* In the order a run is written (and was, table by table, before). */
static const table tables[] = {
    {"cost_monthly", cost_cols, NCOLS(cost_cols),
     ROWS(costs, ncosts, fs_cost_row), NULL, NULL},
    {"latency", latency_cols, NCOLS(latency_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, NULL},
    {"utilization", util_cols, NCOLS(util_cols),
     ROWS(util, nutil, fs_util_row), NULL, NULL},
    {"job", job_cols, NCOLS(job_cols), ROWS(jobs, njobs, fs_job_row), NULL,
     NULL},
    {"pool", pool_cols, NCOLS(pool_cols), ROWS(pools, npools, fs_pool_row),
     NULL, NULL},
    {"cost_allocation", alloc_cols, NCOLS(alloc_cols),
     ROWS(allocs, nallocs, fs_alloc_row), NULL, NULL},
    {"interruption", interrupt_cols, NCOLS(interrupt_cols),
     ROWS(interrupts, ninterrupts, fs_interrupt_row), NULL, NULL},
    {"latency", latency_llm_cols, NCOLS(latency_llm_cols),
     ROWS(latency, nlatency, fs_latency_row), &latency_cols[0],
     latency_is_llm},
    {"pool", pool_llm_cols, NCOLS(pool_llm_cols),
     ROWS(pools, npools, fs_pool_row), &pool_cols[0],
     pool_is_llm},
    {"slice_utilization", slice_cols, NCOLS(slice_cols),
     ROWS(slices, nslices, fs_slice_row), NULL, NULL},
    {"prefix_cache", latency_prefix_cols, NCOLS(latency_prefix_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_cached},
    {"prefix_cache", pool_prefix_cols, NCOLS(pool_prefix_cols),
     ROWS(pools, npools, fs_pool_row), NULL, pool_cached},
    {"spec_decode", spec_cols, NCOLS(spec_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_spec},
    {"kv_transfer", latency_kv_cols, NCOLS(latency_kv_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_disagg},
    {"run_growth", growth_cols, NCOLS(growth_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_grown},
    {"cost_extra", extra_cols, NCOLS(extra_cols),
     ROWS(extras, nextras, fs_extra_row), NULL, NULL},
    {"budget", budget_cols, NCOLS(budget_cols),
     ROWS(budgets, nbudgets, fs_budget_row), NULL, NULL},
    {"tenancy", tenancy_cols, NCOLS(tenancy_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_tenant},
    {"adapter", adapter_cols, NCOLS(adapter_cols),
     ROWS(adapters, nadapters, fs_adapter_row), NULL, NULL},
};

/* Binds field c of row as parameter i. */
static void bind_col(sqlite3_stmt *st, int i, const col *c, const char *row,
                     int *rc)
{
    const char *f = row + c->off;
    long long v = 0;
    double d;
    if (c->kind == COL_INT || c->kind == COL_RENEW || c->kind == COL_BOOL) {
        assert(c->size == sizeof(int) || c->size == sizeof(long));
        if (c->size == sizeof(int))
            v = *(const int *)f;
        else
            v = *(const long *)f;
    }
    switch (c->kind) {
    case COL_TEXT:
        bind_text(st, i, f, c->size, rc);
        break;
    case COL_NAME:
        bind_text(st, i, *(const char *const *)f, FS_NAME_MAX, rc);
        break;
    case COL_INT:
        bind_int(st, i, v, rc);
        break;
    case COL_REAL:
        bind_real(st, i, *(const double *)f, rc);
        break;
    case COL_POSITIVE:
        d = *(const double *)f;
        bind_real(st, i, d > 0 ? d : NAN, rc);
        break;
    case COL_RENEW:
        bind_real(st, i, v < 0 ? NAN : (double)v, rc);
        break;
    case COL_BOOL:
        if (*rc == SQLITE_OK)
            *rc = v < 0 ? sqlite3_bind_null(st, i)
                        : sqlite3_bind_int(st, i, v != 0);
        break;
    }
}

/* "INSERT INTO t (run_id, a, b) VALUES (?,?,?)", or for an LLM update
 * "UPDATE t SET a = ?1, b = ?2 WHERE run_id = ?3 AND key = ?4". */
static int table_sql(const table *t, char *buf, size_t cap)
{
    size_t n = 0;
    int w = t->key ? snprintf(buf, cap, "UPDATE %s SET", t->name)
                   : snprintf(buf, cap, "INSERT INTO %s (run_id", t->name);
    for (size_t i = 0; w >= 0 && (n += (size_t)w) < cap && i < t->ncols; i++)
        w = t->key ? snprintf(buf + n, cap - n, "%s %s = ?%zu", i ? "," : "",
                              t->cols[i].sql, i + 1)
                   : snprintf(buf + n, cap - n, ", %s", t->cols[i].sql);
    if (w >= 0 && n < cap && t->key) {
        w = snprintf(buf + n, cap - n, " WHERE run_id = ?%zu AND %s = ?%zu",
                     t->ncols + 1, t->key->sql, t->ncols + 2);
    } else if (w >= 0 && n < cap) {
        w = snprintf(buf + n, cap - n, ") VALUES (?");
        for (size_t i = 0; w >= 0 && (n += (size_t)w) < cap && i < t->ncols;
             i++)
            w = snprintf(buf + n, cap - n, ",?");
        if (w >= 0 && n < cap)
            w = snprintf(buf + n, cap - n, ")");
    }
    return w >= 0 && n + (size_t)w < cap ? SQLITE_OK : SQLITE_TOOBIG;
}

/* Every row of table t of r: inserted with run id, or its LLM columns
 * updated in the row the insert made. */
static int write_table(fs_store *s, const table *t, const fs_results *r,
                       long long id)
{
    char sql[2048];
    sqlite3_stmt *st;
    int rc = table_sql(t, sql, sizeof sql);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK)
        return rc;
    const char *rows = *(const char *const *)((const char *)r + t->rows_off);
    size_t n = *(const size_t *)((const char *)r + t->count_off);
    for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
        const char *row = rows + i * t->row_size;
        if (t->keep && !t->keep(row))
            continue;
        if (!t->key)
            bind_run_id(s, st, id, &rc);   /* parameter 1 */
        int base = t->key ? 1 : 2;
        for (size_t c = 0; c < t->ncols; c++)
            bind_col(st, base + (int)c, &t->cols[c], row, &rc);
        if (t->key) {
            bind_int(st, (int)t->ncols + 1, id, &rc);
            bind_col(st, (int)t->ncols + 2, t->key, row, &rc);
        }
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

/* BEGIN IMMEDIATE on the file at s's path.  Another fleetsim may have
 * removed the file we opened (it created it and stored no run: refused),
 * while it held the write lock: once we hold the lock, the file is either
 * still at the path or gone for good, and a gone file is opened again at
 * the path (created anew, or another process's new one) so that the run is
 * stored where the user looks, not in a removed file. */
static int begin_in_place(fs_store *s, fs_error *err)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        int rc = fs_store_exec(s, "BEGIN IMMEDIATE");
        if (!fs_store_moved(s)) {
            if (rc != SQLITE_OK)
                fs_store_sql_error(s, err, rc, "cannot write the run");
            return rc;
        }
        fs_store_rollback(s);
        if (fs_store_reopen(s, err))
            return SQLITE_ERROR;
    }
    fs_error_set(err, "%s: cannot write the run: other processes keep "
                 "removing the database", s->path);
    return SQLITE_ERROR;
}

int fs_store_write_run(fs_store *s, const fs_results *r, long *run_id,
                       fs_error *err)
{
    assert(s && r && run_id);
    if (s->readonly)
        return fs_error_set(err, "%s: cannot write the results database: "
                            "opened read-only", s->path);
    s->inserts = 0;
    long long id = 0;
    int rc = begin_in_place(s, err);
    if (rc != SQLITE_OK)
        return -1;
    rc = insert_run(s, r, &id);
    for (size_t t = 0; rc == SQLITE_OK && t < NCOLS(tables); t++)
        rc = write_table(s, &tables[t], r, id);
    if (rc == SQLITE_OK)
        rc = fs_store_exec(s, "COMMIT");
    if (rc != SQLITE_OK) {
        fs_store_sql_error(s, err, rc, "cannot write the run");
        fs_store_rollback(s);
        return -1;
    }
    assert(id > 0 && id <= LONG_MAX);
    *run_id = (long)id;
    return 0;
}
