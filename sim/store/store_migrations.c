/* store_migrations.c -- the results database's schema as SQL text, one
 * migration per version: fs_schema_migrations[v] takes a database from
 * PRAGMA user_version v to v + 1 (store_schema.c runs them, in one
 * transaction).  A new version is a new schema_vN here, its line in the
 * table, FS_SCHEMA_VERSION in store.h, and its columns in store_schema.c's
 * required[]; a migration is never edited once released, because
 * databases written by it exist. */
#include "sim/store/store_impl.h"

/* Schema version 1.  Contract columns first in every table, then ours.
 * Its run_summary is history: version 2 replaces it. */
static const char schema_v1[] =
    "CREATE TABLE run ("
    " run_id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " scenario TEXT,"
    " scenario_text TEXT,"
    " seed INTEGER,"
    " replication INTEGER,"
    " started_at TEXT,"
    " finished_at TEXT,"
    " fleetsim_version TEXT,"
    " start_date TEXT,"
    " horizon_s REAL,"
    " months REAL,"
    " requests INTEGER,"
    " requests_dropped INTEGER,"
    " latency_mean_s REAL,"
    " latency_p50_s REAL,"
    " latency_p99_s REAL,"
    " wait_mean_s REAL,"
    " slo_attainment REAL,"
    " events INTEGER);\n"
    "CREATE INDEX run_name ON run(name);\n"
    "CREATE TABLE cost_monthly ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " month TEXT,"
    " pool TEXT,"
    " pricing TEXT,"
    " cost_usd REAL,"
    " gpu_hours REAL);\n"
    "CREATE INDEX cost_monthly_run ON cost_monthly(run_id);\n"
    "CREATE TABLE latency ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT,"
    " count INTEGER,"
    " mean_s REAL,"
    " p50_s REAL,"
    " p90_s REAL,"
    " p95_s REAL,"
    " p99_s REAL,"
    " p999_s REAL,"
    " slo_s REAL,"
    " slo_attainment REAL,"
    " ttft_p50_s REAL,"
    " ttft_p99_s REAL,"
    " tpot_p50_s REAL,"
    " tpot_p99_s REAL,"
    " arrivals INTEGER,"
    " dropped INTEGER,"
    " unfinished INTEGER,"
    " wait_mean_s REAL);\n"
    "CREATE INDEX latency_run ON latency(run_id);\n"
    "CREATE TABLE utilization ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " pool TEXT,"
    " t_s REAL,"
    " instances_up REAL,"
    " gpus_provisioned REAL,"
    " gpus_busy REAL,"
    " queue_len REAL);\n"
    "CREATE INDEX utilization_run ON utilization(run_id);\n"
    "CREATE TABLE job ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT,"
    " job_id TEXT,"
    " submit_s REAL,"
    " start_s REAL,"
    " end_s REAL,"
    " gpus INTEGER,"
    " gpu_hours REAL,"
    " interruptions INTEGER,"
    " lost_gpu_hours REAL,"
    " deadline_s REAL,"
    " met_deadline INTEGER);\n"
    "CREATE INDEX job_run ON job(run_id);\n"
    "CREATE TABLE pool ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " pool TEXT,"
    " gpu TEXT,"
    " pricing TEXT,"
    " instance TEXT,"
    " price_usd_h REAL,"
    " gpu_hours_provisioned REAL,"
    " gpu_hours_busy REAL,"
    " launches INTEGER,"
    " interruptions INTEGER);\n"
    "CREATE INDEX pool_run ON pool(run_id);\n"
    /* Correlated subqueries rather than joins: a run without rows in some
     * child table still gets its one summary row. */
    "CREATE VIEW run_summary AS SELECT"
    " r.run_id AS run_id,"
    " r.name AS name,"
    " r.scenario AS scenario,"
    " r.seed AS seed,"
    " r.replication AS replication,"
    " r.horizon_s AS horizon_s,"
    " round(coalesce((SELECT sum(c.cost_usd) FROM cost_monthly c"
    "  WHERE c.run_id = r.run_id), 0), 2) AS total_cost_usd,"
    " CASE WHEN r.months > 0 THEN"
    "  round(coalesce((SELECT sum(c.cost_usd) FROM cost_monthly c"
    "   WHERE c.run_id = r.run_id), 0) / r.months, 2) END"
    "  AS cost_per_month_usd,"
    " coalesce((SELECT sum(p.gpu_hours_provisioned) FROM pool p"
    "  WHERE p.run_id = r.run_id), 0) AS gpu_hours_provisioned,"
    " coalesce((SELECT sum(p.gpu_hours_busy) FROM pool p"
    "  WHERE p.run_id = r.run_id), 0) AS gpu_hours_busy,"
    " (SELECT CASE WHEN sum(p.gpu_hours_provisioned) > 0 THEN"
    "   sum(p.gpu_hours_busy) / sum(p.gpu_hours_provisioned) END"
    "  FROM pool p WHERE p.run_id = r.run_id) AS utilization,"
    " r.requests AS requests,"
    " r.requests_dropped AS requests_dropped,"
    " r.latency_mean_s AS latency_mean_s,"
    " r.latency_p50_s AS latency_p50_s,"
    " r.latency_p99_s AS latency_p99_s,"
    " r.wait_mean_s AS wait_mean_s,"
    " r.slo_attainment AS slo_attainment,"
    " (SELECT count(*) FROM job j WHERE j.run_id = r.run_id) AS jobs,"
    " (SELECT count(*) FROM job j WHERE j.run_id = r.run_id"
    "  AND j.met_deadline = 0) AS jobs_missed_deadline,"
    " coalesce((SELECT sum(p.interruptions) FROM pool p"
    "  WHERE p.run_id = r.run_id), 0) AS interruptions"
    " FROM run r;\n";

