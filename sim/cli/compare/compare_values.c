/* compare_values.c -- the metrics `fleetsim compare` shows and how their
 * values look; see compare_impl.h.
 *
 * The run_summary columns, with their labels and kinds, are the store's
 * table (sim/store/columns.c): a column added to the view shows up here,
 * labelled and formatted, with no second list to keep in step.  The
 * sections' columns are declared here once, with the SQL that reads them:
 * the reader, the four formats and the tests all follow these tables.
 *
 * Two audiences: the table and markdown are for people (units, thousands
 * separators, escaped text); csv and json are for programs (the raw
 * numbers as SQLite stored them, deltas as plain numbers, money deltas
 * rounded to the cent).  A metric compares with the baseline only when
 * both values are numbers; the relative change also needs a nonzero
 * baseline.  Ids, seeds and replications are labels, never compared. */
#include "sim/cli/compare/compare_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/textout.h"
#include "sim/app/summary.h"

/* ---- the metrics -------------------------------------------------------- */

fs_section_column fs_cmp_summary_column(int c)
{
    const fs_column *col = &fs_summary_columns[c];
    return (fs_section_column){ col->name, col->label, col->kind,
                            fs_column_kind_compares(col->kind), NULL, 0 };
}

size_t fs_compare_section_columns(fs_section sec)
{
    return fs_sections[sec].ncols;
}

/* ---- rows and keys ------------------------------------------------------ */

char *const *fs_cmp_find_row(const fs_section_rows *rows, const char *key)
{
    if (!key)
        return NULL;
    for (size_t r = 0; r < rows->nrows; r++) {
        char *const *row = fs_cmp_row(rows, r);
        if (row[0] && strcmp(row[0], key) == 0)
            return row;
    }
    return NULL;
}

static int has_key(const char **keys, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i], key) == 0)
            return 1;
    return 0;
}

const char **fs_cmp_keys(const fs_compare_run *runs, size_t n,
                         fs_section sec, size_t *nkeys, int *failed)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += runs[i].rows[sec].nrows;
    *nkeys = 0;
    if (total == 0)
        return NULL;
    const char **keys = malloc(total * sizeof *keys);
    if (!keys) {
        *failed = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const fs_section_rows *rows = &runs[i].rows[sec];
        for (size_t r = 0; r < rows->nrows; r++) {
            const char *key = fs_cmp_row(rows, r)[0];
            if (key && !has_key(keys, *nkeys, key))
                keys[(*nkeys)++] = key;
        }
    }
    return keys;
}

/* ---- numbers ------------------------------------------------------------ */

int fs_cmp_number(const char *s, double *v)
{
    if (!s || !*s)
        return 0;
    char *end;
    double d = strtod(s, &end);
    if (*end != '\0' || !isfinite(d))
        return 0;
    *v = d;
    return 1;
}

int fs_cmp_delta(const fs_section_column *c, const char *value, const char *base,
                 double *abs, double *pct, int *has_pct)
{
    double v, b;
    if (!c->delta || !fs_cmp_number(value, &v) || !fs_cmp_number(base, &b))
        return 0;
    double d = v - b;
    if (c->kind == FS_COL_MONEY)
        d = round(d * 100) / 100;
    *abs = d == 0 ? 0 : d;          /* no "-0" */
    *has_pct = b != 0;
    *pct = b != 0 ? (v - b) / fabs(b) * 100 : 0;
    if (*pct == 0)
        *pct = 0;
    return 1;
}

void fs_cmp_run_delta(const fs_section_column *c, const char *const *value,
                      const int *has, size_t i, int baseline,
                      fs_cmp_delta_fmt fmt, char *dbuf, size_t dsize,
                      char *pbuf, size_t psize)
{
    double d, pct;
    int has_pct;
    dbuf[0] = pbuf[0] = '\0';
    if (has[i] && has[baseline] &&
        fs_cmp_delta(c, value[i], value[baseline], &d, &pct, &has_pct))
        fmt(c, d, has_pct, pct, dbuf, dsize, pbuf, psize);
}

int fs_cmp_json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        s += strspn(s, "0123456789");
    else
        return 0;
    if (*s == '.') {
        size_t n = strspn(++s, "0123456789");
        if (n == 0)
            return 0;
        s += n;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        size_t n = strspn(s, "0123456789");
        if (n == 0)
            return 0;
        s += n;
    }
    return *s == '\0';
}

/* %.15g drops binary noise such as 234.45999999999998. */
void fs_cmp_format_raw(double d, char *buf, size_t size)
{
    snprintf(buf, size, "%.15g", d == 0 ? 0 : d);
}

/* ---- for people --------------------------------------------------------- */

