/* cmd_compare.c -- `fleetsim compare [--db FILE] [--format F]
 * [--baseline RUN] RUN...`: runs side by side.
 *
 * This file resolves the RUNs, reads them (compare_rows.c) and hands them
 * to a format: compare_table.c (table and markdown, for people),
 * compare_csv.c and compare_json.c (for programs).  What each metric is
 * and how it compares is in compare_values.c. */
#include "sim/cli/compare/compare.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/commands.h"
#include "sim/cli/compare/compare_ci.h"
#include "sim/cli/compare/compare_impl.h"
#include "sim/cli/shared/help.h"

int fs_compare_parse_format(const char *name, fs_compare_format *out)
{
    static const struct { const char *name; fs_compare_format f; } fmts[] = {
        { "table", FS_COMPARE_TABLE }, { "csv", FS_COMPARE_CSV },
        { "json", FS_COMPARE_JSON }, { "markdown", FS_COMPARE_MARKDOWN },
    };
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++)
        if (strcmp(name, fmts[i].name) == 0) {
            *out = fmts[i].f;
            return 0;
        }
    return -1;
}

int fs_compare_write_runs(FILE *out, fs_compare_format fmt,
                          const fs_compare_run *runs, size_t n, int baseline)
{
    assert(out && (runs || n == 0));
    assert(baseline < 0 || (size_t)baseline < n);
    int rc = 0;
    switch (fmt) {
    case FS_COMPARE_CSV:
        rc = fs_cmp_write_csv(out, runs, n, baseline);
        break;
    case FS_COMPARE_JSON:
        rc = fs_cmp_write_json(out, runs, n, baseline);
        break;
    case FS_COMPARE_TABLE:
    case FS_COMPARE_MARKDOWN:
        rc = fs_cmp_write_table(out, fmt == FS_COMPARE_MARKDOWN, runs, n,
                                baseline);
        break;
    }
    return rc || ferror(out) ? -1 : 0;
}

int fs_compare_write(FILE *out, fs_compare_format fmt,
                     const fs_summary *runs, size_t n, int baseline)
{
    /* the summaries borrowed, no rows */
    fs_compare_run *r = calloc(n + 1, sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < n; i++)
        r[i].summary = runs[i];
    int rc = fs_compare_write_runs(out, fmt, r, n, baseline);
    free(r);
    return rc;
}

/* ---- the command -------------------------------------------------------- */

/* Index of id in ids[0..n), or -1. */
static long find_id(const long *ids, size_t n, long id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return (long)i;
    return -1;
}

typedef struct compare_opts {
    const char *db, *format, *baseline;
    int group;
} compare_opts;

const fs_option fs_options_compare[] = {
    OPT__DB_READ(compare_opts, db),
    OPT__FORMAT(compare_opts, format),
    OPT_STRING(0, "baseline", compare_opts, baseline, "RUN",
               "adds each other run's difference from RUN, absolute and "
               "percent"),
    OPT_BOOL(0, "group", compare_opts, group,
             "each RUN stands for the replications of its name: means and "
             "95% confidence intervals"),
    OPT_END(),
};

/* The ids of names[0..nnames) into ids (room for nnames + 1), each once,
 * the baseline's first unless named among them; *base_index its place
 * (-1 with no baseline).  0, or -1 with err. */
static int resolve_runs(fs_store *s, const char *const *names, size_t nnames,
                        const char *baseline, long *ids, size_t *nids,
                        int *base_index, fs_error *err)
{
    long base_id = -1;
    if (baseline && fs_store_find_run(s, baseline, &base_id, err))
        return -1;
    /* The baseline comes first unless the user placed it among the RUNs;
     * a run named twice is shown once. */
    for (size_t i = 0; i < nnames; i++) {
        long id;
        if (fs_store_find_run(s, names[i], &id, err))
            return -1;
        if (find_id(ids, *nids, id) < 0)
            ids[(*nids)++] = id;
    }
    *base_index = -1;
    if (baseline) {
        long at = find_id(ids, *nids, base_id);
        if (at < 0) {
            memmove(ids + 1, ids, *nids * sizeof *ids);
            ids[0] = base_id;
            (*nids)++;
            at = 0;
        }
        *base_index = (int)at;
    }
    return 0;
}

/* Reads runs ids[0..nids) into sums and writes them; the exit status. */
static int compare_runs(fs_store *s, fs_compare_format fmt, const long *ids,
                        size_t nids, int base_index, fs_compare_run *sums)
{
    fs_error err;
    for (size_t i = 0; i < nids; i++)
        if (fs_compare_read_run(s, ids[i], &sums[i], &err))
            return fs_fail(err.msg);
    int rc = fs_compare_write_runs(stdout, fmt, sums, nids, base_index);
    if (fflush(stdout) != 0 || ferror(stdout))
        return fs_fail("cannot write to standard output");
    if (rc != 0)
        return fs_fail("out of memory writing the comparison");
    return FS_EXIT_OK;
}

/* The options and RUNs, checked: 0, or the exit status. */
static int parse_args(int argc, char **argv, compare_opts *o,
                      const char **names, size_t *nnames,
                      fs_compare_format *fmt)
{
    int n = 0;
    int rc = fs_parse_options("compare", argc, argv, fs_options_compare, o,
                              names, &n);
    *nnames = (size_t)n;
    if (rc)
        return rc;
    if (fs_compare_parse_format(o->format, fmt) != 0)
        return fs_usage_error("compare", "unknown format '%s' (table, csv, "
                              "json or markdown)", o->format);
    if (n == 0)
        return fs_usage_error("compare", "give at least one RUN (a run id "
                              "or name; see `fleetsim runs`)");
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    compare_opts o = {FS_DEFAULT_DB, "table", NULL, 0};
    const char **names = calloc((size_t)argc + 1, sizeof *names);
    long *ids = calloc((size_t)argc + 1, sizeof *ids);
    fs_compare_run *sums = calloc((size_t)argc + 1, sizeof *sums);
    size_t nnames = 0, nids = 0;
    int status = FS_EXIT_OK, base_index = -1;
    fs_compare_format fmt = FS_COMPARE_TABLE;
    fs_store *s = NULL;
    fs_error err;

    if (!names || !ids || !sums)
        status = fs_fail("out of memory");
    else
        status = parse_args(argc, argv, &o, names, &nnames, &fmt);
    if (status == FS_EXIT_OK && !(s = fs_store_open(o.db, 1, &err)))
        status = fs_fail(err.msg);
    if (status != FS_EXIT_OK)
        goto done;
    if (o.group) {
        if (fs_compare_groups(s, stdout, fmt, names, nnames, o.baseline,
                              &err) != 0)
            status = fs_fail(err.msg);
        else if (fflush(stdout) != 0 || ferror(stdout))
            status = fs_fail("cannot write to standard output");
        goto done;
    }
    if (resolve_runs(s, names, nnames, o.baseline, ids, &nids, &base_index,
                     &err))
        status = fs_fail(err.msg);
    else
        status = compare_runs(s, fmt, ids, nids, base_index, sums);

done:
    if (sums)
        for (size_t i = 0; i < nids; i++)
            fs_compare_run_free(&sums[i]);
    free(sums);
    free(ids);
    free(names);
    fs_store_close(s);
    return status;
}