/* Version 2: cost_per_month_usd becomes the monthly run rate (the horizon's
 * cost scaled to a 730-hour month; version 1 divided by the calendar months
 * covered, which read as a bill), and latency gains mean_batch_size.  The
 * new view itself is created from columns.c after the last migration (see
 * create_view). */
static const char schema_v2[] =
    "DROP VIEW run_summary;\n"
    "ALTER TABLE latency ADD COLUMN mean_batch_size REAL;\n";

/* Version 3: showback.  cost_allocation splits each pool's monthly cost
 * among the workloads by busy GPU-seconds, idle (workload NULL) apart; the
 * pool table gains what export needs to tell billed from amortized cost
 * (a reservation's upfront payment, term and count) and the pool's tags. */
static const char schema_v3[] =
    "CREATE TABLE cost_allocation ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " month TEXT,"
    " workload TEXT,"
    " pool TEXT,"
    " tags TEXT,"
    " cost_usd REAL,"
    " gpu_hours REAL);\n"
    "CREATE INDEX cost_allocation_run ON cost_allocation(run_id);\n"
    "ALTER TABLE pool ADD COLUMN instance_type TEXT;\n"
    "ALTER TABLE pool ADD COLUMN tags TEXT;\n"
    "ALTER TABLE pool ADD COLUMN upfront_usd REAL;\n"
    "ALTER TABLE pool ADD COLUMN term_months INTEGER;\n"
    "ALTER TABLE pool ADD COLUMN instances INTEGER;\n";

/* Version 4: training.  Each job row gains its cost (its GPU-seconds at
 * its pools' price), its status at the horizon (finished, running, queued,
 * rejected, not-submitted) and, for a rejected job, the reason. */
static const char schema_v4[] =
    "ALTER TABLE job ADD COLUMN cost_usd REAL;\n"
    "ALTER TABLE job ADD COLUMN status TEXT;\n"
    "ALTER TABLE job ADD COLUMN reason TEXT;\n";
/* Version 5: spot.  One row per interruption (which instance, when, its
 * notice and the service seconds lost with it); the pool table gains the
 * requests an interruption sent back to the queue, the work lost and the
 * on-demand fallback's instance-hours and their cost. */
