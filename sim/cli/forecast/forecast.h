/* forecast.h -- `fleetsim forecast`: what its files share.  cmd_forecast.c
 * reads the runs' run rates and drawn growth (sim/store) and forecasts
 * (models/purchase/forecast.h); forecast_out.c prints it. */
#ifndef FS_CLI_FORECAST_H
#define FS_CLI_FORECAST_H

#include <stdio.h>

#include "models/purchase/budget.h"
#include "models/purchase/forecast.h"
#include "sim/base/error.h"
#include "sim/store/store.h"


enum { FS_FC_TABLE, FS_FC_CSV, FS_FC_JSON, FS_FC_MARKDOWN };

#define FS_FC_MONTHS_MAX 120
#define FS_FC_BUDGETS_MAX 64

/* One budget judged on the forecast (forecast_budget.c): its scope ("" the
 * whole run, else KEY:VALUE), where it came from, its limit a 730-hour
 * month, and for each month the runs' mean spend in scope and the
 * overrun (0 within). */
typedef struct fs_fc_budget {
    char scope[FS_BUDGET_SCOPE_MAX];
    char source[32];
    double limit_usd;
    double spend[FS_FC_MONTHS_MAX], overrun[FS_FC_MONTHS_MAX];
} fs_fc_budget;

typedef struct fs_fc_budgets {
    int n, over;                /* budgets; (budget, month) pairs over */
    fs_fc_budget b[FS_FC_BUDGETS_MAX];
} fs_fc_budgets;

/* The budgets of the runs (their budget rows, one per scope and limit)
 * and cli_usd (> 0: forecast --budget, the whole run's), each judged on
 * every month: the runs' mean of their run rate in scope times their
 * growth in that month (fs_fc_growth).  0, or -1 with err. */
int fs_fc_budgets_judge(fs_store *s, const long *ids,
                        const fs_fc_run *runs, size_t n, int months,
                        double cli_usd, fs_fc_budgets *out,
                        fs_error *err);
/* The Markdown summary for a review comment; nothing without budgets. */
void fs_fc_budgets_markdown(FILE *out, const fs_fc_budgets *bs,
                            int months);

typedef struct fs_fc_answer {
    size_t nruns;
    const long *run_ids;
    const fs_fc_run *runs;
    int months;
    double level;
    const fs_fc_month *month;   /* [months] */
    const fs_fc_budgets *budgets;
} fs_fc_answer;

void fs_forecast_print(FILE *out, int fmt, const fs_fc_answer *a);

#endif
