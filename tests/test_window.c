/* test_window.c -- offline windows against numbers known in advance.
 *
 * - A pool open one hour every four hours for a day, items arriving at
 *   10/s, 10 ms each (kind = batch): billed exactly 6 window-hours at its
 *   price ($4.00/h: $24.00), no item dropped, every item served or still
 *   waiting at the horizon; an item waits for the next opening, so the
 *   mean latency is about 1.2 h (1.5 h for the 3/4 that arrive while the
 *   pool is down, plus the backlog's own wait) and the p99 just under 3 h.
 * - drain = yes: a day's backlog (23 h of arrivals at 2/s, 100 ms each)
 *   keeps the pool up T past the next opening, until it is served at 10/s
 *   while 2/s keep arriving: 2 x (23 h + T) = 10 T, T = 5.75 h; billed
 *   1 h + 5.75 h (+ at most the minute between drain checks).
 * - Office hours in a time zone: mon-fri 09:00-19:00 Europe/Paris opens at
 *   08:00 UTC in winter, 07:00 UTC after the DST change of 2026-03-29, and
 *   not at the weekend; a daily (or every-2-days) window stays at local
 *   midnight across the same change. */
#include "check.h"
#include "simulate.h"
#include "sim/fleet/pool/window.h"

#include <math.h>
#include <string.h>

static void check_batch_window(void)
{
    fs_results out;
    CHECK(check_simulate(
        "[scenario]\nstart = 2026-01-01\nhorizon = 1d\n"
        "metrics_interval = 1h\n"
        "[window.every4h]\nevery = 4h\nopen = 00:00\nduration = 1h\n"
        "[pool.batch]\ngpu = A100-80GB\nprice = 4.00\ncount = 1\n"
        "schedule = every4h\n"
        "[workload.moderation]\nkind = batch\npools = batch\n"
        "window = every4h\n"
        "arrivals = poisson(rate=10/s)\nservice = const(10ms)\n",
        &out) == 0);
    double cost = 0, hours = 0;
    for (size_t i = 0; i < out.ncosts; i++) {
        cost += out.costs[i].cost_usd;
        hours += out.costs[i].gpu_hours;
    }
    printf("  window: $%.2f, %.6f GPU-h\n", cost, hours);
    CHECK(cost == 24.00);
    CHECK_NEAR(hours, 6.0, 1e-5);   /* a batch at a close may finish late */
    CHECK(out.nlatency == 1);
    if (out.nlatency == 1) {
        const fs_latency_row *l = &out.latency[0];
        printf("  mean %.3f h, p99 %.3f h, %ld served, %ld waiting\n",
               l->mean_s / 3600, l->p99_s / 3600, l->count, l->unfinished);
        CHECK(l->dropped == 0);
        CHECK(l->count + l->unfinished == l->arrivals);
        CHECK_NEAR(l->mean_s / 3600, 1.2, 0.05);
        CHECK(l->p99_s < 3 * 3600 && l->p99_s > 2.8 * 3600);
    }
    /* the pool is up 6 h: utilization rows show it only in the windows,
     * plus, like the GPU-hours above, the end of a request in service at
     * a close: at most one 10 ms service per window (whether one is in
     * service at a close depends on the random stream: 10% per close) */
    double up = 0;
    for (size_t i = 0; i < out.nutil; i++)
        up += out.util[i].instances_up;
    CHECK(up >= 6.0 - 1e-9 && up <= 6.0 + 6 * 0.010 / 3600 + 1e-9);
    fs_results_free(&out);
}

static void check_drain(void)
{
    fs_results out;
    CHECK(check_simulate(
        "[scenario]\nstart = 2026-01-01\nhorizon = 2d\n"
        "metrics_interval = 1h\n"
        "[window.daily]\nopen = 00:00\nduration = 1h\n"
        "[pool.p]\ngpu = L4\nprice = 1.00\ncount = 1\n"
        "schedule = daily\ndrain = yes\n"
        "[workload.w]\nkind = batch\npools = p\n"
        "arrivals = poisson(rate=2/s)\nservice = const(100ms)\n",
        &out) == 0);
    double hours = 0;
    for (size_t i = 0; i < out.ncosts; i++)
        hours += out.costs[i].gpu_hours;
    printf("  drain: %.4f GPU-h (expected 1 + 5.75 + at most a minute)\n",
           hours);
    CHECK(hours > 6.74 && hours < 6.78);
    fs_results_free(&out);
}

