/* run_options.c -- the option table `run` and `sweep` share, and what
 * follows from it (run_options.h). */
#include "sim/cli/shared/run_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/error.h"
#include "sim/cli/commands.h"
#include "sim/fleet/world/estimate.h"

static int take_set(const char *cmd, const char *name, const char *v,
                    void *base)
{
    (void)cmd, (void)name;
    fs_run_common *c = base;
    c->sets[c->nsets++] = (char *)v;
    return 0;
}

static int take_progress(const char *cmd, const char *name, const char *v,
                         void *base)
{
    fs_progress_mode mode;
    if (fs_progress_mode_parse(v, &mode))
        return fs_usage_error(cmd, "%s: expected auto, always or never, got "
                              "'%s'", name, v);
    ((fs_run_common *)base)->progress = v;
    return 0;
}

/* A number of events, 0 for no limit ("5e9" allowed). */
static int take_max_events(const char *cmd, const char *name, const char *v,
                           void *base)
{
    char *end;
    errno = 0;
    double n = strtod(v, &end);
    if (*end || end == v || errno == ERANGE || !(n >= 0) || !isfinite(n))
        return fs_usage_error(cmd, "%s needs a number of events (0 for no "
                              "limit), got '%s'", name, v);
    ((fs_run_common *)base)->max_events = n;
    return 0;
}

const fs_option fs_run_common_options[] = {
    OPT__DB_CREATE(fs_run_common, db),
    OPT__SEED(fs_run_common, seed),
    OPT_INT(0, "replications", fs_run_common, replications, "N",
            "overrides [scenario] replications (runs 0..N-1, each its own "
            "random streams, each stored as a run)", 1, LONG_MAX),
    OPT_INT('j', "jobs", fs_run_common, jobs, "N",
            "runs at once, one process each (default: the processors); "
            "stored and printed in order, identical to -j 1", 1, LONG_MAX),
    OPT_CALLBACK_F(0, "set", "S.K=V",
                   "overrides any scenario key, e.g. --set pool.gpu.count=6 "
                   "(repeatable; applied after the file and its include)",
                   take_set, FS_OPTION_MULTI),
    OPT_BOOL('q', "quiet", fs_run_common, quiet,
             "no progress line, no warnings and no summary: print the run "
             "ids"),
    OPT_DURATION(0, "busy-timeout", fs_run_common, busy_timeout, "D",
                 "how long to wait for another process's lock on the "
                 "database (default 5m, or $FLEETSIM_BUSY_TIMEOUT)"),
    OPT_CALLBACK(0, "progress", "MODE",
                 "the progress line on stderr: auto (default: when stderr "
                 "is a terminal), always (also into logs, a line per draw), "
                 "never; or $FLEETSIM_PROGRESS", take_progress),
    OPT_CALLBACK(0, "max-events", "N",
                 "refuse a run estimated at more than N events\n"
                 "(default 2e9 events; 0: no limit)", take_max_events),
    OPT_END(),
};

int fs_parse_scenario_args(const char *cmd, int argc, char **argv,
                           const fs_option *opts, void *base,
                           const char **scenario)
{
    const char *operands[2];
    int n = 0;
    int rc = fs_parse_options_few(cmd, argc, argv, opts, base, operands, 2,
                                  &n);
    if (rc == 0 && n > 1)
        rc = fs_usage_error(cmd, "one scenario at a time ('%s' and '%s')",
                            operands[0], operands[1]);
    *scenario = n ? operands[0] : NULL;
    return rc;
}

static int common_init(fs_run_common *c, int argc)
{
    memset(c, 0, sizeof *c);
    c->db = FS_DEFAULT_DB;
    c->busy_timeout = -1;
    c->max_events = FS_MAX_EVENTS_DEFAULT;
    c->jobs = fs_default_jobs();
    c->seed = -1;
    c->sets = calloc((size_t)argc + 3, sizeof *c->sets);
    return c->sets ? 0 : -1;
}

void fs_run_common_free(fs_run_common *c)
{
    free(c->sets);
    c->sets = NULL;
}

static void common_finish(fs_run_common *c)
{
    if (c->seed >= 0) {
        snprintf(c->seed_set, sizeof c->seed_set, "scenario.seed=%ld",
                 c->seed);
        c->sets[c->nsets++] = c->seed_set;
    }
    if (c->replications > 0) {
        snprintf(c->reps_set, sizeof c->reps_set, "scenario.replications=%ld",
                 c->replications);
        c->sets[c->nsets++] = c->reps_set;
    }
}

int fs_run_common_parse(const char *cmd, int argc, char **argv,
                        const fs_option *opts, void *base, fs_run_common *c,
                        const char **scenario)
{
    if (common_init(c, argc))
        return fs_fail("out of memory");
    int rc = fs_parse_scenario_args(cmd, argc, argv, opts, base, scenario);
    if (rc == 0)
        common_finish(c);
    return rc;
}

int fs_run_common_progress(const fs_run_common *c, const char *cmd,
                           fs_progress_mode *mode, double *interval_s)
{
    fs_error err;
    *mode = FS_PROGRESS_AUTO;
    *interval_s = 1;
    if (fs_progress_env(mode, interval_s, &err))
        return fs_usage_error(cmd, "%s", err.msg);
    if (c->progress)
        fs_progress_mode_parse(c->progress, mode);
    if (c->quiet)
        *mode = FS_PROGRESS_NEVER;
    return 0;
}
