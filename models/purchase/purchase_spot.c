/* purchase_spot.c -- spot instances: paid per second at the spot price
 * while they run, nothing after the provider takes them (FOCUS
 * PricingCategory "Dynamic").
 *
 * No minimum per launch: a spot instance in fleetsim ends only when it is
 * interrupted or at the horizon, and an interrupted instance costs the
 * seconds it ran (AWS bills per-second spot instances for the seconds
 * used; GCP's spot VMs likewise).  The price is the `price` key, else the
 * catalog's spot column, or a price trace (`price_trace = FILE`,
 * t_seconds,price; models/purchase/spot_price.h), checked when the scenario is read
 * and loaded when the pool is built: each life is then billed segment by
 * segment at the price in force.
 *
 * The keys below are declared here so that they are accepted on spot
 * pools only and documented with them; the interruption model, notice,
 * replacement and fallback are read by the scenario (scenario_spot.c) and
 * acted on by the fleet (sim/fleet/pool/spot.c), not billed here. */
#include "models/purchase/purchase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/purchase/spot_price.h"

/* The option's own terms: the price trace key's value and the directory
 * it resolves against, both owned by the scenario (NULL: a constant
 * price). */
typedef struct spot_terms {
    const char *trace;
    const char *dir;
} spot_terms;

_Static_assert(sizeof(spot_terms) <= sizeof(((fs_purchase_terms *)0)->own),
               "spot terms fit fs_purchase_terms.own");

/* The trace's path, relative to dir unless absolute. */
static int trace_path(const spot_terms *s, char *out, size_t len)
{
    int n = s->trace[0] == '/' || !s->dir || !s->dir[0]
                ? snprintf(out, len, "%s", s->trace)
                : snprintf(out, len, "%s/%s", s->dir, s->trace);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static const fs_key_doc spot_keys[] = {
    {"interruption", "interruption model", "none()",
     "exponential(mean=D) | weibull(shape=K, scale=D) | lognormal(mu=M, "
     "sigma=S) (of ln seconds) | empirical(FILE) (lifetimes in seconds) | "
     "trace(FILE[, repeat=yes]) (t_seconds,available replayed)"},
    {"notice", "duration", "0s",
     "warning before an interruption (AWS 2m, GCP 30s): no new work, "
     "running batches finish if they can; at most 1h; a trace() drop is "
     "noticed this long before it, or from the rise before it when that "
     "is later"},
    {"replace_delay", "duration or distribution", "0s",
     "interruption to relaunch, e.g. exponential(mean=10m); the launch then "
     "provisions for provision_delay (and an llm replica loads: load_time)"},
    {"fallback", "POOL", NULL,
     "an on-demand pool that launches instances while this pool is short "
     "of spot, and gives them back when spot returns"},
    {"fallback_after", "duration", "0s",
     "how long the pool is short of spot before the fallback launches"},
    {"spot_extra", "integer, 0 to 1000", "0",
     "instances kept above count (over-provisioning, as SkyServe's "
     "SpotHedge)"},
    {"price_trace", "path", NULL,
     "t_seconds,price ($ per instance-hour from then on), instead of "
     "price: each second billed at the price in force"},
    {NULL, NULL, NULL, NULL},
};

/* price_trace = FILE: checked now (file:line), its mean shown as the
 * pool's price. */
static int resolve_trace(const fs_purchase_reader *rd, fs_purchase_terms *t,
                         const char *value)
{
    spot_terms s = {value, rd->base_dir};
    char path[1200];
    if (rd->value(rd->ctx, "price"))
        return rd->bad(rd->ctx, "price_trace", "give price or price_trace, "
                       "not both");
    if (trace_path(&s, path, sizeof path))
        return rd->bad(rd->ctx, "price_trace", "path too long");
    fs_spot_price sp;
    fs_error err;
    if (fs_spot_price_load(path, rd->max_price, &sp, &err))
        return rd->bad(rd->ctx, "price_trace", err.msg);
    double end = sp.t[sp.n - 1];
    t->price = end > 0 ? fs_spot_price_mean(&sp, end) : sp.usd[0];
    fs_spot_price_free(&sp);
    snprintf(t->price_source, sizeof t->price_source, "price trace %.100s "
             "(mean)", value);
    memcpy(t->own.bytes, &s, sizeof s);
    return 0;
}

static int spot_resolve(const fs_purchase_reader *rd, fs_purchase_terms *t)
{
    t->min_billed_s = 0;
    const char *trace = rd->value(rd->ctx, "price_trace");
    if (trace)
        return resolve_trace(rd, t, trace);
    return fs_purchase_read_price(rd, FS_PRICE_SPOT, t);
}

/* A life [t0, t1): at the constant price, or at the trace's.  Without a
 * minimum, the horizon cuts a life as a termination would. */
static void spot_terminate(const fs_purchase_terms *t,
                           const fs_purchase_bill *b, double t0, double t1)
{
    const fs_spot_price *sp = b->state;
    if (sp && sp->n)
        fs_spot_price_bill(sp, b->meter, b->cal, t0, t1, b->gpus);
    else
        fs_bill_on_demand(b->meter, b->cal, t0, t1, t->price, b->gpus, 0);
}

/* The pool's price trace, loaded once per run (checked already when the
 * scenario was read); an empty one for a constant price.  NULL: out of
 * memory, or the file changed since. */
static void *spot_open(const fs_purchase_terms *t, const fs_calendar *cal)
{
    (void)cal;
    spot_terms s;
    memcpy(&s, t->own.bytes, sizeof s);
    fs_spot_price *sp = calloc(1, sizeof *sp);
    char path[1200];
    fs_error err;
    if (sp && s.trace &&
        (trace_path(&s, path, sizeof path) ||
         fs_spot_price_load(path, 1e300, sp, &err))) {
        free(sp);
        return NULL;
    }
    return sp;
}

static void spot_close(void *state)
{
    if (state)
        fs_spot_price_free(state);
    free(state);
}

const fs_purchase_option fs_purchase_spot = {
    .name = "spot",
    .commitment = FS_COMMIT_NONE,
    .interruptible = 1,
    .label = "on spot",
    .focus_category = "Dynamic",
    .bill_label = "all on spot, as paid",
    .keys = spot_keys,
    .fixed_count = "spot pools have a fixed count (plus spot_extra): "
                   "interrupted instances are replaced, not autoscaled",
    .resolve = spot_resolve,
    .terminate = spot_terminate,
    .open = spot_open,
    .close = spot_close,
};
