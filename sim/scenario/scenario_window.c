/* scenario_window.c -- offline windows and the pools and batch workloads
 * that follow them.
 *
 *   [scenario] timezone = Europe/Paris      (default UTC; the system's tz
 *                                            database)
 *   [window.NAME] every = 4h  open = 00:00  duration = 1h
 *   [window.NAME] days = mon-fri  open = 09:00  close = 19:00
 *   [pool.NAME]   schedule = NAME  drain = yes
 *   [workload.NAME] kind = batch  window = NAME
 *
 * A periodic window opens at `open` (local time) on the start day and
 * every `every` from there, for `duration`; office hours open on the days
 * listed, from `open` to `close`, local time (DST-correct).  A pool with a
 * schedule has `count` instances up inside the windows and none outside;
 * it cannot also autoscale.  A batch workload's pools must all follow its
 * window (its items wait for the pools to come up). */
#include "sim/scenario/scenario_impl.h"
#include "sim/base/tz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int fs_scenario_parse_timezone(fs_reader *rd, fs_scenario *sc)
{
    fs_config_entry *e = fs_rd_entry(rd, "timezone");
    snprintf(sc->timezone, sizeof sc->timezone, "%s", e ? e->value : "UTC");
    if (!e)
        return 0;
    if (strlen(e->value) >= sizeof sc->timezone || fs_tz_check(e->value))
        return fs_rd_bad(rd, e, "%s", "unknown time zone (a name of the tz "
                         "database, e.g. UTC, Europe/Paris, "
                         "America/New_York)");
    return 0;
}

int fs_scenario_parse_schedule(fs_reader *rd, fs_pool_conf *p)
{
    p->schedule = -1;
    p->schedule_entry = fs_rd_entry(rd, "schedule");
    if (fs_rd_bool(rd, "drain", 0, &p->drain))
        return -1;
    if (p->schedule_entry && p->scale != FS_SCALE_FIXED)
        return fs_rd_bad(rd, p->schedule_entry, "%s", "a pool follows a "
                         "schedule or autoscales, not both");
    if (p->drain && !p->schedule_entry)
        return fs_rd_bad(rd, fs_rd_entry(rd, "drain"), "%s",
                         "applies to pools with a schedule only");
    return 0;
}

/* HH:MM into seconds of the day. */
static int time_of_day(fs_reader *rd, fs_config_entry *e, double *out)
{
    int hh, mm, n = 0;
    if (sscanf(e->value, "%2d:%2d%n", &hh, &mm, &n) != 2 || e->value[n] ||
        hh > 23 || mm > 59 || hh < 0 || mm < 0)
        return fs_rd_bad(rd, e, "%s", "expected a time of day HH:MM");
    *out = hh * 3600.0 + mm * 60.0;
    return 0;
}

static int weekday(const char *s, size_t len)
{
    static const char *const names[] = {"sun", "mon", "tue", "wed", "thu",
                                        "fri", "sat"};
    for (int d = 0; d < 7; d++)
        if (len == 3 && strncasecmp(s, names[d], 3) == 0)
            return d;
    return -1;
}

/* days = mon-fri | sat,sun | mon,wed-fri: a bit per weekday. */
static int parse_days(fs_reader *rd, fs_config_entry *e, unsigned *out)
{
    static const char *const how = "expected days such as mon-fri or "
                                   "sat,sun (mon tue wed thu fri sat sun)";
    const char *s = e->value;
    *out = 0;
    while (*s) {
        while (*s == ' ' || *s == ',')
            s++;
        size_t len = strcspn(s, ",- ");
        int a = weekday(s, len), b = a;
        s += len;
        if (*s == '-') {
            s++;
            len = strcspn(s, ", ");
            b = weekday(s, len);
            s += len;
        }
        if (a < 0 || b < 0)
            return fs_rd_bad(rd, e, "%s", how);
        for (int d = a;; d = (d + 1) % 7) {
            *out |= 1u << d;
            if (d == b)
                break;
        }
        while (*s == ' ')
            s++;
    }
    return *out ? 0 : fs_rd_bad(rd, e, "%s", how);
}

/* days = ... with open and close (and neither every nor duration). */
static int parse_office_hours(fs_reader *rd, fs_window_conf *win,
                              fs_config_entry *days)
{
    const char *const contrary[] = {"every", "duration"};
    for (int i = 0; i < 2; i++) {
        fs_config_entry *e = fs_rd_entry(rd, contrary[i]);
        if (e)
            return fs_rd_bad(rd, e, "%s", "not with days: office hours "
                             "open and close at times of day");
    }
    fs_config_entry *o = fs_rd_entry(rd, "open"), *c = fs_rd_entry(rd,
                                                                  "close");
    if (!o || !c)
        return fs_rd_missing(rd, "open and close (days = ... opens at open "
                             "and closes at close, e.g. 09:00 and 19:00)");
    if (parse_days(rd, days, &win->days) || time_of_day(rd, o, &win->open) ||
        time_of_day(rd, c, &win->close))
        return -1;
    if (win->close <= win->open)
        return fs_rd_bad(rd, c, "%s", "must be after open (a window closes "
                         "on the day it opens)");
    win->duration = win->close - win->open;
    win->every = 7 * 86400.0;
    return 0;
}

