/* cmd_compare.c -- `fleetsim compare [--db FILE] [--format F]
 * [--baseline RUN] RUN...`: run summaries side by side.
 *
 * Every run is one row of the run_summary view (store.c); this file only
 * lays them out.  Two audiences, two kinds of format:
 * - table and markdown are for people: one row per metric, one column per
 *   run, units and thousands separators, and with --baseline a change
 *   column ("Δ") and a relative change column ("Δ%") after every other run;
 * - csv and json are for programs: the view's own column names and the
 *   raw numbers as SQLite stored them (NULL as empty / null), and deltas
 *   as plain numbers (money deltas rounded to the cent).
 * A metric compares with the baseline only when both values are numbers;
 * the relative change also needs a nonzero baseline.  Ids, seeds and
 * replications are labels, never compared. */
#include "compare.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "help.h"

typedef enum kind {
    K_TEXT,         /* shown as is, a JSON string */
    K_ID,           /* an integer label: shown as is, never compared */
    K_MONEY,        /* dollars */
    K_HOURS,        /* GPU-hours */
    K_RATIO,        /* a fraction, shown as a percentage */
    K_COUNT,        /* an integer count */
    K_SECONDS,      /* a latency */
    K_DURATION,     /* a span of simulated time */
} kind;

typedef struct column {
    const char *name;   /* the run_summary column, in the view's order */
    const char *label;  /* row label in table/markdown; NULL: in the header */
    kind kind;
    int delta;          /* compared with the baseline */
} column;

static const column columns[FS_SUMMARY_COLUMNS] = {
    { "run_id", NULL, K_ID, 0 },
    { "name", NULL, K_TEXT, 0 },
    { "scenario", "scenario", K_TEXT, 0 },
    { "seed", "seed", K_ID, 0 },
    { "replication", "replication", K_ID, 0 },
    { "horizon_s", "horizon", K_DURATION, 1 },
    { "total_cost_usd", "total cost", K_MONEY, 1 },
    { "cost_per_month_usd", "cost / month", K_MONEY, 1 },
    { "gpu_hours_provisioned", "GPU-hours provisioned", K_HOURS, 1 },
    { "gpu_hours_busy", "GPU-hours busy", K_HOURS, 1 },
    { "utilization", "utilization", K_RATIO, 1 },
    { "requests", "requests", K_COUNT, 1 },
    { "requests_dropped", "requests dropped", K_COUNT, 1 },
    { "latency_mean_s", "latency mean", K_SECONDS, 1 },
    { "latency_p50_s", "latency p50", K_SECONDS, 1 },
    { "latency_p99_s", "latency p99", K_SECONDS, 1 },
    { "wait_mean_s", "wait mean", K_SECONDS, 1 },
    { "slo_attainment", "SLO attainment", K_RATIO, 1 },
    { "jobs", "jobs", K_COUNT, 1 },
    { "jobs_missed_deadline", "jobs missed deadline", K_COUNT, 1 },
    { "interruptions", "interruptions", K_COUNT, 1 },
};

enum { COL_RUN_ID = 0, COL_NAME = 1 };

static void check_columns(void)
{
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        assert(strcmp(columns[c].name, fs_summary_column_names[c]) == 0);
}

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

/* ---- numbers ---------------------------------------------------------- */

/* A finite number spelled by the whole of s. */
static int number(const char *s, double *v)
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

/* The change of value against base in column c: 1 with *abs set, and
 * *has_pct and *pct, or 0 when the two do not compare. */
static int delta(const column *c, const char *value, const char *base,
                 double *abs, double *pct, int *has_pct)
{
    double v, b;
    if (!c->delta || !number(value, &v) || !number(base, &b))
        return 0;
    double d = v - b;
    if (c->kind == K_MONEY)
        d = round(d * 100) / 100;
    *abs = d == 0 ? 0 : d;          /* no "-0" */
    *has_pct = b != 0;
    *pct = b != 0 ? (v - b) / fabs(b) * 100 : 0;
    if (*pct == 0)
        *pct = 0;
    return 1;
}

/* JSON's number grammar, which SQLite's text for numbers follows. */
static int json_number(const char *s)
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

static void trim_zeros(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '.')
        s[--n] = '\0';
    if (strcmp(s, "-0") == 0)
        strcpy(s, "0");
}

