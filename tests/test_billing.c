/* test_billing.c -- calendar months and billing sums, exact to the cent. */
#include "tests/check.h"
#include "models/purchase/billing.h"

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
     * instance up front, spread over the term's 8,760 hours. */
    fs_meter_init(&m, &cal);
    fs_bill_reserved(&m, &cal, 3, 1.50, 6000, 12, 0, 8);
    CHECK(fs_round_cents(m.usd[0]) == 4876.77);   /* 3 (1116 + 6000 x 744/8760) */
    CHECK(fs_round_cents(m.usd[1]) == 4404.82);   /* 3 (1008 + 6000 x 672/8760) */
    CHECK_NEAR(m.gpu_hours[0], 3 * 8 * 744, 1e-9);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    /* A partial month: Jan 1 + 45 days ends Feb 15 00:00, 14 days of
     * February: the upfront's share is its 336 hours of the 8,760. */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 45 * day) == 0);
    CHECK_NEAR(fs_calendar_months(&cal), 1.5, 1e-12);
    fs_meter_init(&m, &cal);
    fs_bill_reserved(&m, &cal, 1, 2.00, 8760, 12, 0, 1);
    CHECK(fs_round_cents(m.usd[0]) == 744 * 2.00 + 744);
    CHECK(fs_round_cents(m.usd[1]) == 336 * 2.00 + 336);
    fs_bill_on_demand(&m, &cal, 0, 45 * day, 1.0, 1, 60);
    CHECK(fs_round_cents(m.usd[1]) == 336 * 4.00);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    /* All upfront $12,000 for one year, simulated over exactly its 365
     * days: exactly $12,000.00 over the term, the cash view pays it in the
     * first month.  Over two years without renewal nothing is charged in
     * year 2; with renewal year 2 costs another $12,000.00 and its
     * upfront is paid in the 13th month (2027-01). */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 365 * day) == 0);
    fs_meter_init(&m, &cal);
    fs_bill_reserved(&m, &cal, 1, 0, 12000, 12, 0, 1);
    double sum = 0, cash[26] = {0};
    for (size_t k = 0; k < m.nmonths; k++)
        sum += m.usd[k];
    CHECK(fs_round_cents(sum) == 12000.00);
    CHECK(fs_round_cents(m.usd[0]) == 1019.18);   /* 12000 x 744 / 8760 */
    fs_reserved_cash(cash, &cal, 1, 12000, 12, 0);
    CHECK(cash[0] == 12000 && cash[1] == 0);
    fs_meter_free(&m);
    fs_calendar_free(&cal);
    for (int renew = 0; renew < 2; renew++) {
        CHECK(fs_calendar_init(&cal, jan1_2026(), 730 * day) == 0);
        CHECK(cal.nmonths == 24);
        fs_meter_init(&m, &cal);
        fs_bill_reserved(&m, &cal, 2, 0, 12000, 12, renew, 1);
        double y1 = 0, y2 = 0;
        for (size_t k = 0; k < m.nmonths; k++)
            *(k < 12 ? &y1 : &y2) += m.usd[k];
        CHECK(fs_round_cents(y1) == 24000.00);
        CHECK(fs_round_cents(y2) == (renew ? 24000.00 : 0));
        CHECK(m.usd[12] == (renew ? m.usd[0] : 0));
        memset(cash, 0, sizeof cash);
        fs_reserved_cash(cash, &cal, 2, 12000, 12, renew);
        CHECK(cash[0] == 24000 && cash[12] == (renew ? 24000 : 0));
        fs_meter_free(&m);
        fs_calendar_free(&cal);
    }
    /* 3 years are 26,280 hours; a term of 0 is no term (the horizon). */
    CHECK(fs_term_hours(36) == 26280 && fs_term_hours(12) == 8760);

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
