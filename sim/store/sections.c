/* sections.c -- the columns of the per-run row tables (sections.h) and
 * their reader: the query is built from a section's column table, so that
 * what is read and what `compare` prints cannot drift apart. */
#include "sim/store/sections.h"
#include "sim/store/store_impl.h"
#include "sim/base/vec.h"

#include <stdlib.h>
#include <string.h>

/* A column of the workload's kv_transfer row (NULL without one). */
#define KV_TRANSFER(col) \
    "(SELECT k." col " FROM kv_transfer k WHERE k.run_id = latency.run_id" \
    " AND k.workload = latency.workload)"

/* A column of the workload's tenancy row (NULL without one). */
#define TENANCY(col) \
    "(SELECT t." col " FROM tenancy t WHERE t.run_id = latency.run_id" \
    " AND t.workload = latency.workload)"

static const fs_section_column workload_cols[] = {
    { "workload", NULL, FS_COL_TEXT, 0, "workload", 0 },
    { "requests", "requests", FS_COL_COUNT, 1, "count", 0 },
    /* unfinished: arrived but not finished by the horizon, plus dropped;
     * the percentiles below cover finished requests only */
    { "requests_unfinished", "requests unfinished", FS_COL_COUNT, 1,
      "coalesce(unfinished, 0) + coalesce(dropped, 0)", 0 },
    { "unfinished_share", "unfinished share", FS_COL_RATIO, 1,
      "CASE WHEN arrivals > 0 THEN (coalesce(unfinished, 0) +"
      " coalesce(dropped, 0)) * 1.0 / arrivals END", 0 },
    { "overloaded", "overloaded", FS_COL_TEXT, 0,
      "CASE WHEN arrivals > 0 AND (coalesce(unfinished, 0) +"
      " coalesce(dropped, 0)) * 1.0 / arrivals > " FS_OVERLOADED_SQL
      " THEN 'yes' ELSE 'no' END", 0 },
    { "latency_p50_s", "latency p50 (finished requests)", FS_COL_SECONDS, 1,
      "p50_s", 0 },
    { "latency_p99_s", "latency p99 (finished requests)", FS_COL_SECONDS, 1,
      "p99_s", 0 },
    { "wait_mean_s", "wait mean", FS_COL_SECONDS, 1, "wait_mean_s", 0 },
    { "slo_s", "SLO p99", FS_COL_SECONDS, 1, "slo_s", 0 },
    { "slo_attainment", "SLO attainment", FS_COL_RATIO, 1,
      "slo_attainment", 0 },
    /* yes: under FS_SLO_MET_SHARE of its requests within an objective
     * (slo_p99, or an llm's slo_ttft or slo_tpot); NULL: no objective */
    { "slo_missed", "SLO missed", FS_COL_TEXT, 0,
      "CASE WHEN coalesce(slo_attainment < " FS_SLO_MET_SQL ", 0)"
      " OR coalesce(slo_ttft_attainment < " FS_SLO_MET_SQL ", 0)"
      " OR coalesce(slo_tpot_attainment < " FS_SLO_MET_SQL ", 0)"
      " THEN 'yes' WHEN slo_s IS NULL AND slo_ttft_s IS NULL"
      " AND slo_tpot_s IS NULL THEN NULL ELSE 'no' END", 0 },
    { "mean_batch_size", "mean batch size", FS_COL_NUMBER, 1,
      "mean_batch_size", 0 },
    /* speculative decoding (schema version 17): workloads that draft */
    { "spec_tokens_per_step", "tokens a step (speculative)", FS_COL_NUMBER,
      1, "(SELECT s.accepted_mean FROM spec_decode s WHERE s.run_id ="
      " latency.run_id AND s.workload = latency.workload)", 1 },
    /* prefill and decode pools (schema 18): the KV caches sent between
     * them, and the mean seconds one crossed the link and waited for it */
    { "kv_transfers", "KV caches sent", FS_COL_COUNT, 1,
      KV_TRANSFER("transfers"), 1 },
    { "kv_transfer_mean_s", "KV transfer mean", FS_COL_SECONDS, 1,
      KV_TRANSFER("transfer_mean_s"), 1 },
    { "kv_wait_mean_s", "KV link wait mean", FS_COL_SECONDS, 1,
      KV_TRANSFER("wait_mean_s"), 1 },
    /* many models and adapters (schema 20): the replicas hosting its
     * model on a pool of several, its LoRA adapters' loads and the
     * seconds iterations waited for them */
    { "model_replicas", "replicas of its model", FS_COL_COUNT, 1,
      "(SELECT nullif(t.replicas, 0) FROM tenancy t WHERE t.run_id ="
      " latency.run_id AND t.workload = latency.workload)", 1 },
    { "adapter_loads", "adapter loads", FS_COL_COUNT, 1, TENANCY("loads"),
      1 },
    { "adapter_load_wait_s", "adapter load wait", FS_COL_SECONDS, 1,
      TENANCY("load_wait_s"), 1 },
};

