/* progress.h -- the progress line of a long run (stderr, terminals only).
 *
 * Shown when stderr is a terminal, --quiet was not given and the run has
 * lasted more than a second: simulated time done, events per second and an
 * estimate of the time left, redrawn in place at most four times a second. */
#ifndef FS_PROGRESS_H
#define FS_PROGRESS_H

#include <stdint.h>

typedef struct fs_progress {
    int enabled;
    double horizon_s;
    double wall_start, last_draw;
    int drawn;
    char label[64];
} fs_progress;

void fs_progress_init(fs_progress *p, double horizon_s, const char *label,
                      int quiet);
/* An fs_progress_fn: ctx is the fs_progress. */
void fs_progress_update(void *ctx, double now, uint64_t events);
/* Erases the line if one was drawn. */
void fs_progress_done(fs_progress *p);
double fs_wall_seconds(void);

#endif
