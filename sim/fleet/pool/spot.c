/* spot.c -- interruptions, replacement and fallback of a spot pool; see
 * spot.h.  Everything goes through the capacity API: this file launches,
 * releases and interrupts, and hears UP, NOTICE, INTERRUPTED and DOWN as
 * a subscriber of the pool's capacity (after dispatch, so that the work
 * an interruption loses is known when it is recorded).
 *
 * Life cycle, asserted: an instance up has no notice pending (it is
 * doomed at most once per life); an interruption follows its notice (the
 * time the notice began is known, and not after the drop); an instance is
 * dropped at most once per notice (notice_from is NAN outside a notice);
 * relaunches waiting and fallback instances never go below zero. */
#include "sim/fleet/pool/spot.h"
#include "sim/base/owned.h"
#include "sim/base/rng.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void on_doom(fs_engine *e, void *obj, long arg);
static void on_relaunch(fs_engine *e, void *obj, long arg);
static void on_row(fs_engine *e, void *obj, long arg);
static void on_fallback_timer(fs_engine *e, void *obj, long arg);

static double horizon(const fs_spot *s)
{
    return s->sim->sc->horizon_s;
}

static int fail(fs_spot *s, const char *what)
{
    fs_error_set(s->sim->err, "out of memory scheduling %s of pool %s", what,
                 s->conf->name);
    fs_sim_fail(s->sim);
    return -1;
}

/* Instances the provider lets the pool run now. */
static long limit(const fs_spot *s)
{
    long target = s->sc->target;
    if (s->trace && s->avail < (double)target)
        return (long)s->avail;
    return target;
}

/* Launches what the pool lacks, counting relaunches still waiting. */
static void top_up(fs_spot *s)
{
    long n = limit(s) - fs_capacity_active(s->cap) - s->pending;
    if (n > 0 && fs_capacity_launch(s->cap, n) < 0)
        fail(s, "a relaunch");
}

/* The fallback's instance-seconds, to now. */
static void fallback_account(fs_spot *s)
{
    double now = fs_capacity_now(s->cap);
    s->fb_inst_s += (double)s->fb_running * (now - s->fb_last);
    s->fb_last = now;
}

/* Spot instances up and taking work, short of the pool's count (its
 * target less spot_extra): as SkyServe's SpotHedge does, the fallback
 * replaces only the instances the pool needs, never the over-provisioned
 * extras, whose loss spot alone makes good. */
static long shortfall(const fs_spot *s)
{
    const fs_capacity *c = s->cap;
    long ready = c->up - c->draining - c->noticed;
    long need = s->sc->target - s->sc->extra;
    return ready < need ? need - ready : 0;
}

/* Arms the fallback when spot is short; gives fallback instances back as
 * spot returns. */
static void fallback_check(fs_spot *s)
{
    if (!s->fallback)
        return;
    long need = shortfall(s);
    if (need > s->fb_running) {
        if (!s->fb_timer) {
            double at = fs_capacity_now(s->cap) + s->sc->fallback_after;
            if (at < horizon(s) &&
                !(s->fb_timer = fs_engine_at(s->sim->engine, at,
                                             on_fallback_timer, s, 0)))
                fail(s, "the fallback");
        }
        return;
    }
    fs_engine_cancel(s->sim->engine, s->fb_timer);
    s->fb_timer = 0;
    if (need < s->fb_running) {
        fallback_account(s);
        s->fb_running -= fs_capacity_release(s->fallback,
                                             s->fb_running - need);
        assert(s->fb_running >= 0);
    }
}

static void on_fallback_timer(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_spot *s = obj;
    s->fb_timer = 0;
    long need = shortfall(s);
    if (need <= s->fb_running)
        return;
    fallback_account(s);
    int n = fs_capacity_launch(s->fallback, need - s->fb_running);
    if (n < 0) {
        fail(s, "the fallback");
        return;
    }
    s->fb_running += n;
}

/* An instance up draws its lifetime; its notice is scheduled. */
static void spot_up(void *ctx, fs_capacity *cap, int inst)
{
    fs_spot *s = ctx;
    const fs_interruption *it = &s->sc->interruption;
    assert(s->doom[inst] == 0 && isnan(s->notice_from[inst]));
    if (it->kind == FS_INTERRUPT_DIST || it->kind == FS_INTERRUPT_EMPIRICAL) {
        double now = fs_capacity_now(cap);
        double taken = now + fs_interruption_draw(it, s->rng);
        double notice = fmax(now, taken - s->sc->notice_s);
        s->taken_at[inst] = taken;
        if (notice < horizon(s) &&
            !(s->doom[inst] = fs_engine_at(s->sim->engine, notice, on_doom,
                                           s, inst)))
            fail(s, "an interruption");
    }
    fallback_check(s);
}

