/* spot_trace.c -- streaming spot traces (spot_trace.h): the checking pass,
 * the row iterator with laps, and lifetimes from a preemption trace. */
#include "traces/spot_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/csvin.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

struct fs_spot_trace {
    fs_csv *csv;
    const char *column;
    int tcol, vcol;
    size_t ncols;            /* the header's fields */
    int repeat;
    long rows;
    double last_t, step;     /* last time, and the step before it */
    double lap_s;            /* a lap's length (repeat) */
    double max_v;            /* the largest value, and its line */
    long max_line;
    long lap;
};

/* The header's columns: t_seconds and the value column. */
static int bind_header(fs_spot_trace *t, fs_error *err)
{
    int rc = fs_csv_next(t->csv, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return fs_error_set(err, "%s:1: empty trace (expected a header "
                            "t_seconds,%s)", fs_csv_path(t->csv), t->column);
    t->tcol = t->vcol = -1;
    t->ncols = fs_csv_nfields(t->csv);
    for (size_t i = 0; i < fs_csv_nfields(t->csv); i++) {
        const char *f = fs_csv_field(t->csv, i);
        if (strcmp(f, "t_seconds") == 0)
            t->tcol = (int)i;
        else if (strcmp(f, t->column) == 0)
            t->vcol = (int)i;
    }
    if (t->tcol < 0 || t->vcol < 0)
        return fs_error_set(err, "%s:%ld: expected a header t_seconds,%s",
                            fs_csv_path(t->csv), fs_csv_line(t->csv),
                            t->column);
    return 0;
}

/* The current row, checked against the previous time prev. */
static int read_row(fs_spot_trace *t, double prev, double *time,
                    double *value, fs_error *err)
{
    const char *path = fs_csv_path(t->csv);
    long line = fs_csv_line(t->csv);
    if (fs_csv_nfields(t->csv) != t->ncols)   /* as the request readers */
        return fs_error_set(err, "%s:%ld: %zu fields where the header has "
                            "%zu", path, line, fs_csv_nfields(t->csv),
                            t->ncols);
    const char *vs = fs_csv_field(t->csv, (size_t)t->vcol);
    if (fs_csv_time_field(t->csv, t->tcol, prev, time, err))
        return -1;
    if (fs_csv_number(vs, value) || *value < 0)
        return fs_error_set(err, "%s:%ld: %s '%s' is not a number at least "
                            "0", path, line, t->column, vs);
    if (strcmp(t->column, "available") == 0 &&
        (*value != floor(*value) || *value > FS_SPOT_TRACE_MAX_AVAILABLE))
        return fs_error_set(err, "%s:%ld: available '%s' is not a whole "
                            "number of instances from 0 to %d", path, line,
                            vs, FS_SPOT_TRACE_MAX_AVAILABLE);
    return 0;
}

/* The checking pass over the whole file. */
static int check_all(fs_spot_trace *t, double horizon_s, fs_error *err)
{
    double prev = 0, tm, v;
    int rc;
    long last_line = 1;
    while ((rc = fs_csv_next(t->csv, err)) == 1) {
        if (read_row(t, prev, &tm, &v, err))
            return -1;
        t->step = t->rows ? tm - prev : 0;
        if (t->rows == 0 || v > t->max_v) {
            t->max_v = v;
            t->max_line = fs_csv_line(t->csv);
        }
        prev = tm;
        t->rows++;
        last_line = fs_csv_line(t->csv);
    }
    if (rc < 0)
        return -1;
    const char *path = fs_csv_path(t->csv);
    if (t->rows == 0)
        return fs_error_set(err, "%s:%ld: the trace has no rows", path,
                            last_line);
    t->last_t = prev;
    t->lap_s = prev + (t->step > 0 ? t->step : 1);
    if (!t->repeat && horizon_s > 0 && prev < horizon_s)
        return fs_error_set(err, "%s:%ld: the trace ends at %.17gs, before "
                            "the horizon (%.17gs); add repeat=yes to loop "
                            "it, or shorten the horizon", path, last_line,
                            prev, horizon_s);
    return fs_csv_rewind(t->csv, err) || bind_header(t, err) ? -1 : 0;
}

fs_spot_trace *fs_spot_trace_open(const char *path, const char *column,
                                  double horizon_s, int repeat,
                                  fs_error *err)
{
    fs_spot_trace *t = calloc(1, sizeof *t);
    if (!t) {
        fs_error_set(err, "out of memory opening %s", path);
        return NULL;
    }
    t->column = column;
    t->repeat = repeat;
    t->csv = fs_csv_open(path, err);
    if (!t->csv || bind_header(t, err) || check_all(t, horizon_s, err))
        return FS_DISCARD(fs_spot_trace_free, t);
    return t;
}

void fs_spot_trace_free(fs_spot_trace *t)
{
    if (!t)
        return;
    fs_csv_free(t->csv);
    free(t);
}

int fs_spot_trace_next(fs_spot_trace *t, double *time, double *value,
                       fs_error *err)
{
    int rc = fs_csv_next(t->csv, err);
    if (rc == 0 && t->repeat) {
        t->lap++;
        if (fs_csv_rewind(t->csv, err) || bind_header(t, err))
            return -1;
        rc = fs_csv_next(t->csv, err);
    }
    if (rc <= 0)
        return rc;
    if (read_row(t, 0, time, value, err))
        return -1;
    *time += (double)t->lap * t->lap_s;
    return 1;
}

long fs_spot_trace_rows(const fs_spot_trace *t)
{
    return t->rows;
}

double fs_spot_trace_end(const fs_spot_trace *t)
{
    return t->last_t;
}

double fs_spot_trace_lap(const fs_spot_trace *t)
{
    return t->lap_s;
}

double fs_spot_trace_max(const fs_spot_trace *t, long *line)
{
    if (line)
        *line = t->max_line;
    return t->max_v;
}

/* Lifetimes: births kept in a FIFO of start times. */
typedef struct births {
    double *t;
    size_t head, len, cap;
} births;

/* caps: of l->life and of l->censored. */
static int add_life(fs_lifetimes *l, size_t caps[2], double life,
                    int censored)
{
    double *lf = fs_vec_grow(l->life, &caps[0], l->n + 1, sizeof *lf);
    if (!lf)
        return -1;
    l->life = lf;
    unsigned char *c = fs_vec_grow(l->censored, &caps[1], l->n + 1, 1);
    if (!c)
        return -1;
    l->censored = c;
    l->life[l->n] = life;
    l->censored[l->n] = (unsigned char)censored;
    l->n++;
    l->ncensored += (size_t)censored;
    return 0;
}

int fs_spot_lifetimes(const char *path, fs_lifetimes *out, fs_error *err)
{
    memset(out, 0, sizeof *out);
    fs_spot_trace *t = fs_spot_trace_open(path, "available", 0, 0, err);
    if (!t)
        return -1;
    births b = {0};
    size_t caps[2] = {0, 0};
    double tm = 0, v, prev = 0;
    int rc = 0, oom = 0;
    while (!oom && (rc = fs_spot_trace_next(t, &tm, &v, err)) == 1) {
        long now = (long)v;
        for (long k = (long)prev; k < now && !oom; k++) {
            double *bt = fs_vec_grow(b.t, &b.cap, b.head + b.len + 1,
                                     sizeof *bt);
            if (!bt)
                oom = 1;
            else
                (b.t = bt)[b.head + b.len++] = tm;
        }
        for (long k = now; k < (long)prev && b.len && !oom; k++) {
            oom = add_life(out, caps, tm - b.t[b.head], 0);
            b.head++;
            b.len--;
            out->drops++;
        }
        prev = v;
    }
    out->span_s = tm;
    for (size_t i = 0; i < b.len && !oom; i++)
        oom = add_life(out, caps, tm - b.t[b.head + i], 1);
    free(b.t);
    fs_spot_trace_free(t);
    if (oom) {
        fs_lifetimes_free(out);
        return fs_error_set(err, "out of memory reading %s", path);
    }
    return rc < 0 ? (fs_lifetimes_free(out), -1) : 0;
}

void fs_lifetimes_free(fs_lifetimes *l)
{
    free(l->life);
    free(l->censored);
    memset(l, 0, sizeof *l);
}
