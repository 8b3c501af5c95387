/* cmd_plan.c -- `fleetsim plan SCENARIO --slo 'p99<=2s,...' [--workload W]
 * [--gpus G,...] [--precision P,...] [--tp N,...] [--ep N,...]
 * [--try routing=|pd-ratio=|spec=LIST] [--purchase ...]
 * [--max-unfinished 0.1%] [-j N] [--replications N] [--db FILE]
 * [--format table|csv|json|markdown]`: the cheapest fleet that meets every
 * SLO, per GPU type (and, for an llm service, precision and TP), verified
 * by simulation and priced by roi.  The pieces are in plan_*.c (plan.h).
 *
 * Exit status: 0 with at least one feasible candidate; 1 when none is
 * (each says why) or a run could not be done; 2 for usage. */
#include "sim/cli/commands.h"
#include "sim/cli/plan/plan.h"
#include "sim/cli/shared/run_options.h"
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
    fs_plan *p;
    const char *slo, *gpus, *precs, *tps, *eps, *format, *progress;
    char **tries;
    int ntries;
    const char *workload, *pool, *db;
    int format_id, quiet, no_prune;
    long jobs, max_count, seed, replications;
    char seed_set[64], reps_set[64];
} plan_args;

static int parse_purchase(fs_plan *p, const char *list)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    memset(p->purchases, 0, sizeof p->purchases);
    /* an empty list (`--purchase ,`) would plan no purchase at all */
    if (fs_plan_check_list("--purchase", list, FS_PLAN_PURCHASES * 4))
        return -1;
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
        if (p->purchases[k]) /* the same rows ranked twice */
            return usage("--purchase: '%s' given twice: give each once", t);
        p->purchases[k] = 1;
    }
    return 0;
}

static int take_purchase(const char *cmd, const char *opt, const char *v,
                         void *base)
{
    (void)cmd, (void)opt;
    return parse_purchase(((plan_args *)base)->p, v) ? FS_EXIT_USAGE : 0;
}

/* --set S.K=V and --try NAME=LIST, each kept in its list in order. */
static int take_item(const char *cmd, const char *opt, const char *v,
                     void *base)
{
    plan_args *a = base;
    (void)cmd;
    if (strstr(opt, "try"))
        a->tries[a->ntries++] = (char *)v;
    else
        ((char **)a->p->sets)[a->p->nsets++] = (char *)v;
    return 0;
}

static int take_max_unfinished(const char *cmd, const char *opt,
                               const char *v, void *base)
{
    char why[256];
    if (fs_parse_fraction(v, &((plan_args *)base)->p->max_unfinished, why,
                          sizeof why))
        return fs_usage_error(cmd, "%s: %s", opt, why);
    return 0;
}

static int take_format(const char *cmd, const char *opt, const char *v,
                       void *base)
{
    static const char *const f[] = {"table", "csv", "json", "markdown", NULL};
    plan_args *a = base;
    for (a->format_id = 0; f[a->format_id] && strcmp(f[a->format_id], v);
         a->format_id++)
        ;
    if (!f[a->format_id])
        return fs_usage_error(cmd, "%s: expected table, csv, json or "
                              "markdown, got '%s'", opt, v);
    return 0;
}

static int take_progress(const char *cmd, const char *opt, const char *v,
                         void *base)
{
    plan_args *a = base;
    if (fs_progress_mode_parse(v, &a->p->pmode))
        return fs_usage_error(cmd, "%s: expected auto, always or never, got "
                              "'%s'", opt, v);
    a->progress = v;
    return 0;
}

