/* spot_trace.h -- spot traces: `t_seconds,available` (availability and
 * preemption traces, as in skypilot-org/spot-traces) and `t_seconds,price`
 * (a spot price trace), read a row at a time with libcsv (csvin.h).
 *
 * Opening a trace checks the whole file in one streaming pass before the
 * run starts, so that a bad trace stops the run before its first event:
 * a header naming t_seconds and the value column; every time a number of
 * seconds at least 0 and at least the previous one; every value a number
 * at least 0 (an `available` a whole number of instances, at most
 * FS_SPOT_TRACE_MAX_AVAILABLE, the most instances a pool may hold:
 * anything above would only exhaust memory); and, unless repeat is set, a last time at or beyond the
 * horizon.  Each refusal names the file and line.  With repeat the trace
 * loops: lap n is shifted by n x its length (last time plus one step).
 *
 * fs_spot_lifetimes turns a preemption trace into instance lifetimes: an
 * instance lives from the sample where `available` rises to the one where
 * it drops (oldest first when several run); those still alive at the end
 * are right-censored. */
#ifndef FS_SPOT_TRACE_H
#define FS_SPOT_TRACE_H

#include <stddef.h>
#include "sim/base/error.h"

typedef struct fs_spot_trace fs_spot_trace;

#define FS_SPOT_TRACE_MAX_AVAILABLE 1000000

/* Opens and checks path, whose value column is named column ("available"
 * or "price").  horizon_s <= 0: no horizon check.  NULL with
 * "path:line: why" in err. */
fs_spot_trace *fs_spot_trace_open(const char *path, const char *column,
                                  double horizon_s, int repeat,
                                  fs_error *err);
void fs_spot_trace_free(fs_spot_trace *t);

/* The next row: 1 with *time and *value set, 0 at the end (never with
 * repeat), -1 with a message (the file changed since it was checked). */
int fs_spot_trace_next(fs_spot_trace *t, double *time, double *value,
                       fs_error *err);

/* Rows in one lap, and the time of the last one. */
long fs_spot_trace_rows(const fs_spot_trace *t);
double fs_spot_trace_end(const fs_spot_trace *t);
/* A lap's length with repeat: the last time plus the last step. */
double fs_spot_trace_lap(const fs_spot_trace *t);
/* The largest value of the trace, and the line it is on. */
double fs_spot_trace_max(const fs_spot_trace *t, long *line);

typedef struct fs_lifetimes {
    double *life;       /* seconds, in order of their end; owned */
    unsigned char *censored;   /* 1: still alive at the trace's end */
    size_t n, ncensored;
    double span_s;      /* the trace's length */
    long drops;         /* preemptions: the sum of the drops */
} fs_lifetimes;

/* Lifetimes of the instances of a preemption trace.  0, or -1 with a
 * message. */
int fs_spot_lifetimes(const char *path, fs_lifetimes *out, fs_error *err);
void fs_lifetimes_free(fs_lifetimes *l);

#endif
