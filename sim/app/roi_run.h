/* roi_run.h -- one run's reservation recommendation per pool, as
 * `fleetsim roi` computes it (roi_run.c), for any command to call:
 * `fleetsim roi` prints it, `fleetsim report` tabulates it. */
#ifndef FS_ROI_RUN_H
#define FS_ROI_RUN_H

#include <stddef.h>

#include "sim/base/error.h"
#include "models/purchase/roi.h"
#include "sim/store/store.h"

/* One pool's recommendation, what `fleetsim roi` prints (roi_out.h). */
typedef struct fs_roi_row {
    char pool[256];
    char gpu[64];
    const char *term;        /* "1y" | "3y" */
    const char *upfront;     /* "none" | "partial" | "all" */
    int plan;                /* a savings plan (commitment) */
    double discount;         /* the plan's discount */
    double on_demand_usd_h;  /* the prices it used, and where from */
    double reserved_usd_h;
    double reserved_hourly;  /* its parts per instance: recurring $ an */
    double reserved_upfront; /* hour, upfront $ for the term (commit) */
    char price_source[256];
    const char *rate_basis;  /* the reserved rate: "quote", "published",
                                "derived"; the plan's discount: "--discount",
                                "published", "reserved discount" */
    int vs_spot;             /* a spot pool: the alternative is its spot
                                bill as paid, not on demand */
    double hours;            /* demand hours it sized against */
    double span_h;           /* their length (a last partial hour counts
                                its part) */
    double baseline_usd;     /* those hours' launched instance-hours
                                (provisioning included) all on demand, or
                                on a spot pool as paid: not a run rate */
    double billed_usd;       /* what the run billed the pool over the
                                whole run (cost_monthly); NaN with a
                                --lookback shorter than the run */
    int billed_is_baseline;  /* an on-demand or spot pool: its bill is the
                                baseline (equal to the cent but for
                                minimum charges per launch) */
    fs_roi_result r;
} fs_roi_row;

/* A rate the user quotes (--rate TERM:OPTION=PRICE): per instance of the
 * pool, the hourly rate and the upfront payment for the whole term. */
typedef struct fs_roi_quote {
    int set;
    int from_pool;          /* a scenario's reserved_* key, not --rate */
    double hourly, upfront;
} fs_roi_quote;

typedef struct fs_roi_query {
    const char *pool;       /* NULL: every pool of the run */
    int term_months;        /* 12 or 36 */
    int upfront_kind;       /* 0 none, 1 partial, 2 all */
    int plan;               /* a savings plan instead of reserved instances */
    double plan_discount;   /* the plan's discount, NaN: the catalog's */
    double rate;            /* yearly discount rate for the NPV */
    double lookback_s;      /* <= 0: the whole run */
    int coarse_as_note;     /* metrics_interval over 1 h: a note, no error */
    /* Quotes by [term: 0 1y, 1 3y][upfront kind]: taken before the
     * catalog's rates (all unset by fs_roi_query_default). */
    fs_roi_quote quote[2][3];
} fs_roi_query;

/* Reads one --rate value, "1y:none=2.10/h", "3y:all=40000" or
 * "1y:partial=6000+0.70/h", into q->quote: 0, or -1 with why. */
int fs_roi_parse_rate(const char *arg, fs_roi_query *q, char *why,
                      size_t len);

/* One pool: its recommendation (ok), or why not (note). */
typedef struct fs_roi_pool {
    fs_roi_row row;
    int ok;
    int not_sold;   /* skipped because the provider does not sell the
                       term and upfront option asked (an answer, not a
                       failure) */
    char note[512];
} fs_roi_pool;

/* The defaults: 1-year term, no upfront, whole run, 8% a year. */
void fs_roi_query_default(fs_roi_query *q);

/* The catalog's GPUs and instances (fs_catalog_default_dir): NULL with
 * err. */
struct fs_catalog;
struct fs_catalog *fs_roi_catalog_load(fs_error *err);

/* The run's horizon in seconds: 0, or -1 with err. */
int fs_roi_run_horizon(fs_store *s, long run, double *horizon,
                       fs_error *err);

/* Each pool of run (or q->pool) in the order stored, in (*out)[0..*n)
 * (free it); *n is 0 when the run has no such pool.  0, or -1 with err
 * (a sample longer than an hour, unless q->coarse_as_note). */
int fs_roi_for_run(fs_store *s, long run, const fs_roi_query *q,
                   fs_roi_pool **out, size_t *n, fs_error *err);

#endif
