/* cmd_sweep.c -- `fleetsim sweep SCENARIO --vary SECTION.KEY=V1,V2,...`:
 * one run per point of a grid (and replication), N at a time, into one
 * database; or, with --shard I/N, the I-th of N disjoint slices of those
 * runs (sweep_shard.c), for a batch system's array of tasks whose
 * databases `fleetsim merge` brings together.
 *
 * This file reads the options, then loads and validates every point's
 * scenario (the file, the --set assignments, the point's values, its name
 * NAME[key=value,...]) before any work starts, and checks the database
 * writable: a bad value or an unknown key stops the sweep with nothing
 * written.  Then each replication of each point of the shard runs in a
 * worker process of its own (sweep_workers.c).  At the end a table of the
 * points, with the cost-vs-p99 Pareto front marked (sweep_table.c).
 *
 * Every point uses the scenario's seed: its random streams are seeded from
 * (seed, replication, source name), so points that differ only in the
 * fleet see the same arrivals and demands (common random numbers), and a
 * run is the same whichever shard or worker runs it. */
#include "sim/cli/commands.h"
#include "sim/app/run_exec.h"
#include "sim/cli/sweep/sweep_impl.h"
#include "sim/base/grammar.h"
#include "sim/fleet/world/estimate.h"
#include "sim/fleet/run/results.h"
#include "sim/fleet/world/world.h"
#include "sim/scenario/scenario.h"
#include "sim/store/store.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define usage(...) fs_usage_error("sweep", __VA_ARGS__)

static int take_vary(const char *cmd, const char *opt, const char *v,
                     void *base)
{
    char why[512];
    if (fs_sweep_add_axis(&((fs_sweep_options *)base)->grid, v, why,
                          sizeof why))
        return fs_usage_error(cmd, "%s %s", opt, why);
    return 0;
}

static int take_shard(const char *cmd, const char *opt, const char *v,
                      void *base)
{
    char why[512];
    if (fs_sweep_shard_parse(v, &((fs_sweep_options *)base)->shard, why,
                             sizeof why))
        return fs_usage_error(cmd, "%s: %s", opt, why);
    return 0;
}

const fs_option fs_options_sweep[] = {
    OPT_CALLBACK_F(0, "vary", "S.K=V1,V2",
                   "a key and its values (repeatable; each key once)",
                   take_vary, FS_OPTION_MULTI | FS_OPTION_REQUIRED),
    OPT_INCLUDE(fs_run_common_options, fs_sweep_options, c),
    OPT_CALLBACK(0, "shard", "I/N",
                 "run only the I-th of N disjoint slices of the sweep's "
                 "runs (1/N to N/N), into its own --db; auto: the batch "
                 "system's array task says (see above)",
                 take_shard),
    OPT_INT(0, "shard-count", fs_sweep_options, shard_count, "N",
            "with --shard auto: the number of slices (for Kubernetes "
            "indexed Jobs)", 1, LONG_MAX),
    OPT_END(),
};

static int parse_args(int argc, char **argv, fs_sweep_options *o)
{
    memset(o, 0, sizeof *o);
    int rc = fs_run_common_parse("sweep", argc, argv, fs_options_sweep, o,
                                 &o->c, &o->scenario);
    if (rc)
        return rc;
    if (!o->scenario)
        return usage("which scenario? e.g. fleetsim sweep scenarios/"
                     "quickstart.ini --vary pool.burst.max=2,4,6");
    char why[256];
    if (fs_sweep_grid_finish(&o->grid, why, sizeof why))
        return usage("%s", why);
    if (o->shard_count && !o->shard.automatic)
        return usage("--shard-count goes with --shard auto (with --shard "
                     "I/N, N is the count)");
    o->shard.count = o->shard.automatic ? o->shard_count : o->shard.count;
    if (fs_sweep_shard_resolve(&o->shard, why, sizeof why))
        return usage("%s", why);
    return FS_EXIT_OK;
}

/* ---- the points' scenarios ------------------------------------------ */

/* 1 when msg (after "--set: ") is about what axis a sets: its key, or
 * its section (a section the --vary made, e.g. a pool not in the file). */
static int about_axis(const fs_sweep_axis *ax, const char *msg)
{
    size_t k = strlen(ax->key);
    const char *dot = strrchr(ax->key, '.');
    size_t sec = (size_t)(dot - ax->key);
    return (strncmp(msg, ax->key, k) == 0 && msg[k] == ':') ||
           (strncmp(msg, ax->key, sec) == 0 && msg[sec] == ':');
}

/* A point's scenario failed: the message, with "--set: KEY" said
 * "--vary: KEY" when the key is one that is varied (or its section),
 * unless a --set names it too. */
