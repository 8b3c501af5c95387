/* test_purchase.c -- the purchase options through their table, without a
 * scenario file or a fleet: the registry, terms resolved from keys (with
 * the refusals of reserved upfront payments), and exact bills to the cent
 * for a termination, the horizon's cut and a reservation's every hour. */
#include "tests/check.h"
#include "models/catalog/catalog.h"
#include "models/purchase/purchase.h"

#include <time.h>

/* ---- A reader over a list of keys, standing in for the scenario ------- */

typedef struct keys {
    const char *const *kv;      /* key, value, ..., NULL */
    double catalog;             /* the catalog's rate; NaN: none */
    int column;                 /* the column asked for; -1: none */
    int published;              /* the catalog publishes upfront options:
                                   partial $0.90/h + $8,000, all $17,000 */
    char msg[512];              /* "key: why" or "missing what" */
} keys;

static const char *kv_value(void *ctx, const char *key)
{
    const keys *k = ctx;
    for (const char *const *p = k->kv; *p; p += 2)
        if (strcmp(*p, key) == 0)
            return p[1];
    return NULL;
}

static int kv_bad(void *ctx, const char *key, const char *why)
{
    keys *k = ctx;
    snprintf(k->msg, sizeof k->msg, "%s: %s", key ? key : "pool", why);
    return -1;
}

static int kv_missing(void *ctx, const char *what)
{
    keys *k = ctx;
    snprintf(k->msg, sizeof k->msg, "missing %s", what);
    return -1;
}

static int kv_price(void *ctx, double *usd)
{
    const char *v = kv_value(ctx, "price");
    if (!v)
        return 0;
    *usd = atof(v);
    return 1;
}

static int kv_catalog(void *ctx, int column, double *usd, char *source,
                      size_t len)
{
    keys *k = ctx;
    k->column = column;
    if (isnan(k->catalog))
        return kv_missing(ctx, "price (no catalog rate)");
    *usd = k->catalog;
    snprintf(source, len, "catalog test:box");
    return 0;
}

static int kv_reserved(void *ctx, int term, int upfront, double *hourly,
                       double *upfront_usd, char *source, size_t len)
{
    keys *k = ctx;
    (void)term;
    if (!k->published || upfront == FS_UPFRONT_NONE)
        return 0;   /* none: the catalog's rate column */
    *hourly = upfront == FS_UPFRONT_PARTIAL ? 0.90 : 0;
    *upfront_usd = upfront == FS_UPFRONT_PARTIAL ? 8000 : 17000;
    snprintf(source, len, "catalog test:box, published");
    return 1;
}

static int kv_plan_discount(void *ctx, int term, double *discount)
{
    keys *k = ctx;
    (void)term;
    if (!k->published)
        return 0;
    *discount = 0.25;
    return 1;
}

/* Resolves option name's terms from kv (catalog rate as given): 0 or -1,
 * the message in k->msg. */
static int resolve(const char *name, const char *const *kv, double catalog,
                   fs_purchase_terms *t, keys *k)
{
    *k = (keys){.kv = kv, .catalog = catalog, .column = -1};
    const fs_purchase_reader rd = {
        .ctx = k, .value = kv_value, .bad = kv_bad, .missing = kv_missing,
        .price = kv_price, .catalog_price = kv_catalog,
        .catalog_reserved = kv_reserved,
        .catalog_plan_discount = kv_plan_discount, .max_price = 10000};
    memset(t, 0, sizeof *t);
    return fs_purchase_find(name)->resolve(&rd, t);
}

static time_t jan1_2026(void)
{
    struct tm tm = {.tm_year = 126, .tm_mon = 0, .tm_mday = 1};
    return timegm(&tm);
}

/* ---- The registry ----------------------------------------------------- */

