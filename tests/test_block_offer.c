/* test_block_offer.c -- a capacity block's length as AWS sells it (whole
 * days 1 to 14, then 7-day steps to 182: Amazon EC2 User Guide, "Find and
 * purchase Capacity Blocks") and its cost against on demand
 * (models/purchase/block_offer.c), worked by hand in the comments. */
#include "tests/check.h"
#include "models/purchase/block_offer.h"

static void test_days(void)
{
    CHECK(fs_block_days(1) == 1);          /* an hour: a day at least */
    CHECK(fs_block_days(24) == 1);
    CHECK(fs_block_days(24.5) == 2);
    CHECK(fs_block_days(126) == 6);        /* 5.25 days */
    CHECK(fs_block_days(14 * 24) == 14);
    CHECK(fs_block_days(14 * 24 + 1) == 21);   /* past 14: 7-day steps */
    CHECK(fs_block_days(21 * 24) == 21);
    CHECK(fs_block_days(22 * 24) == 28);
    CHECK(fs_block_days(182 * 24) == 182);
    CHECK(fs_block_days(182 * 24 + 1) == 0);   /* longer than AWS sells */
}

/* 2 instances from 24 h to 150 h: 6 days, 2 x 144 h x $39.33 =
 * $11,327.04; on demand 2 x 126 h x $55.04 = $13,870.08. */
static void test_offer(void)
{
    fs_block_offer o;
    CHECK(fs_block_offer_make(24 * 3600.0, 150 * 3600.0, 2, 39.33, 55.04,
                              &o) == 0);
    CHECK(o.days == 6 && o.count == 2);
    CHECK_NEAR(o.block_usd, 11327.04, 1e-9);
    CHECK_NEAR(o.busy_instance_h, 252, 1e-12);
    CHECK_NEAR(o.on_demand_usd, 13870.08, 1e-9);
    CHECK(fs_block_offer_make(0, 0, 2, 39.33, 55.04, &o) == 1);
    CHECK(fs_block_offer_make(0, 3600, 0, 39.33, 55.04, &o) == 1);
    CHECK(fs_block_offer_make(0, 3600, 65, 39.33, 55.04, &o) == 2);
    CHECK(fs_block_offer_make(0, 183 * 86400.0, 1, 39.33, 55.04, &o) == 2);
    CHECK_NEAR(o.on_demand_usd, 183 * 24 * 55.04, 1e-6);
}

int main(void)
{
    test_days();
    test_offer();
    return check_report("block_offer");
}
