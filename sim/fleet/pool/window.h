/* window.h -- pools that follow a window: up inside its openings, gone
 * outside them.
 *
 * A pool with schedule = WINDOW has its count instances started (up at
 * once, no provisioning delay) when the window opens and released when it
 * closes, through the capacity API; with drain = yes a close waits until
 * no request waits in the queues of the workloads the pool serves (checked
 * every minute past the close).  Requests that arrive while the pool is
 * down wait in their queue: that is how a batch workload holds its items
 * until the window opens.  Windows are computed in the scenario's time
 * zone (fs_window_next). */
#ifndef FS_WINDOW_H
#define FS_WINDOW_H

#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/servers.h"
#include "sim/fleet/run/sim.h"

typedef struct fs_window_run {
    fs_sim *sim;
    const fs_window_conf *win;
    const fs_pool_conf *conf;
    fs_capacity *cap;
    fs_servers *servers;
    double anchor;          /* periodic: first opening, from the start */
    double close_at;        /* the current opening's close */
    long opens;             /* openings so far */
} fs_window_run;

/* The opening of win in progress at `after` or the next one: [*open,
 * *close) in seconds from the start (open may be before after). */
void fs_window_next(const fs_window_conf *win, const char *tz, time_t start,
                    double anchor, double after, double *open, double *close);
/* The first opening of a periodic window: open on the start day, local
 * time, from the start (may be negative). */
double fs_window_anchor(const fs_window_conf *win, const char *tz,
                        time_t start);

/* Starts following conf's window (no-op for a pool without schedule); -1
 * when the run failed. */
int fs_window_start(fs_window_run *r, fs_sim *sim, const fs_pool_conf *conf,
                    fs_capacity *cap, fs_servers *servers);

#endif
