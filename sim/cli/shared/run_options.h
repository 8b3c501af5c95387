/* run_options.h -- the options `fleetsim run` and `fleetsim sweep` share
 * (--db, --seed, --replications, -j, --set, --quiet, --busy-timeout,
 * --progress, --max-events): one struct and one option table
 * (run_options.c) that each command's table includes, so the two read,
 * check and document them the same way. */
#ifndef FS_RUN_OPTIONS_H
#define FS_RUN_OPTIONS_H

#include "sim/cli/shared/parse_options.h"
#include "sim/app/progress.h"

typedef struct fs_run_common {
    const char *db;
    const char *progress;   /* --progress: auto | always | never */
    char **sets;            /* --set values, then seed and replications */
    int nsets;
    long jobs;              /* -j: processes at once; default the cores */
    int quiet;
    double busy_timeout;    /* seconds; < 0: FLEETSIM_BUSY_TIMEOUT or 5m */
    double max_events;      /* refuse larger runs; 0: no limit */
    long seed, replications;    /* -1, 0: not given */
    char seed_set[64], reps_set[64];
} fs_run_common;

extern const fs_option fs_run_common_options[];

/* Reads argv[1..argc) of a command of one SCENARIO operand (run, sweep,
 * plan) against opts into base: *scenario the operand, NULL when none is
 * given (each command says how to name one); two are refused.  0, or the
 * usage error's exit status. */
int fs_parse_scenario_args(const char *cmd, int argc, char **argv,
                           const fs_option *opts, void *base,
                           const char **scenario);

/* The parse of run and sweep: c (which lies in base) gets its defaults
 * and room in sets for argc values, then fs_parse_scenario_args; after
 * it --seed and --replications become --set assignments of their
 * [scenario] keys, so that they override the file like any other.  0, or
 * the exit status.  fs_run_common_free frees what c holds, parsed or
 * not. */
int fs_run_common_parse(const char *cmd, int argc, char **argv,
                        const fs_option *opts, void *base, fs_run_common *c,
                        const char **scenario);
void fs_run_common_free(fs_run_common *c);

/* The progress line's mode and first delay: FLEETSIM_PROGRESS and
 * FLEETSIM_PROGRESS_INTERVAL, then --progress; --quiet wins.  0, or the
 * usage error's exit status. */
int fs_run_common_progress(const fs_run_common *c, const char *cmd,
                           fs_progress_mode *mode, double *interval_s);

#endif