static int point_failed(const fs_sweep_options *o, const fs_sweep_point *pt,
                        const char *msg)
{
    const char *rest = msg;
    if (strncmp(msg, "--set: ", 7) == 0)
        for (int a = 0; a < o->grid.naxes; a++)
            if (about_axis(&o->grid.axes[a], msg + 7))
                rest = NULL;
    for (int k = 0; !rest && k < o->c.nsets; k++) {
        const char *eq = strchr(o->c.sets[k], '=');
        size_t n = eq ? (size_t)(eq - o->c.sets[k]) : 0;
        if (n && strncmp(msg + 7, o->c.sets[k], n) == 0 &&
            msg[7 + n] == ':')
            rest = msg;     /* a --set of that very key */
    }
    if (rest)
        fprintf(stderr, "fleetsim: %s (point %s)\n", msg, pt->name);
    else
        fprintf(stderr, "fleetsim: --vary: %s (point %s)\n", msg + 7,
                pt->name);
    return FS_EXIT_FAIL;
}

/* Builds sc's world and frees it: what only building finds (an LLM that
 * does not fit its pool's GPU) refuses the point before any is run, as
 * a bad key does.  0, or -1 with err. */
static int point_builds(const fs_scenario *sc, fs_error *err)
{
    fs_world w;
    fs_results scratch;
    fs_results_init(&scratch);
    int rc = fs_world_init(&w, sc, 0, &scratch, err);
    fs_world_free(&w);
    fs_results_free(&scratch);
    return rc;
}

/* Loads the scenario of every point: names them, counts their
 * replications, refuses the sweep at the first one that fails. */
static int validate(const fs_sweep_options *o, fs_sweep_point *pts)
{
    fs_error err = {{0}};
    fs_scenario *base = fs_scenario_load(o->scenario, o->c.sets, o->c.nsets,
                                         &err);
    if (!base)
        return fs_fail(err.msg);
    for (long p = 0; p < o->grid.npoints; p++)
        fs_sweep_point_name(&o->grid, base->name, p, pts[p].name,
                            sizeof pts[p].name);
    fs_scenario_free(base);
    for (long p = 0; p < o->grid.npoints; p++) {
        int n;
        char **sets = fs_sweep_point_sets(o, &pts[p], p, &n);
        if (!sets)
            return fs_fail("out of memory");
        fs_scenario *sc = fs_scenario_load(o->scenario, sets, n, &err);
        fs_sweep_free_sets(o, sets, n);
        if (!sc)
            return point_failed(o, &pts[p], err.msg);
        if (point_builds(sc, &err)) {
            fs_scenario_free(sc);
            return point_failed(o, &pts[p], err.msg);
        }
        pts[p].nreps = sc->replications;
        fs_scenario_free(sc);
        pts[p].reps = calloc((size_t)pts[p].nreps, sizeof (long));
        if (!(pts[p].ids = calloc((size_t)pts[p].nreps, sizeof (long))) ||
            !pts[p].reps)
            return fs_fail("out of memory");
    }
    return FS_EXIT_OK;
}

/* Creates or migrates the database and checks it writable, then closes
 * it: the workers open their own. */
static int check_db(const fs_sweep_options *o)
{
    fs_error err = {{0}};
    fs_store_set_busy_timeout(o->c.busy_timeout);
    fs_store *s = fs_store_open(o->c.db, FS_STORE_CREATE, &err);
    int rc = !s || fs_store_check_writable(s, &err);
    fs_store_close(s);
    return rc ? fs_fail(err.msg) : FS_EXIT_OK;
}

/* ---- the end -------------------------------------------------------- */

/* Lists the failed points on stderr; returns how many failed.  Points
 * with no run in this shard (nreps 0) are not counted. */
static long report_failures(const fs_sweep_point *pts, long n)
{
    long failed = 0, ran = 0;
    for (long p = 0; p < n; p++) {
        failed += pts[p].nreps && !pts[p].ok;
        ran += pts[p].nreps > 0;
    }
    if (!failed)
        return 0;
    fprintf(stderr, "fleetsim: sweep: %ld of %ld points failed:\n", failed,
            ran);
    for (long p = 0; p < n; p++) {
        char why[96];
        if (pts[p].ok || !pts[p].nreps)
            continue;
        if (!pts[p].done)
            snprintf(why, sizeof why, "not run");
        else
            fs_sweep_describe_status(pts[p].wstatus, why, sizeof why);
        fprintf(stderr, "  point %ld, %s: %s%s\n", p + 1, pts[p].name, why,
                pts[p].kept ? ", its run kept aside" : "");
    }
    return failed;
}

/* A shard's outcome: one line, no table (a shard holds some of the
 * replications of some points: its means and front would mislead). */
