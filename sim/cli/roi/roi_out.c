/* roi_out.c -- `fleetsim roi` output (roi_out.h).  Monthly figures are
 * 730-hour run rates and every format says so: the table and Markdown in a
 * heading line, CSV and JSON in the field names' documented meaning
 * (doc/money.md).  A figure that does not exist (break-even that never comes,
 * the utilization of nothing reserved) is null in JSON, empty in CSV, "-"
 * in the table. */
#include "sim/cli/roi/roi_out.h"

#include <math.h>
#include <stdlib.h>
#include "models/purchase/billing.h"
#include "sim/base/textout.h"
#include "models/purchase/purchase.h"
#include "sim/store/store.h"

/* The recommended count, or for a savings plan the commitment. */
static void what_text(const fs_roi_row *w, char *buf, size_t len)
{
    if (w->plan)
        snprintf(buf, len, "commit $%.2f/h (%.1f%% off)", w->r.commitment,
                 100 * w->discount);
    else
        snprintf(buf, len, "reserve %ld x %s, upfront %s", w->r.count,
                 w->term, w->upfront);
}

/* What the reservation is weighed against: on demand, or a spot pool's
 * bill as it was paid. */
static const char *compared_with(const fs_roi_row *w)
{
    return w->vs_spot ? "spot bill" : "on demand";
}

static void json_num(FILE *out, const char *key, double v, int last)
{
    fprintf(out, "\"%s\": ", key);
    if (isnan(v))
        fputs("null", out);
    else
        fprintf(out, "%.10g", v);
    fputs(last ? "" : ", ", out);
}

static void json_money(FILE *out, const char *key, double v)
{
    fprintf(out, "\"%s\": ", key);
    if (isnan(v))
        fputs("null, ", out);
    else
        fprintf(out, "%.2f, ", fs_round_cents(v));
}

static void print_json_row(FILE *out, const fs_roi_row *w)
{
    const fs_roi_result *r = &w->r;
    fputs("  {\"pool\": ", out);
    fs_json_write_string(out, w->pool);
    fputs(", \"gpu\": ", out);
    fs_json_write_string(out, w->gpu);
    fprintf(out, ", \"pricing\": \"%s\", ",
            fs_roi_pricing(w));
    if (w->plan)
        fputs("\"recommended_count\": null, ", out);
    else
        fprintf(out, "\"recommended_count\": %ld, ", r->count);
    fprintf(out, "\"term\": \"%s\", \"upfront\": \"%s\", ", w->term,
            w->upfront);
    if (w->plan) {
        json_money(out, "commitment_usd_h", r->commitment);
        json_num(out, "discount", w->discount, 0);
    }
    json_num(out, "on_demand_usd_h", w->on_demand_usd_h, 0);
    if (!w->plan)
        json_num(out, "reserved_usd_h", w->reserved_usd_h, 0);
    fputs("\"price_source\": ", out);
    fs_json_write_string(out, w->price_source);
    fprintf(out, ", \"rate_basis\": \"%s\", \"compared_with\": \"%s\", ",
            w->rate_basis ? w->rate_basis : "", compared_with(w));
    json_num(out, "demand_hours", w->hours, 0);
    json_money(out, "on_demand_run_usd", w->baseline_usd);
    json_money(out, "run_billed_usd", w->billed_usd);
    json_money(out, "upfront_cost_usd", r->upfront_cost);
    json_money(out, "recurring_monthly_cost_usd", r->recurring_monthly);
    json_money(out, "on_demand_cost_usd", r->on_demand_monthly);
    json_money(out, "with_reservation_cost_usd", r->with_monthly);
    json_money(out, "estimated_monthly_savings_usd", r->savings_monthly);
    json_num(out, "estimated_savings_pct", r->savings_pct, 0);
    json_num(out, "break_even_months", r->break_even_months, 0);
    json_num(out, "estimated_reservation_utilization", r->utilization, 0);
    json_money(out, "npv_usd", r->npv);
    if (w->plan)
        json_money(out, "daily_average_commitment_usd_h",
                   r->daily_commitment);
    if (r->daily_count < 0)
        fputs("\"daily_average_count\": null, ", out);
    else
        fprintf(out, "\"daily_average_count\": %ld, ", r->daily_count);
    json_money(out, "daily_average_cost_usd", r->daily_monthly);
    fputs("\"cash_flow\": [", out);
    for (int m = 0; m < r->months; m++)
        fprintf(out, "%s{\"month\": %d, \"usd\": %.2f, \"amortized_usd\": "
                "%.2f}", m ? ", " : "", m + 1, fs_round_cents(r->cash_flow[m]),
                fs_round_cents(r->amortized_flow[m]));
    fputs("]}", out);
}

