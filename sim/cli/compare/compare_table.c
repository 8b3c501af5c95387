/* compare_table.c -- `fleetsim compare` for people: an aligned text table
 * or a GitHub markdown table.
 *
 * One row per metric, one column per run and, with --baseline, a change
 * column ("Δ") and a relative change column ("Δ%") after every other run.
 * The run_summary metrics come first; then a heading per workload and per
 * pool with its metrics indented below it, and the cost per pricing model.
 * A run without that workload or pool has blank cells there ("-" is a
 * value it has, but NULL).  Text from the database is escaped
 * (textout.h): a name can never break a row or drive the terminal. */
#include "sim/cli/compare/compare_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/textout.h"

/* The table as cells: row 0 is the header, column 0 the labels. */
typedef struct grid {
    size_t rows, cols, used;
    char **cell;
    unsigned char *heading;     /* per row: a section heading */
} grid;

static void grid_free(grid *g)
{
    if (g->cell)
        for (size_t i = 0; i < g->rows * g->cols; i++)
            free(g->cell[i]);
    free(g->cell);
    free(g->heading);
}

/* Takes text (malloc'd) as cell (r, c); -1 when text is NULL. */
static int grid_take(grid *g, size_t r, size_t c, char *text)
{
    assert(r < g->rows && c < g->cols);
    if (!text)
        return -1;
    free(g->cell[r * g->cols + c]);
    g->cell[r * g->cols + c] = text;
    return 0;
}

static int grid_set(grid *g, size_t r, size_t c, const char *text)
{
    return grid_take(g, r, c, strdup(text));
}

/* Whether metric c of key shows: always, unless the column is optional and
 * no run has a value for it. */
static int metric_shown(const fs_compare_run *runs, size_t n,
                        fs_section which, const char *key, size_t c)
{
    if (!fs_sections[which].cols[c].optional)
        return 1;
    for (size_t i = 0; i < n; i++) {
        char *const *row = fs_cmp_find_row(&runs[i].rows[which], key);
        if (row && row[c])
            return 1;
    }
    return 0;
}

/* Rows: the header, the labelled summary columns, whether a workload
 * missed its SLO, and per section either
 * one row per key (flat) or a heading and a row per metric shown per
 * key. */
static size_t count_rows(const fs_compare_run *runs, size_t n, int *failed)
{
    size_t rows = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        rows += fs_cmp_summary_column(c).label != NULL;
    rows++;                                 /* SLO missed */
    for (int s = 0; s < FS_SECTIONS; s++) {
        const fs_section_def *sec = &fs_sections[s];
        size_t nkeys;
        const char **keys = fs_cmp_keys(runs, n, (fs_section)s,
                                        &nkeys, failed);
        if (nkeys && sec->flat)
            rows += 1 + nkeys;
        else
            for (size_t k = 0; k < nkeys; k++) {
                rows++;                     /* the heading */
                for (size_t c = 1; c < sec->ncols; c++)
                    rows += (size_t)metric_shown(runs, n,
                                                 (fs_section)s,
                                                 keys[k], c);
            }
        free(keys);
    }
    return rows;
}

static int set_header(grid *g, const fs_compare_run *runs, size_t n,
                      int baseline)
{
    int fail = grid_set(g, 0, 0, "metric");
    size_t col = 1;
    for (size_t i = 0; i < n; i++) {
        char *raw = fs_cmp_run_label(&runs[i].summary);
        char *label = raw ? fs_text_escape(raw) : NULL;
        free(raw);
        if (label && baseline >= 0 && i == (size_t)baseline) {
            char *b = NULL;
            if (asprintf(&b, "%s (baseline)", label) < 0)
                b = NULL;
            free(label);
            label = b;
        }
        fail |= grid_take(g, 0, col++, label);
        if (fs_cmp_is_delta_run(i, baseline)) {
            fail |= grid_set(g, 0, col++, "\xce\x94");       /* Δ */
            fail |= grid_set(g, 0, col++, "\xce\x94%");
        }
    }
    return fail;
}