static void print_shard(const fs_sweep_options *o, const fs_sweep_point *pts,
                        long n, long nunits, long total)
{
    long m = 0;
    for (long p = 0; p < n; p++)
        m += pts[p].nreps > 0;
    printf("shard %ld/%ld (%s) of the sweep of %s: %ld of its %ld runs, of "
           "%ld points, stored in %s; `fleetsim merge ALL.db PART.db...` "
           "brings the shards together\n", o->shard.index + 1,
           o->shard.count, o->shard.source, o->scenario, nunits, total, m,
           o->c.db);
}

/* The table of the points. */
static int print_table(const fs_sweep_options *o, fs_sweep_point *pts,
                       long n)
{
    long ok = 0;
    if (n < 1)      /* never: a grid has a point */
        return FS_EXIT_OK;
    for (long p = 0; p < n; p++)
        ok += pts[p].ok;
    fs_error err = {{0}};
    if (ok && fs_sweep_read_results(o->c.db, pts, n, &err))
        return fs_fail(err.msg);
    fs_sweep_mark_front(pts, n);
    printf("sweep of %s: %ld points into %s", o->scenario, n, o->c.db);
    if (pts[0].nreps > 1)
        printf(" (means over each point's %ld replications)", pts[0].nreps);
    fputs("; * = on the cost-vs-p99 Pareto front\n", stdout);
    fs_sweep_print_table(stdout, pts, n);
    return FS_EXIT_OK;
}

static int finish(const fs_sweep_options *o, fs_sweep_point *pts, long nunits,
                  long total)
{
    long n = o->grid.npoints;
    int rc = FS_EXIT_OK;
    if (o->c.quiet) {
        for (long p = 0; p < n; p++)
            for (long k = 0; pts[p].ok && k < pts[p].nids; k++)
                printf("%ld\n", pts[p].ids[k]);
    } else if (o->shard.count > 1) {
        print_shard(o, pts, n, nunits, total);
    } else {
        rc = print_table(o, pts, n);
    }
    fflush(stdout);
    return report_failures(pts, n) ? FS_EXIT_FAIL : rc;
}

/* The runs of this shard, point by point; each point's nreps becomes the
 * number of its runs here.  *total gets the sweep's number of runs. */
static fs_sweep_unit *shard_units(const fs_sweep_options *o, fs_sweep_point *pts,
                         long *nunits, long *total)
{
    long n = o->grid.npoints, all = 0;
    for (long p = 0; p < n; p++)
        all += pts[p].nreps;
    fs_sweep_unit *us = calloc((size_t)all + 1, sizeof *us);
    if (!us)
        return NULL;
    long k = 0, run = 0;
    for (long p = 0; p < n; p++) {
        long mine = 0;
        pts[p].first_run = run;
        for (long r = 0; r < pts[p].nreps; r++, run++)
            if (fs_sweep_shard_takes(&o->shard, run)) {
                us[k++] = (fs_sweep_unit){p, r};
                mine++;
            }
        pts[p].nreps = pts[p].units_left = mine;
        pts[p].done = pts[p].ok = !mine;
    }
    *nunits = k;
    *total = all;
    return us;
}

static int sweep(fs_sweep_options *o)
{
    fs_progress_mode mode;
    double interval;
    if (fs_run_common_progress(&o->c, "sweep", &mode, &interval))
        return FS_EXIT_USAGE;
    long n = o->grid.npoints;
    fs_sweep_point *pts = calloc((size_t)n, sizeof *pts);
    if (!pts)
        return fs_fail("out of memory");
    int rc = validate(o, pts);
    long nunits = 0, total = 0, npoints = 0;
    fs_sweep_unit *units = NULL;
    if (rc == FS_EXIT_OK && !(units = shard_units(o, pts, &nunits, &total)))
        rc = fs_fail("out of memory");
    for (long p = 0; p < n; p++)
        npoints += pts[p].nreps > 0;
    int created = 0;
    if (rc == FS_EXIT_OK) {
        created = fs_run_db_missing(o->c.db);
        rc = check_db(o);
    }
    if (rc == FS_EXIT_OK)
        rc = fs_sweep_run_units(o, pts, units, nunits, npoints, mode);
    if (rc == FS_EXIT_OK)
        rc = finish(o, pts, nunits, total);
    /* refused at every point: the file it created holds no run and goes
     * (an empty shard that succeeded keeps its file, for merge) */
    if (created && rc != FS_EXIT_OK)
        fs_run_drop_empty_db(o->c.db);
    free(units);
    for (long p = 0; p < n; p++) {
        free(pts[p].ids);
        free(pts[p].reps);
    }
    free(pts);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    fs_sweep_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc == FS_EXIT_OK)
        rc = sweep(&o);
    fs_run_common_free(&o.c);
    fs_sweep_grid_free(&o.grid);
    return rc;
}
