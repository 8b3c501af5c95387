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

static int insert_costs(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO cost_monthly (run_id, month, pool, pricing, cost_usd,"
        " gpu_hours) VALUES (?,?,?,?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->ncosts; i++) {
        const fs_cost_row *c = &r->costs[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(c, month), &rc);
        bind_text(st, 3, FIELD(c, pool), &rc);
        bind_text(st, 4, FIELD(c, pricing), &rc);
        bind_real(st, 5, c->cost_usd, &rc);
        bind_real(st, 6, c->gpu_hours, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_util(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO utilization (run_id, pool, t_s, instances_up,"
        " gpus_provisioned, gpus_busy, queue_len) VALUES (?,?,?,?,?,?,?)",
        -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nutil; i++) {
        const fs_util_row *u = &r->util[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, u->pool, FS_NAME_MAX, &rc);
        bind_real(st, 3, u->t_s, &rc);
        bind_real(st, 4, u->instances_up, &rc);
        bind_real(st, 5, u->gpus_provisioned, &rc);
        bind_real(st, 6, u->gpus_busy, &rc);
        bind_real(st, 7, u->queue_len, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_latency(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO latency (run_id, workload, count, mean_s, p50_s, p90_s,"
        " p95_s, p99_s, p999_s, slo_s, slo_attainment, ttft_p50_s,"
        " ttft_p99_s, tpot_p50_s, tpot_p99_s, arrivals, dropped, unfinished,"
        " wait_mean_s, mean_batch_size, wait_p50_s, wait_p90_s, wait_p99_s)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?)",
        -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(l, workload), &rc);
        bind_int(st, 3, l->count, &rc);
        bind_real(st, 4, l->mean_s, &rc);
        bind_real(st, 5, l->p50_s, &rc);
        bind_real(st, 6, l->p90_s, &rc);
        bind_real(st, 7, l->p95_s, &rc);
        bind_real(st, 8, l->p99_s, &rc);
        bind_real(st, 9, l->p999_s, &rc);
        bind_real(st, 10, l->slo_s, &rc);
        bind_real(st, 11, l->slo_attainment, &rc);
        bind_real(st, 12, l->ttft_p50_s, &rc);
        bind_real(st, 13, l->ttft_p99_s, &rc);
        bind_real(st, 14, l->tpot_p50_s, &rc);
        bind_real(st, 15, l->tpot_p99_s, &rc);
        bind_int(st, 16, l->arrivals, &rc);
        bind_int(st, 17, l->dropped, &rc);
        bind_int(st, 18, l->unfinished, &rc);
        bind_real(st, 19, l->wait_mean_s, &rc);
        bind_real(st, 20, l->mean_batch_size, &rc);
        bind_real(st, 21, l->wait_p50_s, &rc);
        bind_real(st, 22, l->wait_p90_s, &rc);
        bind_real(st, 23, l->wait_p99_s, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_pools(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO pool (run_id, pool, gpu, pricing, instance, price_usd_h,"
        " gpu_hours_provisioned, gpu_hours_busy, launches, interruptions,"
        " instance_type, tags, upfront_usd, term_months, instances,"
        " requests_retried, work_lost_s, fallback_hours, fallback_cost_usd,"
        " renew, rate_quotes, list_price_usd_h, contracted_price_usd_h,"
        " commitment_usd_h, gpus_per_instance, gpu_hours_busy_sm)"
        " VALUES (?,?,?,?,?, ?,?,?,?,?, ?,?,?,?,?, ?,?,?,?, ?,?,?,?,?,?,"
        " ?)", -1, &st,
        NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(p, pool), &rc);
        bind_text(st, 3, FIELD(p, gpu), &rc);
        bind_text(st, 4, FIELD(p, pricing), &rc);
        bind_text(st, 5, FIELD(p, instance), &rc);
        bind_real(st, 6, p->price_usd_h, &rc);
        bind_real(st, 7, p->gpu_hours_provisioned, &rc);
        bind_real(st, 8, p->gpu_hours_busy, &rc);
        bind_int(st, 9, p->launches, &rc);
        bind_int(st, 10, p->interruptions, &rc);
        bind_text(st, 11, FIELD(p, instance_type), &rc);
        bind_text(st, 12, FIELD(p, tags), &rc);
        bind_real(st, 13, p->upfront_usd, &rc);
        bind_int(st, 14, p->term_months, &rc);
        bind_int(st, 15, p->count, &rc);
        bind_int(st, 16, p->requests_retried, &rc);
        bind_real(st, 17, p->work_lost_s, &rc);
        bind_real(st, 18, p->fallback_hours, &rc);
        bind_real(st, 19, p->fallback_cost_usd, &rc);
        bind_real(st, 20, p->renew < 0 ? NAN : p->renew, &rc);
        bind_text(st, 21, FIELD(p, rate_quotes), &rc);
        bind_real(st, 22, p->list_price_usd_h > 0 ? p->list_price_usd_h
                                                  : NAN, &rc);
        bind_real(st, 23, p->contracted_price_usd_h > 0
                              ? p->contracted_price_usd_h : NAN, &rc);
        bind_real(st, 24, p->commitment_usd_h > 0 ? p->commitment_usd_h
                                                  : NAN, &rc);
        bind_int(st, 25, p->gpus_per_instance, &rc);
        bind_real(st, 26, p->gpu_hours_busy_sm, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The LLM columns (schema version 6) of one latency or pool row, by name;
 * rows of other workloads and pools keep them NULL. */
static void bind_llm(sqlite3_stmt *st, const fs_llm_row *l, int *rc)
{
    bind_real(st, 1, l->tokens_in, rc);
    bind_real(st, 2, l->tokens_out, rc);
    bind_real(st, 3, l->tokens_in_per_gpu_s, rc);
    bind_real(st, 4, l->tokens_out_per_gpu_s, rc);
    bind_real(st, 5, l->cost_per_mtok_out, rc);
    bind_real(st, 6, l->cost_per_mtok, rc);
}

static int update_llm(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *lat, *pool;
    int rc = sqlite3_prepare_v2(s->db,
        "UPDATE latency SET tokens_in = ?1, tokens_out = ?2,"
        " tokens_in_per_gpu_s = ?3, tokens_out_per_gpu_s = ?4,"
        " cost_per_mtok_out_usd = ?5, cost_per_mtok_usd = ?6,"
        " ttft_mean_s = ?7, tpot_mean_s = ?8, slo_ttft_s = ?9,"
        " slo_ttft_attainment = ?10, slo_tpot_s = ?11,"
        " slo_tpot_attainment = ?12, cost_usd = ?13, preempted = ?14,"
        " ttft_p90_s = ?17, tpot_p90_s = ?18"
        " WHERE run_id = ?15 AND workload = ?16", -1, &lat, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_prepare_v2(s->db,
        "UPDATE pool SET tokens_in = ?1, tokens_out = ?2,"
        " tokens_in_per_gpu_s = ?3, tokens_out_per_gpu_s = ?4,"
        " cost_per_mtok_out_usd = ?5, cost_per_mtok_usd = ?6,"
        " ttft_p50_s = ?9, ttft_p99_s = ?10, tpot_p50_s = ?11,"
        " tpot_p99_s = ?12, e2e_p50_s = ?13, e2e_p99_s = ?14,"
        " ttft_p90_s = ?15, tpot_p90_s = ?16, e2e_p90_s = ?17,"
        " ttft_mean_s = ?18, tpot_mean_s = ?19, e2e_mean_s = ?20"
        " WHERE run_id = ?7 AND pool = ?8", -1, &pool, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nlatency; i++) {
        const fs_latency_row *l = &r->latency[i];
        if (!l->llm.is_llm)
            continue;
        bind_llm(lat, &l->llm, &rc);
        bind_real(lat, 7, l->llm.ttft_mean_s, &rc);
        bind_real(lat, 8, l->llm.tpot_mean_s, &rc);
        bind_real(lat, 9, l->llm.slo_ttft_s, &rc);
        bind_real(lat, 10, l->llm.slo_ttft_attainment, &rc);
        bind_real(lat, 11, l->llm.slo_tpot_s, &rc);
        bind_real(lat, 12, l->llm.slo_tpot_attainment, &rc);
        bind_real(lat, 13, l->llm.cost_usd, &rc);
        bind_int(lat, 14, l->llm.preempted, &rc);
        bind_int(lat, 15, id, &rc);
        bind_text(lat, 16, FIELD(l, workload), &rc);
        bind_real(lat, 17, l->llm.ttft_p90_s, &rc);
        bind_real(lat, 18, l->llm.tpot_p90_s, &rc);
        rc = step_row(lat, rc);
    }
    for (size_t i = 0; rc == SQLITE_OK && i < r->npools; i++) {
        const fs_pool_row *p = &r->pools[i];
        if (!p->llm.is_llm)
            continue;
        bind_llm(pool, &p->llm, &rc);
        bind_int(pool, 7, id, &rc);
        bind_text(pool, 8, FIELD(p, pool), &rc);
        bind_real(pool, 9, p->llm_lat.ttft_p50_s, &rc);
        bind_real(pool, 10, p->llm_lat.ttft_p99_s, &rc);
        bind_real(pool, 11, p->llm_lat.tpot_p50_s, &rc);
        bind_real(pool, 12, p->llm_lat.tpot_p99_s, &rc);
        bind_real(pool, 13, p->llm_lat.e2e_p50_s, &rc);
        bind_real(pool, 14, p->llm_lat.e2e_p99_s, &rc);
        bind_real(pool, 15, p->llm_lat.ttft_p90_s, &rc);
        bind_real(pool, 16, p->llm_lat.tpot_p90_s, &rc);
        bind_real(pool, 17, p->llm_lat.e2e_p90_s, &rc);
        bind_real(pool, 18, p->llm_lat.ttft_mean_s, &rc);
        bind_real(pool, 19, p->llm_lat.tpot_mean_s, &rc);
        bind_real(pool, 20, p->llm_lat.e2e_mean_s, &rc);
        rc = step_row(pool, rc);
    }
    sqlite3_finalize(lat);
    sqlite3_finalize(pool);
    return rc;
}

static int insert_jobs(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO job (run_id, workload, job_id, submit_s, start_s, end_s,"
        " gpus, gpu_hours, interruptions, lost_gpu_hours, deadline_s,"
        " met_deadline, cost_usd, status, reason)"
        " VALUES (?,?,?,?,?,?, ?,?,?,?,?,?, ?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->njobs; i++) {
        const fs_job_row *j = &r->jobs[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(j, workload), &rc);
        bind_text(st, 3, FIELD(j, job_id), &rc);
        bind_real(st, 4, j->submit_s, &rc);
        bind_real(st, 5, j->start_s, &rc);
        bind_real(st, 6, j->end_s, &rc);
        bind_int(st, 7, j->gpus, &rc);
        bind_real(st, 8, j->gpu_hours, &rc);
        bind_int(st, 9, j->interruptions, &rc);
        bind_real(st, 10, j->lost_gpu_hours, &rc);
        bind_real(st, 11, j->deadline_s, &rc);
        if (rc == SQLITE_OK)
            rc = j->met_deadline < 0 ? sqlite3_bind_null(st, 12)
                                     : sqlite3_bind_int(st, 12,
                                                        j->met_deadline != 0);
        bind_real(st, 13, j->cost_usd, &rc);
        bind_text(st, 14, FIELD(j, status), &rc);
        bind_text(st, 15, FIELD(j, reason), &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_interrupts(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO interruption (run_id, pool, t_s, instance_id, notice_s,"
        " work_lost_s) VALUES (?,?,?,?,?,?)", -1, &st, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->ninterrupts; i++) {
        const fs_interrupt_row *x = &r->interrupts[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, x->pool, FS_NAME_MAX, &rc);
        bind_real(st, 3, x->t_s, &rc);
        bind_int(st, 4, x->instance_id, &rc);
        bind_real(st, 5, x->notice_s, &rc);
        bind_real(st, 6, x->work_lost_s, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

static int insert_slices(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO slice_utilization (run_id, pool, profile,"
        " slices_per_gpu, compute_share, slice_hours, busy_hours,"
        " utilization, idle_cost_usd, sm_share)"
        " VALUES (?,?,?,?,?,?,?,?,?,?)", -1, &st,
        NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nslices; i++) {
        const fs_slice_row *x = &r->slices[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, x->pool, FS_NAME_MAX, &rc);
        bind_text(st, 3, x->profile, sizeof x->profile, &rc);
        bind_int(st, 4, x->slices_per_gpu, &rc);
        bind_real(st, 5, x->compute_share, &rc);
        bind_real(st, 6, x->slice_hours, &rc);
        bind_real(st, 7, x->busy_hours, &rc);
        bind_real(st, 8, x->utilization, &rc);
        bind_real(st, 9, x->idle_cost_usd, &rc);
        bind_real(st, 10, x->sm_share, &rc);
        rc = step_row(st, rc);
    }
    sqlite3_finalize(st);
    return rc;
}

/* cost_allocation: an idle row's workload is NULL, and so is the profile
 * of every row but a MIG slice's idle one. */
static int insert_allocs(fs_store *s, const fs_results *r, long long id)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(s->db,
        "INSERT INTO cost_allocation (run_id, month, workload, pool, tags,"
        " cost_usd, gpu_hours, profile) VALUES (?,?,?,?,?,?,?,?)", -1, &st,
        NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < r->nallocs; i++) {
        const fs_alloc_row *a = &r->allocs[i];
        bind_run_id(s, st, id, &rc);
        bind_text(st, 2, FIELD(a, month), &rc);
        if (rc == SQLITE_OK && !a->workload[0])
            rc = sqlite3_bind_null(st, 3);
        else
            bind_text(st, 3, FIELD(a, workload), &rc);
        bind_text(st, 4, FIELD(a, pool), &rc);
        bind_text(st, 5, FIELD(a, tags), &rc);
        bind_real(st, 6, a->cost_usd, &rc);
        bind_real(st, 7, a->gpu_hours, &rc);
        if (rc == SQLITE_OK && !a->profile[0])
            rc = sqlite3_bind_null(st, 8);
        else
            bind_text(st, 8, FIELD(a, profile), &rc);
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
    if (rc == SQLITE_OK)
        rc = insert_costs(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_latency(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_util(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_jobs(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_pools(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_allocs(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_interrupts(s, r, id);
    if (rc == SQLITE_OK)
        rc = update_llm(s, r, id);
    if (rc == SQLITE_OK)
        rc = insert_slices(s, r, id);
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
