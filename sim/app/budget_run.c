/* budget_run.c -- a run judged against its budgets; see budget_run.h.
 *
 * Spend is a 730-hour run rate: the horizon's cost x 730 h / horizon, the
 * figure the run summary prints as "monthly run rate", so a 7-day run is
 * judged on what a month at its rate costs.  A tag's spend is the cost of
 * the cost_allocation rows (GPU cost shared by busy time, idle with the
 * pool's tags) and cost_extra rows (storage, transfer) whose merged tags
 * carry KEY:VALUE; the cents of those rows, so a tag's figure is theirs.
 * A per-calendar-month budget is judged on each calendar month's own bill
 * instead (the same rows of that month: 28 to 31 days of hours, or the
 * part of a month the horizon covers), one row a month, its source
 * naming the month. */
#include "sim/app/budget_run.h"
#include "sim/app/summary.h"
#include "sim/base/tags.h"
#include "sim/base/textout.h"
#include "sim/fleet/run/results.h"
#include "sim/scenario/scenario.h"
#include "models/purchase/budget.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether a JSON tag object holds "key":"value" (scope "key:value"). */
static int has_tag(const char *json, const char *scope)
{
    char obj[FS_TAGS_JSON_MAX];
    fs_tags_json(NULL, scope, obj, sizeof obj);
    size_t n = strlen(obj);
    if (n < 2)
        return 0;
    obj[n - 1] = '\0';            /* "key":"value" without the braces */
    return strstr(json, obj + 1) != NULL;
}

/* The horizon's cost in scope, dollars. */
static double scope_cost(const fs_results *r, const char *scope)
{
    double usd = 0;
    if (!scope[0]) {
        usd = r->cost_unrounded_usd;
        for (size_t i = 0; i < r->nextras; i++)
            usd += r->extras[i].cost_usd;
        return usd;
    }
    for (size_t i = 0; i < r->nallocs; i++)
        if (has_tag(r->allocs[i].tags, scope))
            usd += r->allocs[i].cost_usd;
    for (size_t i = 0; i < r->nextras; i++)
        if (has_tag(r->extras[i].tags, scope))
            usd += r->extras[i].cost_usd;
    return usd;
}

/* The bill of calendar month (YYYY-MM) in scope, dollars: the whole run's
 * cost rows of that month, else the cost_allocation rows carrying the
 * tag, plus the month's storage and transfer rows; all to the cent. */
static double month_cost(const fs_results *r, const char *scope,
                         const char *month)
{
    double usd = 0;
    for (size_t i = 0; !scope[0] && i < r->ncosts; i++)
        if (strcmp(r->costs[i].month, month) == 0)
            usd += r->costs[i].cost_usd;
    for (size_t i = 0; scope[0] && i < r->nallocs; i++)
        if (strcmp(r->allocs[i].month, month) == 0 &&
            has_tag(r->allocs[i].tags, scope))
            usd += r->allocs[i].cost_usd;
    for (size_t i = 0; i < r->nextras; i++)
        if (strcmp(r->extras[i].month, month) == 0 &&
            (!scope[0] || has_tag(r->extras[i].tags, scope)))
            usd += r->extras[i].cost_usd;
    return round(usd * 100) / 100;
}

/* One row per calendar month the run's bill covers (its cost rows'
 * months, in order), each judged on that month's own bill.  The number
 * exceeded, or -1 out of memory. */
static int add_months(fs_results *r, const fs_budget *b)
{
    int over = 0;
    for (size_t i = 0; i < r->ncosts; i++) {
        const char *m = r->costs[i].month;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->costs[j].month, m) == 0;
        if (seen)
            continue;
        fs_budget_row *row = fs_results_add_budget(r);
        if (!row)
            return -1;
        snprintf(row->scope, sizeof row->scope, "%s", b->scope);
        snprintf(row->source, sizeof row->source, "%s%s",
                 FS_BUDGET_CALENDAR, m);
        row->limit_usd = b->limit_usd;
        row->spend_usd = month_cost(r, b->scope, m);
        over += fs_budget_check(b->limit_usd, row->spend_usd,
                                &row->overrun_usd);
    }
    return over;
}

static int add(fs_results *r, const char *scope, const char *source,
               double limit)
{
    fs_budget_row *b = fs_results_add_budget(r);
    if (!b)
        return -1;
    snprintf(b->scope, sizeof b->scope, "%s", scope);
    snprintf(b->source, sizeof b->source, "%s", source);
    b->limit_usd = limit;
    b->spend_usd = r->horizon_s > 0
                   ? scope_cost(r, scope) * 730 * 3600 / r->horizon_s : 0;
    return fs_budget_check(limit, b->spend_usd, &b->overrun_usd);
}

int fs_budget_run(const fs_scenario *sc, double cli_usd, fs_results *res)
{
    int over = 0, rc;
    for (int k = 0; k < sc->nbudgets; k++) {
        const fs_budget *b = &sc->budgets[k];
        if (!(b->limit_usd > 0))
            continue;
        rc = b->calendar ? add_months(res, b)
                         : add(res, b->scope, "scenario", b->limit_usd);
        if (rc < 0)
            return -1;
        over += rc;
    }
    if (cli_usd > 0) {
        if ((rc = add(res, "", "--budget", cli_usd)) < 0)
            return -1;
        over += rc;
    }
    return over;
}

/* s for a Markdown table cell: escaped for the terminal, and the
 * characters Markdown reads (| \ * _ ` [ ] < >) behind a backslash. */
void fs_budget_md_cell(FILE *out, const char *s)
{
    char *e = fs_text_escape(s);
    for (const char *p = e ? e : "?"; *p; p++) {
        if (strchr("|\\*_`[]<>", *p))
            fputc('\\', out);
        fputc(*p, out);
    }
    free(e);
}

void fs_budget_markdown(FILE *out, const fs_results *res, long run_id)
{
    if (res->nbudgets == 0)
        return;
    long over = 0;
    for (size_t i = 0; i < res->nbudgets; i++)
        over += res->budgets[i].overrun_usd > 0;
    fprintf(out, "\n### fleetsim budget check: %s\n\nRun %ld `", over
            ? "over budget" : "within budget", run_id);
    fs_budget_md_cell(out, res->name);
    fprintf(out, "` (replication %u), judged on its monthly run rate "
            "(the horizon's cost scaled to a 730-hour month), or a calendar "
            "month's own bill where the budget says so, GPU bill, "
            "storage and transfer included.\n\n| budget | limit a month | "
            "run rate or bill | overrun |\n|---|---:|---:|---:|\n",
            res->replication);
    for (size_t i = 0; i < res->nbudgets; i++) {
        const fs_budget_row *b = &res->budgets[i];
        char lim[64], spend[64], ov[64];
        fs_format_money(b->limit_usd, lim, sizeof lim);
        fs_format_money(b->spend_usd, spend, sizeof spend);
        fs_format_money(b->overrun_usd, ov, sizeof ov);
        fputs("| ", out);
        if (b->scope[0])
            fs_budget_md_cell(out, b->scope);
        else
            fprintf(out, "whole run (%s)", fs_budget_row_month(b->source)
                    ? "scenario" : b->source);
        if (fs_budget_row_month(b->source))
            fprintf(out, ", calendar month %s",
                    fs_budget_row_month(b->source));
        if (b->overrun_usd > 0)
            fprintf(out, " | %s | %s | **%s** (%.1f%% over) |\n", lim, spend,
                    ov, 100 * b->overrun_usd / b->limit_usd);
        else
            fprintf(out, " | %s | %s | within |\n", lim, spend);
    }
}