/* A change as the table shows it, with units and a relative change. */
static void shown_delta(const fs_section_column *k, double d, int has_pct,
                        double pct, char *dbuf, size_t dsize, char *pbuf,
                        size_t psize)
{
    fs_cmp_format_change(k, d, dbuf, dsize);
    fs_cmp_format_pct(has_pct, pct, pbuf, psize);
}

/* A metric row: label (taken), then per run its value (value[i], present
 * unless has[i] is 0) and its change against the baseline. */
static int add_metric(grid *g, char *label, const fs_section_column *k,
                      const char *const *value, const int *has, size_t n,
                      int baseline)
{
    size_t row = g->used++;
    int fail = grid_take(g, row, 0, label);
    size_t col = 1;
    for (size_t i = 0; i < n; i++) {
        fail |= has[i] ? grid_take(g, row, col, fs_cmp_format_flagged(k,
                                                                      value[i]))
                       : grid_set(g, row, col, "");
        col++;
        if (!fs_cmp_is_delta_run(i, baseline))
            continue;
        char dbuf[160], pbuf[64];
        fs_cmp_run_delta(k, value, has, i, baseline, shown_delta, dbuf,
                         sizeof dbuf, pbuf, sizeof pbuf);
        fail |= grid_set(g, row, col++, dbuf);
        fail |= grid_set(g, row, col++, pbuf);
    }
    return fail;
}

static int add_heading(grid *g, char *label)
{
    size_t row = g->used++;
    g->heading[row] = 1;
    int fail = grid_take(g, row, 0, label);
    for (size_t c = 1; c < g->cols; c++)
        fail |= grid_set(g, row, c, "");
    return fail;
}

/* "PREFIX" followed by key, escaped; malloc'd. */
static char *label_with_key(const char *prefix, const char *key)
{
    char *esc = fs_text_escape(key), *label = NULL;
    if (esc && asprintf(&label, "%s%s", prefix, esc) < 0)
        label = NULL;
    free(esc);
    return label;
}

/* What the section walk adds rows to: the grid and the comparison. */
typedef struct table_walk {
    grid *g;
    const fs_compare_run *runs;
    size_t n;
    int baseline;
    fs_section which;
} table_walk;

/* A flat section's title before its first key; a heading per key of the
 * others. */
static int add_key(void *ctx, const fs_section_def *sec, size_t ki,
                   const char *key)
{
    table_walk *w = ctx;
    if (sec->flat)
        return ki == 0 ? add_heading(w->g, strdup(sec->title)) : 0;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s ", sec->title);
    return add_heading(w->g, label_with_key(prefix, key));
}

/* A metric shown under its key's heading, or a flat section's one row per
 * key (its first metric, labelled by the key: 1 ends the key). */
static int add_key_metric(void *ctx, const fs_section_def *sec,
                          const char *key, size_t c,
                          const char *const *value, const int *has)
{
    table_walk *w = ctx;
    if (!sec->flat && !metric_shown(w->runs, w->n, w->which, key, c))
        return 0;
    char *label = sec->flat ? label_with_key("  ", key)
                            : label_with_key("  ", sec->cols[c].label);
    if (add_metric(w->g, label, &sec->cols[c], value, has, w->n,
                   w->baseline))
        return -1;
    return sec->flat;
}

static int add_section(grid *g, const fs_compare_run *runs, size_t n,
                       int baseline, fs_section which,
                       const char **value, int *has)
{
    table_walk w = {g, runs, n, baseline, which};
    return fs_cmp_walk_section(runs, n, which, value, has, add_key,
                               add_key_metric, &w) != 0;
}

