/* export_read.c -- a run's pools, prices, monthly costs (a commitment's
 * unused part apart) and utilization, read for `fleetsim export`; see
 * export.h. */
#include "sim/cli/export/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/vec.h"
#include "sim/store/store.h"
#include "sim/store/store_query.h"
#include "models/purchase/purchase.h"

static void copy_text(const fs_row *st, int col, char *out, size_t len)
{
    const char *v = fs_row_text(st, col);
    snprintf(out, len, "%s", v ? v : "");
}

/* The start = key's value in the stored scenario text (its last one: an
 * include's comes first), for the hour of day that run.start_date drops. */
static int start_from_text(const char *text, const char *date, time_t *out)
{
    char value[64] = "";
    snprintf(value, sizeof value, "%s", date);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *p = line;
        while (p < line + n && (*p == ' ' || *p == '\t'))
            p++;
        if (n > 5 && !strncmp(p, "start", 5)) {
            const char *q = p + 5;
            while (q < line + n && (*q == ' ' || *q == '\t'))
                q++;
            if (q < line + n && *q == '=') {
                q++;
                while (q < line + n && (*q == ' ' || *q == '\t'))
                    q++;
                size_t k = 0;
                while (q < line + n && *q != ';' && *q != '#' &&
                       k + 1 < sizeof value)
                    value[k++] = *q++;
                while (k && (value[k - 1] == ' ' || value[k - 1] == '\t' ||
                             value[k - 1] == '\r'))
                    k--;
                value[k] = '\0';
            }
        }
        line = end ? end + 1 : NULL;
    }
    int y, m, d, hh = 0, mm = 0;
    if (sscanf(value, "%4d-%2d-%2d %2d:%2d", &y, &m, &d, &hh, &mm) < 3 &&
        sscanf(date, "%4d-%2d-%2d", &y, &m, &d) != 3)
        return -1;
    struct tm tm = {.tm_year = y - 1900, .tm_mon = m - 1, .tm_mday = d,
                    .tm_hour = hh, .tm_min = mm};
    *out = timegm(&tm);
    return 0;
}

static int run_row(const fs_row *st, void *ctx, fs_error *err)
{
    (void)err;
    fs_export_run *r = ctx;
    copy_text(st, 0, r->name, sizeof r->name);
    const char *date = fs_row_text(st, 1);
    const char *text = fs_row_text(st, 3);
    double horizon = fs_row_double(st, 2);
    r->id = -1;         /* found, not (yet) good */
    if (date && !start_from_text(text ? text : "", date, &r->start) &&
        horizon > 0 && !fs_calendar_init(&r->cal, r->start, horizon))
        r->id = 0;      /* good */
    return 1;
}

static int read_run(fs_store *s, long id, fs_export_run *r, fs_error *err)
{
    fs_query_arg a = {id, NULL, 0};
    r->id = -2;         /* not found */
    if (fs_store_each(s, FS_Q_RUN_HEAD, &a, run_row, r, err))
        return -1;
    int found = r->id != -2, bad = r->id != 0;
    r->id = id;
    if (bad)
        return fs_error_set(err, "run %ld: %s", id, found ? "no start date "
                            "or horizon (stored by an older fleetsim?)"
                            : "no such run");
    return 0;
}

static int pool_row(const fs_row *st, void *ctx, fs_error *err)
{
    fs_export_run *r = ctx;
    fs_export_pool *p = fs_vec_grow(r->pools, &r->pools_cap, r->npools + 1,
                                    sizeof *p);
    if (!p)
        return fs_error_set(err, "cannot read the pools: out of memory");
    r->pools = p;
    p = &r->pools[r->npools++];
    memset(p, 0, sizeof *p);
    copy_text(st, 0, p->name, sizeof p->name);
    copy_text(st, 1, p->gpu, sizeof p->gpu);
    copy_text(st, 2, p->pricing, sizeof p->pricing);
    copy_text(st, 3, p->instance_type, sizeof p->instance_type);
    copy_text(st, 4, p->tags, sizeof p->tags);
    p->price_usd_h = fs_row_double(st, 5);
    p->upfront_usd = fs_row_double(st, 6);
    p->term_months = (int)fs_row_int(st, 7);
    p->instances = (long)fs_row_int(st, 8);
    p->list_usd_h = fs_row_double(st, 9);
    p->contracted_usd_h = fs_row_double(st, 10);
    p->commitment_usd_h = fs_row_double(st, 11);
    p->gpus_per_instance = (long)fs_row_int(st, 12);
    p->renew = fs_row_int(st, 13) == 1;
    const fs_purchase_option *o = fs_purchase_find(p->pricing);
    p->category = o ? o->focus_category : "Standard";
    p->cents = calloc(r->cal.nmonths + 1, sizeof *p->cents);
    p->unused_cents = calloc(r->cal.nmonths + 1, sizeof *p->unused_cents);
    p->after_cents = calloc(r->cal.nmonths + 1, sizeof *p->after_cents);
    if (!p->cents || !p->unused_cents || !p->after_cents)
        return fs_error_set(err, "cannot read the pools: out of memory");
    return 0;
}

