/* report_savings.c -- the executive summary's top savings: one run's
 * difference to the baseline, attributed per change, never counted twice.
 *
 * The run attributed (the target) is the one whose changes hold every
 * other run's; without one, the run with the most changes (the last of
 * equals).  What it changes comes from the stored scenario texts
 * (sim/scenario/scenario_diff.h): per pool its instances, capacity and
 * purchase option, per workload its pools and checkpoints, per window
 * its hours.  Another run given (or made by `report --levers`) whose
 * changes are some of the target's, and nothing else, isolates them: its
 * own difference to the baseline is what they save.  The finest such
 * runs that do not share a change are used.
 *
 * The lines are built pool by pool from the stored bills (730-hour run
 * rates, store_changes.h), so that they add up to the target's
 * difference exactly:
 *   - a pool that a change no run isolates can move: each isolating run
 *     gets its own difference on that pool, the changes not isolated the
 *     rest (one combined line);
 *   - otherwise, when the isolating runs' differences on the pool add up
 *     to more than the target's (the changes overlap: a reservation
 *     prices fewer GPUs once MIG halves them), they are taken in order,
 *     usage before rate (the FinOps order: size first, then commit), each
 *     up to what is left; a change that gets less than its own run's
 *     difference says both;
 *   - what no change accounts for (they interact) is its own line.
 * Idle capacity is a ceiling, not a saving: report_ceiling.c lists it
 * apart, with the reservation options. */
#include "sim/cli/report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/scenario_diff.h"
#include "sim/store/columns.h"
#include "sim/store/store_changes.h"

#define CENT 0.005
#define LINES_SHOWN 8

/* One run against the baseline. */
typedef struct sv_run {
    long id;
    const char *name;
    fs_scenario_diff diff;
    fs_pool_rate *pools;
    size_t npools;
    double rate;
    char *covers;        /* the target's changes it makes, 1 each */
    int subset;          /* it makes only changes of the target */
    int partial;         /* some of them in part (fewer keys) */
    int chosen;          /* it isolates its changes in the attribution */
    int rate_only;       /* its changes are all purchase options */
    double alone, given; /* its difference; what the lines give it */
    char own[256];       /* its stored name, for a lever's run */
} sv_run;

typedef struct sv_ctx {
    fs_store *s;
    fs_run_source base;
    fs_pool_rate *bpools;
    size_t nb;
    double brate;
    sv_run *runs;
    size_t nruns;
    sv_run *target;
    size_t shown;        /* runs[0 .. shown) are the runs given */
    double rest;         /* what the changes no run isolates save */
    double together;     /* what no change accounts for */
    char *left;          /* the target's changes no run isolates */
} sv_ctx;

static double rate_of(const fs_pool_rate *v, size_t n, const char *pool)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].pool, pool) == 0)
            return v[i].rate;
    return 0;
}

static double total_rate(const fs_pool_rate *v, size_t n)
{
    double t = 0;
    for (size_t i = 0; i < n; i++)
        t += v[i].rate;
    return t;
}

static int read_run(sv_ctx *c, long id, const char *name, sv_run *r,
                    fs_error *err)
{
    fs_run_source src;
    r->id = id;
    r->name = name;
    if (fs_store_run_source(c->s, id, &src, err))
        return -1;
    if (!name) {
        snprintf(r->own, sizeof r->own, "%s", src.name);
        r->name = r->own;
    }
    int rc = fs_scenario_diff_texts(c->base.text, src.text, &r->diff, err);
    fs_run_source_free(&src);
    if (rc || fs_store_pool_rates(c->s, id, &r->pools, &r->npools, err))
        return -1;
    r->rate = total_rate(r->pools, r->npools);
    r->alone = c->brate - r->rate;
    return 0;
}

/* Which of the target's changes r makes; subset when they are all (a
 * change made in part, with fewer of its keys, counts as made). */
static int match(const sv_run *t, sv_run *r)
{
    r->covers = calloc(t->diff.n ? t->diff.n : 1, 1);
    if (!r->covers)
        return -1;
    r->subset = r->diff.n > 0;
    r->rate_only = 1;
    for (size_t i = 0; i < r->diff.n; i++) {
        const fs_change *x = &r->diff.v[i];
        size_t j = 0;
        while (j < t->diff.n && !fs_change_same(x, &t->diff.v[j]))
            j++;
        for (j = j < t->diff.n ? j : 0; j < t->diff.n &&
             !fs_change_within(x, &t->diff.v[j]); j++)
            ;
        if (j == t->diff.n)
            r->subset = 0;
        else
            r->covers[j] = 1;
        r->partial |= j < t->diff.n && !fs_change_same(x, &t->diff.v[j]);
        r->rate_only &= x->kind == FS_CHANGE_PURCHASE;
    }
    return 0;
}

