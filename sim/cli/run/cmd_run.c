/* cmd_run.c -- `fleetsim run SCENARIO ...`: simulate and store.
 *
 * Reads the options; the work itself (validate, check the database,
 * simulate and store each replication, keep what cannot be stored) is
 * fs_run_scenario (run_exec.c), which `fleetsim sweep` shares.  A run
 * estimated above --max-events is refused once its world is built, before
 * its first event (estimate.h).  With -j K (default: the cores) the
 * replications run in up to K processes (run_parallel.c); the progress line (progress.h) follows
 * --progress, FLEETSIM_PROGRESS and --quiet. */
#include "sim/cli/commands.h"
#include "sim/base/grammar.h"
#include "sim/app/progress.h"
#include "sim/app/run_exec.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/world/world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_options {
    const char *scenario;
    const char *db;
    const char *name;
    char **sets;          /* --set values, plus seed/replications */
    int nsets;
    int quiet;
    double busy_timeout;  /* seconds; < 0: FLEETSIM_BUSY_TIMEOUT or default */
    char seed_set[64], reps_set[64], name_set[FS_NAME_MAX + 16];
    const char *progress;   /* --progress: auto | always | never */
    double max_events;      /* --max-events: refuse larger runs; 0: none */
    long jobs;              /* -j: replications at once; default the cores */
} run_options;

/* --seed and --replications: a whole number, recorded as a --set of the
 * [scenario] key so that it overrides the file like any other --set. */
static int whole_number_option(const char *opt, const char *v, long min,
                               char *set, size_t len)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || end == v || n < min)
        return fs_usage_error("run", "%s needs a whole number%s, got '%s'",
                              opt, min > 0 ? " of at least 1" : "", v);
    snprintf(set, len, "scenario.%s=%ld", opt + 2, n);
    return FS_EXIT_OK;
}

/* --max-events N: a number of events, 0 for no limit ("5e9" allowed). */
static int max_events_option(const char *v, double *out)
{
    char *end;
    errno = 0;
    double n = strtod(v, &end);
    if (*end || end == v || errno == ERANGE || !(n >= 0) || !isfinite(n))
        return fs_usage_error("run", "--max-events needs a number of events "
                              "(0 for no limit), got '%s'", v);
    *out = n;
    return FS_EXIT_OK;
}

/* Stores the value of option opt. */
static int take_value(run_options *o, const char *opt, const char *v)
{
    fs_progress_mode mode;
    if (strcmp(opt, "--progress") == 0) {
        if (fs_progress_mode_parse(v, &mode))
            return fs_usage_error("run", "--progress: expected auto, always "
                                  "or never, got '%s'", v);
        o->progress = v;
    } else if (strcmp(opt, "--max-events") == 0)
        return max_events_option(v, &o->max_events);
    else if (strcmp(opt, "--db") == 0)
        o->db = v;
    else if (strcmp(opt, "--name") == 0) {
        char why[128];   /* refused, never cut: see fs_check_name */
        if (fs_check_name(v, FS_NAME_MAX, why, sizeof why))
            return fs_usage_error("run", "--name %s", why);
        o->name = v;
    }
    else if (strcmp(opt, "--set") == 0)
        o->sets[o->nsets++] = (char *)v;
    else if (strcmp(opt, "--seed") == 0)
        return whole_number_option(opt, v, 0, o->seed_set,
                                   sizeof o->seed_set);
    else if (strcmp(opt, "-j") == 0 || strcmp(opt, "--jobs") == 0) {
        char *end;
        errno = 0;
        o->jobs = strtol(v, &end, 10);
        if (*end || end == v || errno || o->jobs < 1)
            return fs_usage_error("run", "%s needs a whole number of at "
                                  "least 1, got '%s'", opt, v);
    }
    else if (strcmp(opt, "--busy-timeout") == 0) {
        char why[256];
        if (fs_parse_duration(v, &o->busy_timeout, why, sizeof why))
            return fs_usage_error("run", "--busy-timeout: %s", why);
    }
    else
        return whole_number_option(opt, v, 1, o->reps_set,
                                   sizeof o->reps_set);
    return FS_EXIT_OK;
}