/* At least 4 significant digits, no exponent: 0.01234, 1.5, 12,345. */
static void format_sig(double v, char *buf, size_t size)
{
    double a = fabs(v);
    if (a >= 1000 || a == 0) {
        fs_format_thousands(v, 0, buf, size);
        return;
    }
    int decimals = 3 - (int)floor(log10(a));
    if (decimals > 9)
        decimals = 9;
    snprintf(buf, size, "%.*f", decimals, v);
    trim_zeros(buf);
}

static void format_duration(double s, char *buf, size_t size)
{
    static const struct { double s; const char *unit; } units[] = {
        { 86400, "d" }, { 3600, "h" }, { 60, "min" }, { 1, "s" },
    };
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && fabs(s) < units[u].s)
        u++;
    char num[64];
    format_sig(s / units[u].s, num, sizeof num);
    snprintf(buf, size, "%s %s", num, units[u].unit);
}

/* v >= 0 in the units of kind k, for the table. */
static void format_magnitude(kind k, double v, char *buf, size_t size)
{
    char num[96];
    switch (k) {
    case K_MONEY:
        snprintf(buf, size, "$%s", fs_format_thousands(v, 2, num, sizeof num));
        break;
    case K_HOURS:
        fs_format_thousands(v, 1, buf, size);
        break;
    case K_RATIO:
        snprintf(buf, size, "%.2f%%", v * 100);
        break;
    case K_COUNT:
        fs_format_thousands(v, 0, buf, size);
        break;
    case K_SECONDS:
        format_sig(v, num, sizeof num);
        snprintf(buf, size, "%s s", num);
        break;
    case K_DURATION:
        format_duration(v, buf, size);
        break;
    case K_TEXT:
    case K_ID:
        snprintf(buf, size, "%.15g", v);
        break;
    }
}

/* A value as the table shows it: "-" for NULL, units for numbers. */
static void format_value(const column *c, const char *text, char *buf,
                         size_t size)
{
    double v;
    if (!text)
        snprintf(buf, size, "-");
    else if (c->kind == K_TEXT || c->kind == K_ID || !number(text, &v))
        snprintf(buf, size, "%s", text);
    else if (v < 0) {
        char mag[128];
        format_magnitude(c->kind, -v, mag, sizeof mag);
        snprintf(buf, size, "-%s", mag);
    } else
        format_magnitude(c->kind, v, buf, size);
}

/* A change as the table shows it: "+$20.00", "-0.012 s", "+5.00 pp". */
static void format_change(const column *c, double d, char *buf, size_t size)
{
    char mag[128];
    const char *sign = d > 0 ? "+" : d < 0 ? "-" : "";
    if (c->kind == K_RATIO)
        snprintf(mag, sizeof mag, "%.2f pp", fabs(d) * 100);
    else
        format_magnitude(c->kind, fabs(d), mag, sizeof mag);
    snprintf(buf, size, "%s%s", sign, mag);
}

/* A raw number for csv and json: %.15g drops binary noise such as
 * 234.45999999999998. */
static void format_raw(double d, char *buf, size_t size)
{
    snprintf(buf, size, "%.15g", d == 0 ? 0 : d);
}

/* "quickstart #3": names repeat across replications, ids do not. */
static void run_label(const fs_summary *r, char *buf, size_t size)
{
    const char *name = r->col[COL_NAME], *id = r->col[COL_RUN_ID];
    snprintf(buf, size, "%s #%s", name ? name : "", id ? id : "?");
}

/* ---- table and markdown ----------------------------------------------- */

/* The table as cells: row 0 is the header, column 0 the labels. */
typedef struct grid {
    size_t rows, cols;
    char **cell;
} grid;

static void grid_free(grid *g)
{
    if (g->cell)
        for (size_t i = 0; i < g->rows * g->cols; i++)
            free(g->cell[i]);
    free(g->cell);
}

static int grid_set(grid *g, size_t r, size_t c, const char *text)
{
    assert(r < g->rows && c < g->cols);
    char *s = strdup(text);
    if (!s)
        return -1;
    free(g->cell[r * g->cols + c]);
    g->cell[r * g->cols + c] = s;
    return 0;
}

static int is_delta_run(size_t i, int baseline)
{
    return baseline >= 0 && i != (size_t)baseline;
}

