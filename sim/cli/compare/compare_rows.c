/* compare_rows.c -- reading a run for `fleetsim compare`: its run_summary
 * row (store.c) and its per-workload, per-pool and per-pricing rows, the
 * store's sections (sim/store/sections.h), read by their column tables;
 * and the one walk over those sections' keys and metrics that the table,
 * markdown and csv formats share (each adds its rows by callback). */
#include "sim/cli/compare/compare_impl.h"

#include <stdlib.h>
#include <string.h>

void fs_compare_run_free(fs_compare_run *r)
{
    if (!r)
        return;
    fs_summary_free(&r->summary);
    for (int s = 0; s < FS_SECTIONS; s++)
        fs_section_rows_free(&r->rows[s]);
}

int fs_compare_read_run(fs_store *s, long run_id, fs_compare_run *out,
                        fs_error *err)
{
    memset(out, 0, sizeof *out);
    if (fs_store_summary(s, run_id, &out->summary, err))
        return -1;
    for (int sec = 0; sec < FS_SECTIONS; sec++)
        if (fs_store_section_rows(s, run_id, (fs_section)sec,
                                  &out->rows[sec], err)) {
            fs_compare_run_free(out);
            return -1;
        }
    return 0;
}

/* Key k's row in every run (row[i] NULL where run i lacks it). */
static void find_rows(const fs_compare_run *runs, size_t n, fs_section which,
                      const char *key, char *const **row, int *has)
{
    for (size_t i = 0; i < n; i++) {
        row[i] = fs_cmp_find_row(&runs[i].rows[which], key);
        has[i] = row[i] != NULL;
    }
}

/* Key key's metrics, column by column, through on_metric. */
static int walk_key(const fs_section_def *sec, size_t n, const char *key,
                    char *const *const *row, const char **value,
                    const int *has, fs_cmp_metric_fn on_metric, void *ctx)
{
    for (size_t c = 1; c < sec->ncols; c++) {
        for (size_t i = 0; i < n; i++)
            value[i] = row[i] ? row[i][c] : NULL;
        int r = on_metric(ctx, sec, key, c, value, has);
        if (r != 0)
            return r < 0 ? -1 : 0;
    }
    return 0;
}

int fs_cmp_walk_section(const fs_compare_run *runs, size_t n,
                        fs_section which, const char **value, int *has,
                        fs_cmp_key_fn on_key, fs_cmp_metric_fn on_metric,
                        void *ctx)
{
    const fs_section_def *sec = &fs_sections[which];
    int failed = 0;
    size_t nkeys;
    const char **keys = fs_cmp_keys(runs, n, which, &nkeys, &failed);
    char *const **row = nkeys ? calloc(n, sizeof *row) : NULL;
    if (nkeys && !row)
        failed = 1;
    for (size_t k = 0; k < nkeys && !failed; k++) {
        find_rows(runs, n, which, keys[k], row, has);
        failed = (on_key && on_key(ctx, sec, k, keys[k]) < 0) ||
                 walk_key(sec, n, keys[k], row, value, has, on_metric,
                          ctx) != 0;
    }
    free(row);
    free(keys);
    return failed ? -1 : 0;
}
