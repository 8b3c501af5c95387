/* estimate.h -- how large a run is, before it runs.
 *
 * `poisson(rate=1e12/s)` over an hour, or a short trace looped over a
 * year, would keep fleetsim busy for days without a word.  So once the
 * world is built, before the first event, the run's events are estimated:
 * two per request (its arrival and its completion), plus the other steps
 * the arrival streams take (candidates thinned away, MMPP state changes,
 * trace rows read but not replayed), one per metrics sample and one per
 * autoscaling decision of each autoscaled pool.  `fleetsim run` refuses a
 * run estimated above --max-events (FS_MAX_EVENTS_DEFAULT), naming the key
 * that contributes most, and shows the estimate on its progress line. */
#ifndef FS_ESTIMATE_H
#define FS_ESTIMATE_H

#include "sim/base/error.h"

typedef struct fs_world fs_world;

/* 2e9 events: a bound in events, not in time (how long they take depends
 * on the machine: 10 to 37 minutes were measured on a busy 2-core one). */
#define FS_MAX_EVENTS_DEFAULT 2e9

typedef struct fs_estimate {
    double events;           /* the whole run */
    double part;             /* the largest contribution to it */
    const char *file;        /* where that part is set (NULL: not known) */
    int line;
    char key[96];            /* e.g. "workload.chat.arrivals" */
    char what[160];          /* e.g. "3.6e+15 requests" */
} fs_estimate;

/* Estimates the run of a built world. */
void fs_estimate_run(const fs_world *world, fs_estimate *est);

/* 0 when the estimate is within max_events (0: no limit), else -1 and
 * "FILE:LINE: KEY: this run would take about N events ..." in err. */
int fs_estimate_check(const fs_estimate *est, double max_events,
                      fs_error *err);

/* "4010", "7.2e+15": an event count for messages. */
void fs_format_count(double n, char *buf, size_t len);

#endif
