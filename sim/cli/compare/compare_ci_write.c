/* compare_ci_write.c -- `fleetsim compare --group` in its four formats.
 *
 * table / markdown: one row per metric, a column per group headed
 *   "NAME (n=5)" holding "mean ± half-width", and with --baseline a
 *   column per other group, "Δ vs BASE", holding "change ± half-width
 *   (percent ± half-width)".  Section rows (workload, pool, pricing)
 *   come under a heading line, as in compare's run table.
 * csv: long form, one row per group and metric:
 *   group,metric,n,mean,ci_low,ci_high,delta,delta_ci_low,delta_ci_high,
 *   delta_pct,delta_pct_ci_low,delta_pct_ci_high,delta_method
 *   metric names as compare's csv (SECTION.KEY.COLUMN for rows); empty
 *   fields where there is no value.
 * json: an array with one object per group: "name", "n", "runs" (ids),
 *   then each run_summary metric as {"mean","ci_low","ci_high","n"}, the
 *   arrays "workloads", "pools" and "cost_by_pricing" of row objects with
 *   their metrics in the same form, and with --baseline, for the other
 *   groups, "delta_vs_baseline" holding per metric {"mean","ci_low",
 *   "ci_high","n","method"} with "pct","pct_ci_low","pct_ci_high".
 *   NaN (no interval with one run) is null. */
#include "sim/cli/compare/compare_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/textout.h"

static void raw(FILE *out, double v)
{
    char buf[64];
    if (isnan(v) || !isfinite(v)) {
        fputs("null", out);
        return;
    }
    fs_cmp_format_raw(v, buf, sizeof buf);
    fputs(buf, out);
}

static void csv_num(FILE *out, double v)
{
    char buf[64] = "";
    if (isfinite(v))
        fs_cmp_format_raw(v, buf, sizeof buf);
    fprintf(out, ",%s", buf);
}

static const fs_ci *stat_of(const fs_ci_table *t, size_t g, size_t m)
{
    return &t->stat[g * t->nmetrics + m];
}

static const fs_ci_delta *delta_of(const fs_ci_table *t, size_t g, size_t m)
{
    return &t->delta[g * t->nmetrics + m];
}

static int is_delta_group(const fs_ci_table *t, size_t g)
{
    return t->baseline >= 0 && g != (size_t)t->baseline;
}

/* ---- csv ---------------------------------------------------------------- */

static int metric_name(const fs_ci_metric *m, char **out)
{
    if (m->section < 0)
        return (*out = strdup(m->def.name)) ? 0 : -1;
    return asprintf(out, "%s.%s.%s", fs_sections[m->section].name,
                    m->key, m->def.name) < 0 ? -1 : 0;
}

static int write_csv(FILE *out, const fs_ci_table *t)
{
    fputs("group,metric,n,mean,ci_low,ci_high,delta,delta_ci_low,"
          "delta_ci_high,delta_pct,delta_pct_ci_low,delta_pct_ci_high,"
          "delta_method\n", out);
    for (size_t g = 0; g < t->ngroups; g++)
        for (size_t m = 0; m < t->nmetrics; m++) {
            const fs_ci *s = stat_of(t, g, m);
            char *name;
            if (metric_name(&t->metric[m], &name))
                return -1;
            fs_csv_write_field(out, fs_ci_group_name(t, g));
            fputc(',', out);
            fs_csv_write_field(out, name);
            free(name);
            fprintf(out, ",%d", s->n);
            csv_num(out, s->mean);
            csv_num(out, s->lo);
            csv_num(out, s->hi);
            const fs_ci_delta *d = is_delta_group(t, g) ? delta_of(t, g, m)
                                                        : NULL;
            if (d && d->has) {
                csv_num(out, d->abs.mean);
                csv_num(out, d->abs.lo);
                csv_num(out, d->abs.hi);
                csv_num(out, d->has_pct ? d->pct : NAN);
                csv_num(out, d->has_pct ? d->pct_lo : NAN);
                csv_num(out, d->has_pct ? d->pct_hi : NAN);
                fprintf(out, ",%s\n", d->paired ? "paired" : "welch");
            } else {
                fputs(",,,,,,,\n", out);
            }
        }
    return 0;
}

