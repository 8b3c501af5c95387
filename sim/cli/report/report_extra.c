/* report_extra.c -- the report's costs beside the GPU hour and budgets:
 * table 7, per run, each storage and transfer line (cost_extra), the GPU
 * bill and their total (the lines add up to it, to the cent); and a risk
 * line per budget a run exceeded (the budget table: its 730-hour run rate
 * against the limit, by how much).  Runs with neither leave the table out
 * of the report. */
#include "sim/cli/report/report.h"
#include "sim/store/store_query.h"
#include "models/purchase/budget.h"

#include <math.h>
#include <string.h>

static const char *const head_extra[] = {
    "Run", "Cost", "Workload on pool", "Month", "Quantity", "Unit price",
    "Cost ($)",
};

typedef struct extra_ctx {
    fs_report *r;
    size_t run;
    double sum;       /* the run's lines, dollars */
    long rows;
} extra_ctx;

static int extra_row(const fs_row *st, void *ctx, fs_error *err)
{
    extra_ctx *x = ctx;
    fs_rtable *t = &x->r->tables[7];
    char q[64], p[64], m[64];
    const char *unit = fs_row_text(st, 7);
    double cost = fs_row_double(st, 9);
    x->sum += cost;
    x->rows++;
    snprintf(q, sizeof q, "%.1f %s", fs_row_double(st, 6), unit ? unit : "");
    snprintf(p, sizeof p, "$%.4g per %s", fs_row_double(st, 8),
             unit ? unit : "unit");
    return fs_rtable_addf(t, err, "%s", x->r->run_names[x->run]) ||
           fs_rtable_addf(t, err, "%s (%s, %lld)", fs_row_text(st, 4),
                          fs_row_text(st, 3), fs_row_int(st, 5)) ||
           fs_rtable_addf(t, err, "%s on %s", fs_row_text(st, 2),
                          fs_row_text(st, 1)) ||
           fs_rtable_addf(t, err, "%s", fs_row_text(st, 0)) ||
           fs_rtable_addf(t, err, "%s", q) ||
           fs_rtable_addf(t, err, "%s", p) ||
           fs_rtable_addf(t, err, "%s", fs_report_money(cost, 0, m, sizeof m))
               ? -1 : 0;
}

static int month_sum(const fs_row *st, void *ctx, fs_error *err)
{
    (void)err;
    *(double *)ctx += fs_row_double(st, 1);
    return 0;
}

/* A closing row: its label and amount. */
static int total_row(fs_rtable *t, const char *run, const char *what,
                     double usd, fs_error *err)
{
    char m[64];
    return fs_rtable_addf(t, err, "%s", run) ||
           fs_rtable_addf(t, err, "%s", what) ||
           fs_rtable_add(t, "", err) || fs_rtable_add(t, "", err) ||
           fs_rtable_add(t, "", err) || fs_rtable_add(t, "", err) ||
           fs_rtable_addf(t, err, "%s", fs_report_money(usd, 0, m, sizeof m))
               ? -1 : 0;
}

typedef struct budget_ctx {
    fs_report *r;
    const char *run;
} budget_ctx;

static int budget_row(const fs_row *st, void *ctx, fs_error *err)
{
    budget_ctx *b = ctx;
    double over = fs_row_double(st, 4), lim = fs_row_double(st, 2);
    if (!(over > 0))
        return 0;
    char l[64], s[64], o[64], scope[300];
    const char *sc = fs_row_text(st, 0);
    const char *month = fs_budget_row_month(fs_row_text(st, 1));
    char when[64] = "a month (730-hour run rate)";
    if (month)
        snprintf(when, sizeof when, "in calendar month %s (its bill)", month);
    snprintf(scope, sizeof scope, sc ? "tag %s" : "the whole run (%s)",
             sc ? sc : month ? "scenario" : fs_row_text(st, 1));
    return fs_rlines_add(&b->r->brief.risks, err, "Budget exceeded: run %s, "
                         "%s: %s %s against a "
                         "budget of %s, over by %s (%.1f%%).", b->run, scope,
                         fs_report_money(fs_row_double(st, 3), 0, s, sizeof s),
                         when,
                         fs_report_money(lim, 0, l, sizeof l),
                         fs_report_money(over, 0, o, sizeof o),
                         100 * over / lim) ? -1 : 0;
}

int fs_report_gather_extra(fs_store *s, const long *ids, size_t n,
                           fs_report *r, fs_error *err)
{
    fs_rtable *t = &r->tables[7];
    t->ncols = 7;
    t->head = head_extra;
    for (size_t i = 0; i < n; i++) {
        fs_query_arg a = {ids[i], NULL, 0};
        extra_ctx x = {r, i, 0, 0};
        double bill = 0;
        budget_ctx b = {r, r->run_names[i]};
        if (fs_store_each(s, FS_Q_EXTRAS, &a, extra_row, &x, err) ||
            fs_store_each(s, FS_Q_BUDGETS, &a, budget_row, &b, err))
            return -1;
        if (x.rows == 0)
            continue;
        if (fs_store_each(s, FS_Q_MONTHS, &a, month_sum, &bill, err) ||
            total_row(t, r->run_names[i], "storage and transfer", x.sum,
                      err) ||
            total_row(t, r->run_names[i], "GPU bill (by calendar month)",
                      bill, err) ||
            total_row(t, r->run_names[i], "total with storage and transfer",
                      round((bill + x.sum) * 100) / 100, err))
            return -1;
    }
    if (t->ncells > 0) {
        t->title = "Costs beside the GPU hour";
        t->intro = "What each run's training checkpoints and LLM weights "
                   "add to the GPU bill: stored (GB-months at the "
                   "provider's published object-storage price), "
                   "checkpoints restored and weights pulled on every cold "
                   "start across zones, regions or clouds (GB at its "
                   "published transfer price), per workload, pool and "
                   "month, with the count of checkpoints written or "
                   "restored, model copies stored or cold starts; they add "
                   "up with the bill to the total.";
    }
    return 0;
}
