/* roi_options.c -- `fleetsim roi --all`: every way to commit, in one table
 * per pool, cheapest first, as AWS Cost Explorer's recommendations list
 * every term and payment option.
 *
 * Each option is one call of fs_roi_for_run with that term, upfront option
 * or savings plan, the same call `roi --term T --upfront U` (or
 * `--savings-plan`) makes, so every figure equals the single-option call's.
 * Ordered by the monthly cost with the option (upfront amortized), the
 * cheapest first; an option that cannot be priced for a pool (not sold,
 * no rate, a plan on a spot pool) is listed after them with why in the
 * table and Markdown, and said on stderr for CSV and JSON. */
#include "sim/cli/roi/roi_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/purchase/billing.h"
#include "sim/base/textout.h"
#include "sim/store/store.h"

/* The options, in the order a tie keeps. */
static const struct { int term_months, upfront_kind, plan; } options[] = {
    {12, 0, 0}, {12, 1, 0}, {12, 2, 0}, {36, 0, 0}, {36, 1, 0}, {36, 2, 0},
    {12, 0, 1}, {36, 0, 1},
};
enum { NOPTIONS = sizeof options / sizeof options[0] };

/* One pool's answer for one option. */
typedef struct entry {
    fs_roi_pool p;
    int option;
} entry;

static void option_name(const fs_roi_row *w, char *buf, size_t len)
{
    if (w->plan)
        snprintf(buf, len, "savings plan %s", w->term);
    else
        snprintf(buf, len, "reserved %s %s upfront", w->term, w->upfront);
}

static int by_cost(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->p.ok != y->p.ok)
        return x->p.ok ? -1 : 1;
    if (x->p.ok) {
        double cx = x->p.row.r.with_monthly, cy = y->p.row.r.with_monthly;
        if (cx != cy)
            return cx < cy ? -1 : 1;
    }
    return x->option - y->option;
}

static void break_even(const fs_roi_result *r, char *buf, size_t len)
{
    if (isnan(r->break_even_months))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f mo", r->break_even_months);
}

/* The pool's heading: the baseline every option is weighed against, in
 * dollars over the hours sized too, and whether that is the run's bill. */
static void heading(FILE *out, const fs_roi_row *w, int md)
{
    char *pool = fs_text_escape(w->pool), a[64], b[64];
    int bill = w->billed_is_baseline && !isnan(w->billed_usd) &&
               fabs(fs_round_cents(w->baseline_usd) -
                    fs_round_cents(w->billed_usd)) < 0.005;
    fprintf(out, md ? "\n### pool %s (%s)\n\n%s %s / month (730 h); the "
                      "%.4g h sized: %s%s\n\n"
                    : "\npool %s (%s): %s %s / month (730 h); the %.4g h "
                      "sized: %s%s\n", pool ? pool : "?", w->gpu,
            w->vs_spot ? "as run on spot" : "all on demand",
            fs_roi_money(w->r.on_demand_monthly, a, sizeof a), w->span_h,
            fs_roi_money(w->baseline_usd, b, sizeof b),
            bill ? ", the run's bill for this pool" : "");
    free(pool);
}

static void print_text(FILE *out, const entry *e, size_t n, int md)
{
    const char *hfmt = md ? "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                          : "  %-27s %-17s %-16s %12s %12s %12s %6s %10s "
                            "%12s\n";
    heading(out, &e[0].p.row, md);
    fprintf(out, hfmt, "option", "rate", "buys", "upfront", "per month",
            "saves/month", "saves", "break-even", "NPV");
    if (md)
        fputs("|---|---|---|--:|--:|--:|--:|--:|--:|\n", out);
    for (size_t i = 0; i < n; i++) {
        const fs_roi_row *w = &e[i].p.row;
        char name[64], what[64], up[64], mo[64], sv[64], pct[32], be[32];
        char npv[64];
        option_name(w, name, sizeof name);
        if (!e[i].p.ok) {
            fprintf(out, md ? "| %s | not priced: %s ||||||||\n"
                            : "  %-27s not priced: %s\n", name,
                    e[i].p.note);
            continue;
        }
        fs_roi_buys(w->plan, w->r.commitment, w->r.count, what, sizeof what);
        snprintf(pct, sizeof pct, "%.1f%%", w->r.savings_pct);
        break_even(&w->r, be, sizeof be);
        fprintf(out, hfmt, name, w->rate_basis ? w->rate_basis : "-", what,
                fs_roi_money(w->r.upfront_cost, up, sizeof up),
                fs_roi_money(w->r.with_monthly, mo, sizeof mo),
                fs_roi_money(w->r.savings_monthly, sv, sizeof sv), pct, be,
                fs_roi_money(w->r.npv, npv, sizeof npv));
    }
}

static void csv_money(FILE *out, double v)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, "%.2f", fs_round_cents(v));
}

static void print_csv_rows(FILE *out, const entry *e, size_t n, int rank0)
{
    for (size_t i = 0; i < n; i++) {
        const fs_roi_row *w = &e[i].p.row;
        const fs_roi_result *r = &w->r;
        fs_csv_write_field(out, w->pool);
        fputc(',', out);
        fs_csv_write_field(out, w->gpu);
        fprintf(out, ",%d,%s,%s,%s,%s,", rank0 + (int)i + 1,
                fs_roi_pricing(w), w->term, w->upfront,
                w->rate_basis ? w->rate_basis : "");
        if (!w->plan)
            fprintf(out, "%ld", r->count);
        csv_money(out, w->plan ? r->commitment : NAN);
        csv_money(out, r->upfront_cost);
        csv_money(out, r->on_demand_monthly);
        csv_money(out, r->with_monthly);
        csv_money(out, r->savings_monthly);
        fprintf(out, ",%.4f,", r->savings_pct);
        if (!isnan(r->break_even_months))
            fprintf(out, "%.2f", r->break_even_months);
        csv_money(out, r->npv);
        fputc('\n', out);
    }
}

