/* spot.h -- spot interruptions, replacement and on-demand fallback of one
 * pool, acting through the capacity API (capacity.h).
 *
 * With a lifetime model (exponential, weibull, lognormal, empirical) each
 * instance draws its lifetime from the pool's own stream when it comes up;
 * the notice starts `notice` before the lifetime ends (at once if it is
 * shorter) and fs_capacity_interrupt takes the instance at its end.  With
 * trace(), the pool replays `available`: when it drops by k, k running
 * instances (highest slot first) are noticed and taken at the drop's time;
 * while it is below the pool's target, relaunches wait.
 *
 * An interrupted instance is relaunched after replace_delay (then
 * provisions as any launch).  With a fallback pool, once the pool has had
 * fewer spot instances up than its count (spot_extra not included) for
 * fallback_after, the fallback launches the shortfall below the count, and
 * gives an instance back for each spot instance that comes up again: as
 * SkyServe's SpotHedge, the over-provisioned extras are never replaced on
 * demand. */
#ifndef FS_SPOT_H
#define FS_SPOT_H

#include <gsl/gsl_rng.h>
#include "sim/fleet/capacity/capacity.h"
#include "sim/fleet/serve/servers.h"
#include "sim/fleet/run/sim.h"
#include "traces/spot_trace.h"

typedef struct fs_spot {
    int active;                   /* 0: a pool with nothing to do here */
    fs_sim *sim;
    const fs_pool_conf *conf;
    const fs_spot_conf *sc;
    fs_capacity *cap;
    fs_servers *servers;          /* for the work lost */
    fs_capacity *fallback;        /* the fallback pool's, or NULL */
    double fallback_price;
    gsl_rng *rng;
    fs_event_handle *doom;        /* per slot: its notice */
    double *taken_at;             /* per slot: when it is taken */
    double *notice_from;          /* per slot: when its notice began */
    long pending;                 /* relaunches waiting for replace_delay */
    /* trace() */
    fs_spot_trace *trace;
    double avail;                 /* instances the provider gives now */
    double next_t, next_v;
    /* fallback */
    long fb_running;              /* fallback instances launched for it */
    fs_event_handle fb_timer;
    double fb_inst_s, fb_last;    /* their instance-seconds, to fb_last */
} fs_spot;

/* Sets up the pool's spot behaviour (nothing for a pool without spot
 * keys): its stream, its trace (checked now: a bad trace refuses the run
 * with file:line), and the subscription to cap.  fallback is the fallback
 * pool's capacity (NULL: none).  -1 with a message in err. */
int fs_spot_init(fs_spot *s, fs_sim *sim, const fs_pool_conf *conf,
                 fs_capacity *cap, fs_servers *servers,
                 fs_capacity *fallback, double fallback_price,
                 unsigned replication, fs_error *err);
void fs_spot_free(fs_spot *s);

/* Instances the pool starts with: its count, or fewer when the trace's
 * first rows give fewer. */
long fs_spot_initial(const fs_spot *s, long count);
/* Schedules the trace's next change; -1 when the run failed. */
int fs_spot_start(fs_spot *s);
/* Runs the fallback integral to the horizon. */
void fs_spot_finish(fs_spot *s);

static inline double fs_spot_fallback_hours(const fs_spot *s)
{
    return s->fb_inst_s / 3600;
}

#endif