static int build_grid(grid *g, const fs_compare_run *runs, size_t n,
                      int baseline)
{
    int fail = 0;
    g->rows = count_rows(runs, n, &fail);
    g->cols = 1;
    for (size_t i = 0; i < n; i++)
        g->cols += fs_cmp_is_delta_run(i, baseline) ? 3 : 1;
    g->cell = calloc(g->rows * g->cols, sizeof *g->cell);
    g->heading = calloc(g->rows, 1);
    const char **value = calloc(n + 1, sizeof *value);
    int *has = calloc(n + 1, sizeof *has);
    if (fail || !g->cell || !g->heading || !value || !has) {
        free(value);
        free(has);
        return -1;
    }
    fail = set_header(g, runs, n, baseline);
    g->used = 1;
    for (size_t i = 0; i < n; i++)
        has[i] = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS && !fail; c++) {
        fs_section_column k = fs_cmp_summary_column(c);
        if (!k.label)
            continue;
        for (size_t i = 0; i < n; i++)
            value[i] = runs[i].summary.col[c];
        fail |= add_metric(g, strdup(k.label), &k, value, has, n, baseline);
    }
    if (!fail) {        /* a workload under its SLO, as csv and json say */
        fs_section_column k = {"slo_missed", "SLO missed (a workload)",
                           FS_COL_TEXT, 0, NULL, 0};
        for (size_t i = 0; i < n; i++)
            value[i] = fs_cmp_slo_missed(&runs[i]) ? "yes" : "no";
        fail |= add_metric(g, strdup(k.label), &k, value, has, n, baseline);
    }
    for (int s = 0; s < FS_SECTIONS && !fail; s++)
        fail |= add_section(g, runs, n, baseline, (fs_section)s,
                            value, has);
    free(value);
    free(has);
    assert(fail || g->used == g->rows);
    return fail ? -1 : 0;
}

/* ---- text --------------------------------------------------------------- */

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

static int write_text(FILE *out, const grid *g)
{
    size_t *width = calloc(g->cols, sizeof *width);
    if (!width)
        return -1;
    for (size_t r = 0; r < g->rows; r++)
        for (size_t c = 0; c < g->cols; c++) {
            size_t w = fs_text_width(g->cell[r * g->cols + c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < g->rows; r++) {
        for (size_t c = 0; c < g->cols; c++) {
            const char *s = g->cell[r * g->cols + c];
            size_t gap = width[c] - fs_text_width(s);
            if (c == 0) {
                fputs(s, out);
                if (g->cols > 1)
                    pad(out, gap);
            } else {
                pad(out, 2 + gap);
                fputs(s, out);
            }
        }
        fputc('\n', out);
        if (r == 0) {
            size_t total = 0;
            for (size_t c = 0; c < g->cols; c++)
                total += width[c] + (c ? 2 : 0);
            for (size_t i = 0; i < total; i++)
                fputc('-', out);
            fputc('\n', out);
        }
    }
    free(width);
    return 0;
}

/* ---- markdown ----------------------------------------------------------- */

/* A cell of already escaped text: the table's indentation dropped (a
 * markdown cell trims it anyway), and the characters that would end the
 * cell or start markup or HTML escaped. */
static void markdown_cell(FILE *out, const char *s, int bold)
{
    fputs(bold ? " **" : " ", out);
    s += strspn(s, " ");
    for (; *s; s++) {
        if (strchr("|*`<", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
    fputs(bold ? "** |" : " |", out);
}

static void write_markdown(FILE *out, const grid *g)
{
    for (size_t r = 0; r < g->rows; r++) {
        fputc('|', out);
        for (size_t c = 0; c < g->cols; c++) {
            const char *s = g->cell[r * g->cols + c];
            markdown_cell(out, s, c == 0 && g->heading[r] && *s);
        }
        fputc('\n', out);
        if (r == 0) {
            fputc('|', out);
            for (size_t c = 0; c < g->cols; c++)
                fputs(c ? " ---: |" : " :--- |", out);
            fputc('\n', out);
        }
    }
}

int fs_cmp_write_table(FILE *out, int markdown, const fs_compare_run *runs,
                       size_t n, int baseline)
{
    grid g = { 0 };
    int rc = build_grid(&g, runs, n, baseline);
    if (rc == 0 && markdown)
        write_markdown(out, &g);
    else if (rc == 0)
        rc = write_text(out, &g);
    grid_free(&g);
    return rc;
}
