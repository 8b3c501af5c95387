/* purchase_capacity_block.c -- GPU capacity booked ahead for a window: an
 * AWS EC2 Capacity Block for ML, or a GCP calendar-mode (future)
 * reservation.
 *
 * A block is a count of instances for a fixed window, [start, start +
 * length), paid for the whole window whether its instances are used or
 * not (AWS charges the reservation fee up front when the block is
 * bought); the instances exist only inside it, and the provider takes them
 * back at its end, work and all ("Thirty minutes before the reservation
 * expires, we begin to terminate any instances that are still running",
 * AWS EC2 User Guide; the model takes them at the end itself).  So the
 * option bills count x length x price per block in finish, nothing per
 * launch, and tells the fleet its windows (fs_purchase_option.windows):
 * sim/fleet/pool/block.c starts the pool's instances at each opening and
 * interrupts them at each close, and a training job waits in its queue
 * for the next opening.
 *
 * The price per instance-hour is the pool's `price` key (a quote), else
 * the provider's published rate for the pool's instance type from
 * models/catalog/capacity_blocks.csv.  A pool may hold up to
 * FS_BLOCKS_MAX blocks of one length, which may not overlap (one
 * reservation per window: two overlapping blocks of the same instances
 * are one block of twice the count, a pool of its own). */
#include "models/purchase/purchase.h"

#include <stdio.h>
#include <string.h>
#include "models/catalog/catalog.h"
#include "models/catalog/catalog_blocks.h"
#include "sim/base/grammar.h"

#define FS_BLOCKS_MAX 4

static const fs_key_doc block_keys[] = {
    {"block_start", "DATE[ HH:MM] or duration, ...", NULL,
     "when each block opens: a UTC date and time (AWS blocks start at "
     "11:30 UTC) or a duration from the run's start; up to 4, not "
     "overlapping, inside the run (required)"},
    {"block_length", "duration, above 0", NULL,
     "how long each block lasts (AWS: 1 to 14 days, then 7-day steps); "
     "its instances exist only inside it and are billed for all of it "
     "(required)"},
    {NULL, NULL, NULL, NULL},
};

/* The block's own terms (fs_purchase_terms.own). */
typedef struct block_terms {
    double start[FS_BLOCKS_MAX]; /* seconds from the run's start */
    double length;               /* seconds, each block */
    double on_demand;            /* the catalog's list rate, for the
                                    summary's comparison; 0: unknown */
    int n;
} block_terms;
_Static_assert(sizeof(block_terms) <= sizeof(((fs_purchase_terms *)0)->own),
               "block terms fit fs_purchase_terms.own");

/* One opening: a UTC date (checked against the run's start) or a
 * duration from the start. */
static int read_one_start(const fs_purchase_reader *rd, const char *v,
                          double *at)
{
    char why[400];
    long long t;
    if (strchr(v, '-') && fs_parse_utc_time(v, &t, why, sizeof why) == 0) {
        if (t < rd->start) {
            snprintf(why, sizeof why, "'%s' is in the past of the run (it "
                     "starts %.1f h later): a block must open at or after "
                     "the scenario's start", v, (double)(rd->start - t) /
                     3600);
            return rd->bad(rd->ctx, "block_start", why);
        }
        *at = (double)(t - rd->start);
        return 0;
    }
    if (strchr(v, '-'))
        return rd->bad(rd->ctx, "block_start", why);
    if (fs_parse_duration(v, at, why, sizeof why))
        return rd->bad(rd->ctx, "block_start", why);
    return 0;
}

/* block_start's comma-separated openings, in order. */
static int read_starts(const fs_purchase_reader *rd, block_terms *b)
{
    const char *v = rd->value(rd->ctx, "block_start");
    if (!v)
        return rd->missing(rd->ctx, "block_start (when the capacity block "
                           "opens: a UTC date YYYY-MM-DD HH:MM or a "
                           "duration from the start)");
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", v);
    for (char *one = strtok_r(buf, ",", &save); one;
         one = strtok_r(NULL, ",", &save)) {
        while (*one == ' ')
            one++;
        for (char *e = one + strlen(one); e > one && e[-1] == ' '; e--)
            e[-1] = '\0';
        double at;
        if (b->n == FS_BLOCKS_MAX)
            return rd->bad(rd->ctx, "block_start", "at most 4 blocks a "
                           "pool: put more in another pool");
        if (read_one_start(rd, one, &at))
            return -1;
        b->start[b->n++] = at;
    }
    if (b->n == 0)
        return rd->bad(rd->ctx, "block_start", "expected at least one "
                       "opening");
    return 0;
}

