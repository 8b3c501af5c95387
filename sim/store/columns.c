/* columns.c -- the run_summary columns; see columns.h.
 *
 * Adding a column: one entry below (in the place it should have in the
 * view), FS_SUMMARY_COLUMNS + 1, and a schema version with a migration
 * (store_schema.c) so that existing databases get the new view; `make man`
 * lists it in doc/fleetsim.1 and tests/cli_docs.sh wants it in doc/database.md.
 *
 * The expressions read the child tables through correlated subqueries
 * rather than joins: a run without rows in some child table still gets
 * its one summary row. */
#include "sim/store/columns.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Sums over a run's rows of a child table. */
#define RUN_COST "coalesce((SELECT sum(c.cost_usd) FROM cost_monthly c" \
                 " WHERE c.run_id = r.run_id), 0)"
#define POOL_SUM(col) "coalesce((SELECT sum(p." col ") FROM pool p" \
                      " WHERE p.run_id = r.run_id), 0)"

/* Unfinished and dropped requests of a run, over its workloads. */
#define UNFINISHED "coalesce((SELECT sum(coalesce(l.unfinished, 0) +" \
                   " coalesce(l.dropped, 0)) FROM latency l" \
                   " WHERE l.run_id = r.run_id), 0)"

const fs_column fs_summary_columns[] = {
    {"run_id", "r.run_id", FS_COL_ID, NULL, "the run's id"},
    {"name", "r.name", FS_COL_TEXT, NULL,
     "the run's name ([scenario] name or --name)"},
    {"scenario", "r.scenario", FS_COL_TEXT, "scenario",
     "the scenario file, as given to run"},
    {"seed", "r.seed", FS_COL_ID, "seed", "the random seed"},
    {"replication", "r.replication", FS_COL_ID, "replication",
     "the replication, 0..replications-1"},
    {"horizon_s", "r.horizon_s", FS_COL_DURATION, "horizon",
     "simulated time, seconds"},
    {"total_cost_usd", "round(" RUN_COST ", 2)", FS_COL_MONEY, "total cost",
     "the horizon's cost, all pools, dollars"},
    /* a run rate: the horizon's cost scaled to a 730-hour month, from the
     * cost before rounding (runs stored before version 14: the bill's) */
    {"cost_per_month_usd",
     "CASE WHEN r.horizon_s > 0 THEN round(coalesce(r.cost_unrounded_usd, "
     RUN_COST ") * 730 * 3600 / r.horizon_s, 2) END",
     FS_COL_MONEY, "monthly run rate (730 h)",
     "the monthly run rate: the horizon's unrounded cost x 730 h / horizon "
     "(the calendar-month bill, to the cent, is in cost_monthly)"},
    {"gpu_hours_provisioned", POOL_SUM("gpu_hours_provisioned"),
     FS_COL_HOURS, "GPU-hours provisioned",
     "GPU-hours from launch to termination, all pools"},
    {"gpu_hours_busy", POOL_SUM("gpu_hours_busy"), FS_COL_HOURS,
     "GPU-hours busy", "GPU-hours serving requests, all pools"},
    /* no GPU provisioned: no utilization, not 0/0 */
    {"utilization",
     "(SELECT CASE WHEN sum(p.gpu_hours_provisioned) > 0 THEN"
     " sum(p.gpu_hours_busy) / sum(p.gpu_hours_provisioned) END"
     " FROM pool p WHERE p.run_id = r.run_id)",
     FS_COL_RATIO, "utilization",
     "busy over provisioned GPU-hours; NULL with no GPU provisioned"},
    {"requests", "r.requests", FS_COL_COUNT, "requests",
     "requests served"},
    {"requests_dropped", "r.requests_dropped", FS_COL_COUNT,
     "requests dropped", "arrivals dropped by queue_max"},
    {"latency_mean_s", "r.latency_mean_s", FS_COL_SECONDS, "latency mean (finished requests)",
     "mean latency, arrival to completion, of the finished requests, seconds"},
    {"latency_p50_s", "r.latency_p50_s", FS_COL_SECONDS, "latency p50 (finished requests)",
     "median latency of the finished requests, seconds"},
    {"latency_p99_s", "r.latency_p99_s", FS_COL_SECONDS, "latency p99 (finished requests)",
     "99th percentile latency of the finished requests (see "
     "unfinished_share), seconds"},
    {"wait_mean_s", "r.wait_mean_s", FS_COL_SECONDS, "wait mean",
     "mean wait, arrival to start of service, seconds"},
    {"slo_attainment", "r.slo_attainment", FS_COL_RATIO, "SLO attainment",
     "share of served requests within their workload's slo_p99, over the "
     "workloads that have one"},
    {"jobs", "(SELECT count(*) FROM job j WHERE j.run_id = r.run_id)",
     FS_COL_COUNT, "jobs", "training jobs (rows of the job table)"},
    {"jobs_missed_deadline",
     "(SELECT count(*) FROM job j WHERE j.run_id = r.run_id"
     " AND j.met_deadline = 0)",
     FS_COL_COUNT, "jobs missed deadline",
     "training jobs that missed their deadline"},
    {"interruptions", POOL_SUM("interruptions"), FS_COL_COUNT,
     "interruptions", "spot interruptions, all pools (the interruption "
     "table has one row each)"},
    /* overload never hidden: latency percentiles are over finished
     * requests only, so what did not finish is shown beside them */
    {"requests_unfinished", UNFINISHED, FS_COL_COUNT,
     "requests unfinished",
     "requests that arrived but had not finished by the horizon (still "
     "queued or in service), plus those dropped by queue_max"},
    {"unfinished_share",
     "CASE WHEN r.requests > 0 THEN " UNFINISHED " * 1.0 / r.requests END",
     FS_COL_RATIO, "unfinished share",
     "requests_unfinished over the requests that arrived; a run above 1% is "
     "overloaded (its latency percentiles cover finished requests only)"},
    /* LLM serving (schema version 6): NULL without an llm workload */
    {"ttft_p99_s",
     "(SELECT max(l.ttft_p99_s) FROM latency l WHERE l.run_id = r.run_id)",
     FS_COL_SECONDS, "TTFT p99",
     "time to first token, 99th percentile, the largest of the llm "
     "workloads', seconds"},
    {"tpot_p99_s",
     "(SELECT max(l.tpot_p99_s) FROM latency l WHERE l.run_id = r.run_id)",
     FS_COL_SECONDS, "TPOT p99",
     "time per output token after the first, 99th percentile, the largest "
     "of the llm workloads', seconds"},
    {"tokens_out",
     "(SELECT sum(l.tokens_out) FROM latency l WHERE l.run_id = r.run_id)",
     FS_COL_NUMBER, "output tokens",
     "output tokens of the llm requests completed"},
    {"cost_per_mtok_out_usd",
     "(SELECT CASE WHEN sum(l.tokens_out) > 0 THEN " RUN_COST
     " * 1e6 / sum(l.tokens_out) END FROM latency l"
     " WHERE l.run_id = r.run_id)",
     FS_COL_MONEY, "cost per million output tokens",
     "the horizon's cost, all pools, per million output tokens"},
    {"cost_per_mtok_usd",
     "(SELECT CASE WHEN sum(l.tokens_in + l.tokens_out) > 0 THEN " RUN_COST
     " * 1e6 / sum(l.tokens_in + l.tokens_out) END FROM latency l"
     " WHERE l.run_id = r.run_id)",
     FS_COL_MONEY, "cost per million tokens",
     "the horizon's cost, all pools, per million tokens in and out"},
};

