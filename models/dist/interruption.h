/* interruption.h -- when spot instances are taken away: the pool key
 * `interruption = ...`, parsed from the shared call grammar.
 *
 *   exponential(mean=10h)          memoryless lifetimes
 *   weibull(shape=0.8, scale=20h)  shape < 1: early deaths more likely
 *   lognormal(mu=10, sigma=1)      mu and sigma of ln(lifetime in seconds)
 *   empirical(lifetimes.csv)       lifetimes drawn uniformly from a file
 *                                  (one number of seconds a row, first
 *                                  column; a non-numeric first row is a
 *                                  header)
 *   trace(path[, repeat=yes])      replay of an availability/preemption
 *                                  trace `t_seconds,available`
 *                                  (traces/spot_trace.h)
 *
 * A lifetime is drawn for each instance when it comes up, from its pool's
 * own random stream (seeded by the fleet from the scenario seed, the
 * replication and the pool's name); the trace form draws nothing. */
#ifndef FS_INTERRUPTION_H
#define FS_INTERRUPTION_H

#include <stddef.h>
#include <gsl/gsl_rng.h>
#include "models/dist/dist.h"
#include "sim/base/grammar.h"

typedef enum fs_interruption_kind {
    FS_INTERRUPT_NONE,        /* never interrupted */
    FS_INTERRUPT_DIST,        /* exponential, weibull, lognormal */
    FS_INTERRUPT_EMPIRICAL,   /* lifetimes from a file */
    FS_INTERRUPT_TRACE,       /* availability replay */
} fs_interruption_kind;

typedef struct fs_interruption {
    fs_interruption_kind kind;
    fs_dist dist;             /* DIST, EMPIRICAL (its sample owned here) */
    char path[1024];          /* EMPIRICAL, TRACE: resolved path */
    int repeat;               /* TRACE: loop the trace past its end */
} fs_interruption;

/* Parses the call; file paths resolve against base_dir (the scenario's
 * directory).  An empirical file is read now (every row checked: a
 * positive number of seconds, "path:line: ..." otherwise).  0, or -1 with
 * the reason in why. */
int fs_interruption_parse(const fs_call *c, const char *base_dir,
                          fs_interruption *it, char *why, size_t whylen);
void fs_interruption_free(fs_interruption *it);

/* One lifetime in seconds (INFINITY for NONE and TRACE). */
double fs_interruption_draw(const fs_interruption *it, gsl_rng *r);

/* The mean lifetime in seconds (NAN for a trace, INFINITY for none). */
double fs_interruption_mean(const fs_interruption *it);

#endif
