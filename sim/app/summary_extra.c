/* summary_extra.c -- the run summary's costs beside the GPU hour (a
 * training workload's checkpoints stored and restored, an llm
 * workload's weights stored and pulled on cold starts: cost_extra) and
 * its budgets (budget), under the bill.
 *
 * The lines add up: storage and transfer, then the GPU bill above, then
 * their total, each to the cent; the run rate with them is the total's
 * (the GPU bill before rounding, plus the lines) over a 730-hour month,
 * the figure the budgets are judged on (a calendar month's budget: that
 * month's bill, its row naming the month). */
#include "sim/app/summary.h"
#include "sim/base/textout.h"

#include <stdlib.h>
#include <string.h>
#include "models/purchase/budget.h"

static void print_extra_row(FILE *out, const fs_extra_row *x)
{
    char money[64], price[64];
    char *pool = fs_text_escape(x->pool), *wl = fs_text_escape(x->workload);
    fs_format_money(x->cost_usd, money, sizeof money);
    snprintf(price, sizeof price, "$%.4g/%s", x->unit_price_usd, x->unit);
    fprintf(out, "  %-8s  %-14s  %-14s  %-20s  %6ld  %12.1f %-8s  %-16s  "
            "%12s\n", x->month, pool ? pool : "?", wl ? wl : "?", x->item,
            x->count, x->quantity, x->unit, price, money);
    free(pool);
    free(wl);
}

static void print_extras(FILE *out, const fs_results *r)
{
    char money[64];
    double extra = 0, gpu = 0;
    fprintf(out, "\n  costs beside the GPU hour (count: checkpoints "
            "written or restored, model copies stored, cold starts)\n");
    fprintf(out, "  %-8s  %-14s  %-14s  %-20s  %6s  %21s  %-16s  %12s\n",
            "month", "pool", "workload", "item", "count", "quantity",
            "price", "cost");
    for (size_t i = 0; i < r->nextras; i++) {
        print_extra_row(out, &r->extras[i]);
        extra += r->extras[i].cost_usd;
    }
    for (size_t i = 0; i < r->ncosts; i++)
        gpu += r->costs[i].cost_usd;
    fs_format_money(extra, money, sizeof money);
    fprintf(out, "  %-40s  %12s\n", "storage and transfer", money);
    fs_format_money(gpu, money, sizeof money);
    fprintf(out, "  %-40s  %12s\n", "GPU bill (above)", money);
    fs_format_money(gpu + extra, money, sizeof money);
    fprintf(out, "  %-40s  %12s\n", "total with storage and transfer", money);
    if (r->horizon_s > 0) {
        fs_format_money((r->cost_unrounded_usd + extra) * 730 * 3600 /
                        r->horizon_s, money, sizeof money);
        fprintf(out, "  %-40s  %12s\n", "monthly run rate with them (730 h)",
                money);
    }
}

static void print_budgets(FILE *out, const fs_results *r)
{
    fprintf(out, "\n  budget (per 730-hour month)            limit      "
            "run rate       overrun\n");
    for (size_t i = 0; i < r->nbudgets; i++) {
        const fs_budget_row *b = &r->budgets[i];
        char lim[64], spend[64], ov[64], scope[300];
        char *s = fs_text_escape(b->scope);
        const char *month = fs_budget_row_month(b->source);
        if (b->scope[0])
            snprintf(scope, sizeof scope, "tag %s", s ? s : "?");
        else
            snprintf(scope, sizeof scope, "whole run (%s)", month
                     ? "scenario" : b->source);
        free(s);
        if (month)   /* a calendar month's: judged on that month's bill */
            snprintf(scope + strlen(scope), sizeof scope - strlen(scope),
                     ", %s bill", month);
        fs_format_money(b->limit_usd, lim, sizeof lim);
        fs_format_money(b->spend_usd, spend, sizeof spend);
        fs_format_money(b->overrun_usd, ov, sizeof ov);
        fprintf(out, "  %-30s  %12s  %12s  %12s%s\n", scope, lim, spend,
                b->overrun_usd > 0 ? ov : "-",
                b->overrun_usd > 0 ? "  OVER BUDGET" : "");
    }
}

void fs_summary_print_extra(FILE *out, const fs_results *r)
{
    if (r->nextras > 0)
        print_extras(out, r);
    if (r->nbudgets > 0)
        print_budgets(out, r);
}
