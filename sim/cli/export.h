/* export.h -- what `fleetsim export` reads of a run and derives from it.
 *
 * export_read.c reads a run's pools, monthly costs and utilization from
 * the results database; export_rows.c cuts its horizon into charge periods
 * (hours or days, never across a calendar month) and spreads each pool's
 * monthly cost over them exactly, to the cent; cmd_export.c writes the
 * rows as FOCUS 1.2 or as plain CSV. */
#ifndef FS_EXPORT_H
#define FS_EXPORT_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "sim/base/error.h"
#include "sim/base/names.h"
#include "sim/base/tags.h"
#include "models/billing.h"

struct sqlite3;

typedef struct fs_export_util {
    double t;               /* end of the sample's interval */
    double gpus, busy;      /* time averages over it */
} fs_export_util;

typedef struct fs_export_pool {
    char name[FS_NAME_MAX];
    char gpu[32], pricing[16], instance_type[96], tags[FS_TAGS_MAX];
    double price_usd_h, upfront_usd;
    int term_months;
    long instances;
    long long *cents;             /* cost_monthly per calendar month */
    fs_export_util *util;
    size_t nutil, util_cap;
} fs_export_pool;

typedef struct fs_export_run {
    long id;
    char name[FS_NAME_MAX];
    time_t start;                 /* scenario start, UTC */
    fs_calendar cal;
    fs_export_pool *pools;
    size_t npools, pools_cap;
} fs_export_run;

/* Reads run run_id; 0, or -1 with err set.  fs_export_free is safe after
 * a failure. */
int fs_export_read(struct sqlite3 *db, long run_id, fs_export_run *r,
                   fs_error *err);
void fs_export_free(fs_export_run *r);

/* One charge period of one pool. */
typedef struct fs_export_row {
    const fs_export_run *run;
    const fs_export_pool *pool;
    size_t month;
    double t0, t1;                /* seconds from the start */
    double gpu_hours, busy_gpu_hours;
    long long billed_cents;       /* excludes the amortized upfront */
    long long amortized_cents;    /* the upfront's share */
    int purchase;                 /* a reservation's upfront payment */
} fs_export_row;

typedef int (*fs_export_emit)(void *ctx, const fs_export_row *row);

/* Calls emit for every row of r, period by period (period seconds: 3600
 * or 86400), pools in order within a month; a reservation's upfront
 * payment is one purchase row before its first usage row.  The rows of a
 * pool-month add up to its cost_monthly row to the cent (effective cost),
 * and their billed cost to it less the upfront's share.  -1 when emit
 * fails or memory runs out. */
int fs_export_rows(const fs_export_run *r, double period, fs_export_emit emit,
                   void *ctx);

#endif