static void test_registry(void)
{
    const fs_purchase_option *od = fs_purchase_find("on-demand");
    const fs_purchase_option *ri = fs_purchase_find("reserved");
    CHECK(od && ri && od != ri);
    CHECK(fs_purchase_find("Reserved") == ri);
    CHECK(fs_purchase_find("barter") == NULL);
    CHECK(fs_purchase_find("") == NULL);
    CHECK(fs_purchase_options[0] == od);   /* the default comes first */
    int n = 0;
    for (const fs_purchase_option *const *o = fs_purchase_options; *o;
         o++, n++) {
        const fs_purchase_option *p = *o;
        CHECK(fs_purchase_find(p->name) == p);
        CHECK(strcmp(p->focus_category, "Standard") == 0 ||
              strcmp(p->focus_category, "Committed") == 0 ||
              strcmp(p->focus_category, "Dynamic") == 0 ||
              strcmp(p->focus_category, "Other") == 0);   /* FOCUS 1.2 */
        CHECK(p->keys && p->keys[0].name);   /* every option has keys */
        CHECK(p->bill_label && p->bill_label[0]);   /* the report's words */
        for (const fs_key_doc *k = p->keys; k->name; k++)
            CHECK(k->type && k->help && fs_purchase_has_key(p, k->name));
        CHECK(p->resolve && p->terminate);   /* cut, finish optional */
    }
    CHECK(n >= 2);
    CHECK(strcmp(od->focus_category, "Standard") == 0);
    CHECK(strcmp(ri->focus_category, "Committed") == 0);
    CHECK(od->fixed_count == NULL && ri->fixed_count != NULL);
    /* a spot bill never reads as on demand (the report's label) */
    CHECK(strcmp(od->bill_label, "all on demand") == 0);
    CHECK(strcmp(fs_purchase_find("spot")->bill_label,
                 "all on spot, as paid") == 0);
    /* the catalog's price columns in messages, asked of the registry */
    CHECK(strcmp(fs_purchase_column_words(FS_PRICE_ON_DEMAND), "on-demand")
          == 0);
    CHECK(strcmp(fs_purchase_column_words(FS_PRICE_SPOT), "spot") == 0);
    CHECK(strcmp(fs_purchase_column_words(FS_PRICE_RESERVED_3Y),
                 "3-year reserved") == 0);
    CHECK(fs_purchase_committing(FS_COMMIT_NONE) == od);

    /* The keys the scenario accepts for each, and whose a key is. */
    CHECK(fs_purchase_has_key(od, "min_billed"));
    CHECK(!fs_purchase_has_key(od, "term"));
    static const char *const rk[] = {"term", "upfront", "upfront_price"};
    for (int i = 0; i < 3; i++)
        CHECK(fs_purchase_has_key(ri, rk[i]));
    char who[64];
    CHECK(fs_purchase_key_owners("upfront", who, sizeof who) == 1);
    CHECK(strcmp(who, "reserved") == 0);
    CHECK(fs_purchase_key_owners("min_billed", who, sizeof who) >= 1);
    CHECK(strncmp(who, "on-demand", 9) == 0);
    CHECK(fs_purchase_key_owners("gpu", who, sizeof who) == 0);

    /* A miss: an option of the contract yet to come, or a typo.  (Checked
     * as prefixes, so that registering an option changes no test here.) */
    char why[256];
    const fs_purchase_option *spot = fs_purchase_find("spot");
    CHECK(spot && strcmp(spot->focus_category, "Dynamic") == 0);
    CHECK(spot && spot->fixed_count != NULL);
    CHECK(fs_purchase_key_owners("interruption", who, sizeof who) == 1);
    CHECK(strcmp(who, "spot") == 0);
    fs_purchase_why_unknown("resrved", why, sizeof why);
    CHECK_CONTAINS(why, "'resrved' is not one of on-demand, reserved");
    CHECK_CONTAINS(why, " (did you mean 'reserved'?)");
    fs_purchase_why_unknown("barter", why, sizeof why);
    CHECK_CONTAINS(why, "'barter' is not one of on-demand, reserved");
    CHECK(strstr(why, "did you mean") == NULL);
}

/* ---- Terms from keys -------------------------------------------------- */