/* ---- json --------------------------------------------------------------- */

static void json_stat(FILE *out, const char *name, const fs_ci *s)
{
    fs_json_write_string(out, name);
    fputs(":{\"mean\":", out);
    raw(out, s->mean);
    fputs(",\"ci_low\":", out);
    raw(out, s->lo);
    fputs(",\"ci_high\":", out);
    raw(out, s->hi);
    fprintf(out, ",\"n\":%d}", s->n);
}

static void json_delta(FILE *out, const char *name, const fs_ci_delta *d)
{
    fs_json_write_string(out, name);
    if (!d->has) {
        fputs(":null", out);
        return;
    }
    fputs(":{\"mean\":", out);
    raw(out, d->abs.mean);
    fputs(",\"ci_low\":", out);
    raw(out, d->abs.lo);
    fputs(",\"ci_high\":", out);
    raw(out, d->abs.hi);
    fprintf(out, ",\"n\":%d,\"method\":\"%s\",\"pct\":", d->abs.n,
            d->paired ? "paired" : "welch");
    raw(out, d->has_pct ? d->pct : NAN);
    fputs(",\"pct_ci_low\":", out);
    raw(out, d->has_pct ? d->pct_lo : NAN);
    fputs(",\"pct_ci_high\":", out);
    raw(out, d->has_pct ? d->pct_hi : NAN);
    fputc('}', out);
}

/* The metrics of section sec (-1: summary) and key, as members. */
static void json_members(FILE *out, const fs_ci_table *t, size_t g, int sec,
                         const char *key, int deltas)
{
    for (size_t m = 0; m < t->nmetrics; m++) {
        const fs_ci_metric *mt = &t->metric[m];
        if (mt->section != sec || (sec >= 0 && strcmp(mt->key, key) != 0))
            continue;
        fputc(',', out);
        if (deltas)
            json_delta(out, mt->def.name, delta_of(t, g, m));
        else
            json_stat(out, mt->def.name, stat_of(t, g, m));
    }
}

static void json_sections(FILE *out, const fs_ci_table *t, size_t g,
                          int deltas)
{
    for (int s = 0; s < FS_SECTIONS; s++) {
        const fs_section_def *sec = &fs_sections[s];
        fprintf(out, ",\"%s\":[", sec->name);
        int first = 1;
        for (size_t m = 0; m < t->nmetrics; m++) {
            const fs_ci_metric *mt = &t->metric[m];
            if (mt->section != s)
                continue;
            /* each key once: at its first metric */
            size_t p = 0;
            while (p < m && !(t->metric[p].section == s &&
                              strcmp(t->metric[p].key, mt->key) == 0))
                p++;
            if (p < m)
                continue;
            fputs(first ? "{" : ",{", out);
            first = 0;
            fs_json_write_string(out, sec->cols[0].name);
            fputc(':', out);
            fs_json_write_string(out, mt->key);
            json_members(out, t, g, s, mt->key, deltas);
            fputc('}', out);
        }
        fputc(']', out);
    }
}

static int write_json(FILE *out, const fs_ci_table *t)
{
    fputc('[', out);
    for (size_t g = 0; g < t->ngroups; g++) {
        const fs_ci_group *gr = &t->groups[g];
        fputs(g ? ",\n{\"name\":" : "\n{\"name\":", out);
        fs_json_write_string(out, fs_ci_group_name(t, g));
        fprintf(out, ",\"n\":%zu,\"runs\":[", gr->n);
        for (size_t i = 0; i < gr->n; i++) {
            const char *id = t->runs[gr->first + i].summary.col[0];
            fprintf(out, "%s%s", i ? "," : "", id ? id : "null");
        }
        fputc(']', out);
        json_members(out, t, g, -1, NULL, 0);
        json_sections(out, t, g, 0);
        if (is_delta_group(t, g)) {
            fputs(",\"delta_vs_baseline\":{\"baseline\":", out);
            fs_json_write_string(out, fs_ci_group_name(t,
                                                       (size_t)t->baseline));
            json_members(out, t, g, -1, NULL, 1);
            json_sections(out, t, g, 1);
            fputc('}', out);
        }
        fputc('}', out);
    }
    fputs("\n]\n", out);
    return 0;
}

