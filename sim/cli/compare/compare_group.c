/* compare_group.c -- `fleetsim compare --group`: each RUN stands for the
 * replications of its run name, read and summarised as one column.
 *
 * A RUN (a name, or an id standing for its run's name) selects the runs
 * of that name, one per replication: the newest run of each replication
 * index, so that running a scenario again replaces its group rather than
 * mixing two sets of runs.  The groups are then summarised
 * (compare_ci.c) and written (compare_ci_write.c). */
#include "sim/cli/compare/compare_ci.h"

#include <stdlib.h>
#include <string.h>

#include "sim/cli/commands.h"
#include "sim/store/store_query.h"

typedef struct group_ids {
    long *ids;
    size_t *n, cap;
} group_ids_t;

static int add_id(const fs_row *row, void *ctx, fs_error *err)
{
    group_ids_t *g = ctx;
    if (*g->n == g->cap)
        return fs_error_set(err, "more than %zu runs", g->cap);
    g->ids[(*g->n)++] = (long)fs_row_int(row, 0);
    return 0;
}

/* The ids of run name's group, by replication, appended to ids. */
static int group_ids(fs_store *s, const char *name, long *ids, size_t *n,
                     size_t cap, fs_error *err)
{
    group_ids_t g = {ids, n, cap};
    fs_query_arg a = {0, name, 0};
    fs_error e;
    if (fs_store_each(s, FS_Q_RUN_GROUP, &a, add_id, &g, &e))
        return fs_error_set(err, "cannot read the runs named '%s': %s",
                            name, e.msg);
    return 0;
}

/* The name of run id. */
static char *run_name(fs_store *s, long id, fs_error *err)
{
    char buf[512];
    char *name = NULL;
    if (fs_store_run_name(s, id, buf, sizeof buf, err))
        return NULL;
    if (buf[0])
        name = strdup(buf);
    if (!name)
        fs_error_set(err, "cannot read the name of run %ld", id);
    return name;
}

static int count_row(const fs_row *row, void *ctx, fs_error *err)
{
    (void)err;
    *(long *)ctx = (long)fs_row_int(row, 0);
    return 1;
}

static long run_count(fs_store *s)
{
    long n = 0;
    fs_error err;
    fs_store_each(s, FS_Q_RUN_COUNT, NULL, count_row, &n, &err);
    return n;
}

/* The group names: the RUNs' names in order, a name given twice once;
 * the baseline's first unless among them (*base_index: its place, -1
 * without one).  0, or -1 with err; names[0..*nnames) malloc'd. */
static int group_names(fs_store *s, const char *const *runs, size_t nruns,
                       const char *baseline, char **names, size_t *nnames,
                       int *base_index, fs_error *err)
{
    char *base_name = NULL;
    int placed = 0;
    if (baseline) {
        long id;
        if (fs_store_find_run(s, baseline, &id, err) ||
            !(base_name = run_name(s, id, err)))
            return -1;
        names[(*nnames)++] = base_name;
        *base_index = 0;
    }
    for (size_t i = 0; i < nruns; i++) {
        long id;
        if (fs_store_find_run(s, runs[i], &id, err))
            return -1;
        char *name = run_name(s, id, err);
        if (!name)
            return -1;
        size_t k = base_name && !placed ? 1 : 0;
        while (k < *nnames && strcmp(names[k], name) != 0)
            k++;
        if (k < *nnames) {
            free(name);
            continue;
        }
        if (base_name && !placed && strcmp(base_name, name) == 0) {
            placed = 1;
            /* the baseline among the RUNs: moved to its place */
            memmove(names, names + 1, (*nnames - 1) * sizeof *names);
            names[*nnames - 1] = base_name;
            *base_index = (int)*nnames - 1;
            free(name);
            continue;
        }
        names[(*nnames)++] = name;
    }
    return 0;
}

int fs_compare_groups(fs_store *s, FILE *out, fs_compare_format fmt,
                      const char *const *runs, size_t nruns,
                      const char *baseline, fs_error *err)
{
    size_t nnames = 0, nids = 0, cap = (size_t)run_count(s) + 1;
    char **names = calloc(nruns + 2, sizeof *names);
    long *ids = calloc(cap, sizeof *ids);
    fs_ci_group *groups = calloc(nruns + 2, sizeof *groups);
    fs_compare_run *rr = NULL;
    int rc = -1, base_index = -1;
    if (!names || !ids || !groups) {
        fs_error_set(err, "out of memory");
        goto done;
    }
    if (group_names(s, runs, nruns, baseline, names, &nnames, &base_index,
                    err))
        goto done;
    for (size_t g = 0; g < nnames; g++) {
        groups[g].first = nids;
        if (group_ids(s, names[g], ids, &nids, cap, err))
            goto done;
        groups[g].n = nids - groups[g].first;
    }
    rr = calloc(nids + 1, sizeof *rr);
    if (!rr) {
        fs_error_set(err, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nids; i++)
        if (fs_compare_read_run(s, ids[i], &rr[i], err))
            goto done;
    fs_ci_table t;
    if (fs_ci_table_build(&t, rr, groups, nnames, base_index)) {
        fs_error_set(err, "out of memory");
        goto done;
    }
    rc = fs_ci_write(out, fmt, &t);
    fs_ci_table_free(&t);
    if (rc)
        fs_error_set(err, "out of memory writing the comparison");
done:
    if (rr)
        for (size_t i = 0; i < nids; i++)
            fs_compare_run_free(&rr[i]);
    free(rr);
    for (size_t i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    free(ids);
    free(groups);
    return rc;
}