static void test_resolve(void)
{
    fs_purchase_terms t;
    keys k;

    /* On-demand: the minimum defaults to 60 s; price key or catalog. */
    static const char *const od1[] = {"price", "4.10", NULL};
    CHECK(resolve("on-demand", od1, NAN, &t, &k) == 0);
    CHECK(t.price == 4.10 && t.min_billed_s == 60 && k.column == -1);
    CHECK(strcmp(t.price_source, "price key") == 0);
    static const char *const od2[] = {"min_billed", "2m", NULL};
    CHECK(resolve("on-demand", od2, 3.5, &t, &k) == 0);
    CHECK(t.price == 3.5 && t.min_billed_s == 120);
    CHECK(k.column == FS_PRICE_ON_DEMAND);
    CHECK(strcmp(t.price_source, "catalog test:box") == 0);
    static const char *const od3[] = {"min_billed", "soon", NULL};
    CHECK(resolve("on-demand", od3, 3.5, &t, &k) < 0);
    CHECK(strncmp(k.msg, "min_billed: ", 12) == 0);

    /* Reserved from the catalog's no-upfront rate ($2.088/h for 1 year):
     * none keeps it; all pays the term's 8,760 hours at once; partial
     * pays half at once and half by the hour; 3 years asks column 3. */
    static const char *const r1[] = {NULL};
    CHECK(resolve("reserved", r1, 2.088, &t, &k) == 0);
    CHECK(k.column == FS_PRICE_RESERVED_1Y && t.term_months == 12);
    CHECK(t.price == 2.088 && t.upfront_usd == 0);
    static const char *const r2[] = {"upfront", "all", NULL};
    CHECK(resolve("reserved", r2, 2.088, &t, &k) == 0);
    CHECK(t.price == 0);
    CHECK_NEAR(t.upfront_usd, 18290.88, 1e-9);
    static const char *const r3[] = {"term", "3y", "upfront", "partial",
                                     NULL};
    CHECK(resolve("reserved", r3, 1.132, &t, &k) == 0);
    CHECK(k.column == FS_PRICE_RESERVED_3Y && t.term_months == 36);
    CHECK_NEAR(t.price, 0.566, 1e-12);
    CHECK_NEAR(t.upfront_usd, 1.132 * 26280 / 2, 1e-9);

    /* A published upfront option is taken as it is, not derived; the
     * no-upfront rate is the rate column whatever the catalog publishes. */
    {
        keys kp;
        fs_purchase_terms tp;
        const fs_purchase_reader rdp = {
            .ctx = &kp, .value = kv_value, .bad = kv_bad,
            .missing = kv_missing, .price = kv_price,
            .catalog_price = kv_catalog, .catalog_reserved = kv_reserved,
            .catalog_plan_discount = kv_plan_discount, .max_price = 10000};
        static const char *const p1[] = {"upfront", "partial", NULL};
        static const char *const p2[] = {"upfront", "all", NULL};
        static const char *const p3[] = {NULL};
        const char *const *cases[] = {p1, p2, p3};
        const double hourly[] = {0.90, 0, 2.088}, up[] = {8000, 17000, 0};
        for (int c = 0; c < 3; c++) {
            kp = (keys){.kv = cases[c], .catalog = 2.088, .column = -1,
                        .published = 1};
            memset(&tp, 0, sizeof tp);
            CHECK(fs_purchase_find("reserved")->resolve(&rdp, &tp) == 0);
            CHECK(tp.price == hourly[c] && tp.upfront_usd == up[c]);
            CHECK((strstr(tp.price_source, "published") != NULL) == (c < 2));
            CHECK(!strstr(tp.price_source, "derived"));
        }
    }

    /* Reserved with its own payments: no catalog asked. */
    static const char *const r4[] = {"upfront", "partial", "price", "1.20",
                                     "upfront_price", "9000", NULL};
    CHECK(resolve("reserved", r4, NAN, &t, &k) == 0);
    CHECK(t.price == 1.20 && t.upfront_usd == 9000 && k.column == -1);
    static const char *const r5[] = {"upfront", "all", "upfront_price",
                                     "3000", NULL};
    CHECK(resolve("reserved", r5, NAN, &t, &k) == 0);
    CHECK(t.price == 0 && t.upfront_usd == 3000);
    CHECK(strcmp(t.price_source, "upfront_price key") == 0);

    /* The refusals of defect 8, each naming its key. */
    static const char *const b1[] = {"upfront_price", "3000", NULL};
    CHECK(resolve("reserved", b1, 2.0, &t, &k) < 0);
    CHECK(strcmp(k.msg, "upfront_price: there is no upfront payment with "
                 "upfront = none (the default): set upfront = partial or "
                 "all, or remove upfront_price") == 0);
    static const char *const b2[] = {"upfront", "all", "price", "0.30",
                                     "upfront_price", "3000", NULL};
    CHECK(resolve("reserved", b2, 2.0, &t, &k) < 0);
    CHECK_CONTAINS(k.msg, "price: upfront = all pays the whole term up "
                   "front and has no hourly rate");
    static const char *const b3[] = {"upfront", "partial", "upfront_price",
                                     "1500", NULL};
    CHECK(resolve("reserved", b3, 2.0, &t, &k) < 0);
    CHECK_CONTAINS(k.msg, "missing price (upfront = partial with "
                   "upfront_price needs the partial-upfront hourly rate");
    static const char *const b4[] = {"upfront", "all", "price", "1", NULL};
    CHECK(resolve("reserved", b4, 2.0, &t, &k) < 0);
    CHECK_CONTAINS(k.msg, "missing upfront_price (with `price` set");
    static const char *const b5[] = {"term", "3y", "upfront", "all",
                                     "upfront_price", "1e12", NULL};
    CHECK(resolve("reserved", b5, 2.0, &t, &k) < 0);
    CHECK(strcmp(k.msg, "upfront_price: at most $262800000 per instance for "
                 "a 3y term ($10000 an hour for each of its 26280 hours), "
                 "got '1e12'") == 0);
    static const char *const b6[] = {"term", "2y", NULL};
    CHECK(resolve("reserved", b6, 2.0, &t, &k) < 0);
    CHECK(strcmp(k.msg, "term: '2y' is not one of 1y, 3y") == 0);
    static const char *const b7[] = {NULL};
    CHECK(resolve("reserved", b7, NAN, &t, &k) < 0);
    CHECK(strcmp(k.msg, "missing price (no catalog rate)") == 0);
}

