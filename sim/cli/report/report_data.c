/* report_data.c -- gathers the budget review of `fleetsim report`: the
 * run_summary rows (through the declared columns), cost by month and
 * pricing model, savings against the baseline, idle cost per pool, latency
 * and SLO per workload (the reservation recommendation: report_roi.c),
 * and every chart of plots/plot.c's table, drawn as SVG by plots/plot.h in
 * a private temporary directory. */
#include "sim/cli/report/report.h"
#include "sim/base/datadir.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plots/plot.h"
#include "sim/store/columns.h"
#include "sim/store/store_query.h"
#include "sim/base/grammar.h"
#include "sim/base/vec.h"
#include "sim/app/summary.h"

static const char *const head_monthly[] = {
    "Run", "Calendar month", "Pricing", "Bill", "GPU-hours"};
static const char *const head_savings[] = {
    "Run", "Monthly run rate (730 h)", "Change in run rate",
    "Change in run rate (%)", "Cost over the run", "Change in cost",
    "Change in cost (%)"};
static const char *const head_idle[] = {
    "Run", "Pool", "Idle cost", "Idle GPU-hours", "Pool cost",
    "Idle share"};
static const char *const head_workload[] = {
    "Run", "Workload", "Requests finished", "Unfinished (share)",
    "GPU-hours used", "Share of GPU-hours", "Allocated cost",
    "Mean latency, finished", "p50, finished", "p99, finished", "SLO (p99)",
    "SLO attainment"};

static const char *money(double v, char *buf, size_t size)
{
    return fs_report_money(v, 0, buf, size);
}

/* A latency with its unit (summary_format.c): "0.1 s", "1,234 s",
 * "188.4 ns", never an exponent. */
static const char *seconds(double v, char *buf, size_t size)
{
    fs_format_latency(v, buf, size);
    return buf;
}

/* A summary value as it reads: money with separators, ratios as %. */
static int summary_cell(fs_rtable *t, const char *name, fs_column_kind kind,
                        const char *v, fs_error *err)
{
    char b[64];
    if (!v)
        return fs_rtable_addf(t, err, "–");
    switch (kind) {
    case FS_COL_MONEY:
        return fs_rtable_addf(t, err, "%s", money(atof(v), b, sizeof b));
    case FS_COL_HOURS:
        return fs_rtable_addf(t, err, "%s", fs_format_thousands(atof(v), 1, b,
                                                      sizeof b));
    case FS_COL_RATIO:
        return fs_rtable_addf(t, err, "%.2f%%%s", 100 * atof(v),
                    strcmp(name, "unfinished_share") == 0 &&
                    atof(v) > FS_OVERLOADED_SHARE ? ", overloaded" : "");
    case FS_COL_COUNT:
        return fs_rtable_addf(t, err, "%s", fs_format_thousands(atof(v), 0, b,
                                                      sizeof b));
    case FS_COL_SECONDS:
        return fs_rtable_addf(t, err, "%s", seconds(atof(v), b, sizeof b));
    case FS_COL_DURATION:
        fs_format_duration(atof(v), b, sizeof b);
        return fs_rtable_addf(t, err, "%s", b);
    case FS_COL_NUMBER:
        return fs_rtable_addf(t, err, "%.4g", atof(v));
    default:
        return fs_rtable_addf(t, err, "%s", v);
    }
}

/* A column's label, or its name in words ("run id") when it has none. */
static int label_cell(fs_rtable *t, const fs_column *c, fs_error *err)
{
    if (c->label)
        return fs_rtable_addf(t, err, "%s", c->label);
    char words[64];
    snprintf(words, sizeof words, "%s", c->name);
    for (char *p = words; *p; p++)
        if (*p == '_')
            *p = ' ';
    return fs_rtable_addf(t, err, "%s", words);
}

/* The summary, transposed: one row per declared column, labelled in
 * words (never the view's column name), one column per run. */