static int read_pools(fs_store *s, fs_export_run *r, fs_error *err)
{
    fs_query_arg a = {r->id, NULL, 0};
    return fs_store_each(s, FS_Q_POOLS, &a, pool_row, r, err);
}

static fs_export_pool *find_pool(fs_export_run *r, const char *name)
{
    for (size_t i = 0; i < r->npools; i++)
        if (name && !strcmp(r->pools[i].name, name))
            return &r->pools[i];
    return NULL;
}

static int cost_row(const fs_row *st, void *ctx, fs_error *err)
{
    (void)err;
    fs_export_run *r = ctx;
    const char *month = fs_row_text(st, 0);
    fs_export_pool *p = find_pool(r, fs_row_text(st, 1));
    const char *pricing = fs_row_text(st, 3);
    /* a commitment's unused part: its own PRICING-unused rows; its
     * instances after its term: on-demand rows; an option's own lines
     * (PRICING-LINE: an owned pool's power, colocation, maintenance) are
     * the pool's cost */
    int other = p && pricing && strcmp(pricing, p->pricing);
    int unused = other && strstr(pricing, "-unused");
    size_t n = p ? strlen(p->pricing) : 0;
    int line = other && !strncmp(pricing, p->pricing, n) && pricing[n] == '-';
    long long *to = !p ? NULL : unused ? p->unused_cents
                              : other && !line ? p->after_cents : p->cents;
    for (size_t m = 0; p && month && m < r->cal.nmonths; m++)
        if (!strcmp(r->cal.label[m], month))
            to[m] += llround(fs_row_double(st, 2) * 100);
    return 0;
}

static int read_costs(fs_store *s, fs_export_run *r, fs_error *err)
{
    fs_query_arg a = {r->id, NULL, 0};
    return fs_store_each(s, FS_Q_COSTS, &a, cost_row, r, err);
}

static int util_row(const fs_row *st, void *ctx, fs_error *err)
{
    fs_export_run *r = ctx;
    fs_export_pool *p = find_pool(r, fs_row_text(st, 0));
    if (!p)
        return 0;
    fs_export_util *u = fs_vec_grow(p->util, &p->util_cap, p->nutil + 1,
                                    sizeof *u);
    if (!u)
        return fs_error_set(err, "cannot read the utilization: out of "
                            "memory");
    p->util = u;
    p->util[p->nutil++] = (fs_export_util){
        fs_row_double(st, 1), fs_row_double(st, 2), fs_row_double(st, 3)};
    return 0;
}

static int read_util(fs_store *s, fs_export_run *r, fs_error *err)
{
    fs_query_arg a = {r->id, NULL, 0};
    return fs_store_each(s, FS_Q_UTILIZATION, &a, util_row, r, err);
}

