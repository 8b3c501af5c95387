/* purchase.h -- purchase options: how a pool's instances are paid for.
 *
 * The family models/purchase/ (above catalog/, beside llm/): purchase
 * options (this file), billing (billing.h), spot prices (spot_price.h) and
 * the reservation arithmetic of roi (roi.h).
 *
 * Each purchase option (on-demand, reserved, savings plan, spot)
 * is one module, models/purchase/purchase_NAME.c, behind the small table of
 * functions below, and one line in the registry (purchase.c).  The fleet
 * never asks which option a pool has: it tells the pool's option what
 * happened (an instance terminated, the horizon reached) and the option
 * charges the pool's meter through billing.h.  The scenario layer finds an
 * option by its `pricing =` name, accepts the pool keys the option declares
 * and lets the option resolve its terms from them.
 *
 * The option reads keys through fs_purchase_reader, a neutral face of the
 * scenario layer's reader, so that this layer never includes the scenario
 * layer (models/ sits below it). */
#ifndef FS_PURCHASE_H
#define FS_PURCHASE_H

#include <stddef.h>
#include "sim/base/keydoc.h"
#include "models/purchase/billing.h"
#include "models/purchase/energy.h"

/* The cost lines an option may charge beside its own (an owned pool's
 * power, colocation and maintenance): fs_purchase_option.lines. */
#define FS_PURCHASE_LINES 4

/* The catalog price columns an option prices from (fs_instance_price). */
enum {
    FS_PRICE_ON_DEMAND = 0,
    FS_PRICE_SPOT = 1,
    FS_PRICE_RESERVED_1Y = 2,
    FS_PRICE_RESERVED_3Y = 3,
};

/* What a pool pays, resolved once from its keys by its option.  The first
 * fields are what any option's bill is made of; own holds what only one
 * option needs (a savings plan's commitment and discount, a spot price
 * trace), laid out by that option's file as a struct of its own, copied in
 * and out with memcpy and checked to fit with a _Static_assert there, and
 * opaque to everyone else: an option adds terms without editing this
 * header, the scenario or the fleet. */
typedef struct fs_purchase_terms {
    double price;               /* $ per instance-hour (0: none by the hour) */
    char price_source[128];     /* "price key", "catalog aws:g5.xlarge" */
    double min_billed_s;        /* minimum billed per launch that ends */
    int term_months;            /* commitment term; 0: none */
    double upfront_usd;         /* per instance for the whole term */
    union {                     /* the option's own terms */
        unsigned char bytes[64];
        double align_d;
        void *align_p;
    } own;
} fs_purchase_terms;

/* The pool's keys, as the scenario layer reads them.  Every message names
 * the file, line and key ("s.ini:7: pool.r.upfront_price: why"). */
typedef struct fs_purchase_reader {
    void *ctx;
    /* The text of key in the pool's section, or NULL when absent. */
    const char *(*value)(void *ctx, const char *key);
    /* Refuses key's value with why (key NULL or absent: the section). -1. */
    int (*bad)(void *ctx, const char *key, const char *why);
    /* Refuses the pool: "pool.NAME: missing what". -1. */
    int (*missing)(void *ctx, const char *what);
    /* The pool's `price` key ($ per instance-hour, bounded): 1 with *usd
     * set when given, 0 when absent, -1 refused. */
    int (*price)(void *ctx, double *usd);
    /* The catalog's rate of the pool's instance type (or of the cheapest
     * one with its GPU) in a FS_PRICE_* column, per instance of the pool,
     * with where it came from in source.  -1 refused: "missing price (the
     * catalog has no ... price for ...)". */
    int (*catalog_price)(void *ctx, int column, double *usd, char *source,
                         size_t source_len);
    /* The catalog's published reserved payment option for term (0: 1
     * year, 1: 3 years) and upfront (FS_UPFRONT_*), per instance of the
     * pool: 1 with *hourly, *upfront_usd and source set when the provider
     * publishes it, 0 when the catalog lists no such option (the option
     * derives one from the no-upfront rate), -1 refused. */
    int (*catalog_reserved)(void *ctx, int term, int upfront, double *hourly,
                            double *upfront_usd, char *source,
                            size_t source_len);
    /* The catalog's published Savings Plan discount for term (0: 1 year,
     * 1: 3 years) of the pool's instance type: 1 with *discount set, 0
     * when it lists none, -1 refused. */
    int (*catalog_plan_discount)(void *ctx, int term, double *discount);
    double max_price;           /* $ per instance-hour bounding money keys */
    /* The scenario's directory, against which a relative path in a key
     * resolves (a spot price trace); NULL or "": the current one.  It
     * lives as long as the scenario, as the values do. */
    const char *base_dir;
    /* The scenario's horizon in seconds (0: unknown), for an option whose
     * terms end inside it (a reservation without renew). */
    double horizon_s;
    /* The scenario's start, seconds since the epoch (UTC), for an option
     * whose terms name a date (a capacity block's start). */
    long long start;
} fs_purchase_reader;