static int gather_summary(fs_store *s, const long *ids, fs_report *r,
                          fs_error *err)
{
    fs_rtable *t = &r->tables[0];
    t->title = "Every figure of each run";
    t->intro = "Money over the run and as a monthly run rate (730 hours); "
               "latency over finished requests only, beside the requests "
               "left unfinished.";
    t->ncols = (int)r->nruns + 1;
    const char **head = calloc(r->nruns + 1, sizeof *head);
    fs_summary *sm = calloc(r->nruns, sizeof *sm);
    int rc = head && sm ? 0 : fs_error_set(err, "out of memory");
    t->head = head;
    if (head)
        head[0] = "Figure";
    for (size_t i = 0; rc == 0 && i < r->nruns; i++) {
        head[i + 1] = r->run_names[i];
        rc = fs_store_summary(s, ids[i], &sm[i], err);
    }
    for (int c = 0; rc == 0 && c < FS_SUMMARY_COLUMNS; c++) {
        rc = label_cell(t, &fs_summary_columns[c], err);
        for (size_t i = 0; rc == 0 && i < r->nruns; i++)
            rc = summary_cell(t, fs_summary_columns[c].name,
                              fs_summary_columns[c].kind,
                              sm[i].col[c], err);
    }
    for (size_t i = 0; sm && i < r->nruns; i++)
        fs_summary_free(&sm[i]);
    free(sm);
    return rc;
}

/* A row of the report's queries, with the table it goes to. */
typedef int (*report_row_fn)(const fs_row *, fs_report *, size_t,
                             fs_error *);
typedef struct report_rows {
    report_row_fn row;
    fs_report *r;
    size_t run;
} report_rows;

static int one_row(const fs_row *row, void *ctx, fs_error *err)
{
    report_rows *rr = ctx;
    return rr->row(row, rr->r, rr->run, err) ? -1 : 0;
}

/* Runs the store's query q for run id and hands each row to row(). */
static int each_row(fs_store *s, fs_query q, long id, report_row_fn row,
                    fs_report *r, size_t run, fs_error *err)
{
    report_rows rr = {row, r, run};
    fs_query_arg a = {id, NULL, 0};
    return fs_store_each(s, q, &a, one_row, &rr, err);
}

static const char *text(const fs_row *st, int c)
{
    const char *v = fs_row_text(st, c);
    return v ? v : "–";
}

/* A row's first two cells: the run's name and the row's key (column 0:
 * a month, a pool, a workload). */
static int key_cells(fs_rtable *t, const fs_report *r, size_t run,
                     const fs_row *st, fs_error *err)
{
    return fs_rtable_addf(t, err, "%s", r->run_names[run]) ||
           fs_rtable_addf(t, err, "%s", text(st, 0));
}

static int row_monthly(const fs_row *st, fs_report *r, size_t run,
                       fs_error *err)
{
    fs_rtable *t = &r->tables[1];
    char b[64];
    if (key_cells(t, r, run, st, err) ||
        fs_rtable_addf(t, err, "%s", text(st, 1)) ||
        fs_rtable_addf(t, err, "%s",
                       money(fs_row_double(st, 2), b, sizeof b)))
        return -1;
    return fs_rtable_addf(t, err, "%s", fs_format_thousands(
                    fs_row_double(st, 3), 1, b, sizeof b));
}

static int row_idle(const fs_row *st, fs_report *r, size_t run,
                    fs_error *err)
{
    fs_rtable *t = &r->tables[3];
    char b[64];
    double idle = fs_row_double(st, 1);
    double total = fs_row_double(st, 3);
    if (key_cells(t, r, run, st, err) ||
        fs_rtable_addf(t, err, "%s", money(idle, b, sizeof b)) ||
        fs_rtable_addf(t, err, "%s", fs_format_thousands(
                           fs_row_double(st, 2), 1, b, sizeof b)) ||
        fs_rtable_addf(t, err, "%s", money(total, b, sizeof b)))
        return -1;
    if (total > 0 && !fs_row_null(st, 4))
        return fs_rtable_addf(t, err,
                              "%.2f%% (MIG: %.1f%% of this %s is idle)",
                              100 * idle / total, 100 * idle / total,
                              text(st, 4));
    return total > 0 ? fs_rtable_addf(t, err, "%.2f%%", 100 * idle / total)
                     : fs_rtable_addf(t, err, "–");
}