static int holds(const sv_run *big, const sv_run *small)
{
    for (size_t i = 0; i < small->diff.n; i++) {
        size_t j = 0;
        while (j < big->diff.n &&
               !fs_change_within(&small->diff.v[i], &big->diff.v[j]))
            j++;
        if (j == big->diff.n)
            return 0;
    }
    return 1;
}

/* The run whose changes hold every other's; else the most changes. */
static sv_run *pick_target(sv_ctx *c, size_t shown)
{
    sv_run *t = NULL;
    for (size_t i = 0; i < shown; i++) {
        sv_run *r = &c->runs[i];
        int all = r->diff.n > 0;
        for (size_t j = 0; all && j < shown; j++)
            all = holds(r, &c->runs[j]);
        if (all)
            t = r;
    }
    if (t)
        return t;
    for (size_t i = 0; i < shown; i++)
        if (c->runs[i].diff.n > 0 &&
            (!t || c->runs[i].diff.n >= t->diff.n))
            t = &c->runs[i];
    return t;
}

/* The finest isolating runs that share no change, smallest first. */
static void choose_blocks(sv_ctx *c)
{
    size_t n = c->target->diff.n;
    memset(c->left, 1, n);
    for (size_t size = 1; size <= n; size++)
        for (size_t i = 0; i < c->nruns; i++) {
            sv_run *r = &c->runs[i];
            if (r == c->target || !r->subset || r->diff.n != size)
                continue;
            int free_ = 1;
            for (size_t j = 0; j < n; j++)
                free_ &= !(r->covers[j] && !c->left[j]);
            if (!free_)
                continue;
            r->chosen = 1;
            for (size_t j = 0; j < n; j++)
                c->left[j] &= !r->covers[j];
        }
}

/* Whether a change no run isolates can move pool's bill. */
static int left_touches(const sv_ctx *c, const char *pool)
{
    for (size_t j = 0; j < c->target->diff.n; j++)
        if (c->left[j] && fs_change_touches(&c->target->diff.v[j], pool))
            return 1;
    return 0;
}

/* One pool's difference shared out (see the header). */
static void attribute_pool(sv_ctx *c, const char *pool)
{
    double b = rate_of(c->bpools, c->nb, pool);
    double d = b - rate_of(c->target->pools, c->target->npools, pool);
    double sum = 0, cum = 0;
    for (size_t i = 0; i < c->nruns; i++)
        if (c->runs[i].chosen)
            sum += b - rate_of(c->runs[i].pools, c->runs[i].npools, pool);
    int overlap = !left_touches(c, pool) && sum > d + CENT;
    for (int last = 0; last < 2; last++)
        for (size_t i = 0; i < c->nruns; i++) {
            sv_run *r = &c->runs[i];
            if (!r->chosen || r->rate_only != last)
                continue;
            double s = b - rate_of(r->pools, r->npools, pool);
            if (overlap && s > 0)
                s = fmin(s, fmax(0, d - cum));
            r->given += s;
            cum += s;
        }
    if (left_touches(c, pool))
        c->rest += d - cum;
    else
        c->together += d - cum;
}

static int has_pool(const fs_pool_rate *v, size_t n, const char *pool)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].pool, pool) == 0)
            return 1;
    return 0;
}

static void attribute(sv_ctx *c)
{
    for (size_t i = 0; i < c->nb; i++)
        attribute_pool(c, c->bpools[i].pool);
    for (size_t i = 0; i < c->target->npools; i++)
        if (!has_pool(c->bpools, c->nb, c->target->pools[i].pool))
            attribute_pool(c, c->target->pools[i].pool);
}

/* ---- the lines ---------------------------------------------------------- */

static const char *saves(double v, char *buf, size_t size)
{
    char m[64];
    fs_report_money(fabs(v), 1, m, sizeof m);
    snprintf(buf, size, v >= 0 ? "saves %s a month" : "costs %s more a "
             "month", m);
    return buf;
}

/* The levers of the target that the changes marked in `in` belong to. */
static void describe(const sv_run *t, const char *in, char *buf,
                     size_t size, size_t *count)
{
    size_t at = 0;
    *count = 0;
    buf[0] = '\0';
    for (size_t l = 0; l < t->diff.nlevers && at < size; l++) {
        int any = 0;
        for (size_t j = 0; j < t->diff.n; j++)
            any |= in[j] && t->diff.v[j].lever == l;
        if (!any)
            continue;
        char one[700];
        fs_scenario_diff_describe(&t->diff, l, one, sizeof one);
        at += (size_t)snprintf(buf + at, size - at, "%s%s", *count ? "; "
                               "and " : "", one);
        ++*count;
    }
    if (buf[0] >= 'a' && buf[0] <= 'z')
        buf[0] = (char)(buf[0] - 'a' + 'A');
}