static void csv_num(FILE *out, double v, const char *fmt)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, fmt, v);
}

static void print_csv(FILE *out, const fs_roi_row *rows, size_t n)
{
    fputs("pool,gpu,pricing,recommended_count,commitment_usd_h,term,upfront,"
          "upfront_cost_usd,recurring_monthly_cost_usd,on_demand_cost_usd,"
          "with_reservation_cost_usd,estimated_monthly_savings_usd,"
          "estimated_savings_pct,break_even_months,"
          "estimated_reservation_utilization,npv_usd,daily_average_count,"
          "daily_average_cost_usd,rate_basis,compared_with,"
          "on_demand_run_usd,run_billed_usd\n", out);
    for (size_t i = 0; i < n; i++) {
        const fs_roi_row *w = &rows[i];
        const fs_roi_result *r = &w->r;
        fs_csv_write_field(out, w->pool);
        fputc(',', out);
        fs_csv_write_field(out, w->gpu);
        fprintf(out, ",%s,", fs_roi_pricing(w));
        if (!w->plan)
            fprintf(out, "%ld", r->count);
        csv_num(out, w->plan ? r->commitment : NAN, "%.2f");
        fprintf(out, ",%s,%s", w->term, w->upfront);
        csv_num(out, r->upfront_cost, "%.2f");
        csv_num(out, r->recurring_monthly, "%.2f");
        csv_num(out, r->on_demand_monthly, "%.2f");
        csv_num(out, r->with_monthly, "%.2f");
        csv_num(out, r->savings_monthly, "%.2f");
        csv_num(out, r->savings_pct, "%.4f");
        csv_num(out, r->break_even_months, "%.2f");
        csv_num(out, r->utilization, "%.4f");
        csv_num(out, r->npv, "%.2f");
        fputc(',', out);
        if (r->daily_count >= 0)
            fprintf(out, "%ld", r->daily_count);
        else if (w->plan && !isnan(r->daily_commitment))
            fprintf(out, "$%.2f/h", r->daily_commitment);
        csv_num(out, r->daily_monthly, "%.2f");
        fprintf(out, ",%s,%s", w->rate_basis ? w->rate_basis : "",
                compared_with(w));
        csv_num(out, fs_round_cents(w->baseline_usd), "%.2f");
        csv_num(out, fs_round_cents(w->billed_usd), "%.2f");
        fputc('\n', out);
    }
}

const char *fs_roi_pricing(const fs_roi_row *w)
{
    const fs_purchase_option *o =
        fs_purchase_committing(w->plan ? FS_COMMIT_SPEND : FS_COMMIT_COUNT);
    return o ? o->name : "?";
}

const char *fs_roi_money(double v, char *buf, size_t len)
{
    if (isnan(v))
        return "-";
    char t[64];
    snprintf(buf, len, "$%s", fs_format_thousands(v, 2, t, sizeof t));
    return buf;
}

void fs_roi_buys(int plan, double commitment, long count, char *buf,
                 size_t len)
{
    if (plan)
        snprintf(buf, len, "commit $%.2f/h", commitment);
    else
        snprintf(buf, len, "reserve %ld", count);
}

/* The baseline in dollars over the hours sized, and whether it is the
 * run's own bill: the figure a reader can find in the run and its FOCUS
 * export. */
static void baseline_line(FILE *out, const char *row, const fs_roi_row *w)
{
    char a[64], b[64], s[320], what[96];
    snprintf(what, sizeof what, "%s, the %.4g h sized",
             w->vs_spot ? "as run on spot" : "all on demand", w->span_h);
    if (isnan(w->billed_usd))
        snprintf(s, sizeof s, "%s (instances launched, provisioning "
                 "included)", fs_roi_money(w->baseline_usd, a, sizeof a));
    else if (w->billed_is_baseline &&
             fabs(fs_round_cents(w->baseline_usd) -
                  fs_round_cents(w->billed_usd)) < 0.005)
        snprintf(s, sizeof s, "%s: the run's bill for this pool, "
                 "provisioning included", fs_roi_money(w->baseline_usd, a,
                                                sizeof a));
    else
        snprintf(s, sizeof s, "%s (instances launched, provisioning "
                 "included); the run billed %s%s",
                 fs_roi_money(w->baseline_usd, a, sizeof a),
                 fs_roi_money(w->billed_usd, b, sizeof b), w->billed_is_baseline
                 ? " (the difference: minimum charges per launch)" : "");
    fprintf(out, row, what, s);
}

