/* forecast_out.c -- `fleetsim forecast`'s answer as a table, CSV, JSON
 * (jansson) or Markdown: one row per month (730 hours after the runs'
 * horizon) with the runs' mean bill and the interval, after the runs'
 * rates and bills per 730 hours.  Every format prints the same figures;
 * the budgets judged on them follow as a Markdown summary (table and
 * markdown), a "budgets" array (JSON), or only the exit status (CSV). */
#include "sim/cli/forecast/forecast.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const columns[] = {
    "month", "from_h", "to_h", "bill_usd", "low_usd", "high_usd",
};
#define NCOLS 6

static double value(const fs_fc_month *m, int i)
{
    double v[] = {m->month, m->from_h, m->to_h, m->mean, m->low, m->high};
    return v[i];
}

static void print_text(FILE *out, int md, const fs_fc_answer *a)
{
    const char *sep = md ? " | " : "  ";
    fprintf(out, "%sforecast: %d months of 730 hours after the runs' "
            "horizon, %.4g%% interval (%s)\n\n", md ? "" : "",
            a->months, a->level * 100, a->months ? a->month[0].method : "");
    fprintf(out, md ? "| run | growth_month | bill_730h_usd |\n|---|---|---|"
                      "\n" : "%-8s  %12s  %14s\n", "run", "growth/month",
            "bill per 730 h");
    for (size_t r = 0; r < a->nruns; r++)
        fprintf(out, md ? "| %ld | %.4f%% | %.2f |\n" : "%-8ld  %11.4f%%  "
                "%14.2f\n", a->run_ids[r], a->runs[r].growth * 100,
                a->runs[r].bill_month);
    fputs(md ? "\n| " : "\n", out);
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, md ? "%s%s" : "%12s%s", columns[i],
                i + 1 < NCOLS ? sep : "");
    fputs(md ? " |\n|---|---|---|---|---|---|\n" : "\n", out);
    for (int k = 0; k < a->months; k++) {
        fputs(md ? "| " : "", out);
        for (int i = 0; i < NCOLS; i++) {
            double v = value(&a->month[k], i);
            if (isnan(v))
                fprintf(out, md ? "-%s" : "%12s%s", md ? "" : "-", "");
            else
                fprintf(out, i < 3 ? (md ? "%.0f" : "%12.0f")
                                   : (md ? "%.2f" : "%12.2f"), v);
            fputs(i + 1 < NCOLS ? sep : "", out);
        }
        fputs(md ? " |\n" : "\n", out);
    }
}

static void print_csv(FILE *out, const fs_fc_answer *a)
{
    for (int i = 0; i < NCOLS; i++)
        fprintf(out, "%s%s", columns[i], i + 1 < NCOLS ? "," : "\n");
    for (int k = 0; k < a->months; k++)
        for (int i = 0; i < NCOLS; i++) {
            double v = value(&a->month[k], i);
            if (!isnan(v))
                fprintf(out, "%.10g", v);
            fputs(i + 1 < NCOLS ? "," : "\n", out);
        }
}

static json_t *num(double v)
{
    return isnan(v) ? json_null() : json_real(v);
}

/* The budgets in JSON: each with its months' spend and overrun. */
static json_t *budgets_json(const fs_fc_answer *a)
{
    json_t *arr = json_array();
    for (int k = 0; a->budgets && k < a->budgets->n; k++) {
        const fs_fc_budget *b = &a->budgets->b[k];
        json_t *ms = json_array();
        for (int m = 0; m < a->months; m++)
            json_array_append_new(ms, json_pack(
                "{s:i, s:o, s:o}", "month", m + 1, "forecast_usd",
                num(b->spend[m]), "overrun_usd", num(b->overrun[m])));
        json_array_append_new(arr, json_pack(
            "{s:s, s:s, s:o, s:o}", "scope", b->scope, "source", b->source,
            "limit_usd", num(b->limit_usd), "months", ms));
    }
    return arr;
}

static void print_json(FILE *out, const fs_fc_answer *a)
{
    json_t *runs = json_array(), *ms = json_array();
    for (size_t r = 0; r < a->nruns; r++)
        json_array_append_new(runs, json_pack(
            "{s:I, s:o, s:o, s:o}", "run_id", (json_int_t)a->run_ids[r],
            "growth_month", num(a->runs[r].growth),
            "bill_730h_usd", num(a->runs[r].bill_month),
            "horizon_h", num(a->runs[r].horizon_h)));
    for (int k = 0; k < a->months; k++) {
        json_t *o = json_object();
        for (int i = 0; i < NCOLS; i++)
            json_object_set_new(o, columns[i], num(value(&a->month[k], i)));
        json_array_append_new(ms, o);
    }
    json_t *root = json_pack("{s:f, s:f, s:s, s:o, s:o, s:o}",
                             "month_hours", FS_FC_MONTH_H,
                             "level", a->level, "interval",
                             a->months ? a->month[0].method : "",
                             "runs", runs, "months", ms,
                             "budgets", budgets_json(a));
    char *text = root ? json_dumps(root, JSON_INDENT(2) |
                                   JSON_PRESERVE_ORDER |
                                   JSON_REAL_PRECISION(12)) : NULL;
    if (text)
        fprintf(out, "%s\n", text);
    free(text);
    json_decref(root);
}

void fs_forecast_print(FILE *out, int fmt, const fs_fc_answer *a)
{
    if (fmt == FS_FC_CSV)
        print_csv(out, a);
    else if (fmt == FS_FC_JSON)
        print_json(out, a);
    else {
        print_text(out, fmt == FS_FC_MARKDOWN, a);
        fs_fc_budgets_markdown(out, a->budgets, a->months);
    }
}