static void json_money(FILE *out, const char *key, double v)
{
    if (isnan(v))
        fprintf(out, ", \"%s\": null", key);
    else
        fprintf(out, ", \"%s\": %.2f", key, fs_round_cents(v));
}

static void print_json_rows(FILE *out, const entry *e, size_t n,
                            int *first)
{
    for (size_t i = 0; i < n; i++) {
        const fs_roi_row *w = &e[i].p.row;
        const fs_roi_result *r = &w->r;
        fputs(*first ? "  {\"pool\": " : ",\n  {\"pool\": ", out);
        *first = 0;
        fs_json_write_string(out, w->pool);
        fputs(", \"gpu\": ", out);
        fs_json_write_string(out, w->gpu);
        fprintf(out, ", \"rank\": %zu, \"pricing\": \"%s\", \"term\": "
                "\"%s\", \"upfront\": \"%s\", \"rate_basis\": \"%s\", "
                "\"recommended_count\": ", i + 1,
                fs_roi_pricing(w), w->term, w->upfront,
                w->rate_basis ? w->rate_basis : "");
        if (w->plan)
            fputs("null", out);
        else
            fprintf(out, "%ld", r->count);
        json_money(out, "commitment_usd_h", w->plan ? r->commitment : NAN);
        json_money(out, "upfront_cost_usd", r->upfront_cost);
        json_money(out, "on_demand_cost_usd", r->on_demand_monthly);
        json_money(out, "with_reservation_cost_usd", r->with_monthly);
        json_money(out, "estimated_monthly_savings_usd", r->savings_monthly);
        fprintf(out, ", \"estimated_savings_pct\": %.10g", r->savings_pct);
        if (isnan(r->break_even_months))
            fputs(", \"break_even_months\": null", out);
        else
            fprintf(out, ", \"break_even_months\": %.10g",
                    r->break_even_months);
        json_money(out, "npv_usd", r->npv);
        fputc('}', out);
    }
}

/* The priced entries first (sorted), those of pool `pool` only. */
static size_t pool_entries(entry *all, size_t n, const char *pool,
                           entry *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(all[i].p.row.pool, pool))
            out[k++] = all[i];
    qsort(out, k, sizeof *out, by_cost);
    return k;
}

/* Prints what entries e[0..n) hold, by pool in the order stored. */
static void print_all(FILE *out, int fmt, entry *e, size_t n, size_t npools)
{
    entry *one = calloc(NOPTIONS, sizeof *one);
    int first = 1;
    if (!one)
        return;
    if (fmt == FS_ROI_CSV)
        fputs("pool,gpu,rank,pricing,term,upfront,rate_basis,"
              "recommended_count,commitment_usd_h,upfront_cost_usd,"
              "on_demand_cost_usd,with_reservation_cost_usd,"
              "estimated_monthly_savings_usd,estimated_savings_pct,"
              "break_even_months,npv_usd\n", out);
    else if (fmt == FS_ROI_JSON)
        fputs("[\n", out);
    else
        fputs(fmt == FS_ROI_MARKDOWN
              ? "Every term and payment option, cheapest first (per month: "
                "730-hour run rates, upfront amortized).\n"
              : "every term and payment option, cheapest first; per month: "
                "730-hour run rates, upfront amortized\n", out);
    for (size_t p = 0; p < npools; p++) {
        size_t k = pool_entries(e, n, e[p].p.row.pool, one), ok = 0;
        while (ok < k && one[ok].p.ok)
            ok++;
        for (size_t i = ok; i < k && (fmt == FS_ROI_CSV ||
                                      fmt == FS_ROI_JSON); i++)
            fprintf(stderr, "fleetsim roi: pool %s: %s %s not priced: %s\n",
                    one[i].p.row.pool, one[i].p.row.term,
                    one[i].p.row.plan ? "savings plan"
                                      : one[i].p.row.upfront, one[i].p.note);
        if (fmt == FS_ROI_CSV)
            print_csv_rows(out, one, ok, 0);
        else if (fmt == FS_ROI_JSON)
            print_json_rows(out, one, ok, &first);
        else if (ok > 0)
            print_text(out, one, k, fmt == FS_ROI_MARKDOWN);
        else
            fprintf(out, "\npool %s: no option could be priced (%s)\n",
                    one[0].p.row.pool, one[0].p.note);
    }
    if (fmt == FS_ROI_JSON)
        fputs(first ? "]\n" : "\n]\n", out);
    free(one);
}

int fs_roi_print_options(FILE *out, int fmt, fs_store *s, long run,
                         const fs_roi_query *base, size_t *npools,
                         fs_error *err)
{
    entry *e = NULL;
    size_t np = 0, n = 0;
    for (int o = 0; o < NOPTIONS; o++) {
        fs_roi_query q = *base;
        q.term_months = options[o].term_months;
        q.upfront_kind = options[o].upfront_kind;
        q.plan = options[o].plan;
        fs_roi_pool *pools;
        size_t k;
        if (fs_roi_for_run(s, run, &q, &pools, &k, err)) {
            free(e);
            return -1;
        }
        if (o == 0) {
            np = k;
            e = calloc(np * NOPTIONS + 1, sizeof *e);
            if (!e) {
                free(pools);
                return fs_error_set(err, "out of memory");
            }
        }
        for (size_t i = 0; i < k && i < np; i++)
            e[n++] = (entry){pools[i], o};
        free(pools);
    }
    *npools = np;
    if (np > 0)
        print_all(out, fmt, e, n, np);
    free(e);
    return 0;
}