static void print_block(FILE *out, const fs_roi_row *w, int md)
{
    const fs_roi_result *r = &w->r;
    char *pool = fs_text_escape(w->pool), what[128], daily[64], a[64];
    const char *row = md ? "| %s | %s |\n" : "  %-38s %s\n";
    what_text(w, what, sizeof what);
    fs_roi_buys(w->plan, w->r.daily_commitment, w->r.daily_count, daily,
                sizeof daily);
    fprintf(out, md ? "\n### pool %s (%s): %s\n\n| | |\n|---|---|\n"
                    : "pool %s (%s): %s\n", pool ? pool : "?", w->gpu, what);
    free(pool);
    char src[512];
    const char *alt = w->vs_spot ? "spot as paid" : "on demand";
    if (w->plan)
        snprintf(src, sizeof src, "$%.4f/h %s, %.0f demand hours (%s)",
                 w->on_demand_usd_h, alt, w->hours, w->price_source);
    else
        snprintf(src, sizeof src, "$%.4f/h %s, $%.4f/h reserved (upfront "
                 "amortized), %.0f demand hours (%s)", w->on_demand_usd_h,
                 alt, w->reserved_usd_h, w->hours, w->price_source);
    fprintf(out, row, "priced from", src);
    fprintf(out, row, w->plan ? "discount used" : "reserved rate used",
            w->rate_basis ? w->rate_basis : "-");
    if (w->vs_spot)
        fprintf(out, row, "note", "a spot pool: reserving is weighed "
                "against what the pool paid on spot (interruptions "
                "included), not against on demand");
    baseline_line(out, row, w);
    fprintf(out, row, "upfront", fs_roi_money(r->upfront_cost, a, sizeof a));
    fprintf(out, row, "recurring / month (730 h)",
            fs_roi_money(r->recurring_monthly, a, sizeof a));
    fprintf(out, row, w->vs_spot ? "as run on spot / month (730 h)"
                                 : "all on demand / month (730 h)",
            fs_roi_money(r->on_demand_monthly, a, sizeof a));
    fprintf(out, row, w->plan ? "with the plan / month (730 h)"
                              : "with the reservation / month (730 h)",
            fs_roi_money(r->with_monthly, a, sizeof a));
    char s[320];
    snprintf(s, sizeof s, "%s (%.1f%%)", fs_roi_money(r->savings_monthly, a,
             sizeof a), r->savings_pct);
    fprintf(out, row, "savings / month (730 h)", s);
    if (isnan(r->break_even_months))
        snprintf(s, sizeof s, "not within the %d-month term", r->months);
    else
        snprintf(s, sizeof s, "%.1f months", r->break_even_months);
    fprintf(out, row, "break-even", s);
    if (isnan(r->utilization))
        snprintf(s, sizeof s, "-");
    else
        snprintf(s, sizeof s, "%.1f%%", 100 * r->utilization);
    fprintf(out, row, w->plan ? "commitment used" : "reservation used", s);
    fprintf(out, row, "NPV of the savings", fs_roi_money(r->npv, a, sizeof a));
    if (r->months > 1) {
        char b[64], c2[64];
        snprintf(s, sizeof s, "month 1 %s cash (%s amortized), months 2-%d "
                 "%s each", fs_roi_money(r->cash_flow[0], a, sizeof a),
                 fs_roi_money(r->amortized_flow[0], b, sizeof b), r->months,
                 fs_roi_money(r->cash_flow[1], c2, sizeof c2));
        fprintf(out, row, "cash flow (saving)", s);
    }
    snprintf(s, sizeof s, "%s: %s / month (730 h)", daily,
             fs_roi_money(r->daily_monthly, a, sizeof a));
    fprintf(out, row, "sized on daily averages", s);
}

void fs_roi_print(FILE *out, int format, const fs_roi_row *rows, size_t n)
{
    if (format == FS_ROI_CSV) {
        print_csv(out, rows, n);
        return;
    }
    if (format == FS_ROI_JSON) {
        fputs("[\n", out);
        for (size_t i = 0; i < n; i++) {
            print_json_row(out, &rows[i]);
            fputs(i + 1 < n ? ",\n" : "\n", out);
        }
        fputs("]\n", out);
        return;
    }
    int md = format == FS_ROI_MARKDOWN;
    fputs(md ? "Monthly figures are 730-hour run rates, sized against the "
               "run's hour-by-hour instance usage.\n"
             : "monthly figures: 730-hour run rates; sized against the "
               "run's hour-by-hour instance usage\n", out);
    for (size_t i = 0; i < n; i++) {
        if (!md)
            fputc('\n', out);
        print_block(out, &rows[i], md);
    }
}
