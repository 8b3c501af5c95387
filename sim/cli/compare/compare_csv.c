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

/* A change as raw numbers; the relative one only where there is one. */
static void raw_delta(const fs_section_column *k, double d, int has_pct,
                      double pct, char *dbuf, size_t dsize, char *pbuf,
                      size_t psize)
{
    (void)k;
    fs_cmp_format_raw(d, dbuf, dsize);
    if (has_pct)
        fs_cmp_format_raw(pct, pbuf, psize);
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
        char dbuf[64], pbuf[64];
        fs_cmp_run_delta(k, value, has, i, baseline, raw_delta, dbuf,
                         sizeof dbuf, pbuf, sizeof pbuf);
        fprintf(out, ",%s,%s", dbuf, pbuf);
    }
    fputc('\n', out);
}

/* What the section walk writes to: the stream and the comparison. */
typedef struct csv_walk {
    FILE *out;
    size_t n;
    int baseline;
} csv_walk;

/* One metric of a section as a row named SECTION.KEY.COLUMN. */
static int write_metric(void *ctx, const fs_section_def *sec,
                        const char *key, size_t c, const char *const *value,
                        const int *has)
{
    const csv_walk *w = ctx;
    char *metric = NULL;
    if (asprintf(&metric, "%s.%s.%s", sec->name, key,
                 sec->cols[c].name) < 0)
        return -1;
    fs_csv_write_field(w->out, metric);
    free(metric);
    write_values(w->out, &sec->cols[c], value, has, w->n, w->baseline);
    return 0;
}

int fs_cmp_write_csv(FILE *out, const fs_compare_run *runs, size_t n,
                     int baseline)
{
    const char **value = calloc(n + 1, sizeof *value);
    int *has = calloc(n + 1, sizeof *has);
    int failed = !value || !has;
    csv_walk walk = {out, n, baseline};
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
        failed = fs_cmp_walk_section(runs, n, (fs_section)s, value, has,
                                     NULL, write_metric, &walk) != 0;
    free(value);
    free(has);
    return failed ? -1 : 0;
}
