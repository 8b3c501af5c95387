/* run_exec.h -- simulate a scenario and store its replications: what
 * `fleetsim run` does once its options are read, shared with the worker
 * processes of `fleetsim sweep` (one call per grid point).
 *
 * The scenario is loaded (with its --set assignments) and the database
 * checked writable before any event; each replication is stored, in one
 * transaction, as soon as it is simulated, or kept in a database of its
 * own when --db cannot take it (store_keep.c). */
#ifndef FS_RUN_EXEC_H
#define FS_RUN_EXEC_H

#include "sim/app/progress.h"

/* What is printed on stdout after each replication. */
typedef enum fs_run_output {
    FS_RUN_SUMMARY,     /* the run summary (summary.h) */
    FS_RUN_IDS,         /* the new run id, one a line (--quiet) */
    FS_RUN_NOTHING,     /* nothing (sweep workers report through `stored`) */
} fs_run_output;

/* Called after each replication is stored (kept = 0) or kept aside
 * (kept = 1: run_id is its id in the kept database). */
typedef void (*fs_run_stored_fn)(void *ctx, long run_id,
                                 unsigned replication, int kept);

typedef struct fs_run_spec {
    const char *scenario;     /* the file, as given (run.scenario) */
    const char *db;           /* the results database */
    const char *name;         /* the runs' name; NULL: the scenario's */
    const char *label;        /* before each failure message, or NULL */
    char *const *sets;        /* SECTION.KEY=VALUE overrides */
    int nsets;
    int warnings;             /* print the scenario's and run's warnings */
    fs_run_output output;
    fs_progress_mode pmode;   /* the progress line (progress.h) */
    double pinterval;
    double max_events;        /* refuse larger runs; 0: no limit */
    double busy_timeout;      /* < 0: FLEETSIM_BUSY_TIMEOUT or default */
    unsigned rep_first;       /* the replications run: rep_first on, */
    unsigned rep_count;       /* rep_count of them (0: all the rest) */
    fs_run_stored_fn stored;  /* may be NULL */
    void *stored_ctx;
    /* Called after each replication is simulated, before it is stored
     * (run -j: waits for the turn of this replication, so that runs are
     * stored in replication order); may be NULL. */
    void (*before_store)(void *ctx, unsigned replication);
    void *before_ctx;
    /* This process alone writes db (`fleetsim run` without workers): a
     * file it created is removed again when it ends holding no run.  0 in
     * sweeps and run -j workers, which share the file with others. */
    int db_alone;
    /* Budgets (budget_run.h): the command line's, dollars per 730-hour
     * month (0: none), and whether a run over a budget prints its
     * Markdown and makes the exit status FS_EXIT_BUDGET (run; sweep and
     * plan store the verdict only). */
    double budget_usd;
    int budget_exit;
} fs_run_spec;

/* Runs every replication of the scenario.  Returns the exit status: 0
 * when all were stored, 1 after a message on stderr when the scenario,
 * the database or a replication failed, or when a run had to be kept. */
int fs_run_scenario(const fs_run_spec *spec);

struct fs_scenario;
struct fs_results;
/* Sets each pool row's FOCUS prices (list, contracted, commitment, GPUs
 * per instance) from the scenario (run_prices.c).  -1 when out of
 * memory. */
int fs_run_pool_prices(const struct fs_scenario *sc, struct fs_results *res);

/* 1 when path names nothing yet (so that this invocation creates it). */
int fs_run_db_missing(const char *path);
/* Removes the database at path (and SQLite's companions) when it holds no
 * run; for a file this invocation created, once no other process of it
 * writes there. */
void fs_run_drop_empty_db(const char *path);

/* fs_run_scenario for a scenario loaded already (from spec's file and
 * sets); frees it. */
int fs_run_loaded(const fs_run_spec *spec, struct fs_scenario *sc);

/* The replications of spec's scenario in up to `jobs` worker processes
 * (one per replication), each storing its run into spec->db in
 * replication order; their output is printed in replication order, as
 * fs_run_scenario prints it.  One replication or one job: the same as
 * fs_run_scenario (run_parallel.c). */
int fs_run_parallel(const fs_run_spec *spec, long jobs);

#endif
