/* summary.h -- the human summary `fleetsim run` prints after a run. */
#ifndef FS_SUMMARY_H
#define FS_SUMMARY_H

#include <stdio.h>
#include "sim/fleet/run/results.h"

/* Monthly cost by pool and pricing, pool utilization, and per workload the
 * request count, p50/p99 latency, mean wait and SLO attainment. */
void fs_summary_print(FILE *out, const fs_results *r, long run_id,
                      const char *db, double wall_s);

/* "$12,345.67" (summary_format.c) */
void fs_format_money(double usd, char *buf, size_t len);
/* A duration for a fixed-width column (run, sweep): "850ms", "1.25s",
 * "3.4m", "2.1h", under a millisecond "188us", "42.1ns", "<1ns"; "-" for
 * NaN.  Never an exponent. */
void fs_format_seconds(double s, char *buf, size_t len);
/* A latency for a table (compare, the report): seconds from a millisecond
 * up, at least 4 significant digits ("0.1 s", "63.4 s", "1,234 s"),
 * under it "188.4 us", "42.1 ns", "< 1 ns"; "-" for NaN.  Never an
 * exponent. */
void fs_format_latency(double s, char *buf, size_t len);
/* At least 4 significant digits, no exponent: "0.01234", "1.5", "12,345"
 * (the number of fs_format_latency). */
void fs_format_sig(double v, char *buf, size_t size);

/* The days of calendar month "YYYY-MM" that a run from start
 * ("YYYY-MM-DD[ HH:MM]", UTC) over horizon seconds covers (*run; NaN when
 * start does not read) and the month's days (*days; 0 when month does
 * not read). */
void fs_month_days(const char *month, const char *start, double horizon,
                   double *run, int *days);
/* The month as a chart labels it: "2026-01" when the run covers all of
 * it, "2026-01 (7 of 31 days)" or "2026-01 (5 hours of 31 days)" when
 * partly. */
void fs_format_month(const char *month, const char *start, double horizon,
                     char *buf, size_t len);

/* The costs beside the GPU hour and the budgets (summary_extra.c);
 * nothing for a run without either. */
void fs_summary_print_extra(FILE *out, const fs_results *r);
/* The LLM serving lines (summary_llm.c); nothing without an llm
 * workload. */
void fs_summary_print_llm(FILE *out, const fs_results *r);
/* Under llm workload l: the replicas hosting its model on a pool shared
 * by several, and its LoRA adapters (summary_adapter.c). */
void fs_summary_print_tenants(FILE *out, const fs_latency_row *l,
                              const fs_results *r);

#endif
