/* compare_json.c -- `fleetsim compare --format json`: for programs.
 *
 * An array with one run_summary object per run, one line each: the view's
 * columns under their own names, then the arrays "workloads", "pools" and
 * "cost_by_pricing" of row objects, and, when --baseline is given, for
 * every run but the baseline "delta_vs_baseline" and
 * "delta_pct_vs_baseline" objects over the compared metrics.  Each row
 * object of such a run carries the same two objects, against the
 * baseline's row of the same workload, pool or pricing name, or null when
 * the baseline has no such row.  Numbers are as stored; NULL (and SQLite's
 * Inf) is null.  Strings are valid JSON and valid UTF-8 (textout.h). */
#include "sim/cli/compare/compare_impl.h"

#include "sim/base/textout.h"

static void write_value(FILE *out, const fs_section_column *c, const char *text)
{
    if (!text)
        fputs("null", out);
    else if (c->kind == FS_COL_TEXT)
        fs_json_write_string(out, text);
    else if (fs_cmp_json_number(text))
        fputs(text, out);
    else
        fputs("null", out);     /* SQLite's Inf, or not a number at all */
}

/* "key":{name: delta, ...} over the compared columns cols[0..ncols) with
 * values value[c] and base[c] (NULL base: "key":null); pct picks the
 * relative change. */
static void write_deltas(FILE *out, const char *key, const fs_section_column *cols,
                         size_t ncols, const char *const *value,
                         const char *const *base, int pct)
{
    fprintf(out, ",\"%s\":", key);
    if (!base) {
        fputs("null", out);
        return;
    }
    fputc('{', out);
    int first = 1;
    for (size_t c = 0; c < ncols; c++) {
        const fs_section_column *k = &cols[c];
        if (!k->delta)
            continue;
        double d, p;
        int has_pct;
        char buf[64] = "null";
        if (fs_cmp_delta(k, value[c], base[c], &d, &p, &has_pct) &&
            (!pct || has_pct))
            fs_cmp_format_raw(pct ? p : d, buf, sizeof buf);
        fprintf(out, "%s\"%s\":%s", first ? "" : ",", k->name, buf);
        first = 0;
    }
    fputc('}', out);
}

static void write_rows(FILE *out, const fs_compare_run *run,
                       const fs_compare_run *base, fs_section which)
{
    const fs_section_def *sec = &fs_sections[which];
    const fs_section_rows *rows = &run->rows[which];
    fprintf(out, ",\"%s\":[", sec->name);
    for (size_t r = 0; r < rows->nrows; r++) {
        char *const *row = fs_cmp_row(rows, r);
        fputs(r ? ",{" : "{", out);
        for (size_t c = 0; c < sec->ncols; c++) {
            fprintf(out, "%s\"%s\":", c ? "," : "", sec->cols[c].name);
            write_value(out, &sec->cols[c], row[c]);
        }
        if (base) {
            char *const *b = fs_cmp_find_row(&base->rows[which], row[0]);
            const char *const *v = (const char *const *)row;
            const char *const *bv = (const char *const *)b;
            write_deltas(out, "delta_vs_baseline", sec->cols, sec->ncols, v,
                         bv, 0);
            write_deltas(out, "delta_pct_vs_baseline", sec->cols,
                         sec->ncols, v, bv, 1);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

static void write_summary(FILE *out, const fs_compare_run *run,
                          const fs_summary *base)
{
    const fs_summary *sm = &run->summary;
    fs_section_column cols[FS_SUMMARY_COLUMNS];
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        cols[c] = fs_cmp_summary_column(c);
        fprintf(out, "%s\"%s\":", c ? "," : "", cols[c].name);
        write_value(out, &cols[c], sm->col[c]);
    }
    fprintf(out, ",\"overloaded\":%s", fs_cmp_overloaded(sm) ? "true"
                                                             : "false");
    fprintf(out, ",\"slo_missed\":%s", fs_cmp_slo_missed(run) ? "true"
                                                              : "false");
    if (!base)
        return;
    const char *const *v = (const char *const *)sm->col;
    const char *const *b = (const char *const *)base->col;
    write_deltas(out, "delta_vs_baseline", cols, FS_SUMMARY_COLUMNS, v, b, 0);
    write_deltas(out, "delta_pct_vs_baseline", cols, FS_SUMMARY_COLUMNS, v, b,
                 1);
}

int fs_cmp_write_json(FILE *out, const fs_compare_run *runs, size_t n,
                      int baseline)
{
    fputs("[\n", out);
    for (size_t i = 0; i < n; i++) {
        const fs_compare_run *base = fs_cmp_is_delta_run(i, baseline)
                                         ? &runs[baseline] : NULL;
        fputc('{', out);
        write_summary(out, &runs[i], base ? &base->summary : NULL);
        for (int s = 0; s < FS_SECTIONS; s++)
            write_rows(out, &runs[i], base, (fs_section)s);
        fputs(i + 1 < n ? "},\n" : "}\n", out);
    }
    fputs("]\n", out);
    return 0;
}
