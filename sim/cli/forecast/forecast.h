/* forecast.h -- `fleetsim forecast`: what its files share.  cmd_forecast.c
 * reads the runs' run rates and drawn growth (sim/store) and forecasts
 * (models/purchase/forecast.h); forecast_out.c prints it. */
#ifndef FS_CLI_FORECAST_H
#define FS_CLI_FORECAST_H

#include <stdio.h>

#include "models/purchase/forecast.h"

enum { FS_FC_TABLE, FS_FC_CSV, FS_FC_JSON, FS_FC_MARKDOWN };

typedef struct fs_fc_answer {
    size_t nruns;
    const long *run_ids;
    const fs_fc_run *runs;
    int months;
    double level;
    const fs_fc_month *month;   /* [months] */
} fs_fc_answer;

void fs_forecast_print(FILE *out, int fmt, const fs_fc_answer *a);

#endif