/* Each block inside the horizon, after the one before it ends. */
static int check_blocks(const fs_purchase_reader *rd, const block_terms *b)
{
    char why[400];
    for (int i = 0; i < b->n; i++) {
        double end = b->start[i] + b->length;
        if (rd->horizon_s > 0 && end > rd->horizon_s) {
            snprintf(why, sizeof why, "block %d ends %.1f h after the "
                     "start, past the horizon (%.1f h): the run would not "
                     "see its end; lengthen horizon or move the block", i + 1,
                     end / 3600, rd->horizon_s / 3600);
            return rd->bad(rd->ctx, "block_start", why);
        }
        if (i > 0 && b->start[i] < b->start[i - 1] + b->length) {
            snprintf(why, sizeof why, "block %d opens before block %d ends "
                     "(blocks of a pool may not overlap, and are listed in "
                     "order): one block of more instances is a pool of its "
                     "own", i + 1, i);
            return rd->bad(rd->ctx, "block_start", why);
        }
    }
    return 0;
}

/* The price key, else the published rate of the pool's instance type. */
static int read_block_price(const fs_purchase_reader *rd,
                            fs_purchase_terms *t)
{
    int given = rd->price(rd->ctx, &t->price);
    if (given)
        return given < 0 ? -1 : 0;
    snprintf(t->price_source, sizeof t->price_source, "price key");
    const char *inst = rd->value(rd->ctx, "instance");
    char path[1024];
    fs_error err;
    snprintf(path, sizeof path, "%s/capacity_blocks.csv",
             fs_catalog_default_dir());
    int rc = inst ? fs_catalog_block_price(path, inst, &t->price,
                                           t->price_source,
                                           sizeof t->price_source, &err)
                  : 0;
    if (rc < 0)
        return rd->bad(rd->ctx, "instance", err.msg);
    if (rc == 0)
        return rd->missing(rd->ctx, "price (the catalog's "
                           "capacity_blocks.csv has no published block "
                           "price for this pool's instance; give the "
                           "quote: price = $ per instance-hour)");
    return 0;
}

static int block_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    block_terms b = {0};
    char why[300];
    if (rd->value(rd->ctx, "schedule"))
        return rd->bad(rd->ctx, "schedule", "a capacity block's windows "
                       "are its blocks (block_start, block_length): remove "
                       "schedule");
    const char *lv = rd->value(rd->ctx, "block_length");
    if (!lv)
        return rd->missing(rd->ctx, "block_length (how long the capacity "
                           "block lasts, e.g. 7d)");
    if (fs_parse_duration(lv, &b.length, why, sizeof why))
        return rd->bad(rd->ctx, "block_length", why);
    if (!(b.length > 0))
        return rd->bad(rd->ctx, "block_length", "a block lasts more than "
                       "0 s");
    if (read_starts(rd, &b) || check_blocks(rd, &b) ||
        read_block_price(rd, t))
        return -1;
    /* the list rate for the summary's comparison; none is no error */
    char source[128];
    if (rd->value(rd->ctx, "instance") &&
        rd->catalog_price(rd->ctx, FS_PRICE_ON_DEMAND, &b.on_demand, source,
                          sizeof source))
        b.on_demand = 0;
    memcpy(t->own.bytes, &b, sizeof b);
    return 0;
}

/* The block's own terms, out of t. */
static block_terms own_terms(const fs_purchase_terms *t)
{
    block_terms k;
    memcpy(&k, t->own.bytes, sizeof k);
    return k;
}

/* Nothing per launch: the block is paid as such (finish). */
static void block_terminate(const fs_purchase_terms *t,
                            const fs_purchase_bill *b, double t0, double t1)
{
    (void)t, (void)b, (void)t0, (void)t1;
}

/* Every second of every block for count instances, used or not. */
static void block_finish(const fs_purchase_terms *t,
                         const fs_purchase_bill *b, long count)
{
    block_terms k = own_terms(t);
    for (int i = 0; i < k.n; i++)
        fs_meter_charge_span(b->meter, b->cal, k.start[i],
                             k.start[i] + k.length, t->price * (double)count,
                             b->gpus * (int)count);
}

static int block_windows(const fs_purchase_terms *t, double *open,
                         double *close, int max)
{
    block_terms k = own_terms(t);
    int n = k.n < max ? k.n : max;
    for (int i = 0; i < n; i++) {
        open[i] = k.start[i];
        close[i] = k.start[i] + k.length;
    }
    return n;
}

static double block_list_rate(const fs_purchase_terms *t)
{
    return own_terms(t).on_demand;
}

const fs_purchase_option fs_purchase_capacity_block = {
    .name = "capacity-block", .commitment = FS_COMMIT_NONE,
    .label = "on a capacity block",
    /* FOCUS 1.2 PricingCategory: no commitment discount off a list price
     * (Committed would make the export write CommitmentDiscount columns)
     * nor a market price (Dynamic): a block's own fixed price */
    .focus_category = "Other",
    .bill_label = "all on capacity blocks (paid whole)", .keys = block_keys,
    .fixed_count = "a capacity block is a fixed count of instances for its "
                   "window; autoscale an on-demand pool beside it",
    /* billed as such, nothing per launch; the fleet asks its windows */
    .resolve = block_resolve, .terminate = block_terminate,
    .finish = block_finish, .windows = block_windows,
    .list_rate = block_list_rate,
};