static const char schema_v5[] =
    "CREATE TABLE interruption ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " pool TEXT,"
    " t_s REAL,"
    " instance_id INTEGER,"
    " notice_s REAL,"
    " work_lost_s REAL);\n"
    "CREATE INDEX interruption_run ON interruption(run_id);\n"
    "ALTER TABLE pool ADD COLUMN requests_retried INTEGER;\n"
    "ALTER TABLE pool ADD COLUMN work_lost_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN fallback_hours REAL;\n"
    "ALTER TABLE pool ADD COLUMN fallback_cost_usd REAL;\n";

/* Version 6: reservations by the hour.  A reserved pool's upfront payment
 * (pool.upfront_usd, per instance) is paid at the run's start_date and
 * again every term (pool.term_months) while pool.renew is 1; with renew 0
 * nothing is charged after the term.  NULL for other options.  A pool's
 * reserved_* quote keys, as `roi --rate` words ("1y:none=2.10/h"), in
 * rate_quotes (NULL: none). */
static const char schema_v6[] =
    "ALTER TABLE pool ADD COLUMN renew INTEGER;\n"
    "ALTER TABLE pool ADD COLUMN rate_quotes TEXT;\n";

/* Version 7: FOCUS prices.  The pool table gains what `export --format
 * focus` and the realised saving need besides the bill: the on-demand list
 * price of an instance-hour (ListUnitPrice; NULL when the catalog cannot
 * say), a commitment's rate per instance-hour (ContractedUnitPrice: a
 * reservation's hourly fee plus its upfront spread over the term's hours,
 * or a savings plan's discounted price), the commitment's $ an hour, and
 * the GPUs per instance (GPU-hours to instance-hours). */
static const char schema_v7[] =
    "ALTER TABLE pool ADD COLUMN list_price_usd_h REAL;\n"
    "ALTER TABLE pool ADD COLUMN contracted_price_usd_h REAL;\n"
    "ALTER TABLE pool ADD COLUMN commitment_usd_h REAL;\n"
    "ALTER TABLE pool ADD COLUMN gpus_per_instance INTEGER;\n";

/* Version 8: overload never hidden.  run_summary gains
 * requests_unfinished (arrived but not finished by the horizon, plus
 * dropped, from the latency table's own columns) and unfinished_share; the
 * view is created anew from columns.c after the last migration, so there
 * is nothing else to change. */
static const char schema_v8[] = "";

/* Version 9: LLM serving.  latency gains, for llm workloads (NULL for
 * others), the mean and p90 of TTFT and TPOT, their objectives and attainment,
 * tokens in and out, tokens per provisioned GPU-second, the workload's
 * cost, cost per million output tokens and per million tokens, and the
 * requests preempted by a full KV cache; pool gains the tokens served,
 * per GPU-second and the cost per million tokens. */
static const char schema_v9[] =
    "ALTER TABLE latency ADD COLUMN ttft_mean_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN tpot_mean_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN ttft_p90_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN tpot_p90_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN slo_ttft_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN slo_ttft_attainment REAL;\n"
    "ALTER TABLE latency ADD COLUMN slo_tpot_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN slo_tpot_attainment REAL;\n"
    "ALTER TABLE latency ADD COLUMN tokens_in REAL;\n"
    "ALTER TABLE latency ADD COLUMN tokens_out REAL;\n"
    "ALTER TABLE latency ADD COLUMN tokens_in_per_gpu_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN tokens_out_per_gpu_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN cost_usd REAL;\n"
    "ALTER TABLE latency ADD COLUMN cost_per_mtok_out_usd REAL;\n"
    "ALTER TABLE latency ADD COLUMN cost_per_mtok_usd REAL;\n"
    "ALTER TABLE latency ADD COLUMN preempted INTEGER;\n"
    "ALTER TABLE pool ADD COLUMN tokens_in REAL;\n"
    "ALTER TABLE pool ADD COLUMN tokens_out REAL;\n"
    "ALTER TABLE pool ADD COLUMN tokens_in_per_gpu_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN tokens_out_per_gpu_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN cost_per_mtok_out_usd REAL;\n"
    "ALTER TABLE pool ADD COLUMN cost_per_mtok_usd REAL;\n";

