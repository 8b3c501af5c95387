/* compare_csv.c -- `fleetsim compare --format csv`: for programs.
 *
 * A header ("metric", then per run its label and, with --baseline, its
 * "delta" and "delta %" columns), then one row per metric: first the
 * run_summary columns under the view's names, then the sections' rows as
 * SECTION.KEY.COLUMN, e.g. workloads.chat.latency_p99_s,
 * pools.a100-od.cost_usd, cost_by_pricing.reserved.cost_usd (the section
 * is what precedes the first dot, the column what follows the last one,
 * so a key may hold dots).  Values are the raw numbers as stored; NULL,
 * and a run without that row, are empty.  Fields follow RFC 4180. */
#include "sim/cli/compare/compare_impl.h"

#include <stdlib.h>

#include "sim/base/textout.h"

/* ",LABEL SUFFIX" as one field. */
static int write_label(FILE *out, const char *label, const char *suffix)
{
    char *field = NULL;
    if (asprintf(&field, "%s%s", label, suffix) < 0)
        return -1;
    fputc(',', out);
    fs_csv_write_field(out, field);
    free(field);
    return 0;
}

static int write_header(FILE *out, const fs_compare_run *runs, size_t n,
                        int baseline)
{
    fputs("metric", out);
    for (size_t i = 0; i < n; i++) {
        char *label = fs_cmp_run_label(&runs[i].summary);
        int failed = !label || write_label(out, label, "") != 0;
        if (!failed && fs_cmp_is_delta_run(i, baseline))
            failed = write_label(out, label, " delta") != 0 ||
                     write_label(out, label, " delta %") != 0;
        free(label);
        if (failed)
            return -1;
    }
    fputc('\n', out);
    return 0;
}

/* The values of one metric: value[i] for run i, present unless has[i] is
 * 0, each followed by its deltas for the compared runs. */
static void write_values(FILE *out, const fs_section_column *k,
                         const char *const *value, const int *has, size_t n,
                         int baseline)
{
    for (size_t i = 0; i < n; i++) {
        fputc(',', out);
        if (has[i])
            fs_csv_write_field(out, value[i]);
        if (!fs_cmp_is_delta_run(i, baseline))
            continue;
        double d, pct;
        int has_pct;
        char dbuf[64] = "", pbuf[64] = "";
        if (has[i] && has[baseline] &&
            fs_cmp_delta(k, value[i], value[baseline], &d, &pct, &has_pct)) {
            fs_cmp_format_raw(d, dbuf, sizeof dbuf);
            if (has_pct)
                fs_cmp_format_raw(pct, pbuf, sizeof pbuf);
        }
        fprintf(out, ",%s,%s", dbuf, pbuf);
    }
    fputc('\n', out);
}

static int write_section(FILE *out, const fs_compare_run *runs, size_t n,
                         int baseline, fs_section which,
                         const char **value, int *has)
{
    const fs_section_def *sec = &fs_sections[which];
    int failed = 0;
    size_t nkeys;
    const char **keys = fs_cmp_keys(runs, n, which, &nkeys, &failed);
    for (size_t k = 0; k < nkeys && !failed; k++) {
        for (size_t c = 1; c < sec->ncols && !failed; c++) {
            char *metric = NULL;
            if (asprintf(&metric, "%s.%s.%s", sec->name, keys[k],
                         sec->cols[c].name) < 0) {
                failed = 1;
                break;
            }
            fs_csv_write_field(out, metric);
            free(metric);
            for (size_t i = 0; i < n; i++) {
                char *const *row = fs_cmp_find_row(&runs[i].rows[which],
                                                   keys[k]);
                has[i] = row != NULL;
                value[i] = row ? row[c] : NULL;
            }
            write_values(out, &sec->cols[c], value, has, n, baseline);
        }
    }
    free(keys);
    return failed ? -1 : 0;
}

int fs_cmp_write_csv(FILE *out, const fs_compare_run *runs, size_t n,
                     int baseline)
{
    const char **value = calloc(n + 1, sizeof *value);
    int *has = calloc(n + 1, sizeof *has);
    int failed = !value || !has;
    if (!failed)
        failed = write_header(out, runs, n, baseline) != 0;
    for (size_t i = 0; i < n && !failed; i++)
        has[i] = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS && !failed; c++) {
        fs_section_column k = fs_cmp_summary_column(c);
        fs_csv_write_field(out, k.name);
        for (size_t i = 0; i < n; i++)
            value[i] = runs[i].summary.col[c];
        write_values(out, &k, value, has, n, baseline);
    }
    if (!failed) {      /* unfinished_share over 1%: yes */
        fs_section_column k = {"overloaded", "overloaded", FS_COL_TEXT, 0, NULL,
                           0};
        fs_csv_write_field(out, k.name);
        for (size_t i = 0; i < n; i++)
            value[i] = fs_cmp_overloaded(&runs[i].summary) ? "yes" : "no";
        write_values(out, &k, value, has, n, baseline);
        k.name = k.label = "slo_missed";   /* a workload under its SLO */
        fs_csv_write_field(out, k.name);
        for (size_t i = 0; i < n; i++)
            value[i] = fs_cmp_slo_missed(&runs[i]) ? "yes" : "no";
        write_values(out, &k, value, has, n, baseline);
    }
    for (int s = 0; s < FS_SECTIONS && !failed; s++)
        failed = write_section(out, runs, n, baseline,
                               (fs_section)s, value, has) != 0;
    free(value);
    free(has);
    return failed ? -1 : 0;
}