static void format_duration(double s, char *buf, size_t size)
{
    static const struct { double s; const char *unit; } units[] = {
        { 86400, "d" }, { 3600, "h" }, { 60, "min" }, { 1, "s" },
    };
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && fabs(s) < units[u].s)
        u++;
    char num[64];
    fs_format_sig(s / units[u].s, num, sizeof num);
    snprintf(buf, size, "%s %s", num, units[u].unit);
}

/* v >= 0 in the units of kind k. */
static void format_magnitude(fs_column_kind k, double v, char *buf,
                             size_t size)
{
    char num[96];
    switch (k) {
    case FS_COL_MONEY:
        snprintf(buf, size, "$%s",
                 fs_format_thousands(v, 2, num, sizeof num));
        break;
    case FS_COL_HOURS:
        fs_format_thousands(v, 1, buf, size);
        break;
    case FS_COL_RATIO:
        snprintf(buf, size, "%.2f%%", v * 100);
        break;
    case FS_COL_COUNT:
        fs_format_thousands(v, 0, buf, size);
        break;
    case FS_COL_NUMBER:
        fs_format_thousands(v, 2, buf, size);
        break;
    case FS_COL_SECONDS:
        fs_format_latency(v, buf, size);
        break;
    case FS_COL_DURATION:
        format_duration(v, buf, size);
        break;
    case FS_COL_TEXT:
    case FS_COL_ID:
        snprintf(buf, size, "%.15g", v);
        break;
    }
}

int fs_cmp_overloaded(const fs_summary *r)
{
    double v;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, "unfinished_share") == 0)
            return fs_cmp_number(r->col[c], &v) && v > FS_OVERLOADED_SHARE;
    return 0;
}

char *fs_cmp_format_value(const fs_section_column *c, const char *text)
{
    double v;
    char buf[256];
    if (!text)
        return strdup("-");
    if (c->kind == FS_COL_TEXT || c->kind == FS_COL_ID ||
        !fs_cmp_number(text, &v))
        return fs_text_escape(text);
    if (v < 0) {
        char mag[200];
        format_magnitude(c->kind, -v, mag, sizeof mag);
        snprintf(buf, sizeof buf, "-%s", mag);
    } else {
        format_magnitude(c->kind, v, buf, sizeof buf);
    }
    return strdup(buf);
}

const char *fs_cmp_flag(const fs_section_column *c, double v)
{
    if (strcmp(c->name, "unfinished_share") == 0 && v > FS_OVERLOADED_SHARE)
        return " OVERLOADED";
    if (strcmp(c->name, "slo_attainment") == 0 && fs_slo_missed(v))
        return " SLO MISSED";
    return "";
}

int fs_cmp_slo_missed(const fs_compare_run *run)
{
    const fs_section_def *sec = &fs_sections[FS_SECTION_WORKLOADS];
    const fs_section_rows *rows = &run->rows[FS_SECTION_WORKLOADS];
    for (size_t k = 0; k < sec->ncols; k++)
        if (strcmp(sec->cols[k].name, "slo_missed") == 0)
            for (size_t r = 0; r < rows->nrows; r++) {
                const char *v = fs_cmp_row(rows, r)[k];
                if (v && strcmp(v, "yes") == 0)
                    return 1;
            }
    return 0;
}

char *fs_cmp_format_flagged(const fs_section_column *c, const char *text)
{
    char *s = fs_cmp_format_value(c, text), *out = NULL;
    double v;
    if (!s || !fs_cmp_number(text, &v) || !*fs_cmp_flag(c, v))
        return s;
    if (asprintf(&out, "%s%s", s, fs_cmp_flag(c, v)) < 0)
        out = NULL;
    free(s);
    return out;
}

void fs_cmp_format_change(const fs_section_column *c, double d, char *buf,
                          size_t size)
{
    char mag[128];
    const char *sign = d > 0 ? "+" : d < 0 ? "-" : "";
    if (c->kind == FS_COL_RATIO)
        snprintf(mag, sizeof mag, "%.2f pp", fabs(d) * 100);
    else
        format_magnitude(c->kind, fabs(d), mag, sizeof mag);
    snprintf(buf, size, "%s%s", sign, mag);
}

void fs_cmp_format_pct(int has_pct, double pct, char *buf, size_t size)
{
    if (!has_pct)
        snprintf(buf, size, "%s", "");
    else if (fabs(pct) < 0.05)
        snprintf(buf, size, "0.0%%");
    else
        snprintf(buf, size, "%+.1f%%", pct);
}

/* The value of run_summary column name in r, or NULL. */
static const char *summary_value(const fs_summary *r, const char *name)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        if (strcmp(fs_summary_columns[c].name, name) == 0)
            return r->col[c];
    return NULL;
}

char *fs_cmp_run_label(const fs_summary *r)
{
    const char *name = summary_value(r, "name");
    const char *id = summary_value(r, "run_id");
    char *label = NULL;
    if (asprintf(&label, "%s #%s", name ? name : "", id ? id : "?") < 0)
        return NULL;
    return label;
}
