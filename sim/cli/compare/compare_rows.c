/* compare_rows.c -- reading a run for `fleetsim compare`: its run_summary
 * row (store.c) and its per-workload, per-pool and per-pricing rows, the
 * store's sections (sim/store/sections.h), read by their column tables. */
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
