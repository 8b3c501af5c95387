/* budget_run.h -- a run judged against its budgets: the scenario's
 * (budget =, budgets =) and the command line's (run --budget), on the
 * run's 730-hour run rate, written into the results (the budget table)
 * before the run is stored; and the Markdown a pipeline posts on a pull
 * request when one is exceeded. */
#ifndef FS_BUDGET_RUN_H
#define FS_BUDGET_RUN_H

#include <stdio.h>

struct fs_scenario;
struct fs_results;

/* Appends one budget row per budget of sc (and cli_usd > 0, --budget) to
 * res: the spend in scope as a 730-hour run rate (the whole run: its GPU
 * bill before rounding plus its storage and transfer lines; a tag: the
 * cost_allocation and cost_extra rows whose tags carry it), the overrun by
 * fs_budget_check.  The number of budgets exceeded, or -1 out of memory. */
int fs_budget_run(const struct fs_scenario *sc, double cli_usd,
                  struct fs_results *res);

/* The budget rows of res as a Markdown table for a review comment (tag,
 * budget, run rate, overrun); nothing when res has none. */
void fs_budget_markdown(FILE *out, const struct fs_results *res,
                        long run_id);

/* s as a Markdown table cell: escaped for the terminal, and the
 * characters Markdown reads (| \ * _ ` [ ] < >) behind a backslash. */
void fs_budget_md_cell(FILE *out, const char *s);

#endif
