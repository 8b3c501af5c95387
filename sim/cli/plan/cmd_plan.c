/* cmd_plan.c -- `fleetsim plan SCENARIO --slo 'p99<=2s,...' [--workload W]
 * [--gpus G,...] [--precision P,...] [--tp N,...] [--purchase ...]
 * [--max-unfinished 0.1%] [-j N] [--replications N] [--db FILE]
 * [--format table|csv|json|markdown]`: the cheapest fleet that meets every
 * SLO, per GPU type (and, for an llm service, precision and TP), verified
 * by simulation and priced by roi.  The pieces are in plan_*.c (plan.h).
 *
 * Exit status: 0 with at least one feasible candidate; 1 when none is
 * (each says why) or a run could not be done; 2 for usage. */
#include "sim/cli/commands.h"
#include "sim/cli/plan/plan.h"
#include "sim/base/grammar.h"
#include "sim/fleet/world/estimate.h"
#include "sim/scenario/scenario_limits.h"
#include "sim/store/columns.h"
#include "sim/store/store.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define usage(...) fs_usage_error("plan", __VA_ARGS__)


typedef struct plan_args {
    const char *slo, *gpus, *precs, *tps, *purchase, *format, *progress;
    int format_id, quiet;
    char seed_set[64], reps_set[64];
} plan_args;

static int whole(const char *opt, const char *v, long min, long max,
                 long *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (*end || end == v || errno || n < min)
        return usage("%s needs a whole number of at least %ld, got '%s'",
                     opt, min, v);
    if (n > max)
        return usage("%s: at most %ld, got '%s'", opt, max, v);
    *out = n;
    return 0;
}

static int parse_purchase(fs_plan *p, const char *list)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    memset(p->purchases, 0, sizeof p->purchases);
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < FS_PLAN_PURCHASES && strcmp(t, fs_plan_purchase_name(k)))
            k++;
        if (k == FS_PLAN_PURCHASES) {
            const char *names[FS_PLAN_PURCHASES + 1] = {NULL};
            char all[128] = "";
            for (int j = 0; j < FS_PLAN_PURCHASES; j++) {
                names[j] = fs_plan_purchase_name(j);
                snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
                         j ? ", " : "", names[j]);
            }
            const char *near = fs_nearest_name(t, names);
            return usage("--purchase: unknown '%s'%s%s%s (%s)", t,
                         near ? " (did you mean '" : "", near ? near : "",
                         near ? "'?)" : "", all);
        }
        p->purchases[k] = 1;
    }
    return 0;
}

static int take(fs_plan *p, plan_args *a, const char *opt, const char *v)
{
    long n;
    char why[256];
    if (!strcmp(opt, "--slo")) a->slo = v;
    else if (!strcmp(opt, "--workload")) p->workload = v;
    else if (!strcmp(opt, "--pool")) p->pool_arg = v;
    else if (!strcmp(opt, "--gpus")) a->gpus = v;
    else if (!strcmp(opt, "--precision")) a->precs = v;
    else if (!strcmp(opt, "--tp")) a->tps = v;
    else if (!strcmp(opt, "--purchase")) return parse_purchase(p, v);
    else if (!strcmp(opt, "--db")) p->db = v;
    else if (!strcmp(opt, "--set")) ((char **)p->sets)[p->nsets++] = (char *)v;
    else if (!strcmp(opt, "-j") || !strcmp(opt, "--jobs"))
        return whole(opt, v, 1, LONG_MAX, &p->jobs);
    else if (!strcmp(opt, "--max-count"))
        return whole(opt, v, 1, FS_MAX_INSTANCES, &p->max_count);
    else if (!strcmp(opt, "--seed") || !strcmp(opt, "--replications")) {
        int seed = opt[2] == 's';
        if (whole(opt, v, seed ? 0 : 1, seed ? LONG_MAX : FS_MAX_REPLICATIONS,
                  &n))
            return FS_EXIT_USAGE;
        snprintf(seed ? a->seed_set : a->reps_set, sizeof a->seed_set,
                 "scenario.%s=%ld", opt + 2, n);
    } else if (!strcmp(opt, "--max-unfinished")) {
        if (fs_parse_fraction(v, &p->max_unfinished, why, sizeof why))
            return usage("--max-unfinished: %s", why);
    } else if (!strcmp(opt, "--format")) {
        static const char *const f[] = {"table", "csv", "json", "markdown",
                                        NULL};
        for (a->format_id = 0; f[a->format_id] && strcmp(f[a->format_id], v);
             a->format_id++)
            ;
        if (!f[a->format_id])
            return usage("--format: expected table, csv, json or markdown, "
                         "got '%s'", v);
    } else if (!strcmp(opt, "--progress")) {
        if (fs_progress_mode_parse(v, &p->pmode))
            return usage("--progress: expected auto, always or never, got "
                         "'%s'", v);
        a->progress = v;
    }
    return 0;
}