/* ---- Bills through the table ------------------------------------------ */

/* Terms by hand, as resolve would leave them. */
static fs_purchase_terms terms(double price, double min_s, int months,
                               double upfront)
{
    fs_purchase_terms t;
    memset(&t, 0, sizeof t);
    t.price = price;
    t.min_billed_s = min_s;
    t.term_months = months;
    t.upfront_usd = upfront;
    return t;
}

static void test_bills(void)
{
    const double day = 86400;
    const fs_purchase_option *od = fs_purchase_find("on-demand");
    const fs_purchase_option *ri = fs_purchase_find("reserved");
    fs_calendar cal;
    fs_meter m;

    /* January + February 2026 (744 h + 672 h). */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 59 * day) == 0);
    CHECK(fs_meter_init(&m, &cal) == 0);
    fs_purchase_bill b = {.meter = &m, .cal = &cal, .gpus = 8};

    /* On-demand, $36/h for 8 GPUs: a 20 s launch that terminates pays the
     * 60 s minimum ($0.60); one that the horizon cuts after 20 s pays its
     * 20 s ($0.20) in February; the pool as such owes nothing. */
    fs_purchase_terms t = terms(36.0, 60, 0, 0);
    od->terminate(&t, &b, 100, 120);
    CHECK(fs_round_cents(m.usd[0]) == 0.60);
    CHECK_NEAR(m.gpu_hours[0], 8 * 20 / 3600.0, 1e-12);
    fs_purchase_cut(od, &t, &b, 59 * day - 20);
    CHECK(fs_round_cents(m.usd[1]) == 0.20);
    fs_purchase_finish(od, &t, &b, 5);
    CHECK(fs_round_cents(m.usd[0]) == 0.60 && fs_round_cents(m.usd[1]) ==
          0.20);
    /* A termination across midnight of Jan 31 splits by the hour: 30 min
     * in January, 90 in February, at $10/h. */
    t = terms(10.0, 60, 0, 0);
    od->terminate(&t, &b, 31 * day - 1800, 31 * day + 5400);
    CHECK(fs_round_cents(m.usd[0]) == 5.60);
    CHECK(fs_round_cents(m.usd[1]) == 15.20);
    /* Up for the whole horizon: every hour, no minimum to add. */
    fs_purchase_cut(od, &t, &b, 0);
    CHECK(fs_round_cents(m.usd[0]) == 7445.60);
    CHECK(fs_round_cents(m.usd[1]) == 6735.20);
    fs_meter_free(&m);

    /* Reserved, 3 instances for 1 year, partial upfront: $1.50/h and
     * $6,000 each up front, spread over the term's 8,760 hours.  Launches
     * and ends cost nothing: every hour of the term is billed. */
    CHECK(fs_meter_init(&m, &cal) == 0);
    t = terms(1.50, 0, 12, 6000);
    ri->terminate(&t, &b, 0, 3600);
    fs_purchase_cut(ri, &t, &b, 0);
    CHECK(m.usd[0] == 0 && m.usd[1] == 0 && m.gpu_hours[0] == 0);
    fs_purchase_finish(ri, &t, &b, 3);
    CHECK(fs_round_cents(m.usd[0]) == 4876.77);   /* 3 (1116 + 6000 x 744 / 8760) */
    CHECK(fs_round_cents(m.usd[1]) == 4404.82);   /* 3 (1008 + 6000 x 672 / 8760) */
    CHECK_NEAR(m.gpu_hours[0], 3 * 8 * 744, 1e-9);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    /* A partial month: 45 days end on Feb 15, 14 of February's 28 days.
     * All upfront, 3 years, $36,000 over 26,280 hours: January's 744 owe
     * $1,019.18 and February's 336 $460.27; no hourly rate. */
    CHECK(fs_calendar_init(&cal, jan1_2026(), 45 * day) == 0);
    CHECK(fs_meter_init(&m, &cal) == 0);
    b = (fs_purchase_bill){.meter = &m, .cal = &cal, .gpus = 1};
    t = terms(0, 0, 36, 36000);
    fs_purchase_finish(ri, &t, &b, 1);
    CHECK(fs_round_cents(m.usd[0]) == 1019.18);
    CHECK(fs_round_cents(m.usd[1]) == 460.27);
    CHECK_NEAR(m.gpu_hours[1], 336, 1e-9);
    /* An on-demand instance cut by the same horizon pays its 336 h of
     * February at $1/h, however short a minimum would have been. */
    t = terms(1.0, 90 * day, 0, 0);
    fs_purchase_cut(od, &t, &b, 0);
    CHECK(fs_round_cents(m.usd[1]) == 796.27);
    fs_meter_free(&m);
    fs_calendar_free(&cal);
}

