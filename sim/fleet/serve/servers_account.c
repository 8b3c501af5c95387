/* servers_account.c -- a workload's busy GPU-seconds on a pool, split at
 * the calendar's month boundaries; see servers.h.
 *
 * Apart from servers.c because both the servers and the processor sharing
 * (sharing.c, which servers.c drives) account through it: kept below both,
 * the two call down to it and never round a circle. */
#include "sim/fleet/serve/servers.h"

/* The month of t0, as fs_calendar_month finds it: the last one found
 * when it still holds t0 (busy stretches start in nearly the order they
 * are accounted, so it mostly does), else the calendar's search. */
static size_t month_of(fs_servers *p, double t0)
{
    const fs_calendar *cal = &p->sim->cal;
    size_t m = p->month_hint;
    if (!(m < cal->nmonths && t0 >= cal->bound[m] &&
          (m + 1 == cal->nmonths || t0 < cal->bound[m + 1])))
        m = p->month_hint = fs_calendar_month(cal, t0, 0);
    return m;
}

void fs_servers_account_any(fs_servers *p, int k, double t0, double t,
                            double gpus)
{
    const fs_calendar *cal = &p->sim->cal;
    double *row = &p->wl_busy[(size_t)k * p->nmonths];
    if (t <= t0 || k < 0)
        return;
    size_t m = month_of(p, t0);
    /* A stretch inside one month, nearly every one (a batch is seconds, a
     * month 2.6 million): the one product fs_calendar_spread would add,
     * without its loop (served once per request). */
    if (t0 >= cal->bound[m] && t < cal->bound[m + 1]) {
        row[m] += (t - t0) * gpus;
        return;
    }
    fs_calendar_spread(cal, m, t0, t, gpus, row);
}
