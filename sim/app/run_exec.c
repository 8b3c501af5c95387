/* run_exec.c -- simulate a scenario and store its replications, for
 * `fleetsim run` and for each grid point of `fleetsim sweep`.
 *
 * Order matters for "nothing half-written": the scenario is validated and
 * the database checked (writable, its tables all there) before any event
 * runs; each replication is stored, in one transaction, as soon as it is
 * simulated, so that memory holds one replication's samples, not all of
 * them.  A finished run that its database cannot take is kept in a
 * database of its own (store_keep.c), never thrown away.  A run estimated
 * above max_events is refused once its world is built, before its first
 * event (estimate.h).  A database file this invocation created is removed
 * again when it ends holding no run (a run refused at the memory fit, the
 * estimate, a trace error), so a refusal leaves no file behind; a file
 * that existed before is never removed, nor one a sweep or run -j shares
 * among processes (the parent of run -j removes it once its workers are
 * done). */
#include "sim/app/run_exec.h"
#include "sim/app/budget_run.h"
#include "sim/app/app_msg.h"
#include "sim/scenario/scenario.h"
#include "sim/fleet/world/world.h"
#include "sim/store/store.h"
#include "sim/app/summary.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
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

/* The failure message, after the spec's label when it has one. */
static int fail(const fs_run_spec *o, const char *msg)
{
    if (o->label)
        fprintf(stderr, "fleetsim: %s: %s\n", o->label, msg);
    else
        fs_fail(msg);
    return FS_EXIT_FAIL;
}

/* Says where a run that --db could not take was kept. */
static void report_kept(const fs_run_spec *o, const fs_keeper *keep,
                        const fs_error *why, long id)
{
    if (why->msg[0])
        fs_print_line("fleetsim: ", why->msg);
    fprintf(stderr, "fleetsim: the finished run is kept in %s as run "
            "%ld: `fleetsim runs --db ", keep->path, id);
    print_path(stderr, keep->path);
    fputs("` lists it; `fleetsim import --db ", stderr);
    print_path(stderr, o->db);
    fputc(' ', stderr);
    print_path(stderr, keep->path);
    fputs("` copies it in\n", stderr);
}

/* Whether a budget row of res is exceeded. */
static int over_budget(const fs_results *res)
{
    for (size_t i = 0; i < res->nbudgets; i++)
        if (res->budgets[i].overrun_usd > 0)
            return 1;
    return 0;
}

/* Stores one finished replication, or keeps it aside, and reports it.
 * Returns 0 when stored, 1 when kept, -1 when it could be neither. */
static int store_replication(const fs_run_spec *o, fs_store *store,
                             fs_keeper *keep, fs_results *res, double wall)
{
    fs_error why;
    long id;
    int where = fs_store_or_keep(store, keep, res, &id, &why);
    if (where < 0) {
        fail(o, why.msg);
        return -1;
    }
    if (where > 0)
        report_kept(o, keep, &why, id);
    for (int k = 0; res->replication == 0 && o->warnings &&
                    k < res->nwarnings; k++)
        fs_print_line("fleetsim: warning: ", res->warnings[k]);
    if (o->output == FS_RUN_SUMMARY) {
        if (res->replication)
            putchar('\n');
        fs_summary_print(stdout, res, id, where ? keep->path : o->db, wall);
    } else if (o->output == FS_RUN_IDS && !where) {
        printf("%ld\n", id);
    }
    if (o->budget_exit && over_budget(res))
        fs_budget_markdown(stdout, res, id);
    if (o->stored)
        o->stored(o->stored_ctx, id, res->replication, where > 0);
    return where;
}

/* What the run's start hook needs: the progress line and the limit. */
typedef struct run_ctx {
    fs_progress prog;
    double max_events;
    int warn;               /* say the estimate's overload (once a run) */
} run_ctx;

/* The world is built: refuse a run too large to finish, else show the
 * estimate on the progress line (and the requests it expects to drop
 * from a full queue, before the run rather than after). */
static int on_start(void *ctx, const fs_estimate *est, fs_error *err)
{
    run_ctx *rc = ctx;
    if (fs_estimate_check(est, rc->max_events, err))
        return -1;
    if (rc->warn && est->overload[0])
        fs_print_line("fleetsim: warning: ", est->overload);
    fs_progress_start(&rc->prog, est->events);
    return 0;
}

/* FLEETSIM_EVENTS_ONLY=1 serves every request through the event list,
 * even a plain FIFO pool's (fifo_recursion.h): to cross-check the two. */