static int build_grid(grid *g, const fs_summary *runs, size_t n,
                      int baseline)
{
    size_t rows = 1, cols = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++)
        rows += columns[c].label != NULL;
    for (size_t i = 0; i < n; i++)
        cols += is_delta_run(i, baseline) ? 3 : 1;
    g->rows = rows;
    g->cols = cols;
    g->cell = calloc(rows * cols, sizeof *g->cell);
    if (!g->cell)
        return -1;

    int fail = grid_set(g, 0, 0, "metric");
    size_t col = 1;
    for (size_t i = 0; i < n; i++) {
        char label[160];
        run_label(&runs[i], label, sizeof label);
        if (baseline >= 0 && i == (size_t)baseline)
            strncat(label, " (baseline)", sizeof label - strlen(label) - 1);
        fail |= grid_set(g, 0, col++, label);
        if (is_delta_run(i, baseline)) {
            fail |= grid_set(g, 0, col++, "\xce\x94");       /* Δ */
            fail |= grid_set(g, 0, col++, "\xce\x94%");
        }
    }

    size_t row = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        const column *k = &columns[c];
        if (!k->label)
            continue;
        fail |= grid_set(g, row, 0, k->label);
        col = 1;
        for (size_t i = 0; i < n; i++) {
            char buf[1100];
            format_value(k, runs[i].col[c], buf, sizeof buf);
            fail |= grid_set(g, row, col++, buf);
            if (!is_delta_run(i, baseline))
                continue;
            double d, pct;
            int has_pct;
            char dbuf[160] = "", pbuf[64] = "";
            if (delta(k, runs[i].col[c], runs[baseline].col[c], &d, &pct,
                      &has_pct)) {
                format_change(k, d, dbuf, sizeof dbuf);
                if (has_pct && fabs(pct) < 0.05)
                    snprintf(pbuf, sizeof pbuf, "0.0%%");
                else if (has_pct)
                    snprintf(pbuf, sizeof pbuf, "%+.1f%%", pct);
            }
            fail |= grid_set(g, row, col++, dbuf);
            fail |= grid_set(g, row, col++, pbuf);
        }
        row++;
    }
    return fail ? -1 : 0;
}

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static size_t display_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

static void write_table(FILE *out, const grid *g)
{
    size_t *width = calloc(g->cols, sizeof *width);
    if (!width) {
        fputs("(out of memory)\n", out);
        return;
    }
    for (size_t r = 0; r < g->rows; r++)
        for (size_t c = 0; c < g->cols; c++) {
            size_t w = display_width(g->cell[r * g->cols + c]);
            if (w > width[c])
                width[c] = w;
        }
    for (size_t r = 0; r < g->rows; r++) {
        for (size_t c = 0; c < g->cols; c++) {
            const char *s = g->cell[r * g->cols + c];
            size_t gap = width[c] - display_width(s);
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
}

static void markdown_cell(FILE *out, const char *s)
{
    fputs(" ", out);
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
    fputs(" |", out);
}

static void write_markdown(FILE *out, const grid *g)
{
    for (size_t r = 0; r < g->rows; r++) {
        fputc('|', out);
        for (size_t c = 0; c < g->cols; c++)
            markdown_cell(out, g->cell[r * g->cols + c]);
        fputc('\n', out);
        if (r == 0) {
            fputc('|', out);
            for (size_t c = 0; c < g->cols; c++)
                fputs(c ? " ---: |" : " :--- |", out);
            fputc('\n', out);
        }
    }
}

/* ---- csv ---------------------------------------------------------------- */

static void csv_field(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' &&
        (s[0] == '\0' || s[strlen(s) - 1] != ' ')) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_csv(FILE *out, const fs_summary *runs, size_t n,
                      int baseline)
{
    fputs("metric", out);
    for (size_t i = 0; i < n; i++) {
        char label[160], more[200];
        run_label(&runs[i], label, sizeof label);
        fputc(',', out);
        csv_field(out, label);
        if (is_delta_run(i, baseline)) {
            snprintf(more, sizeof more, "%s delta", label);
            fputc(',', out);
            csv_field(out, more);
            snprintf(more, sizeof more, "%s delta %%", label);
            fputc(',', out);
            csv_field(out, more);
        }
    }
    fputc('\n', out);
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        const column *k = &columns[c];
        fputs(k->name, out);
        for (size_t i = 0; i < n; i++) {
            fputc(',', out);
            csv_field(out, runs[i].col[c]);
            if (!is_delta_run(i, baseline))
                continue;
            double d, pct;
            int has_pct;
            char dbuf[64] = "", pbuf[64] = "";
            if (delta(k, runs[i].col[c], runs[baseline].col[c], &d, &pct,
                      &has_pct)) {
                format_raw(d, dbuf, sizeof dbuf);
                if (has_pct)
                    format_raw(pct, pbuf, sizeof pbuf);
            }
            fprintf(out, ",%s,%s", dbuf, pbuf);
        }
        fputc('\n', out);
    }
}

/* ---- json --------------------------------------------------------------- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '"':  fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (ch < 0x20)
                fprintf(out, "\\u%04x", ch);
            else
                fputc(ch, out);
        }
    }
    fputc('"', out);
}

static void json_value(FILE *out, const column *c, const char *text)
{
    if (!text)
        fputs("null", out);
    else if (c->kind == K_TEXT)
        json_string(out, text);
    else if (json_number(text))
        fputs(text, out);
    else
        fputs("null", out);     /* SQLite's Inf, or not a number at all */
}

