/* test_roi.c -- the ROI arithmetic (models/purchase/roi.c) on demands whose best
 * reservation and costs are worked out by hand in the comments. */
#include "tests/check.h"
#include "models/purchase/roi.h"

/* 3 instances every hour of a year, $1.00 on demand, $0.60 reserved:
 * reserve 3, save 40% = 3 x 0.40 x 730 = $876.00 a month. */
static void test_flat(void)
{
    double d[8760];
    for (int h = 0; h < 8760; h++)
        d[h] = 3;
    fs_roi_prices p = {1.00, 0.60, 0, 12, 0.08};
    fs_roi_result r;
    fs_roi_recommend(d, 8760, &p, &r);
    CHECK(r.count == 3);
    CHECK_NEAR(r.on_demand_monthly, 3 * 730.0, 1e-9);
    CHECK_NEAR(r.with_monthly, 3 * 0.6 * 730, 1e-9);
    CHECK_NEAR(r.savings_monthly, 876.0, 1e-9);
    CHECK_NEAR(r.savings_pct, 40.0, 1e-9);
    CHECK_NEAR(r.recurring_monthly, 1314.0, 1e-9);
    CHECK_NEAR(r.utilization, 1.0, 1e-12);
    CHECK_NEAR(r.break_even_months, 0, 0);
    CHECK(r.months == 12);
    CHECK_NEAR(r.cash_flow[0], 876.0, 1e-9);
    CHECK_NEAR(r.cash_flow[11], 876.0, 1e-9);
    CHECK(r.daily_count == 3);
    /* NPV: sum over m of 876 / 1.08^(m/12) */
    double npv = 0;
    for (int m = 0; m < 12; m++)
        npv += 876.0 / pow(1.08, m / 12.0);
    CHECK_NEAR(r.npv, npv, 1e-6);

    /* All upfront: $0.60 x 8760 h = $5,256 per instance up front, no hourly
     * rate: the same amortized cost, $15,768 up front for 3; the cash
     * saving is $2,190 a month (all of on demand), so break-even at
     * 15768 / 2190 = 7.2 months; month 1's flow 2190 - 15768. */
    fs_roi_prices all = {1.00, 0, 0.60 * 8760, 12, 0.0};
    fs_roi_recommend(d, 8760, &all, &r);
    CHECK(r.count == 3);
    CHECK_NEAR(r.upfront_cost, 15768.0, 1e-9);
    CHECK_NEAR(r.recurring_monthly, 0, 0);
    CHECK_NEAR(r.savings_monthly, 876.0, 1e-9);
    CHECK_NEAR(r.break_even_months, 7.2, 1e-12);
    CHECK_NEAR(r.cash_flow[0], 2190.0 - 15768.0, 1e-9);
    CHECK_NEAR(r.npv, 12 * 2190.0 - 15768.0, 1e-9);   /* rate 0 */
    /* The amortized view beside it: the upfront spread over the term,
     * 15768 / 12 = 1314 a month, so every month saves the $876 the
     * amortized cost does; both views add up to the same 12 months. */
    double cash = 0, amortized = 0;
    for (int m = 0; m < 12; m++) {
        CHECK_NEAR(r.amortized_flow[m], 876.0, 1e-9);
        cash += r.cash_flow[m];
        amortized += r.amortized_flow[m];
    }
    CHECK_NEAR(cash, amortized, 1e-6);
    CHECK_NEAR(r.cash_flow[1], 2190.0, 1e-9);
}

/* A day of 12 hours at 10 and 12 at 2, $1.00 on demand.  The k-th
 * reserved instance is busy in the hours whose demand reaches k: instances
 * 1-2 all day, 3-10 half of it.  At $0.60 reserved (more than half the
 * on-demand price), reserving 3..10 loses: best k = 2.  The daily average
 * is 6 every hour, so daily averages choose 6.  Costs per day:
 * k=2: 2 x 24 x 0.6 + 12 x 8 x 1 = 28.8 + 96 = 124.8;
 * k=6: 6 x 24 x 0.6 + 12 x 4 = 86.4 + 48 = 134.4;  all on demand: 144.
 * At $0.40 reserved (less than half): best k = 10 (96 + 0 = 96). */
