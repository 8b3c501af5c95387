/* store_tables.c -- the columns of every child table of a run, declared
 * once (store_tables.h): the writer (store_write.c) makes its statements
 * from these lists, so adding a column is one line here and its migration
 * in store_migrations.c.  In the order a run's tables are written. */
#include "sim/store/store_tables.h"
#include "sim/store/store_impl.h"

#include <math.h>

static const fs_store_col cost_cols[] = {
    COL(fs_cost_row, COL_TEXT, "month", month),
    COL(fs_cost_row, COL_TEXT, "pool", pool),
    COL(fs_cost_row, COL_TEXT, "pricing", pricing),
    COL(fs_cost_row, COL_REAL, "cost_usd", cost_usd),
    COL(fs_cost_row, COL_REAL, "gpu_hours", gpu_hours),
};

static const fs_store_col util_cols[] = {
    COL(fs_util_row, COL_NAME, "pool", pool),
    COL(fs_util_row, COL_REAL, "t_s", t_s),
    COL(fs_util_row, COL_REAL, "instances_up", instances_up),
    COL(fs_util_row, COL_REAL, "gpus_provisioned", gpus_provisioned),
    COL(fs_util_row, COL_REAL, "gpus_busy", gpus_busy),
    COL(fs_util_row, COL_REAL, "queue_len", queue_len),
};

#define LAT(kind, f) COL(fs_latency_row, kind, #f, f)
static const fs_store_col latency_cols[] = {
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
static const fs_store_col pool_cols[] = {
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
static const fs_store_col job_cols[] = {
    JOB(COL_TEXT, workload), JOB(COL_TEXT, job_id), JOB(COL_REAL, submit_s),
    JOB(COL_REAL, start_s), JOB(COL_REAL, end_s), JOB(COL_INT, gpus),
    JOB(COL_REAL, gpu_hours), JOB(COL_INT, interruptions),
    JOB(COL_REAL, lost_gpu_hours), JOB(COL_REAL, deadline_s),
    JOB(COL_BOOL, met_deadline), JOB(COL_REAL, cost_usd),
    JOB(COL_TEXT, status), JOB(COL_TEXT, reason),
};

static const fs_store_col interrupt_cols[] = {
    COL(fs_interrupt_row, COL_NAME, "pool", pool),
    COL(fs_interrupt_row, COL_REAL, "t_s", t_s),
    COL(fs_interrupt_row, COL_INT, "instance_id", instance_id),
    COL(fs_interrupt_row, COL_REAL, "notice_s", notice_s),
    COL(fs_interrupt_row, COL_REAL, "work_lost_s", work_lost_s),
};

#define SLICE(kind, f) COL(fs_slice_row, kind, #f, f)
static const fs_store_col slice_cols[] = {
    SLICE(COL_TEXT, pool), SLICE(COL_TEXT, profile),
    SLICE(COL_INT, slices_per_gpu), SLICE(COL_REAL, compute_share),
    SLICE(COL_REAL, slice_hours), SLICE(COL_REAL, busy_hours),
    SLICE(COL_REAL, utilization), SLICE(COL_REAL, idle_cost_usd),
    SLICE(COL_REAL, sm_share),
};

/* cost_allocation: an idle row's workload is "" (NULL), and so is the
 * profile of every row but a MIG slice's idle one. */
#define ALLOC(kind, f) COL(fs_alloc_row, kind, #f, f)
static const fs_store_col alloc_cols[] = {
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
static const fs_store_col latency_llm_cols[] = {
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
static const fs_store_col pool_llm_cols[] = {
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
static const fs_store_col latency_prefix_cols[] = {
    LAT(COL_TEXT, workload), PREFIX_CACHE(fs_latency_row),
};
static const fs_store_col pool_prefix_cols[] = {
    POOL(COL_TEXT, pool), PREFIX_CACHE(fs_pool_row),
};

/* spec_decode (version 17): one row per llm workload that drafts. */
static int latency_spec(const void *row)
{
    const fs_llm_row *l = &((const fs_latency_row *)row)->llm;
    return l->is_llm && l->spec_kind[0];
}

static const fs_store_col spec_cols[] = {
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
static const fs_store_col latency_kv_cols[] = {
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

static const fs_store_col growth_cols[] = {
    LAT(COL_TEXT, workload), LAT(COL_REAL, growth_mean),
    LAT(COL_REAL, growth_spread), LAT(COL_REAL, growth),
};

/* run_growth's pool rows (version 24): a pool with its own growth =. */
static int pool_grown(const void *row)
{
    const fs_pool_row *p = row;
    return p->growth_mean > 0 || p->growth_spread > 0;
}

#define POOLG(kind, f) COL(fs_pool_row, kind, #f, f)
static const fs_store_col pool_growth_cols[] = {
    POOLG(COL_TEXT, pool), POOLG(COL_REAL, growth_mean),
    POOLG(COL_REAL, growth_spread), POOLG(COL_REAL, growth),
};

/* cost_extra and budget (version 22). */
#define EXTRA(kind, f) COL(fs_extra_row, kind, #f, f)
static const fs_store_col extra_cols[] = {
    EXTRA(COL_TEXT, month), EXTRA(COL_TEXT, pool), EXTRA(COL_TEXT, workload),
    EXTRA(COL_TEXT, category), EXTRA(COL_TEXT, item), EXTRA(COL_INT, count),
    EXTRA(COL_REAL, quantity), EXTRA(COL_TEXT, unit),
    EXTRA(COL_REAL, unit_price_usd), EXTRA(COL_REAL, cost_usd),
    EXTRA(COL_TEXT, tags),
};
#define BUDGET(kind, f) COL(fs_budget_row, kind, #f, f)
static const fs_store_col budget_cols[] = {
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

static const fs_store_col tenancy_cols[] = {
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
static const fs_store_col adapter_cols[] = {
    ADAPTER(COL_TEXT, workload), ADAPTER(COL_INT, adapter),
    ADAPTER(COL_INT, requests),
    ADAPTER(COL_REAL, share_expected), ADAPTER(COL_REAL, tokens_in),
    ADAPTER(COL_REAL, tokens_out), ADAPTER(COL_REAL, ttft_mean_s),
    ADAPTER(COL_REAL, e2e_mean_s), ADAPTER(COL_INT, loads),
    ADAPTER(COL_REAL, gpu_s), ADAPTER(COL_REAL, cost_usd),
    ADAPTER(COL_REAL, cost_per_mtok_usd),
};

/* In the order a run is written (and was, table by table, before). */
const fs_store_table fs_store_tables[] = {
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
    {"run_growth", pool_growth_cols, NCOLS(pool_growth_cols),
     ROWS(pools, npools, fs_pool_row), NULL, pool_grown},
    {"cost_extra", extra_cols, NCOLS(extra_cols),
     ROWS(extras, nextras, fs_extra_row), NULL, NULL},
    {"budget", budget_cols, NCOLS(budget_cols),
     ROWS(budgets, nbudgets, fs_budget_row), NULL, NULL},
    {"tenancy", tenancy_cols, NCOLS(tenancy_cols),
     ROWS(latency, nlatency, fs_latency_row), NULL, latency_tenant},
    {"adapter", adapter_cols, NCOLS(adapter_cols),
     ROWS(adapters, nadapters, fs_adapter_row), NULL, NULL},
};

const size_t fs_store_ntables = NCOLS(fs_store_tables);
