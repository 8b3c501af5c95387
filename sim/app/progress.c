/* progress.c -- drawing the progress line; see progress.h. */
#include "sim/app/progress.h"
#include "sim/base/grammar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Redraws on a terminal at most this often. */
#define TTY_EVERY 0.25

double fs_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int fs_progress_mode_parse(const char *s, fs_progress_mode *mode)
{
    static const char *const names[] = {"auto", "always", "never"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *mode = (fs_progress_mode)i;
            return 0;
        }
    return -1;
}

int fs_progress_env(fs_progress_mode *mode, double *interval_s,
                    fs_error *err)
{
    const char *m = getenv("FLEETSIM_PROGRESS");
    if (m && *m && fs_progress_mode_parse(m, mode))
        return fs_error_set(err, "FLEETSIM_PROGRESS: expected auto, always "
                            "or never, got '%s'", m);
    const char *iv = getenv("FLEETSIM_PROGRESS_INTERVAL");
    char why[256];
    if (iv && *iv && fs_parse_duration(iv, interval_s, why, sizeof why))
        return fs_error_set(err, "FLEETSIM_PROGRESS_INTERVAL: %s", why);
    return 0;
}

void fs_progress_init(fs_progress *p, double horizon_s, const char *label,
                      fs_progress_mode mode, double interval_s)
{
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO);
    p->enabled = mode == FS_PROGRESS_ALWAYS ||
                 (mode == FS_PROGRESS_AUTO && p->tty);
    p->horizon_s = horizon_s;
    p->first_after = interval_s;
    /* In place on a terminal, four times a second; elsewhere a line per
     * interval, or per second when the interval is 0 (the first line). */
    p->every = p->tty ? TTY_EVERY : interval_s > 0 ? interval_s : 1;
    p->wall_start = p->last_draw = fs_wall_seconds();
    snprintf(p->label, sizeof p->label, "%s", label);
}

/* "950", "12.5k", "3.10M", "2.00G" */
static void format_events(double n, char *buf, size_t len)
{
    if (n < 1e4)
        snprintf(buf, len, "%.0f", n);
    else if (n < 1e6)
        snprintf(buf, len, "%.1fk", n / 1e3);
    else if (n < 1e9)
        snprintf(buf, len, "%.2fM", n / 1e6);
    else
        snprintf(buf, len, "%.3gG", n / 1e9);
}

/* Draws the line for now and events; tail is "ETA ..." or "done in ...". */
static void draw(fs_progress *p, double wall, double now, uint64_t events,
                 int final)
{
    double elapsed = wall - p->wall_start;
    double done = p->horizon_s > 0 ? now / p->horizon_s : 1;
    char sim[32], total[32], ev[32], est[40], tail[48];
    if (now > 0)
        fs_format_duration(now, sim, sizeof sim);
    else
        snprintf(sim, sizeof sim, "0s");
    fs_format_duration(p->horizon_s, total, sizeof total);
    format_events((double)events, ev, sizeof ev);
    est[0] = '~';
    format_events(p->estimate, est + 1, sizeof est - 1);
    if (final)
        snprintf(tail, sizeof tail, "done in %.2fs", elapsed);
    else if (done > 0 && elapsed > 0)
        snprintf(tail, sizeof tail, "ETA %.0fs", elapsed * (1 - done) / done);
    else
        snprintf(tail, sizeof tail, "ETA -");
    double rate = elapsed > 0 ? (double)events / elapsed / 1e6 : 0;
    fprintf(stderr, "%s%s: %s of %s simulated (%.0f%%), %s of %s events, "
            "%.2fM events/s, %s%s", p->tty ? "\r" : "", p->label, sim, total,
            done * 100, ev, p->estimate > 0 ? est : "?", rate, tail,
            p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->last_draw = wall;
    p->drawn = 1;
}

void fs_progress_start(fs_progress *p, double estimate)
{
    p->estimate = estimate;
    p->wall_start = p->last_draw = fs_wall_seconds();
    if (p->enabled && p->first_after <= 0)
        draw(p, p->wall_start, 0, 0, 0);
}

void fs_progress_update(void *ctx, double now, uint64_t events)
{
    fs_progress *p = ctx;
    if (!p->enabled)
        return;
    double wall = fs_wall_seconds();
    if (wall - p->wall_start < p->first_after ||
        (p->drawn && wall - p->last_draw < p->every))
        return;
    draw(p, wall, now, events, 0);
}

void fs_progress_done(fs_progress *p, int ok, double now, uint64_t events)
{
    if (p->tty) {
        if (p->drawn)
            fprintf(stderr, "\r\033[K");
    } else if (p->enabled && ok && (p->drawn || p->first_after <= 0)) {
        draw(p, fs_wall_seconds(), now, events, 1);
    }
    p->drawn = 0;
}
