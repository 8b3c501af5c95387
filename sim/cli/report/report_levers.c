/* report_levers.c -- `fleetsim report --levers`: the runs that isolate
 * each change of the run the top savings attribute, made here so that the
 * user need not write them.  For each change (a lever of
 * sim/scenario/scenario_diff.h) the baseline's scenario file is run again
 * with its own --set lines, the change's keys as --set lines, the same
 * seed and replication, through fs_run_scenario (run_exec.h, as run, sweep
 * and plan do), and stored under "BASE+SECTION:KIND".  A stored run of
 * that name that makes exactly that change is used again, so a second
 * report costs nothing.  The file must still read as the baseline's run
 * read it (the same text), else the runs would not isolate anything: that
 * is refused with one message. */
#include <assert.h>
#include "sim/cli/report/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/names.h"
#include "sim/app/run_exec.h"
#include "sim/scenario/config.h"
#include "sim/scenario/scenario_diff.h"
#include "sim/scenario/scenario_text.h"
#include "sim/store/store_changes.h"

typedef struct lever_ctx {
    fs_store *s;
    const char *db;
    fs_run_source base;
    fs_scenario_diff diff;     /* the target against the baseline */
    char **base_sets;          /* the baseline's own --set lines */
    int nbase_sets;
    int file_ok;               /* same_file passed */
    long *out;
    size_t nout;
} lever_ctx;

static void free_sets(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* "case1-before+pool.serving:purchase", within the name limit. */
static void lever_name(const lever_ctx *c, size_t lever, char *buf,
                       size_t size)
{
    const fs_change *first = NULL;
    for (size_t i = 0; i < c->diff.n && !first; i++)
        if (c->diff.v[i].lever == lever)
            first = &c->diff.v[i];
    char tail[FS_NAME_MAX];
    snprintf(tail, sizeof tail, "+%s:%s", first->section,
             fs_change_kind_name(first->kind));
    size_t room = size - 1 < FS_NAME_MAX - 1 ? size - 1 : FS_NAME_MAX - 1;
    size_t keep = strlen(tail) < room ? room - strlen(tail) : 0;
    int n = snprintf(buf, size, "%.*s%s", (int)keep, c->base.name, tail);
    assert(n >= 0 && (size_t)n <= keep + strlen(tail));   /* fits: keep + tail <= room */
    (void)n;
    buf[room] = '\0';
}

/* 1 when run id makes exactly lever `lever` against the baseline. */
static int makes_lever(lever_ctx *c, long id, size_t lever, fs_error *err)
{
    fs_run_source src;
    fs_scenario_diff d;
    if (fs_store_run_source(c->s, id, &src, err))
        return -1;
    int rc = fs_scenario_diff_texts(c->base.text, src.text, &d, err);
    fs_run_source_free(&src);
    if (rc)
        return -1;
    size_t want = 0, found = 0;
    for (size_t i = 0; i < c->diff.n; i++)
        want += c->diff.v[i].lever == lever;
    for (size_t i = 0; i < d.n; i++)
        for (size_t j = 0; j < c->diff.n; j++)
            found += c->diff.v[j].lever == lever &&
                     fs_change_same(&d.v[i], &c->diff.v[j]);
    int same = d.n == want && found == want;
    fs_scenario_diff_free(&d);
    return same;
}

/* A stored run named name that makes the lever: its id, or 0. */
static long stored_lever(lever_ctx *c, const char *name, size_t lever,
                         fs_error *err)
{
    long *ids, got = 0;
    size_t n;
    if (fs_store_runs_with_prefix(c->s, name, &ids, &n, err))
        return -1;
    for (size_t i = n; got == 0 && i-- > 0;) {
        fs_run_source src;
        if (fs_store_run_source(c->s, ids[i], &src, err)) {
            got = -1;
            break;
        }
        int named = strcmp(src.name, name) == 0 &&
                    src.replication == c->base.replication;
        fs_run_source_free(&src);
        int m = named ? makes_lever(c, ids[i], lever, err) : 0;
        got = m < 0 ? -1 : m ? ids[i] : 0;
    }
    free(ids);
    return got;
}

/* The baseline's file must still read as the baseline's run read it. */
static int same_file(const lever_ctx *c, fs_error *err)
{
    fs_config *cfg = fs_config_load(c->base.scenario, err);
    int rc = cfg ? 0 : -1;
    for (int i = 0; rc == 0 && i < c->nbase_sets; i++)
        rc = fs_config_set(cfg, c->base_sets[i], err);
    if (rc == 0 && strcmp(cfg->text ? cfg->text : "", c->base.text))
        rc = fs_error_set(err, "--levers: %s no longer reads as run %s "
                          "read it (changed since, or run from another "
                          "folder): the runs would not isolate its "
                          "changes; pass runs that make one change each "
                          "instead", c->base.scenario, c->base.name);
    else if (rc) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        rc = fs_error_set(err, "--levers: cannot rerun the baseline %s "
                          "(report from the folder it was run in): %s",
                          c->base.name, why);
    }
    fs_config_free(cfg);
    return rc;
}

