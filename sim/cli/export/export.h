/* export.h -- what `fleetsim export` reads of a run and derives from it.
 *
 * export_read.c reads a run's pools, prices, monthly costs and
 * utilization from the results database; export_rows.c cuts its horizon
 * into charge periods (hours or days, never across a calendar month) and
 * spreads each pool's monthly cost, unused commitment and list cost over
 * them exactly, to the cent; export_focus.c writes the rows as FOCUS 1.2
 * and cmd_export.c as plain CSV. */
#ifndef FS_EXPORT_H
#define FS_EXPORT_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "sim/base/error.h"
#include "sim/base/names.h"
#include "sim/base/tags.h"
#include "models/purchase/billing.h"

typedef struct fs_export_util {
    double t;               /* end of the sample's interval */
    double gpus, busy;      /* time averages over it */
} fs_export_util;

typedef struct fs_export_pool {
    char name[FS_NAME_MAX];
    char gpu[32], pricing[32], instance_type[96], tags[FS_TAGS_MAX];
    double price_usd_h, upfront_usd;
    int term_months, renew;       /* renew: each term is bought again */
    long instances;
    /* schema 6 (0 when unknown): the on-demand list price, a commitment's
     * rate per instance-hour and $ an hour, GPUs per instance */
    double list_usd_h, contracted_usd_h, commitment_usd_h;
    long gpus_per_instance;
    const char *category;         /* FOCUS PricingCategory of its option */
    long long list_cents;         /* its list cost (store_savings.c) */
    int has_list;
    long long *cents;             /* cost_monthly per calendar month */
    long long *unused_cents;      /* its PRICING-unused rows per month */
    long long *after_cents;       /* a commitment's on-demand rows after
                                     its term, per month (while read: the
                                     reader moves them to a pool of their
                                     own, priced on demand) */
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

struct fs_store;
/* Reads run run_id; 0, or -1 with err set.  fs_export_free is safe after
 * a failure.  A reservation whose term ended inside the horizon without
 * renew is two pools: the reservation, to its term's end, and its
 * instances after it at the on-demand rate (PricingCategory Standard),
 * each with its own utilization and list cost. */
int fs_export_read(struct fs_store *s, long run_id, fs_export_run *r,
                   fs_error *err);
void fs_export_free(fs_export_run *r);

/* What a row is. */
typedef enum fs_export_kind {
    FS_EXPORT_USAGE,        /* usage, a commitment's used part */
    FS_EXPORT_UNUSED,       /* a commitment's unused part */
    FS_EXPORT_PURCHASE,     /* a reservation's upfront payment, one at
                               each term's start (renew = yes) */
} fs_export_kind;

/* One charge period of one pool (or of its unused commitment). */
typedef struct fs_export_row {
    const fs_export_run *run;
    const fs_export_pool *pool;
    size_t month;
    double t0, t1;                /* seconds from the start */
    fs_export_kind kind;
    double gpu_hours, busy_gpu_hours;
    double quantity;              /* PricingQuantity: instance-hours, or
                                     $ of a spend commitment left unused */
    double commit_quantity;       /* CommitmentDiscountQuantity, NaN: none */
    long long billed_cents;       /* as billed (an upfront in its row) */
    long long effective_cents;    /* amortized */
    long long list_cents;         /* at the on-demand list price */
    long long amortized_cents;    /* the upfront's share in effective */
} fs_export_row;

/* A commitment with a term (a reservation) counts instance-hours; one
 * without (a savings plan) counts dollars of spend. */
int fs_export_is_committed(const fs_export_pool *p);
int fs_export_spend_based(const fs_export_pool *p);

typedef int (*fs_export_emit)(void *ctx, const fs_export_row *row);

/* Calls emit for every row of r, period by period (period seconds: 3600
 * or 86400), pools in order within a month; a reservation's upfront
 * payment is a purchase row in the charge period each term starts (once,
 * or at every term's start with renew), before that month's usage rows.  The rows of a
 * pool-month add up to its cost_monthly rows to the cent (effective cost;
 * the unused rows to its PRICING-unused row), their billed cost to it
 * less the upfront's share, and a pool's list cost to its list_cents.
 * -1 when emit fails or memory runs out. */
int fs_export_rows(const fs_export_run *r, double period, fs_export_emit emit,
                   void *ctx);

/* One cost beside the GPU hour (cost_extra): a workload's checkpoints on
 * a pool in a calendar month, stored or moved, over that month's part of
 * the horizon [t0, t1). */
typedef struct fs_export_extra {
    char month[12], pool[FS_NAME_MAX], workload[FS_NAME_MAX];
    char category[16], item[32], unit[16], instance_type[96];
    char tags[FS_TAGS_JSON_MAX];
    long count;
    double quantity, unit_price, t0, t1;
    long long cents;
} fs_export_extra;
typedef int (*fs_export_extra_emit)(void *ctx, const fs_export_run *r,
                                    const fs_export_extra *x);
/* Reads run r's cost_extra rows and calls emit with each (export_read.c).
 * 0, or -1 with err set (emit's failure: "cannot write"). */
int fs_export_extras(struct fs_store *s, const fs_export_run *r,
                     fs_export_extra_emit emit, void *ctx, fs_error *err);
/* One as a FOCUS 1.2 row: ServiceCategory Storage or Networking, Usage,
 * PricingUnit GB-Month or GB at the published unit price. */
int fs_export_write_focus_extra(FILE *f, const fs_export_run *r,
                                const fs_export_extra *x);

/* FOCUS 1.2 (export_focus.c; its columns: sim/app/focus.h): one row.
 * 0, or -1 when out of memory. */
int fs_export_write_focus(FILE *f, const fs_export_row *row);

#endif
