/* spot_price.c -- spot price traces as step functions (spot_price.h). */
#include "models/purchase/spot_price.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim/base/csvin.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

static int header(fs_csv *r, int *tc, int *pc, fs_error *err)
{
    int rc = fs_csv_next(r, err);
    if (rc <= 0)
        return rc < 0 ? -1 : fs_error_set(err, "%s:1: empty price trace "
                                          "(expected a header t_seconds,"
                                          "price)", fs_csv_path(r));
    *tc = *pc = -1;
    for (size_t i = 0; i < fs_csv_nfields(r); i++) {
        if (strcmp(fs_csv_field(r, i), "t_seconds") == 0)
            *tc = (int)i;
        else if (strcmp(fs_csv_field(r, i), "price") == 0)
            *pc = (int)i;
    }
    if (*tc < 0 || *pc < 0)
        return fs_error_set(err, "%s:%ld: expected a header t_seconds,price",
                            fs_csv_path(r), fs_csv_line(r));
    return 0;
}

/* caps: of sp->t and of sp->usd. */
static int add(fs_spot_price *sp, size_t caps[2], double t, double usd)
{
    double *a = fs_vec_grow(sp->t, &caps[0], sp->n + 1, sizeof *a);
    if (!a)
        return -1;
    sp->t = a;
    double *b = fs_vec_grow(sp->usd, &caps[1], sp->n + 1, sizeof *b);
    if (!b)
        return -1;
    sp->usd = b;
    sp->t[sp->n] = t;
    sp->usd[sp->n++] = usd;
    return 0;
}

/* The current row, checked. */
static int row(fs_csv *r, int tc, int pc, double prev, double max_price,
               double *t, double *usd, fs_error *err)
{
    const char *ps = fs_csv_field(r, (size_t)pc);
    if (fs_csv_time_field(r, tc, prev, t, err))
        return -1;
    if (fs_csv_number(ps, usd) || *usd < 0 || *usd > max_price)
        return fs_error_set(err, "%s:%ld: price '%s' is not a number of $ "
                            "per instance-hour from 0 to %g", fs_csv_path(r),
                            fs_csv_line(r), ps, max_price);
    return 0;
}

int fs_spot_price_load(const char *path, double max_price, fs_spot_price *sp,
                       fs_error *err)
{
    memset(sp, 0, sizeof *sp);
    fs_csv *r = fs_csv_open(path, err);
    if (!r)
        return -1;
    int tc = 0, pc = 0, rc;
    size_t caps[2] = {0, 0};
    double prev = 0, t = 0, usd = 0;
    if (header(r, &tc, &pc, err)) {
        fs_csv_free(r);
        return -1;
    }
    size_t ncols = fs_csv_nfields(r);
    while ((rc = fs_csv_next(r, err)) == 1) {
        if (fs_csv_nfields(r) != ncols) {     /* as the request readers */
            rc = fs_error_set(err, "%s:%ld: %zu fields where the header has "
                              "%zu", path, fs_csv_line(r), fs_csv_nfields(r),
                              ncols);
            break;
        }
        if (row(r, tc, pc, prev, max_price, &t, &usd, err))
            break;
        if (sp->n == FS_SPOT_PRICE_MAX_ROWS) {
            rc = fs_error_set(err, "%s:%ld: more than %d price changes",
                              path, fs_csv_line(r), FS_SPOT_PRICE_MAX_ROWS);
            break;
        }
        if (add(sp, caps, t, usd)) {
            rc = fs_error_set(err, "out of memory reading %s", path);
            break;
        }
        prev = t;
    }
    if (rc == 0 && sp->n == 0)
        rc = fs_error_set(err, "%s:%ld: the price trace has no rows", path,
                          fs_csv_line(r));
    fs_csv_free(r);
    if (rc != 0) {
        fs_spot_price_free(sp);
        return -1;
    }
    return 0;
}

void fs_spot_price_free(fs_spot_price *sp)
{
    FS_FREE_ALL(sp->t, sp->usd);
    memset(sp, 0, sizeof *sp);
}

/* The index of the change in force at t (the first before any). */
static size_t in_force(const fs_spot_price *sp, double t)
{
    size_t lo = 0, hi = sp->n;          /* last i with t[i] <= t */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (sp->t[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double fs_spot_price_at(const fs_spot_price *sp, double t)
{
    return sp->usd[in_force(sp, t)];
}

double fs_spot_price_mean(const fs_spot_price *sp, double horizon_s)
{
    if (!(horizon_s > 0))
        return sp->usd[0];
    double sum = 0;
    for (size_t i = in_force(sp, 0); i < sp->n; i++) {
        double a = i == 0 || sp->t[i] < 0 ? 0 : sp->t[i];
        double b = i + 1 < sp->n ? sp->t[i + 1] : horizon_s;
        if (a >= horizon_s)
            break;
        if (b > horizon_s)
            b = horizon_s;
        if (b > a)
            sum += (b - a) * sp->usd[i];
    }
    return sum / horizon_s;
}

void fs_spot_price_bill(const fs_spot_price *sp, fs_meter *m,
                        const fs_calendar *cal, double t0, double t1,
                        int gpus)
{
    for (size_t i = in_force(sp, t0); i < sp->n && t0 < t1; i++) {
        double end = i + 1 < sp->n && sp->t[i + 1] < t1 ? sp->t[i + 1] : t1;
        if (end > t0)
            fs_bill_on_demand(m, cal, t0, end, sp->usd[i], gpus, 0);
        t0 = end;
    }
}
