/* report_serving.c -- the review's serving table: what served the runs'
 * LLM requests, where they used it (issues 28 and 29): a prefix cache's
 * token hit rate and the cached input tokens (which API prices list
 * apart), a prefill and decode pool's KV transfers, the cold starts of
 * launched replicas and the seconds they loaded (billed as idle), and
 * speculative decoding's mean tokens a step beside its law's
 * (1 - a^(k+1)) / (1 - a).  One row per workload, then per pool, of each
 * run that has any (the store's FS_Q_SERVING); a review of runs without
 * any leaves the table out (fs_rtable.optional). */
#include "sim/cli/report/report.h"
#include "sim/app/summary.h"
#include "sim/base/grammar.h"
#include "sim/store/store_query.h"

#include <stdio.h>

static const char *const head_serving[] = {
    "Run", "Workload or pool", "Prefix cache token hit rate",
    "Cached input tokens", "KV caches sent (prefill to decode)",
    "KV transfer mean", "KV link wait mean", "Cold starts",
    "Loading (billed as idle)", "Tokens a step (speculative)",
    "Tokens a step, the law's mean"};

typedef struct serving_ctx {
    fs_report *r;
    size_t run;
} serving_ctx;

/* A cell of column c: "–" when NULL, else as fmt reads it. */
static int cell(fs_rtable *t, const fs_row *st, int c, char kind,
                fs_error *err)
{
    char b[64];
    if (fs_row_null(st, c))
        return fs_rtable_addf(t, err, "–");
    double v = fs_row_double(st, c);
    switch (kind) {
    case '%':
        return fs_rtable_addf(t, err, "%.2f%%", 100 * v);
    case 'n':
        return fs_rtable_addf(t, err, "%s",
                              fs_format_thousands(v, 0, b, sizeof b));
    case 's':
        fs_format_latency(v, b, sizeof b);
        return fs_rtable_addf(t, err, "%s", b);
    case 'd':
        fs_format_duration(v, b, sizeof b);
        return fs_rtable_addf(t, err, "%s", b);
    default:
        return fs_rtable_addf(t, err, "%.3f", v);
    }
}

/* Cached input tokens: "1,824,752 of 23,397,428". */
static int cached_cell(fs_rtable *t, const fs_row *st, fs_error *err)
{
    char a[64], b[64];
    if (fs_row_null(st, 3))
        return fs_rtable_addf(t, err, "–");
    fs_format_thousands(fs_row_double(st, 3), 0, a, sizeof a);
    fs_format_thousands(fs_row_double(st, 4), 0, b, sizeof b);
    return fs_rtable_addf(t, err, "%s of %s", a, b);
}

static int serving_row(const fs_row *st, void *ctx, fs_error *err)
{
    serving_ctx *sc = ctx;
    fs_rtable *t = &sc->r->tables[6];
    const char *name = fs_row_text(st, 0), *kind = fs_row_text(st, 1);
    int rc = fs_rtable_addf(t, err, "%s", sc->r->run_names[sc->run]) ||
             fs_rtable_addf(t, err, "%s %s", kind ? kind : "",
                            name ? name : "–") ||
             cell(t, st, 2, '%', err) || cached_cell(t, st, err) ||
             cell(t, st, 5, 'n', err) || cell(t, st, 6, 's', err) ||
             cell(t, st, 7, 's', err) || cell(t, st, 8, 'n', err) ||
             cell(t, st, 9, 'd', err) || cell(t, st, 10, 'x', err) ||
             cell(t, st, 11, 'x', err);
    return rc ? -1 : 0;
}

int fs_report_gather_serving(fs_store *s, const long *ids, size_t n,
                             fs_report *r, fs_error *err)
{
    fs_rtable *t = &r->tables[6];
    fs_rtable_setup(t, "Serving: prefix cache, disaggregation, cold starts, "
                    "speculative decoding", "Where the runs used them: the "
                    "share of prompt tokens a prefix cache held (those not "
                    "prefilled, priced apart as cached input), the KV caches "
                    "a prefill pool sent its decode pool and the seconds "
                    "each took on the link and waiting for it (part of the "
                    "TTFT), the replicas that loaded their weights when "
                    "launched and the time that took, and the tokens a "
                    "speculative decoding step emitted.", 11, head_serving);
    t->optional = 1;
    for (size_t i = 0; i < n; i++) {
        serving_ctx sc = {r, i};
        fs_query_arg a = {ids[i], NULL, 0};
        if (fs_store_each(s, FS_Q_SERVING, &a, serving_row, &sc, err))
            return -1;
    }
    return 0;
}
