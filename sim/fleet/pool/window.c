/* window.c -- a pool that follows a window; see window.h. */
#include "sim/fleet/pool/window.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/base/tz.h"

#include <math.h>
#include <string.h>

/* A close with drain = yes looks again this often while requests wait. */
#define FS_DRAIN_CHECK_S 60.0

double fs_window_anchor(const fs_window_conf *win, const char *tz,
                        time_t start)
{
    struct tm day;
    fs_tz_local(tz, start, &day);
    return (double)(fs_tz_time(tz, day.tm_year + 1900, day.tm_mon + 1,
                               day.tm_mday, win->open) - start);
}

/* Office hours: the first opening on a listed day that closes after
 * `after`, from the local day before it on. */
static void next_office(const fs_window_conf *win, const char *tz,
                        time_t start, double after, double *open,
                        double *close)
{
    struct tm day;
    fs_tz_local(tz, start + (time_t)floor(after), &day);
    for (int i = -1; i <= 8; i++) {
        struct tm d = {0};
        d.tm_year = day.tm_year;
        d.tm_mon = day.tm_mon;
        d.tm_mday = day.tm_mday + i;
        timegm(&d);             /* normalizes the date, sets tm_wday */
        if (!(win->days & (1u << d.tm_wday)))
            continue;
        double o = (double)(fs_tz_time(tz, d.tm_year + 1900, d.tm_mon + 1,
                                       d.tm_mday, win->open) - start);
        double c = (double)(fs_tz_time(tz, d.tm_year + 1900, d.tm_mon + 1,
                                       d.tm_mday, win->close) - start);
        if (c > after) {
            *open = o;
            *close = c;
            return;
        }
    }
    *open = *close = INFINITY;  /* no listed day: cannot happen */
}

/* Opening k of a period of whole days: on the local date k periods after
 * the start's, at its local time of day, so that `every = 1d, open =
 * 00:00` stays at local midnight across a DST change. */
static double daily_open(const fs_window_conf *win, const char *tz,
                         time_t start, double k)
{
    struct tm d0, d = {0};
    fs_tz_local(tz, start, &d0);
    d.tm_year = d0.tm_year;
    d.tm_mon = d0.tm_mon;
    d.tm_mday = d0.tm_mday + (int)(k * (win->every / 86400));
    timegm(&d);                 /* normalizes the date */
    return (double)(fs_tz_time(tz, d.tm_year + 1900, d.tm_mon + 1,
                               d.tm_mday, win->open) - start);
}

void fs_window_next(const fs_window_conf *win, const char *tz, time_t start,
                    double anchor, double after, double *open, double *close)
{
    if (win->days) {
        next_office(win, tz, start, after, open, close);
        return;
    }
    double k = floor((after - anchor - win->duration) / win->every) + 1;
    if (fmod(win->every, 86400) == 0) {
        /* local dates: the estimate is off by at most one period */
        for (k -= 1; daily_open(win, tz, start, k) + win->duration <= after;
             k++)
            ;
        *open = daily_open(win, tz, start, k);
        *close = *open + win->duration;
        return;
    }
    *open = anchor + k * win->every;
    if (*open + win->duration <= after)
        *open += win->every;
    *close = *open + win->duration;
}

static void on_open(fs_engine *e, void *obj, long arg);
static void on_close(fs_engine *e, void *obj, long arg);

static int at(fs_window_run *r, double t, fs_handler fn)
{
    if (fs_engine_at(r->sim->engine, t, fn, r, 0))
        return 0;
    fs_error_set(r->sim->err, "out of memory scheduling window %s",
                 r->win->name);
    fs_sim_fail(r->sim);
    return -1;
}

/* Requests waiting for the pool's servers. */
static size_t waiting(const fs_window_run *r)
{
    size_t n = 0;
    for (int k = 0; k < r->servers->nwls; k++)
        n += r->servers->wls[k]->queue.len;
    return n;
}

/* The next opening after now: scheduled. */
static int schedule_next(fs_window_run *r, double now)
{
    double o, c;
    fs_window_next(r->win, r->sim->sc->timezone, r->sim->sc->start,
                   r->anchor, now, &o, &c);
    if (o < now)
        o = now;
    r->close_at = c;
    return o < r->sim->cal.horizon_s ? at(r, o, on_open) : 0;
}

static void on_open(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_window_run *r = obj;
    r->opens++;
    if (fs_capacity_active(r->cap) < r->conf->count)
        fs_capacity_start(r->cap, r->conf->count -
                                      fs_capacity_active(r->cap));
    at(r, fmax(r->close_at, fs_engine_now(e)), on_close);
}

static void on_close(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_window_run *r = obj;
    double now = fs_engine_now(e);
    if (r->conf->drain && waiting(r) > 0) {
        at(r, now + FS_DRAIN_CHECK_S, on_close);
        return;
    }
    double o, c;
    fs_window_next(r->win, r->sim->sc->timezone, r->sim->sc->start,
                   r->anchor, now, &o, &c);
    if (o <= now) {             /* drained into the next opening: stay up */
        r->close_at = c;
        at(r, c, on_close);
        return;
    }
    fs_capacity_release(r->cap, r->cap->launched);
    schedule_next(r, now);
}

int fs_window_start(fs_window_run *r, fs_sim *sim, const fs_pool_conf *conf,
                    fs_capacity *cap, fs_servers *servers)
{
    memset(r, 0, sizeof *r);
    if (conf->schedule < 0)
        return 0;
    r->sim = sim;
    r->conf = conf;
    r->win = &sim->sc->windows[conf->schedule];
    r->cap = cap;
    r->servers = servers;
    r->anchor = fs_window_anchor(r->win, sim->sc->timezone, sim->sc->start);
    return schedule_next(r, 0);
}
