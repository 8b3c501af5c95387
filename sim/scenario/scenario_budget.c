/* scenario_budget.c -- the scenario's budgets, in [scenario]:
 *
 *   budget = 12000/month                          the whole run's
 *   budgets = team:ml=8000/month, env:prod=20000  per tag
 *
 * Dollars per 730-hour month, judged against the run's run rate, or
 * per calendar month (AMOUNT/calendar-month), judged against each
 * calendar month's own bill (models/purchase/budget.h;
 * sim/app/budget_run.c).  A bad amount
 * (negative, zero, not a number, another period) or a tag not written
 * KEY:VALUE is refused here, at its key, before anything runs. */
#include "sim/scenario/scenario_impl.h"

#include <stdio.h>

int fs_scenario_parse_budgets(fs_reader *rd, fs_scenario *sc)
{
    char why[512];
    fs_config_entry *e = fs_rd_entry(rd, "budgets");
    int n = 0;
    if (e && fs_budget_parse_list(e->value, sc->budgets + 1,
                                  FS_BUDGETS_MAX - 1, &n, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    e = fs_rd_entry(rd, "budget");
    sc->budgets[0].scope[0] = '\0';
    sc->budgets[0].limit_usd = 0;   /* 0: no budget for the whole run */
    sc->budgets[0].calendar = 0;
    if (e && fs_budget_parse_period(e->value, &sc->budgets[0].limit_usd,
                                    &sc->budgets[0].calendar, why,
                                    sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    sc->nbudgets = n + 1;
    return 0;
}