static void test_diurnal(void)
{
    double d[48];
    for (int h = 0; h < 48; h++)
        d[h] = h % 24 < 12 ? 10 : 2;
    fs_roi_prices p = {1.00, 0.60, 0, 12, 0.08};
    CHECK(fs_roi_best(d, 48, &p) == 2);
    CHECK_NEAR(fs_roi_cost(d, 48, 2, &p), 2 * 124.8, 1e-9);
    CHECK_NEAR(fs_roi_cost(d, 48, 6, &p), 2 * 134.4, 1e-9);
    CHECK_NEAR(fs_roi_cost(d, 48, 0, &p), 2 * 144.0, 1e-9);
    fs_roi_result r;
    fs_roi_recommend(d, 48, &p, &r);
    CHECK(r.count == 2);
    CHECK(r.daily_count == 6);
    CHECK_NEAR(r.with_monthly, 124.8 / 24 * 730, 1e-9);
    CHECK_NEAR(r.daily_monthly, 134.4 / 24 * 730, 1e-9);
    CHECK_NEAR(r.utilization, 1.0, 1e-12);
    fs_roi_prices cheap = {1.00, 0.40, 0, 12, 0.08};
    CHECK(fs_roi_best(d, 48, &cheap) == 10);
    fs_roi_recommend(d, 48, &cheap, &r);
    /* reserved hours used: 12 x 10 + 12 x 2 = 144 of 240 a day */
    CHECK_NEAR(r.utilization, 0.6, 1e-12);
    double avg[30];
    double odd[30];
    for (int h = 0; h < 30; h++)
        odd[h] = h < 24 ? 1 : 4;
    fs_roi_daily_average(odd, 30, avg);
    CHECK_NEAR(avg[0], 1, 0);
    CHECK_NEAR(avg[29], 4, 0);   /* the partial last day: its own hours */
}

/* Savings plan at 25% off $2.00: each hour's spend is 2 x demand.  Demand
 * 4 in 3 hours of 4 and 0 in one: spends 8, 8, 8, 0.  Committing $6/h
 * covers $8 of usage: cost 4 x 6 = 24 (against 24 on demand, no gain);
 * committing 0: 24.  Demand 4 in every hour: commit $6, cost 24 for 32 of
 * usage.  A commitment of $3/h on that: 4 x 3 + 4 x (8 - 4) = 28. */
static void test_plan(void)
{
    double d[4] = {4, 4, 4, 0}, flat[4] = {4, 4, 4, 4};
    CHECK_NEAR(fs_roi_plan_cost(d, 4, 6, 2.0, 0.25), 24, 1e-12);
    CHECK_NEAR(fs_roi_plan_cost(flat, 4, 3, 2.0, 0.25), 28, 1e-12);
    CHECK_NEAR(fs_roi_plan_best(flat, 4, 2.0, 0.25), 6, 1e-12);
    /* 3 hours of 4 and one of 0: the 4th hour wastes $6 of commitment,
     * which the 3 others save ($2 each): even; the smaller one is kept. */
    CHECK_NEAR(fs_roi_plan_best(d, 4, 2.0, 0.25), 0, 1e-12);
    double d5[5] = {4, 4, 4, 4, 0};   /* now 4 x 2 saved > 6 wasted */
    CHECK_NEAR(fs_roi_plan_best(d5, 5, 2.0, 0.25), 6, 1e-12);
    fs_roi_prices p = {2.0, 0, 0, 12, 0};
    fs_roi_result r;
    fs_roi_plan_recommend(d5, 5, 0.25, &p, &r);
    CHECK_NEAR(r.commitment, 6, 1e-12);
    CHECK_NEAR(r.on_demand_monthly, 32.0 / 5 * 730, 1e-9);
    CHECK_NEAR(r.with_monthly, 30.0 / 5 * 730, 1e-9);
    CHECK_NEAR(r.utilization, 0.8, 1e-12);
}

int main(void)
{
    test_flat();
    test_diurnal();
    test_plan();
    return check_report("roi");
}
