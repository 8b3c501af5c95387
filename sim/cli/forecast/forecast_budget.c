/* forecast_budget.c -- `fleetsim forecast` against budgets: the runs'
 * stored budgets (the budget table: scope, limit a 730-hour month, the run
 * rate in scope the run was judged on) and forecast --budget, each judged
 * on every forecast month by fs_budget_check, as `run` judges its run
 * rate, and the Markdown a pipeline posts on a pull request.
 *
 * A scope's spend in month m is, per run, its run rate in scope (the
 * budget row's spend_usd: the tag's share of the run's spend times that
 * spend) grown by the run's growth factor for month m (fs_fc_growth, the
 * factor the bill is grown by), then the runs' mean: the forecast's
 * mean, not its interval's high end.  The whole run's rate without a row
 * (forecast --budget on a run that had none) is the run's bill per 730
 * hours plus its storage and transfer lines at the same rate. */
#include "sim/cli/forecast/forecast.h"

#include <stdio.h>
#include <string.h>

#include "sim/app/budget_run.h"
#include "sim/app/summary.h"
#include "sim/store/store_query.h"

typedef struct rows_ctx {
    fs_fc_budgets *bs;
    const char *scope;    /* rate_in: the scope sought */
    double usd;           /* rate_in: its spend; extras: their sum */
    int found;
} rows_ctx;

/* The budget of scope and limit in bs, added when new; NULL when full. */
static fs_fc_budget *budget_of(fs_fc_budgets *bs, const char *scope,
                               const char *source, double limit)
{
    for (int k = 0; k < bs->n; k++)
        if (strcmp(bs->b[k].scope, scope) == 0 &&
            bs->b[k].limit_usd == limit)
            return &bs->b[k];
    if (bs->n >= FS_FC_BUDGETS_MAX)
        return NULL;
    fs_fc_budget *b = &bs->b[bs->n++];
    snprintf(b->scope, sizeof b->scope, "%s", scope);
    snprintf(b->source, sizeof b->source, "%s", source);
    b->limit_usd = limit;
    return b;
}

static int collect_row(const fs_row *row, void *ctx, fs_error *err)
{
    rows_ctx *c = ctx;
    const char *scope = fs_row_text(row, 0), *source = fs_row_text(row, 1);
    if (fs_budget_row_month(source))
        return 0;   /* a calendar month's, judged by run on its own bill */
    if (!budget_of(c->bs, scope ? scope : "", source ? source : "",
                   fs_row_double(row, 2)))
        return fs_error_set(err, "forecast: more than %d budgets across "
                            "the runs", FS_FC_BUDGETS_MAX), -1;
    return 0;
}

static int rate_row(const fs_row *row, void *ctx, fs_error *err)
{
    rows_ctx *c = ctx;
    const char *scope = fs_row_text(row, 0);
    (void)err;
    if (strcmp(scope ? scope : "", c->scope) == 0 &&
        !fs_budget_row_month(fs_row_text(row, 1))) {
        c->usd = fs_row_double(row, 3);
        c->found = 1;
        return 1;
    }
    return 0;
}

static int extra_row(const fs_row *row, void *ctx, fs_error *err)
{
    (void)err;
    ((rows_ctx *)ctx)->usd += fs_row_double(row, 9);
    return 0;
}

/* Run id's run rate in scope: its budget row's, else for the whole run
 * its bill plus its extras per 730 hours, else (a tag it had no budget
 * for) 0. */
static int rate_in(fs_store *s, long id, const fs_fc_run *r,
                   const char *scope, double *usd, fs_error *err)
{
    fs_query_arg a = {.run = id};
    rows_ctx c = {.scope = scope};
    if (fs_store_each(s, FS_Q_BUDGETS, &a, rate_row, &c, err))
        return -1;
    if (c.found || scope[0]) {
        *usd = c.usd;
        return 0;
    }
    if (fs_store_each(s, FS_Q_EXTRAS, &a, extra_row, &c, err))
        return -1;
    *usd = r->bill_month + c.usd * FS_FC_MONTH_H / r->horizon_h;
    return 0;
}