static void on_doom(fs_engine *e, void *obj, long arg)
{
    fs_spot *s = obj;
    int inst = (int)arg;
    s->doom[inst] = 0;
    double left = fmax(0, s->taken_at[inst] - fs_engine_now(e));
    if (fs_capacity_interrupt(s->cap, inst, left))
        fail(s, "an interruption");
}

/* A spot notice (not a drain): when it began, for the record. */
static void spot_notice(void *ctx, fs_capacity *cap, int inst)
{
    fs_spot *s = ctx;
    if (isfinite(fs_capacity_notice_left(cap, inst))) {
        assert(isnan(s->notice_from[inst]));   /* one notice per life */
        s->notice_from[inst] = fs_capacity_now(cap);
    }
    fallback_check(s);
}

/* Recorded with the work dispatch lost on it; a relaunch waits
 * replace_delay. */
static void spot_interrupted(void *ctx, fs_capacity *cap, int inst)
{
    fs_spot *s = ctx;
    double now = fs_capacity_now(cap);
    /* noticed first, and not dropped before */
    assert(s->notice_from[inst] <= now);
    fs_interrupt_row *row = fs_results_add_interrupt(s->sim->out);
    if (!row) {
        fail(s, "an interruption record");
        return;
    }
    row->pool = s->conf->name;
    row->t_s = now;
    row->instance_id = inst;
    row->notice_s = now - s->notice_from[inst];
    s->notice_from[inst] = NAN;
    row->work_lost_s = s->servers->lost_last;
    double delay = fs_dist_draw(&s->sc->replace_delay, s->rng);
    s->pending++;
    if (now + delay < horizon(s) &&
        !fs_engine_at(s->sim->engine, now + delay, on_relaunch, s, 0))
        fail(s, "a relaunch");
}

static void spot_down(void *ctx, fs_capacity *cap, int inst)
{
    fs_spot *s = ctx;
    fs_engine_cancel(s->sim->engine, s->doom[inst]);
    s->doom[inst] = 0;
    s->notice_from[inst] = NAN;      /* its life ends, noticed or not */
    (void)cap;
    fallback_check(s);
}

static void on_relaunch(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_spot *s = obj;
    s->pending--;
    assert(s->pending >= 0);
    top_up(s);
}

static const fs_capacity_listener spot_listener = {
    .name = "spot",
    .on = {
        [FS_CAPACITY_UP] = spot_up,
        [FS_CAPACITY_NOTICE] = spot_notice,
        [FS_CAPACITY_INTERRUPTED] = spot_interrupted,
        [FS_CAPACITY_DOWN] = spot_down,
    },
};

/* trace(): the next row; next_t = INFINITY at the end.  -1 with why in
 * err. */
static int read_row(fs_spot *s, fs_error *err)
{
    int rc = fs_spot_trace_next(s->trace, &s->next_t, &s->next_v, err);
    if (rc == 0)
        s->next_t = INFINITY;
    return rc < 0 ? -1 : 0;
}

/* Reads ahead past the rows that leave `available` where it is (a trace
 * probed every 32 s repeats its value for hours), so that a drop is seen
 * `notice` before it.  Only one row is held at a time, and the look-ahead
 * stops at the first row `notice` or more past `from` (the time of the
 * row just taken): an unchanged row there is taken again at its time less
 * the notice, by schedule_row, and the reading goes on from it.  So each
 * step reads a bounded stretch, never the rest of a trace that repeats
 * (a one-second lap over ten years would otherwise be read whole before
 * the event estimate could refuse it). */
static int read_change(fs_spot *s, double from, fs_error *err)
{
    double end = from + s->sc->notice_s;
    do {
        if (read_row(s, err))
            return -1;
    } while (s->next_t < end && floor(s->next_v) == s->avail);
    return 0;
}

/* A drop is acted on `notice` before it, so that the instances it takes
 * have their notice; a rise when it happens; an unchanged row (where the
 * look-ahead stopped) `notice` before it, to read on from there.  Changes
 * are acted on in the trace's order, so a drop is noticed no earlier than
 * the change before it: the rise that brought the instance it takes back,
 * or the drop before it (noticed in turn no earlier than its own). */
static int schedule_row(fs_spot *s)
{
    if (!isfinite(s->next_t))
        return 0;
    double now = fs_capacity_now(s->cap);
    double at = floor(s->next_v) <= s->avail
                    ? fmax(now, s->next_t - s->sc->notice_s)
                    : fmax(now, s->next_t);
    if (at >= horizon(s))
        return 0;
    if (!fs_engine_at(s->sim->engine, at, on_row, s, 0))
        return fail(s, "the spot trace");
    return 0;
}