static int add_line(fs_rbrief *b, double v, const char *text, fs_error *err)
{
    fs_rsaving *s = realloc(b->savings, (b->nsavings + 1) * sizeof *s);
    if (!s)
        return fs_error_set(err, "out of memory");
    b->savings = s;
    s = &s[b->nsavings++];
    memset(s, 0, sizeof *s);
    s->monthly = v;
    snprintf(s->text, sizeof s->text, "%s", text);
    return 0;
}

static int block_line(const sv_ctx *c, const sv_run *r, fs_rbrief *b,
                      fs_error *err)
{
    char what[900], got[96], own[96], text[1600];   /* the longer sentence whole */
    size_t count;
    describe(c->target, r->covers, what, sizeof what, &count);
    saves(r->given, got, sizeof got);
    if (fabs(r->given - r->alone) < 0.5)
        snprintf(text, sizeof text, "%s: %s (run %s, which makes only %s "
                 "against the baseline%s).", what, got, r->name,
                 count > 1 ? "these changes" : "this change", r->partial ?
                 ", some keys of it left out: their part is in the line "
                 "of the changes together" : "");
    else
        snprintf(text, sizeof text, "%s: %s with the other changes of run "
                 "%s (on its own, run %s %s: the changes overlap on the "
                 "same pools, so the part they share is counted once).",
                 what, got, c->target->name, r->name,
                 saves(r->alone, own, sizeof own));
    return add_line(b, r->given, text, err);
}

static int by_amount(const void *a, const void *b)
{
    const fs_rsaving *x = a, *y = b;
    return (x->monthly < y->monthly) - (x->monthly > y->monthly);
}

/* More than LINES_SHOWN lines: the smallest become one, so that the list
 * still adds up. */
static void fold_tail(fs_rbrief *b)
{
    if (b->nsavings <= LINES_SHOWN)
        return;
    double v = 0;
    for (size_t i = LINES_SHOWN - 1; i < b->nsavings; i++)
        v += b->savings[i].monthly;
    char got[96];
    fs_rsaving *s = &b->savings[LINES_SHOWN - 1];
    snprintf(s->text, sizeof s->text, "%zu smaller changes together: %s.",
             b->nsavings - LINES_SHOWN + 1, saves(v, got, sizeof got));
    s->monthly = v;
    b->nsavings = LINES_SHOWN;
}

static int lines(const sv_ctx *c, fs_rbrief *b, fs_error *err)
{
    const sv_run *t = c->target;
    char what[900], got[96], text[1200];
    size_t count, nleft = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c->nruns; i++)
        if (c->runs[i].chosen)
            rc = block_line(c, &c->runs[i], b, err);
    for (size_t j = 0; j < t->diff.n; j++)
        nleft += (size_t)c->left[j];
    if (rc == 0 && nleft) {
        describe(t, c->left, what, sizeof what, &count);
        snprintf(text, sizeof text, "%s: %s (%s of run %s; no run given "
                 "makes %s alone, so %s one line: pass such runs, or add "
                 "--levers to make them).", what, saves(c->rest, got,
                 sizeof got), count > 1 ? "together, the changes" :
                 "the change", t->name, count > 1 ? "one of them" : "it",
                 count > 1 ? "they are" : "it is");
        rc = add_line(b, c->rest, text, err);
    }
    if (rc == 0 && fabs(c->together) >= 0.5) {
        snprintf(text, sizeof text, "The changes together, beyond what "
                 "each saves alone (they interact): %s.",
                 saves(c->together, got, sizeof got));
        rc = add_line(b, c->together, text, err);
    }
    if (rc == 0 && b->nsavings) {
        qsort(b->savings, b->nsavings, sizeof *b->savings, by_amount);
        fold_tail(b);
    }
    return rc;
}

static int intro(const sv_ctx *c, fs_rbrief *b, fs_error *err)
{
    const sv_run *t = c->target;
    char m[64];
    fs_run_service sv;
    double d = c->brate - t->rate;
    fs_report_money(fabs(d), 1, m, sizeof m);
    if (fs_store_run_service(c->s, t->id, &sv, err))
        return -1;
    return fs_rlines_add(&b->savings_intro, err, "Run %s makes %zu "
                         "change%s against the baseline %s, which %s %s%s a "
                         "month in all (730-hour run rates, from each "
                         "pool's bill)%s. Per change, largest first; the "
                         "lines add up to that difference, each saving "
                         "counted once:", t->name, t->diff.nlevers,
                         t->diff.nlevers == 1 ? "" : "s", c->base.name,
                         d >= 0 ? "save" : "cost", m, d >= 0 ? "" : " more",
                         sv.unfinished_share > FS_OVERLOADED_SHARE
                             ? ", but it is overloaded (see the risks): "
                               "that saving leaves work undone"
                             : "");
}