/* A training workload's first two cells: its jobs, finished of all, in
 * place of requests (it has no latency row). */
static int training_cells(const fs_row *st, fs_rtable *t, fs_error *err)
{
    char b[64], a[64];
    fs_format_thousands(fs_row_double(st, 12), 0, b, sizeof b);
    fs_format_thousands(fs_row_double(st, 13), 0, a, sizeof a);
    return fs_rtable_addf(t, err, "training: %s of %s jobs finished", b, a) ||
           fs_rtable_addf(t, err, "–");
}

static int request_cells(const fs_row *st, fs_rtable *t, fs_error *err)
{
    char b[64], u[64];
    double un = fs_row_double(st, 10);
    double arrived = fs_row_double(st, 11);
    double share = arrived > 0 ? un / arrived : 0;
    fs_format_thousands(un, 0, u, sizeof u);
    return fs_rtable_addf(t, err, "%s", fs_format_thousands(
                              fs_row_double(st, 1), 0, b, sizeof b)) ||
           fs_rtable_addf(t, err, "%s (%.2f%%)%s", u, 100 * share,
                          share > FS_OVERLOADED_SHARE ? ", overloaded" : "");
}

/* SLO attainment, flagged as overload is when under FS_SLO_MET_SHARE. */
static int attainment_cell(const fs_row *st, fs_rtable *t, fs_error *err)
{
    if (fs_row_null(st, 6))
        return fs_rtable_addf(t, err, "–");
    double a = fs_row_double(st, 6);
    return fs_rtable_addf(t, err, "%.2f%%%s", 100 * a,
                          fs_slo_missed(a) ? ", SLO missed" : "");
}

static int row_workload(const fs_row *st, fs_report *r, size_t run,
                        fs_error *err)
{
    fs_rtable *t = &r->tables[4];
    char b[64];
    double used = fs_row_double(st, 7);
    double all = fs_row_double(st, 8);
    int training = fs_row_null(st, 1);
    if (key_cells(t, r, run, st, err) ||
        (training ? training_cells(st, t, err)
                  : request_cells(st, t, err)) ||
        fs_rtable_addf(t, err, "%s",
                       fs_format_thousands(used, 1, b, sizeof b)) ||
        (all > 0 ? fs_rtable_addf(t, err, "%.2f%%", 100 * used / all)
                 : fs_rtable_addf(t, err, "–")) ||
        fs_rtable_addf(t, err, "%s",
                       money(fs_row_double(st, 9), b, sizeof b)))
        return -1;
    for (int c = 2; c <= 5; c++)
        if (fs_row_null(st, c)
                ? fs_rtable_addf(t, err, "–")
                : fs_rtable_addf(t, err, "%s", seconds(
                      fs_row_double(st, c), b, sizeof b)))
            return -1;
    return attainment_cell(st, t, err);
}

/* A LoRA adapter under its workload (schema 20): its requests, the
 * GPU-hours its requests took and the workload's cost in that share (its
 * showback), its mean end-to-end latency; no percentiles or SLO of its
 * own. */