/* Resolved terms bill as written: 1-year all upfront from a $2.088/h
 * catalog rate is $18,290.88, January's 744 of its 8,760 hours
 * ($1,553.47). */
/* renew = yes: the next term is bought when the first ends inside the
 * horizon; two years of a $8,760 all-upfront 1-year term cost $8,760.00
 * each year with it and nothing in year 2 without it. */
static void test_renew(void)
{
    static const char *const yes[] = {"upfront", "all", "upfront_price",
                                      "8760", "renew", "yes", NULL};
    static const char *const no[] = {"upfront", "all", "upfront_price",
                                     "8760", NULL};
    static const char *const bad[] = {"renew", "maybe", NULL};
    for (int r = 0; r < 2; r++) {
        fs_purchase_terms t;
        keys k;
        fs_calendar cal;
        fs_meter m;
        CHECK(resolve("reserved", r ? yes : no, 2.088, &t, &k) == 0);
        CHECK(fs_reserved_renews(&t) == r);
        CHECK(fs_calendar_init(&cal, jan1_2026(), 730 * 86400.0) == 0);
        CHECK(fs_meter_init(&m, &cal) == 0);
        fs_purchase_bill b = {.meter = &m, .cal = &cal, .gpus = 1};
        fs_purchase_finish(fs_purchase_find("reserved"), &t, &b, 1);
        double y2 = 0;
        for (size_t i = 12; i < m.nmonths; i++)
            y2 += m.usd[i];
        CHECK(fs_round_cents(y2) == (r ? 8760.00 : 0));
        CHECK(fs_round_cents(m.usd[0]) == 744.00);
        fs_meter_free(&m);
        fs_calendar_free(&cal);
    }
    fs_purchase_terms t;
    keys k;
    CHECK(resolve("reserved", bad, 2.088, &t, &k) == -1);
}