/* Runs given that are neither the target nor part of it: alternatives. */
static int alternatives(const sv_ctx *c, size_t shown, fs_rbrief *b,
                        fs_error *err)
{
    int rc = 0;
    char got[96];
    for (size_t i = 0; rc == 0 && i < shown; i++) {
        const sv_run *r = &c->runs[i];
        if (r == c->target || r->subset || r->diff.n == 0)
            continue;
        rc = fs_rlines_add(&b->further, err, "Alternative: run %s makes "
                           "changes run %s does not; on its own it %s "
                           "against the baseline (not added to the list "
                           "above).", r->name, c->target->name,
                           saves(r->alone, got, sizeof got));
    }
    return rc;
}

static void ctx_free(sv_ctx *c)
{
    for (size_t i = 0; i < c->nruns; i++) {
        fs_scenario_diff_free(&c->runs[i].diff);
        free(c->runs[i].pools);
        free(c->runs[i].covers);
    }
    free(c->runs);
    free(c->bpools);
    free(c->left);
    fs_run_source_free(&c->base);
}

/* Reads the baseline and every other run: ids[0..n) named names[i]
 * (NULL: their stored names), then the levers' runs. */
static int read_all(sv_ctx *c, const long *ids, char *const *names,
                    size_t n, const long *levers, size_t nlevers, long base,
                    fs_error *err)
{
    if (fs_store_run_source(c->s, base, &c->base, err) ||
        fs_store_pool_rates(c->s, base, &c->bpools, &c->nb, err))
        return -1;
    c->brate = total_rate(c->bpools, c->nb);
    c->runs = calloc(n + nlevers + 1, sizeof *c->runs);
    if (!c->runs)
        return fs_error_set(err, "out of memory");
    for (size_t i = 0; i < n + nlevers; i++) {
        long id = i < n ? ids[i] : levers[i - n];
        int seen = id == base;
        for (size_t j = 0; j < c->nruns; j++)
            seen |= c->runs[j].id == id;
        if (seen)
            continue;
        const char *name = i < n && names ? names[i] : NULL;
        sv_run *x = &c->runs[c->nruns++];
        if (read_run(c, id, name, x, err))
            return -1;
        if (i < n)
            c->shown = c->nruns;
    }
    return 0;
}

int fs_report_savings_target(fs_store *s, const long *ids, size_t n,
                             long base, long *target, fs_error *err)
{
    sv_ctx c = {.s = s};
    int rc = read_all(&c, ids, NULL, n, NULL, 0, base, err);
    sv_run *t = rc == 0 ? pick_target(&c, c.shown) : NULL;
    *target = t ? t->id : 0;
    ctx_free(&c);
    return rc;
}

int fs_report_gather_savings(fs_store *s, const long *ids, size_t n,
                             long base, fs_report *r, fs_error *err)
{
    sv_ctx c = {.s = s};
    fs_rbrief *b = &r->brief;
    int rc = read_all(&c, ids, r->run_names, n, r->lever_ids,
                      r->nlever_ids, base, err);
    if (rc == 0)
        c.target = pick_target(&c, c.shown);
    if (rc == 0 && c.target) {
        c.left = calloc(c.target->diff.n + 1, 1);
        rc = c.left ? 0 : fs_error_set(err, "out of memory");
        for (size_t i = 0; rc == 0 && i < c.nruns; i++)
            rc = match(c.target, &c.runs[i]) ? fs_error_set(err, "out of "
                                                            "memory") : 0;
        if (rc == 0) {
            choose_blocks(&c);
            attribute(&c);
            rc = intro(&c, b, err) || lines(&c, b, err) ||
                 alternatives(&c, c.shown, b, err) ? -1 : 0;
        }
    } else if (rc == 0) {
        rc = fs_rlines_add(&b->savings_intro, err, "No run given changes "
                           "the baseline's scenario, so there is no "
                           "saving to attribute.");
    }
    if (rc == 0)
        rc = fs_report_gather_further(s, c.target ? c.target->id : base,
                                      c.target ? c.target->name
                                               : r->baseline_name, r, err);
    ctx_free(&c);
    return rc;
}
