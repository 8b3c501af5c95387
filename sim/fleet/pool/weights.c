/* weights.c -- an LLM pool's model storage and weights-transfer lines
 * (weights.h): cold starts counted by month as the capacity tells them,
 * then the cost_extra rows at the horizon.
 *
 * Why the cold start's month is that of the end of its provisioning: the
 * pull begins then (coldstart.c: the load follows provision_delay), and
 * a provider bills a transfer in the month the bytes move. */
#include "sim/fleet/pool/weights.h"
#include "sim/fleet/pool/coldstart.h"
#include "sim/fleet/serve/dispatch.h"

#include <stdlib.h>

static void on_loaded(void *ctx, fs_capacity *cap, int inst)
{
    fs_weights_run *r = ctx;
    if (!r->cold_starts)
        return;
    double t = cap->inst[inst].launched + r->provision_delay;
    r->cold_starts[fs_calendar_month(r->cal, t, 0)]++;
}

const fs_capacity_listener fs_weights_listener = {
    .name = "weights",
    .on = {
        [FS_CAPACITY_LOADED] = on_loaded,
    },
};

int fs_weights_init(fs_weights_run *r, const fs_calendar *cal,
                    const fs_pool_conf *conf)
{
    r->cal = cal;
    r->provision_delay = conf->provision_delay;
    r->cold_starts = NULL;
    if (!conf->cold_start)
        return 0;
    r->cold_starts = calloc(cal->nmonths ? cal->nmonths : 1,
                            sizeof *r->cold_starts);
    return r->cold_starts ? 0 : -1;
}

void fs_weights_free(fs_weights_run *r)
{
    free(r->cold_starts);
    r->cold_starts = NULL;
}

/* One row: item model-storage (GB-months) or weights-transfer (GB). */
static int add_row(const fs_weights_run *r, const fs_servers *p,
                   const fs_workload *w, size_t m, int transfer,
                   long count, double quantity, double price,
                   fs_results *out, fs_error *err)
{
    fs_extra_line l = {
        r->cal->label[m], p->conf->name, w->conf->name, transfer,
        "model-storage", "weights-transfer", count, quantity, price,
        p->conf->tags, w->conf->tags,
    };
    if (fs_results_add_extra_line(out, &l))
        return fs_error_set(err, "out of memory");
    return 0;
}

/* Workload w's rows on its k-th pool p: a storage row a month, and a
 * transfer row a month with cold starts. */
static int workload_rows(const fs_weights_run *r, const fs_servers *p,
                         const fs_workload *w, int k, fs_results *out,
                         fs_error *err)
{
    const fs_weights_conf *c = &w->conf->weights;
    size_t nm = r->cal->nmonths;
    double gb = w->perf[k].weight_bytes / 1e9;
    double pull_gb = fs_coldstart_bytes(w, k, p) / 1e9;
    double *gb_months = calloc(nm ? nm : 1, sizeof *gb_months);
    if (!gb_months)
        return fs_error_set(err, "out of memory");
    fs_calendar_spread(r->cal, 0, 0, r->cal->horizon_s,
                       gb / (730 * 3600.0), gb_months);
    int rc = 0;
    for (size_t m = 0; m < nm && !rc; m++) {
        long n = r->cold_starts[m];
        if (gb_months[m] > 0)
            rc = add_row(r, p, w, m, 0, 1, gb_months[m],
                         c->storage_usd_gb_month[k], out, err);
        if (!rc && n > 0)
            rc = add_row(r, p, w, m, 1, n, (double)n * pull_gb,
                         c->transfer_usd_gb[k], out, err);
    }
    free(gb_months);
    return rc;
}

int fs_weights_rows(const fs_weights_run *r, const fs_servers *servers,
                    fs_results *out, fs_error *err)
{
    for (int i = 0; r->cold_starts && i < servers->nwls; i++) {
        const fs_workload *w = servers->wls[i];
        if (w->conf->weights.from == FS_WEIGHTS_NONE)   /* llm only */
            continue;
        for (int k = 0; k < w->npools; k++)
            if (w->pools[k] == servers &&
                workload_rows(r, servers, w, k, out, err))
                return -1;
    }
    return 0;
}