/* "key":{col: delta, ...} over the compared columns; pct picks the
 * relative change. */
static void json_deltas(FILE *out, const char *key, const fs_summary *run,
                        const fs_summary *base, int pct)
{
    fprintf(out, ",\"%s\":{", key);
    int first = 1;
    for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
        const column *k = &columns[c];
        if (!k->delta)
            continue;
        double d, p;
        int has_pct;
        char buf[64] = "null";
        if (delta(k, run->col[c], base->col[c], &d, &p, &has_pct) &&
            (!pct || has_pct))
            format_raw(pct ? p : d, buf, sizeof buf);
        fprintf(out, "%s\"%s\":%s", first ? "" : ",", k->name, buf);
        first = 0;
    }
    fputc('}', out);
}

static void write_json(FILE *out, const fs_summary *runs, size_t n,
                       int baseline)
{
    fputs("[\n", out);
    for (size_t i = 0; i < n; i++) {
        fputc('{', out);
        for (int c = 0; c < FS_SUMMARY_COLUMNS; c++) {
            fprintf(out, "%s\"%s\":", c ? "," : "", columns[c].name);
            json_value(out, &columns[c], runs[i].col[c]);
        }
        if (is_delta_run(i, baseline)) {
            json_deltas(out, "delta_vs_baseline", &runs[i], &runs[baseline],
                        0);
            json_deltas(out, "delta_pct_vs_baseline", &runs[i],
                        &runs[baseline], 1);
        }
        fputs(i + 1 < n ? "},\n" : "}\n", out);
    }
    fputs("]\n", out);
}

int fs_compare_write(FILE *out, fs_compare_format fmt,
                     const fs_summary *runs, size_t n, int baseline)
{
    assert(out && (runs || n == 0));
    assert(baseline < 0 || (size_t)baseline < n);
    check_columns();
    switch (fmt) {
    case FS_COMPARE_CSV:
        write_csv(out, runs, n, baseline);
        break;
    case FS_COMPARE_JSON:
        write_json(out, runs, n, baseline);
        break;
    case FS_COMPARE_TABLE:
    case FS_COMPARE_MARKDOWN: {
        grid g = { 0 };
        int rc = build_grid(&g, runs, n, baseline);
        if (rc == 0 && fmt == FS_COMPARE_TABLE)
            write_table(out, &g);
        else if (rc == 0)
            write_markdown(out, &g);
        grid_free(&g);
        if (rc)
            return -1;
        break;
    }
    }
    return ferror(out) ? -1 : 0;
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
                                           "--help", NULL };
    const char *db = FS_DEFAULT_DB, *format = "table", *baseline = NULL;
    const char **names = calloc((size_t)argc + 1, sizeof *names);
    long *ids = calloc((size_t)argc + 1, sizeof *ids);
    fs_summary *sums = calloc((size_t)argc + 1, sizeof *sums);
    size_t nnames = 0, nids = 0;
    int status = FS_EXIT_OK, options_done = 0;
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
        if (fs_store_summary(s, ids[i], &sums[i], &err)) {
            status = fs_fail(err.msg);
            goto done;
        }
    if (fs_compare_write(stdout, fmt, sums, nids, base_index) != 0 ||
        fflush(stdout) != 0)
        status = fs_fail("cannot write to standard output");

done:
    if (sums)
        for (size_t i = 0; i < nids; i++)
            fs_summary_free(&sums[i]);
    free(sums);
    free(ids);
    free(names);
    fs_store_close(s);
    return status;
}
