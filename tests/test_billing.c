/* test_billing.c -- calendar months and billing sums, exact to the cent. */
#include "tests/check.h"
#include "models/billing.h"

#include <string.h>

static time_t jan1_2026(void)
{
    struct tm tm = {.tm_year = 126, .tm_mon = 0, .tm_mday = 1};
    return timegm(&tm);
}

int main(void)
{
    const double day = 86400;
    fs_calendar cal;
    fs_meter m;

    /* January + February 2026: 744 h and 672 h. */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 59 * day) == 0);
    CHECK(cal.nmonths == 2);
    CHECK(strcmp(cal.label[0], "2026-01") == 0);
    CHECK(strcmp(cal.label[1], "2026-02") == 0);
    CHECK(cal.bound[1] == 31 * day);
    CHECK_NEAR(fs_calendar_months(&cal), 2.0, 1e-12);
    fs_meter_init(&m, &cal);
    /* Two on-demand instances at $4.10 for the whole horizon. */
    for (int i = 0; i < 2; i++)
        fs_bill_on_demand(&m, &cal, 0, 59 * day, 4.10, 1, 60);
    CHECK(fs_round_cents(m.usd[0]) == 6100.80);   /* 2 x 744 x 4.10 */
    CHECK(fs_round_cents(m.usd[1]) == 5510.40);   /* 2 x 672 x 4.10 */
    CHECK_NEAR(m.gpu_hours[0], 1488, 1e-9);
    /* A 20-second launch pays the 60 s minimum; one spanning midnight of
     * Jan 31 splits across months. */
    fs_meter_free(&m);
    fs_meter_init(&m, &cal);
    fs_bill_on_demand(&m, &cal, 100, 120, 36.00, 8, 60);
    CHECK_NEAR(m.usd[0], 0.60, 1e-12);
    fs_bill_on_demand(&m, &cal, 31 * day - 1800, 31 * day + 5400, 10.0, 1,
                      60);
    CHECK_NEAR(m.usd[0], 0.60 + 5.0, 1e-9);
    CHECK_NEAR(m.usd[1], 15.0, 1e-9);
    fs_meter_free(&m);

    /* Reserved: 3 instances, 1y partial upfront: $1.50/h + $6,000 per
     * instance up front, spread over 12 months. */
    fs_meter_init(&m, &cal);
    fs_bill_reserved(&m, &cal, 3, 1.50, 6000, 12, 8);
    CHECK(fs_round_cents(m.usd[0]) == 3 * (744 * 1.50 + 500));   /* 4848.00 */
    CHECK(fs_round_cents(m.usd[1]) == 3 * (672 * 1.50 + 500));   /* 4524.00 */
    CHECK_NEAR(m.gpu_hours[0], 3 * 8 * 744, 1e-9);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    /* A partial month: Jan 1 + 45 days ends Feb 15 00:00, 14 days of
     * February: the reserved upfront share is 14/28 of a month. */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 45 * day) == 0);
    CHECK_NEAR(fs_calendar_months(&cal), 1.5, 1e-12);
    fs_meter_init(&m, &cal);
    fs_bill_reserved(&m, &cal, 1, 2.00, 1200, 12, 1);
    CHECK(fs_round_cents(m.usd[0]) == 744 * 2.00 + 100);
    CHECK(fs_round_cents(m.usd[1]) == 336 * 2.00 + 50);
    fs_bill_on_demand(&m, &cal, 0, 45 * day, 1.0, 1, 60);
    CHECK(fs_round_cents(m.usd[1]) == 336 * 3.00 + 50);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    /* A start mid-month and a leap year: 2028-02-15 + 30 days. */
    struct tm tm = {.tm_year = 128, .tm_mon = 1, .tm_mday = 15};
    CHECK(fs_calendar_init(&cal, timegm(&tm), 30 * day) == 0);
    CHECK(cal.nmonths == 2);
    CHECK(strcmp(cal.label[0], "2028-02") == 0);
    CHECK(cal.bound[1] == 15 * day);   /* Feb 2028 has 29 days */
    CHECK_NEAR(fs_calendar_months(&cal), 15.0 / 29 + 15.0 / 31, 1e-12);
    CHECK(fs_calendar_month(&cal, 15 * day, 1) == 0);
    CHECK(fs_calendar_month(&cal, 15 * day, 0) == 1);
    fs_calendar_free(&cal);
    CHECK(fs_round_cents(0.125) == 0.13);
    CHECK(fs_round_cents(2.675000001) == 2.68);
    return check_report("billing");
}
