/* store_changes.h -- what the report's savings attribution reads from the
 * results database (store_changes.c): a run's source (its scenario text,
 * file, seed), each pool's bill as a 730-hour run rate with its idle
 * part, how well a run served, and the runs of a name prefix (`plan`'s
 * runs).  No SQL outside the store. */
#ifndef FS_STORE_CHANGES_H
#define FS_STORE_CHANGES_H

#include <stddef.h>
#include "sim/base/error.h"
#include "sim/base/names.h"
#include "sim/store/store.h"

typedef struct fs_run_source {
    char name[FS_NAME_MAX * 4];
    char *scenario;       /* the file as given to run (run.scenario) */
    char *text;           /* run.scenario_text */
    long seed, replication;
    double horizon_s;
} fs_run_source;

/* 0, or -1 with err (no such run, or SQLite's error). */
int fs_store_run_source(fs_store *s, long run_id, fs_run_source *out,
                        fs_error *err);
void fs_run_source_free(fs_run_source *r);

typedef struct fs_pool_rate {
    char pool[FS_NAME_MAX];
    char pricing[32];
    double cost;        /* the pool's bill over the run (cost_monthly) */
    double rate;        /* the same per 730-hour month */
    double idle_rate;   /* its idle part (cost_allocation, no workload) */
    int scales;         /* its instance count moved during the run */
} fs_pool_rate;

/* Every pool of run_id in stored order, malloc'd into *out (free it). */
int fs_store_pool_rates(fs_store *s, long run_id, fs_pool_rate **out,
                        size_t *n, fs_error *err);

/* How a run served: the lowest SLO attainment of its workloads with an
 * SLO (NaN: none has one), its unfinished share of requests and the
 * training jobs that missed their deadline. */
typedef struct fs_run_service {
    double min_slo, unfinished_share, jobs_missed;
} fs_run_service;
int fs_store_run_service(fs_store *s, long run_id, fs_run_service *out,
                         fs_error *err);

/* The ids of the runs whose name begins with prefix, oldest first,
 * malloc'd into *ids (free it). */
int fs_store_runs_with_prefix(fs_store *s, const char *prefix, long **ids,
                              size_t *n, fs_error *err);

#endif
