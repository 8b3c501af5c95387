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
#include "sim/cli/shared/run_options.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/world/world.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct run_options {
    fs_run_common c;      /* the options sweep shares (run_options.h) */
    const char *scenario;
    const char *name;
    char name_set[FS_NAME_MAX + 16];
    double budget;        /* --budget: $ per 730-hour month; 0: none */
} run_options;

/* --name: refused, never cut (see fs_check_name). */
static int take_name(const char *cmd, const char *opt, const char *v,
                     void *base)
{
    char why[128];
    if (fs_check_name(v, FS_NAME_MAX, why, sizeof why))
        return fs_usage_error(cmd, "%s %s", opt, why);
    ((run_options *)base)->name = v;
    return 0;
}

/* --budget USD[/month] (fs_take_budget). */
static int take_budget(const char *cmd, const char *opt, const char *v,
                       void *base)
{
    return fs_take_budget(cmd, opt, v, &((run_options *)base)->budget);
}

const fs_option fs_options_run[] = {
    OPT_INCLUDE(fs_run_common_options, run_options, c),
    OPT_CALLBACK(0, "name", "NAME",
                 "the run's name, at most 63 bytes (default [scenario] "
                 "name, else the file name without .ini)", take_name),
    OPT_CALLBACK(0, "budget", "USD",
                 "the whole run's budget, dollars per 730-hour month "
                 "(12000 or 12000/month): a run rate over it (or over a "
                 "budget = or budgets = of the scenario) prints a Markdown "
                 "summary and exits 3", take_budget),
    OPT_END(),
};

static int parse_args(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    /* Command-line seed and replications override the file, like --set */
    int rc = fs_run_common_parse("run", argc, argv, fs_options_run, o, &o->c,
                                 &o->scenario);
    if (rc == 0 && !o->scenario)
        rc = fs_usage_error("run", "which scenario? e.g. fleetsim run "
                            "scenarios/quickstart.ini");
    if (rc)
        return rc;
    /* --name too: the file name then need not make a valid name. */
    if (o->name) {
        snprintf(o->name_set, sizeof o->name_set, "scenario.name=%s",
                 o->name);
        o->c.sets[o->c.nsets++] = o->name_set;
    }
    return FS_EXIT_OK;
}

static int run_all(run_options *o)
{
    const fs_run_common *c = &o->c;
    fs_run_spec spec = {
        .scenario = o->scenario, .db = c->db, .name = o->name,
        .sets = c->sets, .nsets = c->nsets, .warnings = !c->quiet,
        .output = c->quiet ? FS_RUN_IDS : FS_RUN_SUMMARY,
        .max_events = c->max_events, .busy_timeout = c->busy_timeout,
        .db_alone = 1, .budget_usd = o->budget, .budget_exit = 1,
    };
    int prc = fs_run_common_progress(c, "run", &spec.pmode, &spec.pinterval);
    if (prc != FS_EXIT_OK)
        return prc;
    return fs_run_parallel(&spec, c->jobs);
}

int cmd_run(int argc, char **argv)
{
    run_options o;
    int rc = parse_args(argc, argv, &o);
    if (rc == FS_EXIT_OK)
        rc = run_all(&o);
    fs_run_common_free(&o.c);
    return rc;
}
