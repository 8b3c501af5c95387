/* progress.c -- drawing the progress line; see progress.h. */
#include "progress.h"
#include "grammar.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double fs_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void fs_progress_init(fs_progress *p, double horizon_s, const char *label,
                      int quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->horizon_s = horizon_s;
    p->wall_start = p->last_draw = fs_wall_seconds();
    p->drawn = 0;
    snprintf(p->label, sizeof p->label, "%s", label);
}

void fs_progress_update(void *ctx, double now, uint64_t events)
{
    fs_progress *p = ctx;
    if (!p->enabled)
        return;
    double wall = fs_wall_seconds();
    double elapsed = wall - p->wall_start;
    if (elapsed < 1 || wall - p->last_draw < 0.25)
        return;
    p->last_draw = wall;
    double done = p->horizon_s > 0 ? now / p->horizon_s : 1;
    double eta = done > 0 ? elapsed * (1 - done) / done : 0;
    char sim[32], total[32];
    fs_format_duration(now, sim, sizeof sim);
    fs_format_duration(p->horizon_s, total, sizeof total);
    fprintf(stderr, "\r%s: %s of %s simulated (%.0f%%), %.2fM events/s, "
            "ETA %.0fs   ", p->label, sim, total, done * 100,
            (double)events / elapsed / 1e6, eta);
    fflush(stderr);
    p->drawn = 1;
}

void fs_progress_done(fs_progress *p)
{
    if (p->drawn)
        fprintf(stderr, "\r\033[K");
    p->drawn = 0;
}