/* Where an option charges: a pool's meter, its calendar, and the GPUs of
 * one instance (for the GPU-hours billed). */
typedef struct fs_purchase_bill {
    fs_meter *meter;
    const fs_calendar *cal;
    int gpus;
    /* The pool's state of this option (its open's result; NULL for an
     * option without one), and where a commitment's unused part is
     * charged (its cost rows say PRICING-unused; NULL: nowhere). */
    void *state;
    fs_meter *unused;
    /* Where a commitment's instances still running after its term are
     * billed at the on-demand rate (its cost rows say on-demand, FOCUS
     * PricingCategory Standard; NULL: nowhere). */
    fs_meter *after_term;
    /* The option's own cost lines (fs_purchase_option.lines), one meter
     * each; NULL: none. */
    fs_meter *lines;
    /* One GPU's power (gpus.csv), and at the horizon (finish) the pool's
     * GPU-hours provisioned and busy over the run (0 before). */
    double tdp_w, idle_w;
    double gpu_hours, busy_gpu_hours;
} fs_purchase_bill;

/* What an option commits to before any instance runs. */
typedef enum fs_commitment {
    FS_COMMIT_NONE = 0,     /* paid as used (on demand, spot) */
    FS_COMMIT_COUNT,        /* a count of instances for a term (reserved) */
    FS_COMMIT_SPEND,        /* dollars an hour for a term (savings plan) */
} fs_commitment;

typedef struct fs_purchase_option {
    const char *name;             /* the `pricing =` value: "reserved" */
    /* What the reports, roi, plan and the summary ask of an option, so
     * that none of them compares its name: */
    fs_commitment commitment;
    int interruptible;      /* the provider takes instances back (spot) */
    /* billed at the list price: the on-demand baseline roi, plan and the
     * FOCUS export compare a commitment with */
    int list_priced;
    /* roi reads the pool's own hourly price as its on-demand rate (a
     * savings plan's pool stores the on-demand rate it discounts) */
    int roi_own_rate;
    /* a pool of it, in words, after "already": "reserved" */
    const char *label;
    const char *focus_category;   /* FOCUS 1.2 PricingCategory: "Committed" */
    /* A pool's bill paid this way, in words, for the reports that set it
     * beside a reservation: "all on demand", "all on spot, as paid". */
    const char *bill_label;
    const fs_key_doc *keys;       /* pool keys it reads; NULL-name ended */
    /* The cost lines it charges beside its own rows, each a suffix of its
     * name in the cost rows ("-power": rows priced "owned-power"); NULL
     * ends them. */
    const char *lines[FS_PURCHASE_LINES + 1];
    /* Optional.  The facility around the pool's GPUs (host_share, pue of
     * energy.h) as the option's terms know it; NULL: the GPUs alone at
     * PUE 1 (a cloud's, not known). */
    void (*facility)(const fs_purchase_terms *t, fs_energy_model *e);
    /* NULL when a pool of this option may autoscale; else why it may not
     * ("reserved pools have a fixed count; ..."). */
    const char *fixed_count;

    /* Reads the option's keys, the price key and, without it, the catalog
     * into *t (zeroed by the caller).  0, or -1 with the message set. */
    int (*resolve)(const fs_purchase_reader *rd, fs_purchase_terms *t);
    /* A launch at t0 ended at t1 (a termination before the horizon). */
    void (*terminate)(const fs_purchase_terms *t, const fs_purchase_bill *b,
                      double t0, double t1);
    /* Optional.  A launch at t0 still up at the horizon: the horizon cuts
     * its bill.  NULL: billed as a termination at the horizon (the
     * options without a minimum per launch). */
    void (*cut)(const fs_purchase_terms *t, const fs_purchase_bill *b,
                double t0);
    /* Optional.  The horizon: what the pool owes whatever its instances
     * did, for its count instances (a reservation's every hour and
     * upfront).  NULL: nothing (every charge is per launch). */
    void (*finish)(const fs_purchase_terms *t, const fs_purchase_bill *b,
                   long count);
    /* Optional (NULL: no state).  The state an option keeps for one pool
     * through one run (a savings plan's usage hour by hour), made when the
     * pool is built, once, so that no event allocates: NULL when out of
     * memory.  finish is called after every cut; close frees it. */
    void *(*open)(const fs_purchase_terms *t, const fs_calendar *cal);
    void (*close)(void *state);
    /* Optional (NULL: the instances exist whenever the pool wants them).
     * The windows the pool's instances exist in (a capacity block): up to
     * max [open[i], close[i]) in seconds from the start, in order; the
     * fleet starts the pool's count instances at each open and the
     * provider takes them back at each close, work and all.  Returns how
     * many. */
    int (*windows)(const fs_purchase_terms *t, double *open, double *close,
                   int max);
    /* Optional.  The on-demand list rate per instance-hour of the pool's
     * instance type, which an option priced otherwise sets beside its own
     * for the run's comparison (0: unknown). */
    double (*list_rate)(const fs_purchase_terms *t);
} fs_purchase_option;