static const fs_section_column pool_cols[] = {
    { "pool", NULL, FS_COL_TEXT, 0, "p.pool", 0 },
    { "pricing", "pricing", FS_COL_TEXT, 0, "p.pricing", 0 },
    { "gpu", "GPU", FS_COL_TEXT, 0, "p.gpu", 0 },
    { "gpu_hours_provisioned", "GPU-hours provisioned", FS_COL_HOURS, 1,
      "p.gpu_hours_provisioned", 0 },
    { "gpu_hours_busy", "GPU-hours busy", FS_COL_HOURS, 1,
      "p.gpu_hours_busy", 0 },
    /* no GPU provisioned (count = 0): no utilization, not 0/0 */
    { "utilization", "utilization", FS_COL_RATIO, 1,
      "CASE WHEN p.gpu_hours_provisioned > 0"
      " THEN p.gpu_hours_busy / p.gpu_hours_provisioned END", 0 },
    { "cost_usd", "cost", FS_COL_MONEY, 1,
      "round(coalesce((SELECT sum(c.cost_usd) FROM cost_monthly c"
      " WHERE c.run_id = p.run_id AND c.pool = p.pool), 0), 2)", 0 },
    /* provisioned, not busy: cost_allocation's rows without a workload */
    { "idle_cost_usd", "idle cost", FS_COL_MONEY, 1,
      "round(coalesce((SELECT sum(a.cost_usd) FROM cost_allocation a"
      " WHERE a.run_id = p.run_id AND a.pool = p.pool"
      " AND a.workload IS NULL), 0), 2)", 0 },
    /* spot pools only (NULL for others; rows the table leaves out) */
    { "interruptions", "interruptions", FS_COL_COUNT, 1,
      "CASE WHEN p.pricing = 'spot' THEN p.interruptions END", 1 },
    { "requests_retried", "requests retried", FS_COL_COUNT, 1,
      "CASE WHEN p.pricing = 'spot' THEN p.requests_retried END", 1 },
    { "fallback_hours", "fallback hours", FS_COL_HOURS, 1,
      "CASE WHEN p.pricing = 'spot' THEN p.fallback_hours END", 1 },
    { "fallback_cost_usd", "fallback cost", FS_COL_MONEY, 1,
      "CASE WHEN p.pricing = 'spot' THEN round(p.fallback_cost_usd, 2) END",
      1 },
    /* pools serving an llm only: over every workload they serve */
    { "ttft_p50_s", "TTFT p50", FS_COL_SECONDS, 1, "p.ttft_p50_s", 1 },
    { "ttft_p99_s", "TTFT p99", FS_COL_SECONDS, 1, "p.ttft_p99_s", 1 },
    { "tpot_p50_s", "TPOT p50", FS_COL_SECONDS, 1, "p.tpot_p50_s", 1 },
    { "tpot_p99_s", "TPOT p99", FS_COL_SECONDS, 1, "p.tpot_p99_s", 1 },
    { "e2e_p50_s", "end-to-end p50", FS_COL_SECONDS, 1, "p.e2e_p50_s", 1 },
    { "e2e_p99_s", "end-to-end p99", FS_COL_SECONDS, 1, "p.e2e_p99_s", 1 },
    { "ttft_p90_s", "TTFT p90", FS_COL_SECONDS, 1, "p.ttft_p90_s", 1 },
    { "tpot_p90_s", "TPOT p90", FS_COL_SECONDS, 1, "p.tpot_p90_s", 1 },
    { "e2e_p90_s", "end-to-end p90", FS_COL_SECONDS, 1, "p.e2e_p90_s", 1 },
    { "ttft_mean_s", "TTFT mean", FS_COL_SECONDS, 1, "p.ttft_mean_s", 1 },
    { "tpot_mean_s", "TPOT mean", FS_COL_SECONDS, 1, "p.tpot_mean_s", 1 },
    { "e2e_mean_s", "end-to-end mean", FS_COL_SECONDS, 1, "p.e2e_mean_s", 1 },
    /* pools whose launched LLM replicas loaded their weights */
    { "cold_starts", "cold starts", FS_COL_COUNT, 1,
      "CASE WHEN p.cold_starts > 0 THEN p.cold_starts END", 1 },
    { "load_s", "seconds loading", FS_COL_SECONDS, 1,
      "CASE WHEN p.cold_starts > 0 THEN p.load_s END", 1 },
    /* energy at the meter (schema 20; models/purchase/energy.h), per
     * GPU-hour provisioned and, serving an llm, per million tokens */
    { "energy_kwh", "energy (kWh)", FS_COL_NUMBER, 1, "p.energy_kwh", 1 },
    { "energy_kwh_per_gpu_hour", "energy a GPU-hour (kWh)", FS_COL_NUMBER,
      1, "CASE WHEN p.gpu_hours_provisioned > 0"
      " THEN p.energy_kwh / p.gpu_hours_provisioned END", 1 },
    { "energy_kwh_per_mtok", "energy per million tokens (kWh)",
      FS_COL_NUMBER, 1, "CASE WHEN p.tokens_in + p.tokens_out > 0"
      " THEN p.energy_kwh * 1e6 / (p.tokens_in + p.tokens_out) END", 1 },
};