/* ---- table and markdown ------------------------------------------------- */

/* "$1,234.00 ± $5.00"; "-" without a value; the mean alone with n = 1. */
static char *cell_stat(const fs_section_column *c, const fs_ci *s)
{
    char num[64], *v, *h, *text = NULL;
    if (s->n == 0)
        return strdup("-");
    snprintf(num, sizeof num, "%.17g", s->mean);
    v = fs_cmp_format_value(c, num);
    if (!v)
        return NULL;
    if (isnan(s->lo))
        return v;
    snprintf(num, sizeof num, "%.17g", (s->hi - s->lo) / 2);
    h = fs_cmp_format_value(c, num);
    if (h && asprintf(&text, "%s ± %s%s", v, h, fs_cmp_flag(c, s->mean)) < 0)
        text = NULL;
    free(v);
    free(h);
    return text;
}

/* "+$20.00 ± $1.00 (+1.6% ± 0.1%)" */
static char *cell_delta(const fs_section_column *c, const fs_ci_delta *d)
{
    char a[96], h[128] = "", p[96] = "", *text = NULL;
    if (!d->has)
        return strdup("");
    fs_cmp_format_change(c, d->abs.mean, a, sizeof a);
    if (!isnan(d->abs.lo)) {
        char hb[96];
        fs_cmp_format_change(c, (d->abs.hi - d->abs.lo) / 2, hb, sizeof hb);
        snprintf(h, sizeof h, " ± %s", hb[0] == '+' ? hb + 1 : hb);
    }
    if (d->has_pct) {
        if (isnan(d->pct_lo))
            snprintf(p, sizeof p, " (%+.1f%%)", d->pct);
        else
            snprintf(p, sizeof p, " (%+.1f%% ± %.1f%%)", d->pct,
                     (d->pct_hi - d->pct_lo) / 2);
    }
    if (asprintf(&text, "%s%s%s", a, h, p) < 0)
        return NULL;
    return text;
}