static void test_resolved_bill(void)
{
    static const char *const kv[] = {"upfront", "all", NULL};
    fs_purchase_terms t;
    keys k;
    fs_calendar cal;
    fs_meter m;
    CHECK(resolve("reserved", kv, 2.088, &t, &k) == 0);
    CHECK(fs_calendar_init(&cal, jan1_2026(), 31 * 86400) == 0);
    CHECK(fs_meter_init(&m, &cal) == 0);
    fs_purchase_bill b = {.meter = &m, .cal = &cal, .gpus = 1};
    fs_purchase_finish(fs_purchase_find("reserved"), &t, &b, 1);
    CHECK(cal.nmonths == 1 && fs_round_cents(m.usd[0]) == 1553.47);
    fs_meter_free(&m);
    fs_calendar_free(&cal);
}

/* A savings plan at 25% off $1.00/h over 3 hours: one instance up for
 * 1.5 h (ends), one for all 3 (cut): usage worth $2, $1.50 and $1 in the
 * hours.  Committing $2/h (covers $2.667): paid 0.75 x (2 + 1.5 + 1) =
 * $3.375, unused 3 x 2 - 3.375 = $2.625.  Committing $1/h (covers
 * $1.333): hour 1: 1 + 2 - 1.333 = 1.667; hour 2: 1 + 0.1667; hour 3:
 * 0.75 used, 0.25 unused: $3.583 paid, $0.25 unused. */
static void plan_case(const char *commit, double paid, double unused)
{
    const char *const kv[] = {"commitment", commit, "discount", "25%",
                              "price", "1.00", NULL};
    const fs_purchase_option *sp = fs_purchase_find("savings-plan");
    fs_purchase_terms t;
    keys k;
    fs_calendar cal;
    fs_meter m, u;
    CHECK(sp && resolve("savings-plan", kv, NAN, &t, &k) == 0);
    CHECK(fs_calendar_init(&cal, jan1_2026(), 3 * 3600) == 0);
    CHECK(fs_meter_init(&m, &cal) == 0 && fs_meter_init(&u, &cal) == 0);
    void *state = sp->open(&t, &cal);
    CHECK(state != NULL);
    fs_purchase_bill b = {.meter = &m, .cal = &cal, .gpus = 2, .state = state,
                          .unused = &u};
    sp->terminate(&t, &b, 0, 5400);
    fs_purchase_cut(sp, &t, &b, 0);
    fs_purchase_finish(sp, &t, &b, 2);
    CHECK_NEAR(m.usd[0], paid, 1e-9);
    CHECK_NEAR(u.usd[0], unused, 1e-9);
    CHECK_NEAR(m.gpu_hours[0], 2 * 4.5, 1e-9);
    sp->close(state);
    fs_meter_free(&m);
    fs_meter_free(&u);
    fs_calendar_free(&cal);
}