static int parse_args(int argc, char **argv, run_options *o)
{
    static const char *const value_options[] = {
        "--db", "--name", "--set", "--seed", "--replications",
        "--busy-timeout", "--progress", "--max-events", "-j", "--jobs", NULL};
    static const char *const options[] = {
        "--db", "--name", "--set", "--seed", "--replications", "--quiet",
        "--busy-timeout", "--progress", "--max-events", "-j", "--jobs",
        "--help", NULL};
    memset(o, 0, sizeof *o);
    o->db = FS_DEFAULT_DB;
    o->busy_timeout = -1;
    o->max_events = FS_MAX_EVENTS_DEFAULT;
    o->jobs = fs_default_jobs();
    o->sets = calloc((size_t)argc + 2, sizeof *o->sets);
    if (!o->sets)
        return fs_fail("out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int taken = 0;
        for (const char *const *opt = value_options; *opt; opt++) {
            taken = fs_option_value("run", argc, argv, &i, *opt, &v);
            if (taken < 0)
                return FS_EXIT_USAGE;
            if (taken) {
                int rc = take_value(o, *opt, v);
                if (rc != FS_EXIT_OK)
                    return rc;
                break;
            }
        }
        if (taken)
            continue;
        if (strncmp(a, "-j", 2) == 0 && a[2] >= '0' && a[2] <= '9') {
            int rc = take_value(o, "-j", a + 2);
            if (rc != FS_EXIT_OK)
                return rc;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
            o->quiet = 1;
        else if (a[0] == '-' && a[1])
            return fs_unknown_option("run", a, options);
        else if (o->scenario)
            return fs_usage_error("run", "one scenario at a time ('%s' and "
                                  "'%s')", o->scenario, a);
        else
            o->scenario = a;
    }
    if (!o->scenario)
        return fs_usage_error("run", "which scenario? e.g. fleetsim run "
                              "scenarios/quickstart.ini");
    /* Command-line seed and replications override the file, like --set. */
    if (o->seed_set[0])
        o->sets[o->nsets++] = o->seed_set;
    if (o->reps_set[0])
        o->sets[o->nsets++] = o->reps_set;
    /* --name too: the file name then need not make a valid name. */
    if (o->name) {
        snprintf(o->name_set, sizeof o->name_set, "scenario.name=%s",
                 o->name);
        o->sets[o->nsets++] = o->name_set;
    }
    return FS_EXIT_OK;
}

/* The progress line's mode and first delay: FLEETSIM_PROGRESS and
 * FLEETSIM_PROGRESS_INTERVAL, then --progress; --quiet wins. */
static int progress_settings(const run_options *o, fs_progress_mode *mode,
                             double *interval_s)
{
    fs_error err;
    *mode = FS_PROGRESS_AUTO;
    *interval_s = 1;
    if (fs_progress_env(mode, interval_s, &err))
        return fs_usage_error("run", "%s", err.msg);
    if (o->progress)
        fs_progress_mode_parse(o->progress, mode);
    if (o->quiet)
        *mode = FS_PROGRESS_NEVER;
    return FS_EXIT_OK;
}

static int run_all(run_options *o)
{
    fs_run_spec spec = {
        .scenario = o->scenario, .db = o->db, .name = o->name,
        .sets = o->sets, .nsets = o->nsets, .warnings = !o->quiet,
        .output = o->quiet ? FS_RUN_IDS : FS_RUN_SUMMARY,
        .max_events = o->max_events, .busy_timeout = o->busy_timeout,
        .db_alone = 1,
    };
    int prc = progress_settings(o, &spec.pmode, &spec.pinterval);
    if (prc != FS_EXIT_OK)
        return prc;
    return fs_run_parallel(&spec, o->jobs);
}

int cmd_run(int argc, char **argv)
{
    run_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc == FS_EXIT_OK)
        rc = run_all(&o);
    free(o.sets);
    return rc;
}