/* Each pool's list cost, the figure the run summary shows. */
static int read_savings(fs_store *s, fs_export_run *r, fs_error *err)
{
    fs_pool_saving *v;
    size_t n;
    if (fs_store_pool_savings(s, r->id, &v, &n, err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        fs_export_pool *p = find_pool(r, v[i].pool);
        if (p) {
            p->list_cents = v[i].list_cents;
            p->has_list = v[i].has_list;
        }
    }
    free(v);
    return 0;
}

/* The utilization samples of p ending after (after set) or up to t:
 * zeroed (samples hold their average over (previous t, t]). */
static void clip_util(fs_export_pool *p, double t, int after)
{
    for (size_t i = 0; i < p->nutil; i++)
        if ((p->util[i].t > t) == !!after)
            p->util[i].gpus = p->util[i].busy = 0;
}

/* Pool i's instances after its term, as a pool of their own priced on
 * demand (their on-demand rows, their utilization after the term, their
 * list cost what they cost); the reservation keeps its term.  0, or -1
 * when out of memory. */
static int split_after_term(fs_export_run *r, size_t i)
{
    long long total = 0;
    for (size_t m = 0; m < r->cal.nmonths; m++)
        total += r->pools[i].after_cents[m];
    if (total == 0 || r->pools[i].term_months <= 0)
        return 0;
    fs_export_pool *v = fs_vec_grow(r->pools, &r->pools_cap, r->npools + 1,
                                    sizeof *v);
    if (!v)
        return -1;
    r->pools = v;
    fs_export_pool *p = &v[i], *q = &v[r->npools];
    *q = *p;
    q->util = malloc((p->nutil + 1) * sizeof *q->util);
    q->unused_cents = calloc(r->cal.nmonths + 1, sizeof *q->unused_cents);
    if (!q->util || !q->unused_cents) {
        free(q->util);
        free(q->unused_cents);
        return -1;
    }
    r->npools++;
    memcpy(q->util, p->util, p->nutil * sizeof *q->util);
    q->util_cap = p->nutil + 1;
    const fs_purchase_option *od = fs_purchase_committing(FS_COMMIT_NONE);
    snprintf(q->pricing, sizeof q->pricing, "%s", od->name);
    q->category = od->focus_category;
    q->term_months = q->renew = 0;
    q->upfront_usd = q->contracted_usd_h = q->commitment_usd_h = 0;
    q->price_usd_h = p->list_usd_h;
    q->cents = p->after_cents;
    q->after_cents = p->after_cents = NULL;
    q->list_cents = total;
    q->has_list = 0;
    p->list_cents -= total;
    double end = p->term_months / 12.0 * 8760 * 3600;
    clip_util(p, end, 1);
    clip_util(q, end, 0);
    return 0;
}

int fs_export_read(fs_store *s, long run_id, fs_export_run *r, fs_error *err)
{
    memset(r, 0, sizeof *r);
    if (read_run(s, run_id, r, err) || read_pools(s, r, err) ||
        read_costs(s, r, err) || read_util(s, r, err) ||
        read_savings(s, r, err))
        return -1;
    for (size_t i = 0, n = r->npools; i < n; i++)
        if (split_after_term(r, i))
            return fs_error_set(err, "out of memory");
    return 0;
}

void fs_export_free(fs_export_run *r)
{
    for (size_t i = 0; i < r->npools; i++) {
        free(r->pools[i].cents);
        free(r->pools[i].unused_cents);
        free(r->pools[i].after_cents);
        free(r->pools[i].util);
    }
    free(r->pools);
    fs_calendar_free(&r->cal);
    memset(r, 0, sizeof *r);
}

typedef struct extras_ctx {
    const fs_export_run *r;
    fs_export_extra_emit emit;
    void *ctx;
} extras_ctx;

/* One cost_extra row, over its month's part of the horizon. */
static int extra_row(const fs_row *st, void *ctx, fs_error *err)
{
    extras_ctx *x = ctx;
    fs_export_extra e = {0};
    copy_text(st, 0, e.month, sizeof e.month);
    copy_text(st, 1, e.pool, sizeof e.pool);
    copy_text(st, 2, e.workload, sizeof e.workload);
    copy_text(st, 3, e.category, sizeof e.category);
    copy_text(st, 4, e.item, sizeof e.item);
    e.count = (long)fs_row_int(st, 5);
    e.quantity = fs_row_double(st, 6);
    copy_text(st, 7, e.unit, sizeof e.unit);
    e.unit_price = fs_row_double(st, 8);
    e.cents = llround(fs_row_double(st, 9) * 100);
    copy_text(st, 10, e.tags, sizeof e.tags);
    copy_text(st, 11, e.instance_type, sizeof e.instance_type);
    const fs_calendar *cal = &x->r->cal;
    for (size_t m = 0; m < cal->nmonths; m++)
        if (!strcmp(cal->label[m], e.month)) {
            e.t0 = fmax(cal->bound[m], 0);
            e.t1 = fmin(cal->bound[m + 1], cal->horizon_s);
        }
    if (x->emit(x->ctx, x->r, &e))
        return fs_error_set(err, "cannot write (out of memory or disk "
                            "full)");
    return 0;
}

int fs_export_extras(fs_store *s, const fs_export_run *r,
                     fs_export_extra_emit emit, void *ctx, fs_error *err)
{
    fs_query_arg a = {r->id, NULL, 0};
    extras_ctx x = {r, emit, ctx};
    return fs_store_each(s, FS_Q_EXTRAS, &a, extra_row, &x, err);
}
