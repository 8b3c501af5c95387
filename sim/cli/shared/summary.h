/* summary.h -- the human summary `fleetsim run` prints after a run. */
#ifndef FS_SUMMARY_H
#define FS_SUMMARY_H

#include <stdio.h>
#include "sim/fleet/results.h"

/* Monthly cost by pool and pricing, pool utilization, and per workload the
 * request count, p50/p99 latency, mean wait and SLO attainment. */
void fs_summary_print(FILE *out, const fs_results *r, long run_id,
                      const char *db, double wall_s);

/* "$12,345.67" (summary_format.c) */
void fs_format_money(double usd, char *buf, size_t len);
/* "850ms", "1.25s", "3.4m", "2.1h"; "-" for NaN. */
void fs_format_seconds(double s, char *buf, size_t len);

/* The LLM serving lines (summary_llm.c); nothing without an llm
 * workload. */
void fs_summary_print_llm(FILE *out, const fs_results *r);

#endif
