/* progress.h -- the progress line of a run, on stderr.
 *
 * By default (auto) it is drawn when stderr is a terminal, --quiet was not
 * given and the run has lasted a second: simulated time done, events done
 * of the estimate (estimate.h), events per second and the time left,
 * redrawn in place at most four times a second.  `--progress always` (or
 * FLEETSIM_PROGRESS=always) draws it on any stderr, one line per draw and
 * a last line with the final figures, for logs; `never` turns it off.
 * FLEETSIM_PROGRESS_INTERVAL sets the delay before the first line (and
 * between lines off a terminal; 0 there means a line a second); 0 draws
 * the first line at once, before the first event, which is what tests
 * use: nothing depends on speed. */
#ifndef FS_PROGRESS_H
#define FS_PROGRESS_H

#include <stdint.h>
#include "sim/base/error.h"

typedef enum fs_progress_mode {
    FS_PROGRESS_AUTO,      /* when stderr is a terminal */
    FS_PROGRESS_ALWAYS,
    FS_PROGRESS_NEVER,
} fs_progress_mode;

typedef struct fs_progress {
    int enabled;
    int tty;               /* redraw in place; else a line per draw */
    double horizon_s;
    double estimate;       /* events expected, 0 when unknown */
    double first_after;    /* seconds before the first draw */
    double every;          /* seconds between draws */
    double wall_start, last_draw;
    int drawn;
    char label[64];
} fs_progress;

/* "auto", "always" or "never" into *mode: 0, or -1. */
int fs_progress_mode_parse(const char *s, fs_progress_mode *mode);

/* The environment's settings: FLEETSIM_PROGRESS into *mode and
 * FLEETSIM_PROGRESS_INTERVAL (a duration; default 1s) into *interval_s,
 * each left as it is when unset.  0, or -1 with a message naming the
 * variable. */
int fs_progress_env(fs_progress_mode *mode, double *interval_s,
                    fs_error *err);

void fs_progress_init(fs_progress *p, double horizon_s, const char *label,
                      fs_progress_mode mode, double interval_s);
/* The run starts, estimate events expected: with a zero interval the
 * first line is drawn now. */
void fs_progress_start(fs_progress *p, double estimate);
/* An fs_progress_fn: ctx is the fs_progress. */
void fs_progress_update(void *ctx, double now, uint64_t events);
/* The run ended, at now after events (ok), or failed.  On a terminal the
 * line is erased; elsewhere a run that showed progress gets a last line. */
void fs_progress_done(fs_progress *p, int ok, double now, uint64_t events);
double fs_wall_seconds(void);

#endif
