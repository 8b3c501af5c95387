/* spot_price.h -- a spot price trace, `t_seconds,price` ($ per
 * instance-hour from t_seconds on), as a step function that bills an
 * instance's life at the price in force each second.
 *
 * Read with libcsv (sim/base/csvin.h) a row at a time and checked: a
 * header naming t_seconds and price, times numbers at least 0 and never
 * decreasing, prices numbers from 0 to max_price; every refusal names
 * "path:line".  Before the first row the first price holds; after the
 * last row the last one does (a price is in force until it changes). */
#ifndef FS_SPOT_PRICE_H
#define FS_SPOT_PRICE_H

#include <stddef.h>
#include "models/purchase/billing.h"
#include "sim/base/error.h"

/* The most rows a price trace may hold (kept in memory, 16 bytes each). */
#define FS_SPOT_PRICE_MAX_ROWS 10000000

typedef struct fs_spot_price {
    double *t, *usd;          /* n change points */
    size_t n;
} fs_spot_price;

/* Reads path into *sp (zeroed first).  0, or -1 with "path:line: why". */
int fs_spot_price_load(const char *path, double max_price, fs_spot_price *sp,
                       fs_error *err);
void fs_spot_price_free(fs_spot_price *sp);

/* The price in force at time t. */
double fs_spot_price_at(const fs_spot_price *sp, double t);
/* The time-weighted mean price over [0, horizon_s]. */
double fs_spot_price_mean(const fs_spot_price *sp, double horizon_s);

/* Bills one instance's life [t0, t1) on meter, segment by segment at the
 * price in force, per second and with no minimum. */
void fs_spot_price_bill(const fs_spot_price *sp, fs_meter *m,
                        const fs_calendar *cal, double t0, double t1,
                        int gpus);

#endif