/* Budget b's mean spend in each month over the runs, and its check. */
static int judge(fs_store *s, const long *ids, const fs_fc_run *runs,
                 size_t n, int months, fs_fc_budget *b, int *over,
                 fs_error *err)
{
    memset(b->spend, 0, sizeof b->spend);
    for (size_t i = 0; i < n; i++) {
        double rate;
        if (rate_in(s, ids[i], &runs[i], b->scope, &rate, err))
            return -1;
        for (int m = 0; m < months; m++)
            b->spend[m] += rate * fs_fc_growth(&runs[i], m + 1,
                                               runs[i].growth) / (double)n;
    }
    for (int m = 0; m < months; m++)
        *over += fs_budget_check(b->limit_usd, b->spend[m], &b->overrun[m]);
    return 0;
}

int fs_fc_budgets_judge(fs_store *s, const long *ids, const fs_fc_run *runs,
                        size_t n, int months, double cli_usd,
                        fs_fc_budgets *out, fs_error *err)
{
    rows_ctx c = {.bs = out};
    out->n = out->over = 0;
    for (size_t i = 0; i < n; i++) {
        fs_query_arg a = {.run = ids[i]};
        if (fs_store_each(s, FS_Q_BUDGETS, &a, collect_row, &c, err))
            return -1;
    }
    if (cli_usd > 0 && !budget_of(out, "", "forecast --budget", cli_usd))
        return fs_error_set(err, "forecast: more than %d budgets across "
                            "the runs", FS_FC_BUDGETS_MAX), -1;
    for (int k = 0; k < out->n; k++)
        if (judge(s, ids, runs, n, months, &out->b[k], &out->over, err))
            return -1;
    return 0;
}

static void name_cell(FILE *out, const fs_fc_budget *b)
{
    if (b->scope[0])
        fs_budget_md_cell(out, b->scope);
    else
        fprintf(out, "whole run (%s)", b->source);
}

/* One budget's rows: each month over it, or one row "within" at its
 * highest month. */
static void budget_rows(FILE *out, const fs_fc_budget *b, int months)
{
    char lim[64], spend[64], ov[64];
    int peak = 0, any = 0;
    fs_format_money(b->limit_usd, lim, sizeof lim);
    for (int m = 0; m < months; m++) {
        peak = b->spend[m] > b->spend[peak] ? m : peak;
        if (!(b->overrun[m] > 0))
            continue;
        any = 1;
        fs_format_money(b->spend[m], spend, sizeof spend);
        fs_format_money(b->overrun[m], ov, sizeof ov);
        fputs("| ", out);
        name_cell(out, b);
        fprintf(out, " | %d | %s | %s | **%s** (%.1f%% over) |\n", m + 1,
                lim, spend, ov, 100 * b->overrun[m] / b->limit_usd);
    }
    if (any || months < 1)
        return;
    fs_format_money(b->spend[peak], spend, sizeof spend);
    fputs("| ", out);
    name_cell(out, b);
    fprintf(out, " | %d (highest) | %s | %s | within |\n", peak + 1, lim,
            spend);
}

void fs_fc_budgets_markdown(FILE *out, const fs_fc_budgets *bs, int months)
{
    if (!bs || bs->n == 0)
        return;
    fprintf(out, "\n### fleetsim forecast budget check: %s\n\nThe next %d "
            "months of 730 hours after the runs' horizon, each budget "
            "judged on the forecast's mean (the runs' run rate in its "
            "scope grown by their growth), GPU bill, storage and transfer "
            "included.\n\n| budget | month | limit a month | forecast | "
            "overrun |\n|---|---:|---:|---:|---:|\n",
            bs->over ? "over budget" : "within budget", months);
    for (int k = 0; k < bs->n; k++)
        budget_rows(out, &bs->b[k], months);
}