/* Version 10: GPU sharing.  One row per MIG profile of a pool cut into
 * slices: its provisioned and busy slice-hours, its utilization and its
 * idle cost (the pool's cost x its compute share x its idle fraction). */
static const char schema_v10[] =
    "CREATE TABLE slice_utilization ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " pool TEXT,"
    " profile TEXT,"
    " slices_per_gpu INTEGER,"
    " compute_share REAL,"
    " slice_hours REAL,"
    " busy_hours REAL,"
    " utilization REAL,"
    " idle_cost_usd REAL);\n"
    "CREATE INDEX slice_utilization_run ON slice_utilization(run_id);\n";

/* Version 11: a run's identity.  run.uid is made when the run is first
 * stored (128 random bits, as 32 hex digits) and kept when the run is
 * copied (`fleetsim import`, `fleetsim merge`), so that the same run is
 * never copied twice into one database.  Runs stored before have none;
 * they get one made of what tells them apart (their id in this file, name,
 * seed, replication, start and end time, events): the same file migrated
 * twice gives its runs the same identities. */
static const char schema_v11[] =
    "ALTER TABLE run ADD COLUMN uid TEXT;\n"
    "UPDATE run SET uid = 'legacy:' || run_id || ':' || name || ':' ||"
    " coalesce(seed, '') || ':' || coalesce(replication, '') || ':' ||"
    " coalesce(started_at, '') || ':' || coalesce(finished_at, '') || ':' ||"
    " coalesce(events, '');\n"
    "CREATE UNIQUE INDEX run_uid ON run(uid);\n";

/* Version 12: each slice's idle share.  A MIG pool's idle cost in
 * cost_allocation is split by slice profile: an idle row (workload NULL)
 * names its profile; the rest of the GPU outside every slice is the idle
 * row without one, as are all idle rows of other pools. */
static const char schema_v12[] =
    "ALTER TABLE cost_allocation ADD COLUMN profile TEXT;\n";

/* Version 13: LLM latency per pool, and waits.  A pool serving an llm
 * gains TTFT, TPOT and end-to-end p50, p90, p99 and mean over the measured
 * requests of every workload it serves (NULL for other pools); every
 * workload's latency row gains the p50, p90 and p99 of its finished
 * requests' waits (arrival to start of service), which `plan --slo
 * wait_p99<=...` reads. */
static const char schema_v13[] =
    "ALTER TABLE pool ADD COLUMN ttft_p50_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN ttft_p99_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN tpot_p50_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN tpot_p99_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN e2e_p50_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN e2e_p99_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN ttft_p90_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN tpot_p90_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN e2e_p90_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN ttft_mean_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN tpot_mean_s REAL;\n"
    "ALTER TABLE pool ADD COLUMN e2e_mean_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN wait_p50_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN wait_p90_s REAL;\n"
    "ALTER TABLE latency ADD COLUMN wait_p99_s REAL;\n";

/* Version 14: exact run rates.  run.cost_unrounded_usd holds the horizon's
 * cost before the bill's rounding to cents, which run_summary's
 * cost_per_month_usd scales to a 730-hour month (a 5-minute run's $0.31
 * bill would otherwise be scaled 8,760-fold, cent and all).  Runs stored
 * before have NULL there, and keep the rate of their rounded bill. */
static const char schema_v14[] =
    "ALTER TABLE run ADD COLUMN cost_unrounded_usd REAL;\n";

/* Version 15: MIG utilization by compute share.  A busy MIG slice counts
 * in pool.gpu_hours_busy (and so in utilization and cost_allocation) as
 * its compute slices over the GPU's (a 1g of an A100's seven: 1/7), so a
 * fully used layout reads 100%; the SM share it counted as before (14 of
 * 108 SMs) stays in pool.gpu_hours_busy_sm and slice_utilization.sm_share,
 * which run_summary's sm_utilization reads.  Runs stored before have NULL
 * there: their gpu_hours_busy was counted by SMs already. */