static void check_office_hours(void)
{
    fs_window_conf w;
    memset(&w, 0, sizeof w);
    w.days = 0x3e;                  /* mon..fri */
    w.open = 9 * 3600;
    w.close = 19 * 3600;
    w.duration = w.close - w.open;
    struct tm tm = {0};
    tm.tm_year = 2026 - 1900;       /* Thursday 2026-01-01 00:00 UTC */
    tm.tm_mday = 1;
    time_t start = timegm(&tm);
    double o, c;
    fs_window_next(&w, "Europe/Paris", start, 0, 0, &o, &c);
    CHECK(o == 8 * 3600 && c == 18 * 3600);
    /* after Friday's close: Monday 2026-01-05 */
    fs_window_next(&w, "Europe/Paris", start, 0, 86400 + 18 * 3600, &o, &c);
    CHECK(o == 4 * 86400 + 8 * 3600);
    /* Monday 2026-03-30, after the change to summer time */
    double mar30 = (double)(88 * 86400);
    fs_window_next(&w, "Europe/Paris", start, 0, mar30, &o, &c);
    CHECK(o == mar30 + 7 * 3600 && c == mar30 + 17 * 3600);
    /* UTC, and a periodic window anchored on the start day */
    fs_window_next(&w, "UTC", start, 0, 0, &o, &c);
    CHECK(o == 9 * 3600);
    fs_window_conf p;
    memset(&p, 0, sizeof p);
    p.every = 4 * 3600;
    p.duration = 3600;
    p.open = 2 * 3600;
    double anchor = fs_window_anchor(&p, "UTC", start);
    CHECK(anchor == 7200);
    fs_window_next(&p, "UTC", start, anchor, 0, &o, &c);
    CHECK(o == 7200 && c == 10800);
    fs_window_next(&p, "UTC", start, anchor, 0.5, &o, &c);
    CHECK(o == 7200 && c == 10800);
    fs_window_next(&p, "UTC", start, anchor, 7300, &o, &c);
    CHECK(o == 7200);               /* in progress */
    fs_window_next(&p, "UTC", start, anchor, 10800, &o, &c);
    CHECK(o == 7200 + 4 * 3600);
    /* Europe/Paris is UTC+1 in January: 02:00 local is 01:00 UTC */
    CHECK(fs_window_anchor(&p, "Europe/Paris", start) == 3600);
    /* A period of whole days keeps local time across the DST change of
     * 2026-03-29: daily 00:00-01:00 Paris opens at 23:00 UTC the day
     * before in winter, 22:00 UTC in summer; the opening under way at
     * 23:30 UTC on 03-28 is found. */
    fs_window_conf dly;
    memset(&dly, 0, sizeof dly);
    dly.every = 86400;
    dly.duration = 3600;
    dly.open = 0;
    anchor = fs_window_anchor(&dly, "Europe/Paris", start);
    CHECK(anchor == -3600);
    double mar28 = (double)(86 * 86400);        /* 2026-03-28 00:00 UTC */
    fs_window_next(&dly, "Europe/Paris", start, anchor, mar28, &o, &c);
    CHECK(o == mar28 + 23 * 3600 && c == mar28 + 24 * 3600);
    fs_window_next(&dly, "Europe/Paris", start, anchor, mar28 + 23.5 * 3600,
                   &o, &c);
    CHECK(o == mar28 + 23 * 3600);
    fs_window_next(&dly, "Europe/Paris", start, anchor, mar28 + 86400, &o,
                   &c);
    CHECK(o == mar28 + 86400 + 22 * 3600);      /* 03-29 22:00 UTC */
    /* every 2d: local dates Jan 1, 3, ..., Mar 28 (day 86), Mar 30; after
     * 03-29 00:00 UTC the next is Mar 30 00:00 Paris = 03-29 22:00 UTC */
    dly.every = 2 * 86400;
    fs_window_next(&dly, "Europe/Paris", start, anchor, mar28 + 86400, &o,
                   &c);
    CHECK(o == mar28 + 86400 + 22 * 3600);
}

int main(void)
{
    check_office_hours();
    check_batch_window();
    check_drain();
    return check_report("window");
}