/* available drops by k: k instances up are noticed (highest slot first),
 * taken at the row's time; launches not up yet are given back. */
static void preempt(fs_spot *s, long k, double taken)
{
    fs_capacity *c = s->cap;
    double left = fmax(0, taken - fs_capacity_now(c));
    for (int i = c->max - 1; i >= 0 && k > 0; i--)
        if (c->inst[i].state == FS_INSTANCE_UP) {
            s->taken_at[i] = taken;
            if (fs_capacity_interrupt(c, i, left)) {
                fail(s, "an interruption");
                return;
            }
            k--;
        }
    long provisioning = c->launched - c->up;
    if (k > 0 && provisioning > 0)
        fs_capacity_release(c, k < provisioning ? k : provisioning);
}

static void on_row(fs_engine *e, void *obj, long arg)
{
    (void)e;
    (void)arg;
    fs_spot *s = obj;
    double v = floor(s->next_v), t = s->next_t;
    if (v < s->avail) {
        long k = (long)(s->avail - v);
        s->avail = v;
        preempt(s, k, t);
    } else if (v > s->avail) {
        s->avail = v;
        top_up(s);
    }
    if (read_change(s, fs_capacity_now(s->cap), s->sim->err)) {
        fs_sim_fail(s->sim);
        return;
    }
    schedule_row(s);
}

/* Opens the trace and takes its rows at t <= 0 as the start. */
static int open_trace(fs_spot *s, fs_error *err)
{
    const fs_interruption *it = &s->sc->interruption;
    s->trace = fs_spot_trace_open(it->path, "available", horizon(s),
                                  it->repeat, err);
    if (!s->trace)
        return -1;
    s->avail = 0;
    int rc;
    while ((rc = read_row(s, err)) == 0 && s->next_t <= 0)
        s->avail = floor(s->next_v);
    if (rc == 0 && floor(s->next_v) == s->avail)
        rc = read_change(s, 0, err);
    return rc;
}

int fs_spot_init(fs_spot *s, fs_sim *sim, const fs_pool_conf *conf,
                 fs_capacity *cap, fs_servers *servers,
                 fs_capacity *fallback, double fallback_price,
                 unsigned replication, fs_error *err)
{
    const fs_spot_conf *sc = &conf->spot;
    s->sim = sim;
    s->conf = conf;
    s->sc = sc;
    s->cap = cap;
    s->servers = servers;
    s->fallback = fallback;
    s->fallback_price = fallback_price;
    s->active = sc->interruption.kind != FS_INTERRUPT_NONE || fallback;
    if (!s->active)
        return 0;
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "interruptions:%s", conf->name);
    s->rng = fs_rng_new(sim->sc->seed, replication, source);
    size_t n = cap->max > 0 ? (size_t)cap->max : 1;
    s->doom = calloc(n, sizeof *s->doom);
    s->taken_at = calloc(n, sizeof *s->taken_at);
    s->notice_from = calloc(n, sizeof *s->notice_from);
    if (!s->rng || !s->doom || !s->taken_at || !s->notice_from)
        return fs_error_set(err, "out of memory building pool %s",
                            conf->name);
    for (size_t i = 0; i < n; i++)
        s->notice_from[i] = NAN;     /* no notice yet */
    if (sc->interruption.kind == FS_INTERRUPT_TRACE && open_trace(s, err)) {
        /* "s.ini:9: pool.s.interruption: trace.csv:4: why" */
        const fs_config_entry *e = fs_config_find(sim->sc->cfg, conf->section,
                                                  "interruption");
        fs_error why = *err;
        return fs_error_set(err, "%s:%d: %s.interruption: %s", e->file,
                            e->line, conf->section, why.msg);
    }
    if (fs_capacity_subscribe(cap, &spot_listener, s))
        return fs_error_set(err, "pool %s: too many capacity subscribers",
                            conf->name);
    return 0;
}

void fs_spot_free(fs_spot *s)
{
    if (s->rng)
        gsl_rng_free(s->rng);
    FS_FREE_ALL(s->doom, s->taken_at, s->notice_from);
    s->notice_from = NULL;
    fs_spot_trace_free(s->trace);
    s->rng = NULL;
    s->doom = NULL;
    s->taken_at = NULL;
    s->trace = NULL;
}

long fs_spot_initial(const fs_spot *s, long count)
{
    return s->trace && s->avail < (double)count ? (long)s->avail : count;
}

int fs_spot_start(fs_spot *s)
{
    if (!s->trace)
        return 0;
    return schedule_row(s);
}

void fs_spot_finish(fs_spot *s)
{
    if (!s->fallback)
        return;
    double now = fs_capacity_now(s->cap);
    fallback_account(s);
    if (now < horizon(s))
        s->fb_inst_s += (double)s->fb_running * (horizon(s) - now);
}