static int row_adapter(const fs_row *st, fs_report *r, size_t run,
                       fs_error *err)
{
    fs_rtable *t = &r->tables[4];
    char b[64];
    double used = fs_row_double(st, 3), all = fs_row_double(st, 4);
    if (key_cells(t, r, run, st, err) ||
        fs_rtable_addf(t, err, "%s", fs_format_thousands(
                           fs_row_double(st, 1), 0, b, sizeof b)) ||
        fs_rtable_addf(t, err, "–") ||
        fs_rtable_addf(t, err, "%s", fs_format_thousands(used, 1, b,
                                                         sizeof b)) ||
        (all > 0 ? fs_rtable_addf(t, err, "%.2f%%", 100 * used / all)
                 : fs_rtable_addf(t, err, "–")) ||
        fs_rtable_addf(t, err, "%s", money(fs_row_double(st, 5), b,
                                           sizeof b)) ||
        (fs_row_null(st, 2) ? fs_rtable_addf(t, err, "–")
                            : fs_rtable_addf(t, err, "%s", seconds(
                                  fs_row_double(st, 2), b, sizeof b))))
        return -1;
    for (int c = 0; c < 4; c++)
        if (fs_rtable_addf(t, err, "–"))
            return -1;
    return 0;
}

/* Δ and Δ% of v against b, as cells. */
static int delta_cells(fs_rtable *t, double v, double b, fs_error *err)
{
    char buf[64];
    if (fs_rtable_addf(t, err, "%s%s", v - b > 0 ? "+" : "",
             money(v - b, buf, sizeof buf)))
        return -1;
    return b != 0 ? fs_rtable_addf(t, err, "%+.2f%%", 100 * (v - b) / b)
                  : fs_rtable_addf(t, err, "–");
}

static int gather_savings(fs_store *s, const long *ids, long base,
                          fs_report *r, fs_error *err)
{
    fs_rtable *t = &r->tables[2];
    fs_summary b = {{0}}, sm;
    int rc = fs_store_summary(s, base, &b, err);
    int irate = 7, itotal = 6;   /* run_summary's order (the contract) */
    double brate = rc ? 0 : atof(b.col[irate] ? b.col[irate] : "0");
    double btotal = rc ? 0 : atof(b.col[itotal] ? b.col[itotal] : "0");
    for (size_t i = 0; rc == 0 && i < r->nruns; i++) {
        char m1[64], m2[64];
        rc = fs_store_summary(s, ids[i], &sm, err);
        if (rc)
            break;
        double rate = atof(sm.col[irate] ? sm.col[irate] : "0");
        double total = atof(sm.col[itotal] ? sm.col[itotal] : "0");
        fs_summary_free(&sm);
        rc = fs_rtable_addf(t, err, "%s", r->run_names[i]) ||
             fs_rtable_addf(t, err, "%s", money(rate, m1, sizeof m1)) ||
             delta_cells(t, rate, brate, err) ||
             fs_rtable_addf(t, err, "%s", money(total, m2, sizeof m2)) ||
             delta_cells(t, total, btotal, err) ? -1 : 0;
    }
    fs_summary_free(&b);
    return rc;
}

/* Reads the whole file at path; NULL when it cannot. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0, n;
    char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Draws every chart as SVG in a private directory; a chart that cannot
 * be drawn gets a note saying why. */