int fs_scenario_parse_window(fs_scenario *sc, const char *section,
                             fs_window_conf *win, fs_error *err)
{
    fs_reader rd = {sc->cfg, section, err};
    memset(win, 0, sizeof *win);
    snprintf(win->name, sizeof win->name, "%s", section + 7);
    snprintf(win->section, sizeof win->section, "%s", section);
    if (fs_rd_check_keys(&rd, FS_SECTION_WINDOW))
        return -1;
    fs_config_entry *days = fs_rd_entry(&rd, "days");
    if (days)
        return parse_office_hours(&rd, win, days);
    fs_config_entry *c = fs_rd_entry(&rd, "close");
    if (c)
        return fs_rd_bad(&rd, c, "%s", "applies with days only (periodic "
                         "windows take every and duration)");
    if (fs_rd_double(&rd, "every", fs_parse_duration, 86400, &win->every))
        return -1;
    if (win->every < FS_WINDOW_EVERY_MIN)
        return fs_rd_bad(&rd, fs_rd_entry(&rd, "every"), "%s", "a window opens "
                         "at most once a minute (every = 1m or more): "
                         "capacity provisioned for less is noise");
    fs_config_entry *e = fs_rd_entry(&rd, "open");
    if (e && time_of_day(&rd, e, &win->open))
        return -1;
    e = fs_rd_entry(&rd, "duration");
    if (!e)
        return fs_rd_missing(&rd, "duration (or days = ... with open and "
                             "close)");
    char why[256];
    if (fs_parse_duration(e->value, &win->duration, why, sizeof why))
        return fs_rd_bad(&rd, e, "%s", why);
    if (win->every <= 0 || win->duration <= 0 || win->duration > win->every)
        return fs_rd_bad(&rd, e, "%s", "must be above 0 and at most `every`");
    return 0;
}

/* The index of the window named name, -1 when absent. */
static int window_index(const fs_scenario *sc, const char *name)
{
    return FS_NAME_INDEX(fs_window_conf, sc->windows, sc->nwindows, name);
}

/* schedule = NAME names a window. */
static int resolve_pool(fs_scenario *sc, fs_pool_conf *p, fs_error *err)
{
    const fs_config_entry *e = p->schedule_entry;
    if (!e)
        return 0;
    p->schedule = window_index(sc, e->value);
    if (p->schedule >= 0)
        return 0;
    const char **names = calloc(sc->nwindows + 1, sizeof *names);
    const char *near = NULL;
    if (names) {
        for (size_t i = 0; i < sc->nwindows; i++)
            names[i] = sc->windows[i].name;
        near = fs_nearest_name(e->value, names);
    }
    free(names);
    char why[256];
    snprintf(why, sizeof why, "no window named '%s' (%s%s%s)", e->value,
             near ? "did you mean '" : "define [window.",
             near ? near : e->value, near ? "'?" : "]");
    fs_reader rd = {sc->cfg, p->section, err};
    return fs_rd_bad(&rd, e, "%s", why);
}

/* A batch workload: its pools follow its window (default: the schedule
 * of its first pool); window = on another kind is refused. */
static int resolve_workload(fs_scenario *sc, fs_workload_conf *w,
                            fs_error *err)
{
    fs_reader rd = {sc->cfg, w->section, err};
    fs_config_entry *e = fs_rd_entry(&rd, "window");
    if (w->kind != FS_KIND_BATCH)
        return e ? fs_rd_bad(&rd, e, "%s", "applies to batch workloads "
                             "only (kind = batch)") : 0;
    int win = e ? window_index(sc, e->value)
                : sc->pools[w->pools[0]].schedule;
    if (e && win < 0)
        return fs_rd_bad(&rd, e, "%s", "no window of that name");
    char why[256];
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        if (p->schedule >= 0 && p->schedule == win)
            continue;
        snprintf(why, sizeof why, "pool %s %s: a batch workload's pools "
                 "follow its window (schedule = %s)", p->name,
                 p->schedule < 0 ? "has no schedule"
                                 : "follows another window",
                 win >= 0 ? sc->windows[win].name : "WINDOW");
        return fs_rd_bad(&rd, fs_rd_entry(&rd, "pools"), "%s", why);
    }
    return 0;
}

int fs_scenario_resolve_windows(fs_scenario *sc, fs_error *err)
{
    for (size_t i = 0; i < sc->npools; i++)
        if (resolve_pool(sc, &sc->pools[i], err))
            return -1;
    for (size_t i = 0; i < sc->nworkloads; i++)
        if (resolve_workload(sc, &sc->workloads[i], err))
            return -1;
    return 0;
}
