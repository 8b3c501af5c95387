/* servers_account.c -- a workload's busy GPU-seconds on a pool, split at
 * the calendar's month boundaries; see servers.h.
 *
 * Apart from servers.c because both the servers and the processor sharing
 * (sharing.c, which servers.c drives) account through it: kept below both,
 * the two call down to it and never round a circle. */
#include "sim/fleet/servers.h"

void fs_servers_account(fs_servers *p, int k, double t0, double t,
                        double gpus)
{
    const fs_calendar *cal = &p->sim->cal;
    double *row = &p->wl_busy[(size_t)k * p->nmonths];
    if (t <= t0 || k < 0)
        return;
    for (size_t m = fs_calendar_month(cal, t0, 0); m < cal->nmonths; m++) {
        double a = t0 > cal->bound[m] ? t0 : cal->bound[m];
        double b = t < cal->bound[m + 1] ? t : cal->bound[m + 1];
        if (b > a)
            row[m] += (b - a) * gpus;
        if (cal->bound[m + 1] >= t)
            break;
    }
}
