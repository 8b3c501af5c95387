/* cmd_run.c -- `fleetsim run SCENARIO ...`: simulate and store.
 *
 * Order matters for "nothing half-written": the scenario is validated and
 * the database checked (writable, its tables all there) before any event
 * runs; each replication is stored, in one transaction, as soon as it is
 * simulated, so that memory holds one replication's samples, not all of
 * them.  A finished run that its database cannot take is kept in a
 * database of its own (store_keep.c), never thrown away.  A run estimated
 * above --max-events is refused once its world is built, before its first
 * event (estimate.h); the progress line (progress.h) follows --progress,
 * FLEETSIM_PROGRESS and --quiet. */
#include "sim/cli/commands.h"
#include "sim/base/grammar.h"
#include "sim/cli/progress.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/world.h"
#include "sim/store/store.h"
#include "sim/cli/summary.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
} run_options;

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

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
        "--busy-timeout", "--progress", "--max-events", NULL};
    static const char *const options[] = {
        "--db", "--name", "--set", "--seed", "--replications", "--quiet",
        "--busy-timeout", "--progress", "--max-events", "--help", NULL};
    memset(o, 0, sizeof *o);
    o->db = FS_DEFAULT_DB;
    o->busy_timeout = -1;
    o->max_events = FS_MAX_EVENTS_DEFAULT;
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
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
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

/* Shell-quotes path for a command the user may paste, when it needs it. */
static void print_path(FILE *f, const char *path)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
                               "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789/._+-=,:@%";
    if (path[strspn(path, safe)] == '\0') {
        fputs(path, f);
        return;
    }
    fputc('\'', f);
    for (const char *c = path; *c; c++) {
        if (*c == '\'')
            fputs("'\\''", f);
        else
            fputc(*c, f);
    }
    fputc('\'', f);
}

/* Stores one finished replication, or keeps it aside, and reports it.
 * Returns 0 when stored, 1 when kept, -1 when it could be neither. */
static int store_replication(const run_options *o, fs_store *store,
                             fs_keeper *keep, fs_results *res, double wall)
{
    fs_error why;
    long id;
    int where = fs_store_or_keep(store, keep, res, &id, &why);
    if (where < 0) {
        fs_fail(why.msg);
        return -1;
    }
    if (where > 0) {
        if (why.msg[0])
            fprintf(stderr, "fleetsim: %s\n", why.msg);
        fprintf(stderr, "fleetsim: the finished run is kept in %s as run "
                "%ld: `fleetsim runs --db ", keep->path, id);
        print_path(stderr, keep->path);
        fputs("` lists it; `fleetsim import --db ", stderr);
        print_path(stderr, o->db);
        fputc(' ', stderr);
        print_path(stderr, keep->path);
        fputs("` copies it in\n", stderr);
    }
    for (int k = 0; res->replication == 0 && !o->quiet && k < res->nwarnings;
         k++)
        fprintf(stderr, "fleetsim: warning: %s\n", res->warnings[k]);
    if (!o->quiet) {
        if (res->replication)
            putchar('\n');
        fs_summary_print(stdout, res, id, where ? keep->path : o->db, wall);
    } else if (!where) {
        printf("%ld\n", id);
    }
    return where;
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

/* What the run's start hook needs: the progress line and the limit. */
typedef struct run_ctx {
    fs_progress prog;
    double max_events;
} run_ctx;

/* The world is built: refuse a run too large to finish, else show the
 * estimate on the progress line. */
static int on_start(void *ctx, const fs_estimate *est, fs_error *err)
{
    run_ctx *rc = ctx;
    if (fs_estimate_check(est, rc->max_events, err))
        return -1;
    fs_progress_start(&rc->prog, est->events);
    return 0;
}

/* Simulates replication r into res. */
static int simulate(const run_options *o, const fs_scenario *sc, unsigned r,
                    fs_progress_mode pmode, double pinterval,
                    fs_results *res, double *wall, fs_error *err)
{
    run_ctx ctx = {.max_events = o->max_events};
    fs_progress_init(&ctx.prog, sc->horizon_s, sc->name, pmode, pinterval);
    fs_sim_hooks hooks = {fs_progress_update, on_start, &ctx};
    double t0 = fs_wall_seconds();
    iso_now(res->started_at, sizeof res->started_at);
    int rc = fs_sim_run_hooked(sc, r, &hooks, res, err);
    fs_progress_done(&ctx.prog, !rc, sc->horizon_s, (uint64_t)res->events);
    iso_now(res->finished_at, sizeof res->finished_at);
    *wall = fs_wall_seconds() - t0;
    if (o->name)
        snprintf(res->name, sizeof res->name, "%s", o->name);
    snprintf(res->scenario, sizeof res->scenario, "%s", o->scenario);
    res->scenario_text = sc->cfg->text;
    return rc;
}

static int run_all(run_options *o)
{
    fs_error err = {{0}};
    fs_progress_mode pmode;
    double pinterval;
    int prc = progress_settings(o, &pmode, &pinterval);
    if (prc != FS_EXIT_OK)
        return prc;
    fs_scenario *sc = fs_scenario_load(o->scenario, o->sets, o->nsets, &err);
    if (!sc)
        return fs_fail(err.msg);
    fs_store_set_busy_timeout(o->busy_timeout);
    fs_store *store = fs_store_open(o->db, FS_STORE_CREATE, &err);
    if (!store || fs_store_check_writable(store, &err)) {
        fs_store_close(store);
        fs_scenario_free(sc);
        return fs_fail(err.msg);
    }
    for (size_t k = 0; !o->quiet && k < sc->nwarnings; k++)
        fprintf(stderr, "fleetsim: warning: %s\n", sc->warnings[k]);
    fs_keeper keep;
    fs_keeper_init(&keep, o->db);
    int rc = FS_EXIT_OK, kept = 0;
    for (unsigned r = 0; r < (unsigned)sc->replications && !rc; r++) {
        fs_results res;
        fs_results_init(&res);
        double wall;
        if (simulate(o, sc, r, pmode, pinterval, &res, &wall, &err)) {
            rc = fs_fail(err.msg);
        } else {
            /* a run that could be neither stored nor kept ends it */
            int where = store_replication(o, store, &keep, &res, wall);
            kept |= where > 0;
            rc = where < 0 ? FS_EXIT_FAIL : FS_EXIT_OK;
        }
        res.scenario_text = NULL;   /* owned by the scenario */
        fs_results_free(&res);
    }
    fs_keeper_close(&keep);
    fs_store_close(store);
    fs_scenario_free(sc);
    return rc ? rc : kept ? FS_EXIT_FAIL : FS_EXIT_OK;
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
