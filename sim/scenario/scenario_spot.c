/* scenario_spot.c -- the spot keys of a pool (declared by the spot
 * purchase option, models/purchase/purchase_spot.c, so refused on other pools):
 * interruption, notice, replace_delay, fallback, fallback_after and
 * spot_extra, read into fs_spot_conf.
 *
 * spot_extra is added to the pool's count (and max) here: the fleet keeps
 * count + spot_extra instances, replacing those interrupted.  A fallback
 * is resolved once every pool is read: it must name an on-demand pool,
 * whose max grows by this pool's target so that it can take the whole
 * pool's load while spot is gone. */
#include "sim/scenario/scenario_impl.h"

#include <stdio.h>
#include <string.h>
#include "traces/spot_trace.h"

/* replace_delay = DURATION | distribution call. */
static int parse_replace_delay(fs_reader *rd, const char *dir,
                               fs_spot_conf *s)
{
    static const fs_empirical_words w = {"a delay", "seconds", 0};
    fs_config_entry *e = fs_rd_entry(rd, "replace_delay");
    s->replace_delay = (fs_dist){FS_DIST_CONST, 0, 0, NULL, 0};
    if (!e)
        return 0;
    char why[600];
    double d;
    if (fs_parse_duration(e->value, &d, why, sizeof why) == 0) {
        s->replace_delay.a = d;
        return 0;
    }
    if (!strchr(e->value, '('))     /* not a call: the duration's reason */
        return fs_rd_bad(rd, e, "%s", why);
    fs_call c;
    if (fs_parse_call(e->value, &c, why, sizeof why) ||
        fs_dist_parse_in(&c, fs_config_entry_dir(e, dir), w,
                         &s->replace_delay, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    return 0;
}

/* An availability trace checked now, so that a bad row stops the load:
 * no row may offer more instances than the pool keeps (count +
 * spot_extra), which would be an availability the pool never sees. */
static int check_trace_bound(fs_reader *rd, fs_config_entry *e,
                             fs_spot_conf *s)
{
    if (s->interruption.kind != FS_INTERRUPT_TRACE)
        return 0;
    fs_error terr;
    fs_spot_trace *t = fs_spot_trace_open(s->interruption.path, "available",
                                          0, 0, &terr);
    if (!t) {
        return fs_rd_bad(rd, e, "%s", terr.msg);
    }
    long line;
    double most = fs_spot_trace_max(t, &line);
    fs_spot_trace_free(t);
    if (most <= (double)s->target)
        return 0;
    char why[1400];
    snprintf(why, sizeof why, "%s:%ld: available %.0f is more than the "
             "pool keeps (count + spot_extra = %ld)", s->interruption.path,
             line, most, s->target);
    return fs_rd_bad(rd, e, "%s", why);
}

static int parse_interruption(fs_reader *rd, fs_scenario *sc,
                              fs_spot_conf *s)
{
    fs_config_entry *e = fs_rd_entry(rd, "interruption");
    if (!e)
        return 0;
    fs_call c;
    char why[1400];
    if (fs_parse_call(e->value, &c, why, sizeof why) ||
        fs_interruption_parse(&c, fs_config_entry_dir(e, sc->dir),
                              &s->interruption, why,
                              sizeof why)) {
        fs_interruption_free(&s->interruption);
        return fs_rd_bad(rd, e, "%s", why);
    }
    return check_trace_bound(rd, e, s);
}

/* A notice longer than every lifetime of an empirical() file would come
 * before the instance exists: every instance would be noticed at its
 * launch. */
static int check_notice(fs_reader *rd, const fs_spot_conf *s)
{
    const fs_interruption *it = &s->interruption;
    if (it->kind != FS_INTERRUPT_EMPIRICAL || s->notice_s <= 0)
        return 0;
    double longest = 0;
    for (size_t i = 0; i < it->dist.n; i++)
        if (it->dist.values[i] > longest)
            longest = it->dist.values[i];
    if (s->notice_s <= longest)
        return 0;
    char why[1400];
    snprintf(why, sizeof why, "%gs is longer than every lifetime of %s (the "
             "longest: %gs): the notice would come before the instance "
             "starts", s->notice_s, it->path, longest);
    return fs_rd_bad(rd, fs_rd_entry(rd, "notice"), "%s", why);
}

int fs_scenario_parse_spot(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p)
{
    fs_spot_conf *s = &p->spot;
    s->fallback = -1;
    if (fs_rd_double(rd, "notice", fs_parse_duration, 0, &s->notice_s) ||
        fs_rd_double(rd, "fallback_after", fs_parse_duration, 0,
                     &s->fallback_after) ||
        fs_rd_count(rd, "spot_extra", 0, 0, 1000, &s->extra) ||
        parse_replace_delay(rd, sc->dir, s))
        return -1;
    if (s->notice_s > FS_MAX_SPOT_NOTICE_S)   /* 3650d: never served */
        return fs_rd_bad(rd, fs_rd_entry(rd, "notice"), "%s", "at most 1h "
                         "(providers give 30s to 2m): a longer notice keeps "
                         "instances from ever serving");
    if (p->count + s->extra > FS_MAX_INSTANCES)
        return fs_rd_bad(rd, fs_rd_entry(rd, "spot_extra"), "%s",
                         "count + spot_extra is above the most instances a "
                         "pool may hold");
    if (s->extra) {                /* spot pools have a fixed count */
        p->count += s->extra;
        p->min = p->max = p->count;
    }
    s->target = p->count;
    /* A spot pool relaunches to its count after every interruption,
     * window or not: the two do not combine yet, so say so rather than
     * bill a closed window. */
    if (p->schedule_entry &&
        strcmp(p->purchase->focus_category, "Dynamic") == 0)
        return fs_rd_bad(rd, p->schedule_entry, "%s", "a spot pool "
                         "relaunches to its count after each interruption "
                         "and cannot follow a window in this version; put "
                         "the window on an on-demand pool");
    if (parse_interruption(rd, sc, s))
        return -1;
    if (check_notice(rd, s)) {
        fs_interruption_free(&s->interruption);   /* the pool is not kept */
        return -1;
    }
    return 0;
}

/* fallback = POOL: an on-demand pool of the scenario. */
static int link_one(fs_scenario *sc, size_t i, fs_error *err)
{
    fs_pool_conf *p = &sc->pools[i];
    fs_reader rd = {sc->cfg, p->section, err};
    fs_config_entry *e = fs_rd_entry(&rd, "fallback");
    if (!e)
        return 0;
    char why[400];
    for (size_t j = 0; j < sc->npools; j++) {
        fs_pool_conf *f = &sc->pools[j];
        if (strcmp(f->name, e->value) != 0)
            continue;
        const fs_purchase_option *od = fs_purchase_committing(FS_COMMIT_NONE);
        if (j == i || f->purchase != od) {
            snprintf(why, sizeof why, "pool %s is %s; a fallback must be an "
                     "%s pool", f->name,
                     j == i ? "this pool" : f->purchase->name, od->name);
            return fs_rd_bad(&rd, e, "%s", why);
        }
        if (f->scale != FS_SCALE_FIXED) {
            snprintf(why, sizeof why, "pool %s autoscales; a fallback must "
                     "have a fixed count (0 is usual)", f->name);
            return fs_rd_bad(&rd, e, "%s", why);
        }
        p->spot.fallback = (int)j;
        f->max += p->spot.target;
        return 0;
    }
    snprintf(why, sizeof why, "no pool named '%s' (a fallback names an "
             "on-demand [pool.NAME] of this scenario)", e->value);
    return fs_rd_bad(&rd, e, "%s", why);
}

int fs_scenario_link_spot(fs_scenario *sc, fs_error *err)
{
    for (size_t i = 0; i < sc->npools; i++)
        if (link_one(sc, i, err))
            return -1;
    return 0;
}