static void test_savings_plan(void)
{
    plan_case("2/h", 3.375, 2.625);
    plan_case("1.00/h", 1 + 2 - 4 / 3.0 + 1 + 1.5 - 4 / 3.0 + 0.75, 0.25);
    fs_purchase_terms t;
    keys k;
    const char *const neg[] = {"commitment", "-1/h", "discount", "0.3",
                               NULL};
    CHECK(resolve("savings-plan", neg, 1.0, &t, &k) == -1);
    CHECK_CONTAINS(k.msg, "commitment: must be more than $0");
    const char *const zero[] = {"commitment", "0", "discount", "0.3", NULL};
    CHECK(resolve("savings-plan", zero, 1.0, &t, &k) == -1);
    CHECK_CONTAINS(k.msg, "commitment: must be more than $0");
    const char *const none[] = {"discount", "0.3", NULL};
    CHECK(resolve("savings-plan", none, 1.0, &t, &k) == -1);
    CHECK_CONTAINS(k.msg, "missing commitment");
    /* No discount and a catalog whose reserved rate is its on-demand
     * rate: no discount to assume. */
    const char *const nodisc[] = {"commitment", "5/h", NULL};
    CHECK(resolve("savings-plan", nodisc, 1.0, &t, &k) == -1);
    CHECK_CONTAINS(k.msg, "missing discount");
}

/* A capacity block through its table: two instances from 2026-01-31
 * 12:00 UTC for a day at $39.33, a run of January and February from Jan 1:
 * its window [30.5 d, 31.5 d), and its bill 2 x 24 h x 39.33 = $1,887.84
 * whatever the instances did, 12 h in each month ($943.92); a block in
 * the run's past, one past the horizon and a zero length refused. */
static void test_capacity_block(void)
{
    const double day = 86400;
    const fs_purchase_option *cb = fs_purchase_find("capacity-block");
    CHECK(cb && cb->windows && cb->finish && cb->fixed_count);
    const char *const kv[] = {"block_start", "2026-01-31 12:00",
                              "block_length", "1d", "price", "39.33", NULL};
    keys k = {.kv = kv, .catalog = NAN, .column = -1};
    fs_purchase_reader rd = {&k, kv_value, kv_bad, kv_missing, kv_price,
                             kv_catalog, kv_reserved, kv_plan_discount,
                             10000, NULL, 59 * day, (long long)jan1_2026()};
    fs_purchase_terms t = {0};
    CHECK(cb->resolve(&rd, &t) == 0);
    double open[4], close[4];
    CHECK(cb->windows(&t, open, close, 4) == 1);
    CHECK(open[0] == 30.5 * day && close[0] == 31.5 * day);
    fs_calendar cal;
    fs_meter m;
    CHECK(fs_calendar_init(&cal, jan1_2026(), 59 * day) == 0);
    CHECK(fs_meter_init(&m, &cal) == 0);
    fs_purchase_bill b = {.meter = &m, .cal = &cal, .gpus = 8};
    cb->terminate(&t, &b, 30.5 * day, 30.6 * day);   /* nothing per launch */
    fs_purchase_finish(cb, &t, &b, 2);
    CHECK(fs_round_cents(m.usd[0]) == 943.92);
    CHECK(fs_round_cents(m.usd[1]) == 943.92);
    CHECK_NEAR(m.gpu_hours[0] + m.gpu_hours[1], 2 * 8 * 24, 1e-9);
    fs_meter_free(&m);
    fs_calendar_free(&cal);

    static const struct { const char *start, *length, *why; } bad[] = {
        {"2025-12-31", "1d", "block_start: '2025-12-31' is in the past of "
                             "the run (it starts 24.0 h later)"},
        {"58d", "2d", "block_start: block 1 ends 1440.0 h after the start, "
                      "past the horizon"},
        {"1d", "0s", "block_length: a block lasts more than 0 s"},
        {"1d, 1d12h", "1d", "block_start: expected a duration"},
        {"1d, 36h", "1d", "block_start: block 2 opens before block 1 ends"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *const kb[] = {"block_start", bad[i].start,
                                  "block_length", bad[i].length, "price",
                                  "39.33", NULL};
        k = (keys){.kv = kb, .catalog = NAN, .column = -1};
        memset(&t, 0, sizeof t);
        CHECK(cb->resolve(&rd, &t) == -1);
        CHECK_CONTAINS(k.msg, bad[i].why);
    }
}

int main(void)
{
    test_capacity_block();
    test_savings_plan();
    test_registry();
    test_resolve();
    test_bills();
    test_resolved_bill();
    test_renew();
    return check_report("purchase");
}