static int gather_charts(fs_store *s, const long *ids, long base,
                         fs_report *r, fs_error *err)
{
    r->ncharts = fs_plot_chart_count();
    r->charts = calloc(r->ncharts, sizeof *r->charts);
    if (!r->charts)
        return fs_error_set(err, "out of memory");
    char dir[4096];
    if (fs_temp_dir("fleetsim-report", dir, sizeof dir, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->ncharts; i++) {
        fs_rchart *c = &r->charts[i];
        char path[4200];
        fs_error why;
        c->name = fs_plot_chart_name(i);
        c->summary = fs_plot_chart_summary(i);
        snprintf(path, sizeof path, "%s/%s.svg", dir, c->name);
        fs_plot_request rq = {c->name, ids, r->nruns, base, NULL, 1, path,
                              .portfolio_in = &r->pf_in,
                              .portfolio_sol = r->pf_solved ? &r->pf_sol
                                                            : NULL,
                              .portfolio_off = !r->pf_solved};
        if (fs_plot_render_request(s, &rq, &why)) {
            if (fs_plot_chart_optional(i)) {   /* left out, no note */
                unlink(path);
                continue;
            }
            c->note = strdup(why.msg);
        } else {
            char *all = slurp(path);
            char *svg = all ? strstr(all, "<svg") : NULL;
            if (svg)
                c->svg = strdup(svg);
            else
                c->note = strdup("gnuplot wrote no SVG");
            free(all);
        }
        unlink(path);
        if (!c->svg && !c->note)
            rc = fs_error_set(err, "out of memory");
    }
    rmdir(dir);
    return rc;
}

int fs_report_gather(fs_store *s, const long *ids, size_t n, long base,
                     fs_report *r, fs_error *err)
{
    static const struct {
        const char *title, *intro;
        int ncols;
        const char *const *head;
    } fixed[] = {
        {"Bill by calendar month and pricing model",
         "What each calendar month of the run is billed, summed over the "
         "pools.", 5, head_monthly},
        {"Savings against the baseline",
         "Each run's monthly run rate (its cost scaled to a 730-hour "
         "month) and its cost over the run, and their changes against the "
         "baseline run.", 7, head_savings},
        {"Idle cost per pool",
         "What each pool paid for GPU-hours that no workload used.", 6,
         head_idle},
        {"Utilization and latency against SLO per workload",
         "Every workload, training teams included: the GPU-hours each "
         "used and the pool cost they carry (showback; with the idle cost "
         "per pool above, the run's whole bill), its requests left "
         "unfinished at the horizon or dropped (a training workload: its "
         "jobs), and its latency over the finished requests; a workload's "
         "LoRA adapters each under it (their GPU-hours, cost and mean "
         "latency).", 12,
         head_workload},
    };
    for (int k = 0; k < 4; k++) {
        r->tables[k + 1].title = fixed[k].title;
        r->tables[k + 1].intro = fixed[k].intro;
        r->tables[k + 1].ncols = fixed[k].ncols;
        r->tables[k + 1].head = fixed[k].head;
    }
    int rc = gather_summary(s, ids, r, err);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = each_row(s, FS_Q_MONTH_PRICING, ids[i], row_monthly, r, i, err) ||
             each_row(s, FS_Q_IDLE, ids[i], row_idle, r, i, err) ||
             each_row(s, FS_Q_WORKLOADS, ids[i], row_workload, r, i, err) ||
             each_row(s, FS_Q_ADAPTERS, ids[i], row_adapter, r, i, err)
                 ? -1 : 0;
    if (rc == 0)
        rc = gather_savings(s, ids, base, r, err);
    if (rc == 0)
        rc = fs_report_gather_roi(s, ids, n, r, err);
    if (rc == 0)
        rc = fs_report_gather_serving(s, ids, n, r, err);
    if (rc == 0)
        rc = fs_report_gather_brief(s, ids, n, base, r, err);
    if (rc == 0)
        rc = fs_report_gather_extra(s, ids, n, r, err);
    if (rc == 0)
        rc = fs_report_gather_portfolio(s, ids, n, r, err);
    if (rc == 0)
        rc = fs_report_gather_savings(s, ids, n, base, r, err);
    if (rc == 0)
        rc = gather_charts(s, ids, base, r, err);
    return rc;
}

void fs_report_free(fs_report *r)
{
    for (int k = 0; k < FS_REPORT_TABLES; k++) {
        fs_rtable *t = &r->tables[k];
        for (size_t i = 0; i < t->ncells; i++)
            free(t->cells[i]);
        free(t->cells);
    }
    free((void *)r->tables[0].head);
    fs_rbrief_free(&r->brief);
    for (size_t i = 0; i < r->ncharts; i++) {
        free(r->charts[i].svg);
        free(r->charts[i].note);
    }
    free(r->charts);
    for (size_t i = 0; i < r->nruns; i++)
        free(r->run_names[i]);
    free(r->run_names);
    free(r->baseline_name);
    fs_report_portfolio_free(r);
    memset(r, 0, sizeof *r);
}
