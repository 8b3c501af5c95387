/* plan_user_price.c -- a pool's own prices (price =, upfront_price =, the
 * reserved_* quotes) for each candidate of `fleetsim plan`.
 *
 * Those prices are the user's, per instance of the pool: one GPU type in
 * instances of gpus_per_instance GPUs.  A candidate on the same GPU in
 * instances of another size (tp 8 where the pool has one GPU) is priced
 * per GPU: each figure times its GPUs over the pool's.  A candidate on
 * another GPU has no price of the user's at all; pricing it from the
 * catalog beside the user's rates would rank a negotiated price against a
 * list price, and keeping the user's price would bill eight H100s at one
 * A100's rate, so it is excluded with the reason.
 *
 * One candidate's columns come from one source: with price = the
 * on-demand column is the user's rate, so the reservation column is
 * priced only from the user's own reserved_1y quote (never the catalog's
 * reservation of that GPU), and spot, which would bill the pool's price as
 * the spot price, is refused before anything runs (cmd_plan.c). */
#include "sim/cli/plan/plan.h"
#include "sim/base/grammar.h"
#include "models/purchase/roi.h"
#include "sim/scenario/scenario_limits.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The pool keys holding the user's prices and their money grammar. */
static const struct {
    const char *key;
    int quote_kind;   /* fs_roi_parse_quote's kind; -1: plain money */
} user_keys[FS_PLAN_USER_PRICES] = {
    {"price", -1},          {"upfront_price", -1},
    {"reserved_1y", 0},     {"reserved_1y_partial", 1},
    {"reserved_1y_all", 2}, {"reserved_3y", 0},
    {"reserved_3y_partial", 1}, {"reserved_3y_all", 2},
};

const char *fs_plan_user_price_key(int i)
{
    return user_keys[i].key;
}

void fs_plan_user_prices_read(fs_plan *p, const char *const *values)
{
    for (int i = 0; i < FS_PLAN_USER_PRICES; i++)
        snprintf(p->user_price[i], sizeof p->user_price[i], "%s",
                 values[i] ? values[i] : "");
    p->pool_has_price = p->user_price[0][0] != '\0';
    p->pool_has_quote = p->user_price[2][0] != '\0';
}

/* One key's value at scale k, in the grammar it was read in: 0, or -1
 * when it does not read (the scenario's own check then says why). */
static int scale_value(int i, const char *v, double k, char *out,
                       size_t len)
{
    char why[256];
    double hourly = 0, upfront = 0;
    int kind = user_keys[i].quote_kind;
    if (kind < 0) {
        if (fs_parse_money(v, &upfront, why, sizeof why))
            return -1;
        snprintf(out, len, "%.10g", upfront * k);
        return 0;
    }
    int years = strstr(user_keys[i].key, "_3y") ? 3 : 1;
    if (fs_roi_parse_quote(kind, years, FS_MAX_PRICE, v, &hourly, &upfront,
                           why, sizeof why))
        return -1;
    if (kind == 0)
        snprintf(out, len, "%.10g/h", hourly * k);
    else if (kind == 2)
        snprintf(out, len, "%.10g", upfront * k);
    else
        snprintf(out, len, "%.10g+%.10g/h", upfront * k, hourly * k);
    return 0;
}

void fs_plan_user_price(const fs_plan *p, fs_plan_candidate *c, int gpus)
{
    c->gpus_per_instance = gpus;
    if (!p->pool_has_price || c->excluded_other)
        return;
    if (strcmp(c->gpu, p->pool_gpu)) {
        c->excluded_other = 1;
        c->excluded_memory = 0;
        snprintf(c->reason, sizeof c->reason, "pool '%.60s' sets price = "
                 "%.20s per instance-hour of %.60s; there is no price of "
                 "yours for %.60s (remove price = to price every candidate "
                 "from the catalog, or plan on --gpus %.60s)", p->pool,
                 p->user_price[0], p->pool_gpu, c->gpu, p->pool_gpu);
        return;
    }
    if (gpus == p->pool_gpus)
        return;
    double k = (double)gpus / (double)p->pool_gpus;
    for (int i = 0; i < FS_PLAN_USER_PRICES; i++)
        if (p->user_price[i][0] &&
            scale_value(i, p->user_price[i], k, c->scaled_price[i],
                        sizeof c->scaled_price[i]))
            c->scaled_price[i][0] = '\0';
}