static int parse(int argc, char **argv, fs_plan *p, plan_args *a)
{
    static const char *const values[] = {
        "--slo", "--workload", "--gpus", "--precision", "--tp", "--purchase",
        "--db", "--set", "-j", "--jobs", "--max-count", "--seed",
        "--replications", "--max-unfinished", "--format", "--progress",
        "--pool", NULL};
    static const char *const known[] = {
        "--slo", "--workload", "--gpus", "--precision", "--tp", "--purchase",
        "--db", "--set", "-j", "--jobs", "--max-count", "--seed",
        "--replications", "--max-unfinished", "--format", "--progress",
        "--pool", "--quiet", "--help", NULL};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *v;
        int taken = 0;
        for (const char *const *o = values; *o && !taken; o++) {
            taken = fs_option_value("plan", argc, argv, &i, *o, &v);
            if (taken < 0)
                return FS_EXIT_USAGE;
            if (taken && take(p, a, *o, v))
                return FS_EXIT_USAGE;
        }
        if (taken)
            continue;
        if (strncmp(arg, "-j", 2) == 0 && arg[2] >= '0' && arg[2] <= '9') {
            if (take(p, a, "-j", arg + 2))
                return FS_EXIT_USAGE;
        } else if (!strcmp(arg, "--quiet") || !strcmp(arg, "-q")) {
            a->quiet = 1;
        } else if (arg[0] == '-' && arg[1]) {
            return fs_unknown_option("plan", arg, known);
        } else if (p->scenario) {
            return usage("one scenario at a time ('%s' and '%s')",
                         p->scenario, arg);
        } else {
            p->scenario = arg;
        }
    }
    if (!p->scenario)
        return usage("which scenario? e.g. fleetsim plan scenarios/"
                     "quickstart.ini --slo 'p99<=2s'");
    if (!a->slo)
        return usage("--slo is required, e.g. --slo 'p99<=2s' or "
                     "--slo 'ttft_p99<=500ms,tpot_p99<=50ms'");
    if (a->seed_set[0])
        ((char **)p->sets)[p->nsets++] = a->seed_set;
    if (a->reps_set[0])
        ((char **)p->sets)[p->nsets++] = a->reps_set;
    return 0;
}

/* Opens (or creates) the database, checks it writable, reads the SLOs
 * against its latency columns. */
static int prepare_db(fs_plan *p, const char *slo)
{
    fs_error err;
    struct stat st;
    int existed = stat(p->db, &st) == 0;
    fs_store *s = fs_store_open(p->db, FS_STORE_CREATE, &err);
    if (!s || fs_store_check_writable(s, &err)) {
        fs_store_close(s);
        return fs_fail(err.msg);
    }
    char why[1200];
    int rc = fs_plan_parse_slo(p, slo, s, why, sizeof why);
    fs_store_close(s);
    if (rc && !existed)
        unlink(p->db);   /* a usage error leaves no database behind */
    return rc ? usage("--slo: %s", why) : 0;
}

/* What --purchase asks of the scenario's pool, before any simulation. */
static int check_purchase(const fs_plan *p)
{
    if (!p->purchases[FS_PLAN_SPOT])
        return 0;
    if (p->autoscale)
        return usage("--purchase spot: pool '%s' autoscales, and a spot "
                     "pool has a fixed count (ask on-demand, reserved or "
                     "savings-plan, or give the pool a count)", p->pool);
    if (p->pool_has_price && p->pool_on_demand)
        return usage("--purchase spot: pool '%s' sets price = (your "
                     "on-demand rate), which its spot run would bill as the "
                     "spot price; remove price = to price spot from the "
                     "catalog", p->pool);
    return 0;
}

static int plan(fs_plan *p, plan_args *a)
{
    fs_error err;
    double interval = 1;
    if (fs_progress_env(&p->pmode, &interval, &err))
        return usage("%s", err.msg);
    if (a->progress)
        fs_progress_mode_parse(a->progress, &p->pmode);
    if (a->quiet)
        p->pmode = FS_PROGRESS_NEVER;
    int rc = fs_plan_read_scenario(p);
    if (!rc)
        rc = check_purchase(p);
    if (!rc)
        rc = fs_plan_candidates(p, a->gpus, a->precs, a->tps);
    if (!rc)
        rc = fs_plan_check(p);
    if (!rc)
        rc = prepare_db(p, a->slo);
    if (rc)
        return rc;
    if ((rc = fs_plan_search(p)) || (rc = fs_plan_price(p)))
        return rc;
    fs_plan_rank(p);
    fs_plan_print(stdout, p, a->format_id);
    fflush(stdout);
    int feasible = 0, failed = 0;
    for (int i = 0; i < p->ncand; i++) {
        feasible += p->cand[i].feasible;
        failed += p->cand[i].failed;
    }
    if (!feasible)
        fs_plan_say("no candidate meets every SLO (why "
                "for each: above)");
    return feasible && !failed ? FS_EXIT_OK : FS_EXIT_FAIL;
}

int cmd_plan(int argc, char **argv)
{
    fs_plan p;
    plan_args a;
    memset(&p, 0, sizeof p);
    memset(&a, 0, sizeof a);
    p.db = FS_DEFAULT_DB;
    p.max_unfinished = FS_OVERLOADED_SHARE;   /* run's "overloaded" */
    p.purchases[FS_PLAN_OD] = p.purchases[FS_PLAN_RESERVED] = 1;
    p.jobs = fs_default_jobs();
    p.max_count = 1024;
    p.max_events = FS_MAX_EVENTS_DEFAULT;
    p.sets = calloc((size_t)argc + 2, sizeof *p.sets);
    if (!p.sets)
        return fs_fail("out of memory");
    int rc = parse(argc, argv, &p, &a);
    if (!rc)
        rc = plan(&p, &a);
    free((void *)p.sets);
    free(p.cand);
    return rc;
}