static int events_only(void)
{
    const char *v = getenv("FLEETSIM_EVENTS_ONLY");
    return v && strcmp(v, "1") == 0;
}

/* Simulates replication r into res. */
static int simulate(const fs_run_spec *o, const fs_scenario *sc, unsigned r,
                    fs_results *res, double *wall, fs_error *err)
{
    run_ctx ctx = {.max_events = o->max_events,
                   .warn = o->warnings && r == 0};
    fs_progress_init(&ctx.prog, sc->horizon_s, sc->name, o->pmode,
                     o->pinterval);
    fs_sim_hooks hooks = {fs_progress_update, on_start, &ctx, events_only()};
    double t0 = fs_wall_seconds();
    iso_now(res->started_at, sizeof res->started_at);
    int rc = fs_sim_run_hooked(sc, r, &hooks, res, err);
    if (!rc && (fs_run_pool_prices(sc, res) ||
                fs_budget_run(sc, o->budget_usd, res) < 0))
        rc = fs_error_set(err, "out of memory");
    fs_progress_done(&ctx.prog, !rc, sc->horizon_s, (uint64_t)res->events);
    iso_now(res->finished_at, sizeof res->finished_at);
    *wall = fs_wall_seconds() - t0;
    if (o->name)
        snprintf(res->name, sizeof res->name, "%s", o->name);
    snprintf(res->scenario, sizeof res->scenario, "%s", o->scenario);
    res->scenario_text = sc->cfg->text;
    return rc;
}

int fs_run_scenario(const fs_run_spec *o)
{
    fs_error err = {{0}};
    fs_scenario *sc = fs_scenario_load(o->scenario, o->sets, o->nsets, &err);
    if (!sc)
        return fail(o, err.msg);
    return fs_run_loaded(o, sc);
}

int fs_run_db_missing(const char *path)
{
    struct stat st;
    return lstat(path, &st) != 0 && errno == ENOENT;
}

/* 1 when the store holds no run. */
/* Closes the store; when this invocation alone writes it, created its
 * file and left it holding no run, removes the file (under the store's
 * write lock: a process writing it meanwhile keeps it). */
static void close_store(fs_store *store, int created)
{
    if (store && created)
        fs_store_remove_if_no_run(store);
    fs_store_close(store);
}

void fs_run_drop_empty_db(const char *path)
{
    fs_error err;
    fs_store *store = fs_store_open(path, FS_STORE_EXISTING, &err);
    if (store)
        close_store(store, 1);
}

int fs_run_loaded(const fs_run_spec *o, fs_scenario *sc)
{
    fs_error err = {{0}};
    fs_store_set_busy_timeout(o->busy_timeout);
    int created = o->db_alone && fs_run_db_missing(o->db);
    fs_store *store = fs_store_open(o->db, FS_STORE_CREATE, &err);
    if (!store || fs_store_check_writable(store, &err)) {
        fs_store_close(store);
        fs_scenario_free(sc);
        return fail(o, err.msg);
    }
    for (size_t k = 0; o->warnings && k < sc->nwarnings; k++)
        fs_print_line("fleetsim: warning: ", sc->warnings[k]);
    fs_keeper keep;
    fs_keeper_init(&keep, o->db);
    int rc = FS_EXIT_OK, kept = 0, over = 0;
    unsigned end = (unsigned)sc->replications;
    if (o->rep_count && o->rep_first + o->rep_count < end)
        end = o->rep_first + o->rep_count;
    for (unsigned r = o->rep_first; r < end && !rc; r++) {
        fs_results res;
        fs_results_init(&res);
        double wall;
        if (simulate(o, sc, r, &res, &wall, &err)) {
            rc = fail(o, err.msg);
        } else {
            if (o->before_store)
                o->before_store(o->before_ctx, r);
            /* a run that could be neither stored nor kept ends it */
            int where = store_replication(o, store, &keep, &res, wall);
            kept |= where > 0;
            over |= over_budget(&res);
            rc = where < 0 ? FS_EXIT_FAIL : FS_EXIT_OK;
        }
        res.scenario_text = NULL;   /* owned by the scenario */
        fs_results_free(&res);
    }
    fs_keeper_close(&keep);
    close_store(store, created);
    fs_scenario_free(sc);
    return rc ? rc : kept ? FS_EXIT_FAIL
           : over && o->budget_exit ? FS_EXIT_BUDGET : FS_EXIT_OK;
}