static const char schema_v15[] =
    "ALTER TABLE pool ADD COLUMN gpu_hours_busy_sm REAL;\n"
    "ALTER TABLE slice_utilization ADD COLUMN sm_share REAL;\n";

/* Version 16: prefix caching.  One row per llm workload (pool NULL) and
 * per pool serving one (workload NULL) where a prefix cache served: the
 * prompt tokens, those found cached, their share (the token hit rate),
 * and the cost per million tokens, all of them and the computed ones
 * (cached input tokens left out, as API prices list cached input apart).
 * Runs without a cache have no rows, so the other tables are as before. */
static const char schema_v16[] =
    "CREATE TABLE prefix_cache ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, pool TEXT, tokens_in REAL, tokens_cached REAL,"
    " token_hit_rate REAL, cost_per_mtok_usd REAL,"
    " cost_per_mtok_uncached_usd REAL);\n"
    "CREATE INDEX prefix_cache_run ON prefix_cache(run_id);\n";

/* Version 17: speculative decoding.  One row per llm workload with spec
 * = (a draft model or MTP head): the proposer, its draft model (NULL for
 * mtp), k and the acceptance, the decoding requests' steps, the tokens a
 * step emitted on average and the law's mean (1 - a^(k+1)) / (1 - a).
 * Runs without spec have no rows, so the other tables are as before. */
static const char schema_v17[] =
    "CREATE TABLE spec_decode ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, kind TEXT, draft_model TEXT, k INTEGER,"
    " acceptance REAL, steps INTEGER, accepted_mean REAL,"
    " expected_mean REAL);\n"
    "CREATE INDEX spec_decode_run ON spec_decode(run_id);\n";
/* Version 18: disaggregated prefill and decode.  One row per llm workload
 * served by a prefill pool and a decode pool: the link's Gbps (the lower
 * of the two pools' network bandwidths), the KV caches sent over it, their
 * bytes, and the mean seconds one crossed the link and waited for it (both
 * part of the TTFT).  Runs without such a workload have no rows. */
static const char schema_v18[] =
    "CREATE TABLE kv_transfer ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, link_gbps REAL, transfers REAL, kv_bytes REAL,"
    " transfer_mean_s REAL, wait_mean_s REAL);\n"
    "CREATE INDEX kv_transfer_run ON kv_transfer(run_id);\n";
/* Version 19: cold starts.  Per pool, the launched LLM replicas that
 * loaded their weights before serving (pool.cold_starts) and the seconds
 * they spent loading (pool.load_s, billed as idle).  Runs stored before
 * have NULL there. */
static const char schema_v19[] =
    "ALTER TABLE pool ADD COLUMN cold_starts INTEGER;\n"
    "ALTER TABLE pool ADD COLUMN load_s REAL;\n";

/* Version 20: energy.  Per pool, the kWh at the meter over the run
 * (models/purchase/energy.h: its GPUs' idle and TDP power by their
 * utilization; an owned pool's facility, PUE and host share; a cloud
 * pool's GPUs alone at PUE 1), and per showback row (cost_allocation)
 * its GPU-hours' share: busy ones at the TDP, idle ones at the idle
 * power.  Runs stored before have NULL there. */
static const char schema_v20[] =
    "ALTER TABLE pool ADD COLUMN energy_kwh REAL;\n"
    "ALTER TABLE cost_allocation ADD COLUMN energy_kwh REAL;\n";
/* Version 21: growth with its uncertainty.  One row per workload with
 * growth = (G%/month, or G ± S): the mean rate a month, the spread (the
 * standard deviation the replications draw from; 0 without ±) and the
 * rate this replication drew, which `forecast` and `commit --horizon`
 * grow the run by.  Runs without growth have no rows. */
