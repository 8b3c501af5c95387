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

int cmd_compare(int argc, char **argv)
{
    static const char *const options[] = { "--db", "--format", "--baseline",
                                           "--group", "--help", NULL };
    const char *db = FS_DEFAULT_DB, *format = "table", *baseline = NULL;
    const char **names = calloc((size_t)argc + 1, sizeof *names);
    long *ids = calloc((size_t)argc + 1, sizeof *ids);
    fs_compare_run *sums = calloc((size_t)argc + 1, sizeof *sums);
    size_t nnames = 0, nids = 0;
    int status = FS_EXIT_OK, options_done = 0, group = 0;
    fs_store *s = NULL;
    fs_error err;

    if (!names || !ids || !sums) {
        status = fs_fail("out of memory");
        goto done;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done) {
            int t = 0;
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
                continue;
            }
            if ((t = fs_option_value("compare", argc, argv, &i, "--db",
                                     &db)) == 0 &&
                (t = fs_option_value("compare", argc, argv, &i, "--format",
                                     &format)) == 0)
                t = fs_option_value("compare", argc, argv, &i, "--baseline",
                                    &baseline);
            if (t < 0) {
                status = FS_EXIT_USAGE;
                goto done;
            }
            if (t > 0)
                continue;
            if (strcmp(arg, "--group") == 0) {
                group = 1;
                continue;
            }
            if (fs_is_help(arg)) {
                fputs(fs_help_text("compare"), stdout);
                goto done;
            }
            if (arg[0] == '-' && arg[1] != '\0') {
                status = fs_unknown_option("compare", arg, options);
                goto done;
            }
        }
        names[nnames++] = arg;
    }
    fs_compare_format fmt;
    if (fs_compare_parse_format(format, &fmt) != 0) {
        status = fs_usage_error("compare", "unknown format '%s' (table, csv, "
                                "json or markdown)", format);
        goto done;
    }
    if (nnames == 0) {
        status = fs_usage_error("compare", "give at least one RUN (a run id "
                                "or name; see `fleetsim runs`)");
        goto done;
    }

    s = fs_store_open(db, 1, &err);
    if (!s) {
        status = fs_fail(err.msg);
        goto done;
    }
    if (group) {
        if (fs_compare_groups(s, stdout, fmt, names, nnames, baseline,
                              &err) != 0)
            status = fs_fail(err.msg);
        else if (fflush(stdout) != 0 || ferror(stdout))
            status = fs_fail("cannot write to standard output");
        goto done;
    }
    long base_id = -1;
    if (baseline && fs_store_find_run(s, baseline, &base_id, &err)) {
        status = fs_fail(err.msg);
        goto done;
    }
    /* The baseline comes first unless the user placed it among the RUNs;
     * a run named twice is shown once. */
    for (size_t i = 0; i < nnames; i++) {
        long id;
        if (fs_store_find_run(s, names[i], &id, &err)) {
            status = fs_fail(err.msg);
            goto done;
        }
        if (find_id(ids, nids, id) < 0)
            ids[nids++] = id;
    }
    int base_index = -1;
    if (baseline) {
        long at = find_id(ids, nids, base_id);
        if (at < 0) {
            memmove(ids + 1, ids, nids * sizeof *ids);
            ids[0] = base_id;
            nids++;
            at = 0;
        }
        base_index = (int)at;
    }
    for (size_t i = 0; i < nids; i++)
        if (fs_compare_read_run(s, ids[i], &sums[i], &err)) {
            status = fs_fail(err.msg);
            goto done;
        }
    int rc = fs_compare_write_runs(stdout, fmt, sums, nids, base_index);
    if (fflush(stdout) != 0 || ferror(stdout))
        status = fs_fail("cannot write to standard output");
    else if (rc != 0)
        status = fs_fail("out of memory writing the comparison");

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