const fs_option fs_options_plan[] = {
    OPT_STRING_F(0, "slo", plan_args, slo, "METRIC<=VALUE,...",
                 "the SLOs every run must meet: p99<=2s, ttft_p99<=500ms, "
                 "attainment>=99%, ...", FS_OPTION_REQUIRED),
    OPT_STRING(0, "workload", plan_args, workload, "W",
               "the workload whose SLOs are judged (default the first)"),
    OPT_STRING(0, "pool", plan_args, pool, "POOL",
               "the pool sized (default the workload's first)"),
    OPT_STRING(0, "gpus", plan_args, gpus, "G,...",
               "the GPUs tried (default the pool's)"),
    OPT_STRING(0, "precision", plan_args, precs, "P,...",
               "llm: the precisions tried (default bf16)"),
    OPT_STRING(0, "tp", plan_args, tps, "N,...",
               "llm: the tensor-parallel sizes tried (default 1)"),
    OPT_STRING(0, "ep", plan_args, eps, "N,...",
               "llm, a mixture of experts: the expert-parallel sizes tried "
               "(default 1; a replica is max(tp, ep) GPUs)"),
    OPT_CALLBACK_F(0, "try", "NAME=LIST",
                   "llm: a choice tried (repeatable): routing=least-loaded,"
                   "prefix-aware, pd-ratio=2:1,1:1,1:2,colocated, spec=on,off "
                   "(each by default where the scenario makes it one)",
                   take_item, FS_OPTION_MULTI),
    OPT_CALLBACK(0, "purchase", "on-demand,reserved,savings-plan,spot",
                 "the purchase options priced (default on-demand,reserved)",
                 take_purchase),
    OPT_CALLBACK(0, "max-unfinished", "SHARE",
                 "a run with more requests dropped or unfinished fails "
                 "(default 1%)", take_max_unfinished),
    OPT_INT('j', "jobs", plan_args, jobs, "N",
            "candidates searched at once (default: the processors)", 1,
            LONG_MAX),
    OPT_INT(0, "replications", plan_args, replications, "N",
            "replications of each count; the SLO must hold at the "
            "pessimistic end of the mean's 95% interval", 1,
            FS_MAX_REPLICATIONS),
    OPT_INT(0, "max-count", plan_args, max_count, "N",
            "the largest count searched (default 1024)", 1,
            FS_MAX_INSTANCES),
    OPT__SEED(plan_args, seed),
    OPT_CALLBACK_F(0, "set", "S.K=V",
                   "overrides any scenario key (repeatable)", take_item,
                   FS_OPTION_MULTI),
    OPT__DB_CREATE(plan_args, db),
    OPT_CALLBACK(0, "format", "table|csv|json|markdown",
                 "the candidates' table (default table)", take_format),
    OPT_CALLBACK(0, "progress", "auto|always|never",
                 "the progress line on stderr (default auto)", take_progress),
    OPT_BOOL('q', "quiet", plan_args, quiet, "no progress line"),
    OPT_BOOL(0, "no-prune", plan_args, no_prune,
             "llm: simulate every candidate, also those a lone request "
             "already rules out (the same plan, more simulations)"),
    OPT_END(),
};

/* The plan's seed and replications, as --set lines of their keys. */
static void seed_and_replications(fs_plan *p, plan_args *a)
{
    if (a->seed >= 0) {
        snprintf(a->seed_set, sizeof a->seed_set, "scenario.seed=%ld",
                 a->seed);
        ((char **)p->sets)[p->nsets++] = a->seed_set;
    }
    if (a->replications > 0) {
        snprintf(a->reps_set, sizeof a->reps_set, "scenario.replications=%ld",
                 a->replications);
        ((char **)p->sets)[p->nsets++] = a->reps_set;
    }
}

static int parse(int argc, char **argv, fs_plan *p, plan_args *a)
{
    a->p = p;
    a->db = p->db;
    a->jobs = p->jobs;
    a->max_count = p->max_count;
    a->seed = -1;
    int rc = fs_parse_scenario_args("plan", argc, argv, fs_options_plan, a,
                                    &p->scenario);
    if (rc)
        return rc;
    p->workload = a->workload;
    p->pool_arg = a->pool;
    p->db = a->db;
    p->jobs = a->jobs;
    p->max_count = a->max_count;
    p->no_prune = a->no_prune;
    if (!p->scenario)
        return usage("which scenario? e.g. fleetsim plan scenarios/"
                     "quickstart.ini --slo 'p99<=2s'");
    if (!a->slo)
        return usage("--slo is required, e.g. --slo 'p99<=2s' or "
                     "--slo 'ttft_p99<=500ms,tpot_p99<=50ms'");
    seed_and_replications(p, a);
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
        rc = fs_plan_choices(p, a->tries, a->ntries);
    if (!rc)
        p->eps = a->eps;
    if (!rc)
        rc = fs_plan_candidates(p, a->gpus, a->precs, a->tps);
    if (!rc)
        rc = fs_plan_check(p);
    if (!rc)
        rc = prepare_db(p, a->slo);
    if (rc)
        return rc;
    fs_plan_prune_all(p);
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
    a.tries = calloc((size_t)argc + 1, sizeof *a.tries);
    if (!p.sets || !a.tries) {
        free((void *)p.sets);
        free(a.tries);
        return fs_fail("out of memory");
    }
    int rc = parse(argc, argv, &p, &a);
    if (!rc)
        rc = plan(&p, &a);
    free((void *)p.sets);
    free(a.tries);
    free(p.cand);
    free(p.prompt);
    return rc;
}