/* Display width of UTF-8 text: code points. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

typedef struct grid {
    size_t rows, cols;
    char **cell;
} grid;

static char **at(grid *gr, size_t r, size_t c)
{
    return &gr->cell[r * gr->cols + c];
}

static char *label_of(const fs_ci_metric *m, int heading)
{
    char *s = NULL;
    const fs_section_def *sec = m->section >= 0
        ? &fs_sections[m->section] : NULL;
    if (heading) {
        char *k = fs_text_escape(m->key);
        if (k && asprintf(&s, "%s %s", sec->title, k) < 0)
            s = NULL;
        free(k);
        return s;
    }
    const char *l = m->def.label ? m->def.label : m->def.name;
    if (!sec)
        return strdup(l);
    if (sec->flat) {
        char *k = fs_text_escape(m->key);
        if (k && asprintf(&s, "%s: %s", sec->title, k) < 0)
            s = NULL;
        free(k);
        return s;
    }
    return asprintf(&s, "  %s", l) < 0 ? NULL : s;
}

static int new_heading(const fs_ci_table *t, size_t m)
{
    const fs_ci_metric *mt = &t->metric[m];
    if (mt->section < 0 || fs_sections[mt->section].flat)
        return 0;
    const fs_ci_metric *pr = m ? &t->metric[m - 1] : NULL;
    return !pr || pr->section != mt->section || strcmp(pr->key, mt->key);
}

static int fill_grid(grid *gr, const fs_ci_table *t)
{
    size_t r = 0, ndelta = t->baseline >= 0 ? t->ngroups - 1 : 0;
    gr->cols = 1 + t->ngroups + ndelta;
    gr->rows = 1 + 2 * t->nmetrics;
    gr->cell = calloc(gr->rows * gr->cols, sizeof *gr->cell);
    if (!gr->cell)
        return -1;
    *at(gr, 0, 0) = strdup("metric");
    size_t c = 1;
    for (size_t g = 0; g < t->ngroups; g++) {
        char *nm = fs_text_escape(fs_ci_group_name(t, g));
        if (!nm || asprintf(at(gr, 0, c++), "%s (n=%zu)", nm,
                            t->groups[g].n) < 0)
            *at(gr, 0, c - 1) = NULL;
        free(nm);
    }
    for (size_t g = 0; g < t->ngroups; g++)
        if (is_delta_group(t, g)) {
            char *nm = fs_text_escape(fs_ci_group_name(t, g));
            if (!nm || asprintf(at(gr, 0, c++), "Δ %s", nm) < 0)
                *at(gr, 0, c - 1) = NULL;
            free(nm);
        }
    r = 1;
    for (size_t m = 0; m < t->nmetrics; m++) {
        const fs_ci_metric *mt = &t->metric[m];
        if (new_heading(t, m)) {
            *at(gr, r, 0) = label_of(mt, 1);
            for (c = 1; c < gr->cols; c++)
                *at(gr, r, c) = strdup("");
            r++;
        }
        *at(gr, r, 0) = label_of(mt, 0);
        c = 1;
        for (size_t g = 0; g < t->ngroups; g++)
            *at(gr, r, c++) = cell_stat(&mt->def, stat_of(t, g, m));
        for (size_t g = 0; g < t->ngroups; g++)
            if (is_delta_group(t, g))
                *at(gr, r, c++) = cell_delta(&mt->def, delta_of(t, g, m));
        r++;
    }
    gr->rows = r;
    for (size_t i = 0; i < gr->rows * gr->cols; i++)
        if (!gr->cell[i])
            return -1;
    return 0;
}

static void pad(FILE *out, const char *s, size_t w)
{
    fputs(s, out);
    for (size_t n = width(s); n < w; n++)
        fputc(' ', out);
}

static int write_table(FILE *out, const fs_ci_table *t, int markdown)
{
    grid gr = {0, 0, NULL};
    int rc = fill_grid(&gr, t);
    size_t *w = calloc(gr.cols + 1, sizeof *w);
    if (rc == 0 && w) {
        for (size_t r = 0; r < gr.rows; r++)
            for (size_t c = 0; c < gr.cols; c++)
                if (width(*at(&gr, r, c)) > w[c])
                    w[c] = width(*at(&gr, r, c));
        for (size_t r = 0; r < gr.rows; r++) {
            for (size_t c = 0; c < gr.cols; c++) {
                const char *s = *at(&gr, r, c);
                if (markdown) {
                    /* indentation dropped; what would end the cell or
                     * start markup escaped, as compare's markdown does */
                    fputs(c ? " | " : "| ", out);
                    size_t n = 0;
                    for (s += strspn(s, " "); *s; s++) {
                        if (strchr("|*`<", *s))
                            fputc('\\', out);
                        fputc(*s, out);
                        n += ((unsigned char)*s & 0xC0) != 0x80;
                    }
                    for (; n < w[c]; n++)
                        fputc(' ', out);
                } else {
                    if (c)
                        fputs("  ", out);
                    if (c + 1 < gr.cols)
                        pad(out, s, w[c]);
                    else
                        fputs(s, out);
                }
            }
            fputs(markdown ? " |\n" : "\n", out);
            if (markdown && r == 0) {
                for (size_t c = 0; c < gr.cols; c++) {
                    fputs(c ? " | " : "| ", out);
                    for (size_t k = 0; k < (w[c] > 3 ? w[c] : 3); k++)
                        fputc(c && k + 1 == w[c] ? ':' : '-', out);
                }
                fputs(" |\n", out);
            }
        }
    } else {
        rc = -1;
    }
    if (gr.cell)
        for (size_t i = 0; i < gr.rows * gr.cols; i++)
            free(gr.cell[i]);
    free(gr.cell);
    free(w);
    return rc;
}

int fs_ci_write(FILE *out, fs_compare_format fmt, const fs_ci_table *t)
{
    switch (fmt) {
    case FS_COMPARE_CSV:
        return write_csv(out, t);
    case FS_COMPARE_JSON:
        return write_json(out, t);
    case FS_COMPARE_TABLE:
        return write_table(out, t, 0);
    case FS_COMPARE_MARKDOWN:
        return write_table(out, t, 1);
    }
    return -1;
}