static const char schema_v21[] =
    "CREATE TABLE run_growth ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, growth_mean REAL, growth_spread REAL, growth REAL);\n"
    "CREATE INDEX run_growth_run ON run_growth(run_id);\n";
/* Version 22: costs beside the GPU hour, and budgets.  cost_extra: per
 * month, pool and workload, a training workload's checkpoints stored
 * (category Storage, GB-Month) or restored across zones, regions or
 * clouds (Networking, GB), with the count, quantity, published unit price
 * and cost, and the tags cost_allocation gives the pair.  budget: each
 * budget a run was checked against (scope NULL: the whole run, else a
 * tag KEY:VALUE), its limit per 730-hour month, the run's run rate in
 * scope and the overrun (0 within).  Runs without either have no rows. */
static const char schema_v22[] =
    "CREATE TABLE cost_extra ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " month TEXT, pool TEXT, workload TEXT, category TEXT, item TEXT,"
    " count INTEGER, quantity REAL, unit TEXT, unit_price_usd REAL,"
    " cost_usd REAL, tags TEXT);\n"
    "CREATE INDEX cost_extra_run ON cost_extra(run_id);\n"
    "CREATE TABLE budget ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " scope TEXT, source TEXT, limit_usd REAL, spend_usd REAL,"
    " overrun_usd REAL);\n"
    "CREATE INDEX budget_run ON budget(run_id);\n";

/* Version 23: many models and LoRA adapters on one fleet.  tenancy: one
 * row per llm workload with LoRA adapters or on a pool shared by several
 * models: the replicas hosting its model (0: any replica serves it), its
 * adapters, their rank, the most loaded a replica, the popularity's zipf
 * exponent (0 uniform), one load's seconds, the loads and the seconds
 * iterations waited for them.  adapter: one row per adapter (1 the most
 * popular): its requests and the popularity's share, tokens, mean TTFT
 * and end to end, loads, the GPU-seconds its requests took and the
 * workload's cost in that proportion, and its cost per million tokens.
 * Runs without either have no rows. */
static const char schema_v23[] =
    "CREATE TABLE tenancy ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, replicas INTEGER, adapters INTEGER,"
    " adapter_rank INTEGER, max_adapters INTEGER, zipf_s REAL,"
    " load_s REAL, loads INTEGER, load_wait_s REAL);\n"
    "CREATE INDEX tenancy_run ON tenancy(run_id);\n"
    "CREATE TABLE adapter ("
    " run_id INTEGER NOT NULL REFERENCES run ON DELETE CASCADE,"
    " workload TEXT, adapter INTEGER, requests INTEGER,"
    " share_expected REAL, tokens_in REAL, tokens_out REAL,"
    " ttft_mean_s REAL, e2e_mean_s REAL, loads INTEGER, gpu_s REAL,"
    " cost_usd REAL, cost_per_mtok_usd REAL);\n"
    "CREATE INDEX adapter_run ON adapter(run_id);\n";

/* Version 24: growth per pool.  run_growth gains `pool`: a pool's own
 * growth = (its demand's over the long view, overriding its workloads'
 * in `commit --horizon` and `forecast`) is one row with the pool set and
 * the workload NULL; a workload's rows keep the pool NULL. */
static const char schema_v24[] =
    "ALTER TABLE run_growth ADD COLUMN pool TEXT;\n";

/* fs_schema_migrations[v]: user_version v -> v + 1. */
const char *const fs_schema_migrations[FS_SCHEMA_VERSION] = {
    schema_v1,
    schema_v2,
    schema_v3,
    schema_v4,
    schema_v5,
    schema_v6,
    schema_v7,
    schema_v8,
    schema_v9,
    schema_v10,
    schema_v11,
    schema_v12,
    schema_v13,
    schema_v14,
    schema_v15,
    schema_v16,
    schema_v17,
    schema_v18,
    schema_v19,
    schema_v20,
    schema_v21,
    schema_v22,
    schema_v23,
    schema_v24,
};