static const fs_section_column pricing_cols[] = {
    { "pricing", NULL, FS_COL_TEXT, 0, "pricing", 0 },
    { "cost_usd", "cost", FS_COL_MONEY, 1, "round(sum(cost_usd), 2)", 0 },
};

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

const fs_section_def fs_sections[FS_SECTIONS] = {
    [FS_SECTION_WORKLOADS] = {
        "workloads", "workload", 0,
        "FROM latency WHERE run_id = ?1 ORDER BY rowid",
        workload_cols, COUNT(workload_cols) },
    [FS_SECTION_POOLS] = {
        "pools", "pool", 0,
        "FROM pool p WHERE p.run_id = ?1 ORDER BY p.rowid",
        pool_cols, COUNT(pool_cols) },
    [FS_SECTION_PRICING] = {
        "cost_by_pricing", "cost by pricing model", 1,
        "FROM cost_monthly WHERE run_id = ?1 GROUP BY pricing"
        " ORDER BY min(rowid)",
        pricing_cols, COUNT(pricing_cols) },
};

void fs_section_rows_free(fs_section_rows *rows)
{
    for (size_t i = 0; i < rows->nrows * rows->ncols; i++)
        free(rows->cell[i]);
    free(rows->cell);
    memset(rows, 0, sizeof *rows);
}

/* "SELECT a, b, ... FROM ..." for section sec; malloc'd. */
static char *section_sql(const fs_section_def *sec)
{
    size_t len = strlen("SELECT ") + strlen(sec->from) + 2;
    for (size_t c = 0; c < sec->ncols; c++)
        len += strlen(sec->cols[c].sql) + 2;
    char *sql = malloc(len);
    if (!sql)
        return NULL;
    strcpy(sql, "SELECT ");
    for (size_t c = 0; c < sec->ncols; c++) {
        if (c)
            strcat(sql, ", ");
        strcat(sql, sec->cols[c].sql);
    }
    strcat(sql, " ");
    strcat(sql, sec->from);
    return sql;
}

/* Appends the current row of st to rows; SQLITE_NOMEM when out of memory. */
static int add_row(fs_section_rows *rows, size_t *cap, sqlite3_stmt *st)
{
    /* rows of ncols cells: one array item is one row */
    char **p = fs_vec_grow(rows->cell, cap, rows->nrows + 1,
                           rows->ncols * sizeof *p);
    if (!p)
        return SQLITE_NOMEM;
    rows->cell = p;
    char **row = rows->cell + rows->nrows * rows->ncols;
    memset(row, 0, rows->ncols * sizeof *row);
    rows->nrows++;      /* counted now, so that rows_free frees its cells */
    for (size_t c = 0; c < rows->ncols; c++) {
        const char *t = (const char *)sqlite3_column_text(st, (int)c);
        if (t && !(row[c] = strdup(t)))
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static int read_section(sqlite3 *db, long run_id, fs_section which,
                        fs_section_rows *rows)
{
    const fs_section_def *sec = &fs_sections[which];
    rows->ncols = sec->ncols;
    char *sql = section_sql(sec);
    if (!sql)
        return SQLITE_NOMEM;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    free(sql);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_bind_int64(st, 1, run_id);
    size_t cap = 0;
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        rc = add_row(rows, &cap, st);
    if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

int fs_store_section_rows(fs_store *s, long run_id, fs_section sec,
                          fs_section_rows *rows, fs_error *err)
{
    memset(rows, 0, sizeof *rows);
    int rc = read_section(s->db, run_id, sec, rows);
    if (rc == SQLITE_OK)
        return 0;
    fs_error_set(err, "%s: cannot read the %s rows of run %ld: %s", s->path,
                 fs_sections[sec].name, run_id,
                 rc == SQLITE_NOMEM ? sqlite3_errstr(rc)
                                    : sqlite3_errmsg(s->db));
    fs_section_rows_free(rows);
    return -1;
}