/* The registry, in the order `fleetsim help` lists them; NULL-ended. */
extern const fs_purchase_option *const fs_purchase_options[];

/* The first registered option that commits so (FS_COMMIT_NONE: the one
 * billed at list price, on demand); NULL when none. */
const fs_purchase_option *fs_purchase_committing(fs_commitment kind);
/* The first registered option the provider may interrupt; NULL: none. */
const fs_purchase_option *fs_purchase_interruptible(void);

/* The words of a catalog price column (FS_PRICE_*) in messages ("the
 * catalog has no spot price"): the list-priced option's name for the
 * on-demand column, the interruptible option's for the spot column, the
 * term for the reserved ones. */
const char *fs_purchase_column_words(int column);

/* The option named name (case-insensitive, as other choices), or NULL. */
const fs_purchase_option *fs_purchase_find(const char *name);
/* Why name is no option: one of the contract's options this version does
 * not implement yet, or the nearest registered name. */
void fs_purchase_why_unknown(const char *name, char *why, size_t len);
/* Whether option o declares key. */
int fs_purchase_has_key(const fs_purchase_option *o, const char *key);
/* Writes "reserved" or "on-demand and spot": the options declaring key
 * (0 when none does). */
int fs_purchase_key_owners(const char *key, char *buf, size_t len);

/* The horizon cuts a launch at t0 (o's cut, else its terminate at the
 * horizon); then the pool owes o's finish, if any. */
void fs_purchase_cut(const fs_purchase_option *o, const fs_purchase_terms *t,
                     const fs_purchase_bill *b, double t0);
void fs_purchase_finish(const fs_purchase_option *o,
                        const fs_purchase_terms *t, const fs_purchase_bill *b,
                        long count);

/* The hourly rate of an option that sells by the hour: the pool's `price`
 * key ("price key"), else the catalog's rate in column (FS_PRICE_*).  0, or
 * -1 refused. */
int fs_purchase_read_price(const fs_purchase_reader *rd, int column,
                           fs_purchase_terms *t);

/* Typed reads for an option's resolve, with the messages of the scenario
 * layer's readers: def when the key is absent; -1 refused. */
int fs_purchase_read_duration(const fs_purchase_reader *rd, const char *key,
                              double def, double *out);
int fs_purchase_read_choice(const fs_purchase_reader *rd, const char *key,
                            const char *const *words, int def, int *out);
/* A money key at most max ("at most BOUND, got 'V'"); absent: 0. */
int fs_purchase_read_money(const fs_purchase_reader *rd, const char *key,
                           double max, const char *bound, double *out);
/* A number from lo to hi ("expected a number from LO to HI, got 'V'"):
 * 1 when given, 0 when absent (*out untouched), -1 refused. */
int fs_purchase_read_number(const fs_purchase_reader *rd, const char *key,
                            double lo, double hi, double *out);

/* The energy model of a pool of option o with terms t and a GPU of tdp_w
 * and idle_w: the option's facility, else the GPUs alone at PUE 1. */
void fs_purchase_energy_model(const fs_purchase_option *o,
                              const fs_purchase_terms *t, double tdp_w,
                              double idle_w, fs_energy_model *e);

/* Whether a reserved pool's terms renew at the term's end (renew = yes);
 * 0 for any other option's terms only when read through this. */
int fs_reserved_renews(const fs_purchase_terms *t);

#endif