static void on_stored(void *ctx, long run_id, unsigned replication, int kept)
{
    (void)replication;
    *(long *)ctx = kept ? -1 : run_id;
}

static long run_lever(lever_ctx *c, const char *name, char **sets, int n)
{
    long id = 0;
    fs_run_spec spec = {
        .scenario = c->base.scenario, .db = c->db, .name = name,
        .label = name, .sets = sets, .nsets = n, .output = FS_RUN_NOTHING,
        .pmode = FS_PROGRESS_NEVER, .pinterval = 1, .busy_timeout = -1,
        .rep_first = (unsigned)c->base.replication, .rep_count = 1,
        .stored = on_stored, .stored_ctx = &id,
    };
    return fs_run_scenario(&spec) == 0 && id > 0 ? id : -1;
}

static int add_id(lever_ctx *c, long id, fs_error *err)
{
    long *v = realloc(c->out, (c->nout + 1) * sizeof *v);
    if (!v)
        return fs_error_set(err, "out of memory");
    c->out = v;
    v[c->nout++] = id;
    return 0;
}

/* The baseline's sets (less its name), then the lever's. */
static int one_lever(lever_ctx *c, size_t lever, fs_error *err)
{
    char name[FS_NAME_MAX], why[300] = "", what[700];
    lever_name(c, lever, name, sizeof name);
    long id = stored_lever(c, name, lever, err);
    if (id)
        return id < 0 ? -1 : add_id(c, id, err);
    char **sets = NULL, **ls = NULL;
    int n = 0, nl = 0;
    int rc = fs_scenario_diff_sets(&c->diff, lever, &ls, &nl, why,
                                   sizeof why);
    if (rc == 1) {
        fs_scenario_diff_describe(&c->diff, lever, what, sizeof what);
        fprintf(stderr, "fleetsim report: --levers: %s cannot be applied "
                "alone (%s); it stays in the combined line\n", what, why);
        free_sets(ls, nl);
        return 0;
    }
    sets = calloc((size_t)(c->nbase_sets + nl + 1), sizeof *sets);
    if (rc || !sets) {
        free_sets(ls, nl);
        free(sets);
        return fs_error_set(err, "out of memory");
    }
    if (!c->file_ok && same_file(c, err)) {
        free_sets(ls, nl);
        free(sets);
        return -1;
    }
    c->file_ok = 1;
    for (int i = 0; i < c->nbase_sets; i++)
        if (strncmp(c->base_sets[i], "scenario.name=", 14))
            sets[n++] = c->base_sets[i];
    for (int i = 0; i < nl; i++)
        sets[n++] = ls[i];
    id = run_lever(c, name, sets, n);
    free(sets);
    free_sets(ls, nl);
    if (id < 0)
        return fs_error_set(err, "--levers: the run %s could not be made "
                            "(see above)", name);
    return add_id(c, id, err);
}

int fs_report_levers(fs_store *s, const char *db, const long *ids, size_t n,
                     long base, long **out, size_t *nout, fs_error *err)
{
    lever_ctx c = {.s = s, .db = db};
    fs_run_source t = {0};
    long target;
    *out = NULL;
    *nout = 0;
    if (fs_report_savings_target(s, ids, n, base, &target, err))
        return -1;
    if (!target)
        return 0;
    int rc = fs_store_run_source(s, base, &c.base, err) ||
             fs_store_run_source(s, target, &t, err) ? -1 : 0;
    if (rc == 0)
        rc = fs_scenario_diff_texts(c.base.text, t.text, &c.diff, err);
    if (rc == 0 && fs_text_sets(c.base.text, &c.base_sets, &c.nbase_sets))
        rc = fs_error_set(err, "out of memory");
    for (size_t l = 0; rc == 0 && c.diff.nlevers > 1 && l < c.diff.nlevers;
         l++)
        rc = one_lever(&c, l, err);
    fs_run_source_free(&t);
    fs_run_source_free(&c.base);
    fs_scenario_diff_free(&c.diff);
    free_sets(c.base_sets, c.nbase_sets);
    if (rc) {
        free(c.out);
        return -1;
    }
    *out = c.out;
    *nout = c.nout;
    return 0;
}