_Static_assert(sizeof fs_summary_columns / sizeof fs_summary_columns[0] ==
               FS_SUMMARY_COLUMNS, "FS_SUMMARY_COLUMNS is the table's size");

const char *fs_column_kind_name(fs_column_kind kind)
{
    static const char *const names[] = {
        [FS_COL_TEXT] = "text",         [FS_COL_ID] = "id",
        [FS_COL_MONEY] = "money",       [FS_COL_HOURS] = "hours",
        [FS_COL_RATIO] = "ratio",       [FS_COL_COUNT] = "count",
        [FS_COL_NUMBER] = "number",     [FS_COL_SECONDS] = "seconds",
        [FS_COL_DURATION] = "duration",
    };
    return (size_t)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

int fs_column_kind_compares(fs_column_kind kind)
{
    return kind != FS_COL_TEXT && kind != FS_COL_ID;
}

/* Appends to buf as snprintf would at offset n, never past size; returns
 * the new length needed.  With buf NULL it only counts. */
static size_t append(char *buf, size_t size, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t size, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = buf && n < size ? vsnprintf(buf + n, size - n, fmt, ap)
                            : vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    return n + (k > 0 ? (size_t)k : 0);
}

/* The view's text into buf (NULL: only counted); returns its length. */
static size_t view_sql(char *buf, size_t size)
{
    size_t n = append(buf, size, 0, "CREATE VIEW run_summary AS SELECT");
    for (size_t i = 0; i < FS_SUMMARY_COLUMNS; i++)
        n = append(buf, size, n, "%s\n  %s AS %s", i ? "," : "",
                   fs_summary_columns[i].sql, fs_summary_columns[i].name);
    return append(buf, size, n, "\nFROM run r");
}

char *fs_summary_view_sql(void)
{
    size_t n = view_sql(NULL, 0);
    char *sql = malloc(n + 1);
    if (sql)
        view_sql(sql, n + 1);
    return sql;
}

size_t fs_summary_column_list(char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < FS_SUMMARY_COLUMNS; i++)
        n = append(buf, size, n, "%s%s", i ? ", " : "",
                   fs_summary_columns[i].name);
    return n;
}
