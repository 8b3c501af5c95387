/* test_grammar.c -- the value grammar: units, rejections, calls. */
#include "tests/check.h"
#include "sim/base/error.h"
#include "sim/base/grammar.h"

#include <math.h>
#include <string.h>

static double dur(const char *s)
{
    double v = -1;
    char why[128];
    return fs_parse_duration(s, &v, why, sizeof why) ? NAN : v;
}

static double rate(const char *s)
{
    double v = -1;
    char why[128];
    return fs_parse_rate(s, &v, why, sizeof why) ? NAN : v;
}

int main(void)
{
    char why[256];
    double v;
    long n;
    int b;

    CHECK(dur("250ms") == 0.25);
    CHECK(dur("90s") == 90);
    CHECK(dur("15m") == 900);
    CHECK(dur("4h") == 14400);
    CHECK(dur("30d") == 2592000);
    CHECK(dur("2w") == 1209600);
    CHECK(dur("12") == 12);
    CHECK(dur(" 1.5h ") == 5400);
    CHECK(isnan(dur("-5s")));
    CHECK(isnan(dur("nan")));
    CHECK(isnan(dur("inf")));
    CHECK(isnan(dur("5 parsecs")));
    CHECK(isnan(dur("")));
    CHECK(fs_parse_duration("-1s", &v, why, sizeof why) == -1 &&
          strstr(why, "negative"));

    CHECK(rate("3.2/s") == 3.2);
    CHECK(fabs(rate("100/m") - 100 / 60.0) < 1e-15);
    CHECK(rate("3600/h") == 1);
    CHECK(fabs(rate("1M/d") - 1e6 / 86400) < 1e-12);
    CHECK(rate("2") == 2);
    CHECK(isnan(rate("5/fortnight")));
    CHECK(isnan(rate("-1/s")));
    CHECK(isnan(rate("NaN/s")));

    CHECK(fs_parse_money("$4.10", &v, why, sizeof why) == 0 && v == 4.10);
    CHECK(fs_parse_money("32.77", &v, why, sizeof why) == 0 && v == 32.77);
    CHECK(fs_parse_money("-1", &v, why, sizeof why) == -1);
    CHECK(fs_parse_money("$", &v, why, sizeof why) == -1);

    CHECK(fs_parse_fraction("70%", &v, why, sizeof why) == 0 && v == 0.7);
    CHECK(fs_parse_fraction("0.25", &v, why, sizeof why) == 0 && v == 0.25);
    CHECK(fs_parse_fraction("120%", &v, why, sizeof why) == -1);

    CHECK(fs_parse_count("12", &n, why, sizeof why) == 0 && n == 12);
    CHECK(fs_parse_count("1.5", &n, why, sizeof why) == -1);
    CHECK(fs_parse_count("-3", &n, why, sizeof why) == -1);
    CHECK(fs_parse_bool("yes", &b, why, sizeof why) == 0 && b == 1);
    CHECK(fs_parse_bool("off", &b, why, sizeof why) == 0 && b == 0);
    CHECK(fs_parse_bool("maybe", &b, why, sizeof why) == -1);

    fs_call c;
    CHECK(fs_parse_call("poisson(rate=3.2/s)", &c, why, sizeof why) == 0);
    CHECK(strcmp(c.name, "poisson") == 0 && c.nargs == 1);
    CHECK(strcmp(fs_call_get(&c, "rate"), "3.2/s") == 0);
    CHECK(fs_parse_call("trace(traces/a.csv, format = azure-llm)", &c, why,
                        sizeof why) == 0);
    CHECK(strcmp(fs_call_positional(&c, 0), "traces/a.csv") == 0);
    CHECK(strcmp(fs_call_get(&c, "format"), "azure-llm") == 0);
    CHECK(fs_call_positional(&c, 1) == NULL);
    CHECK(fs_parse_call("trace", &c, why, sizeof why) == 0 && c.nargs == 0);
    CHECK(fs_parse_call("const(50ms)", &c, why, sizeof why) == 0 &&
          strcmp(fs_call_positional(&c, 0), "50ms") == 0);
    CHECK(fs_parse_call("poisson(rate=1/s", &c, why, sizeof why) == -1);
    CHECK(fs_parse_call("poisson(rate=1/s,,x=2)", &c, why, sizeof why) == -1);
    CHECK(fs_parse_call("(x=1)", &c, why, sizeof why) == -1);

    static const char *const allowed[] = {"rate", NULL};
    CHECK(fs_parse_call("poisson(rat=2/s)", &c, why, sizeof why) == 0);
    CHECK(fs_call_check_keys(&c, allowed, why, sizeof why) == -1 &&
          strstr(why, "did you mean 'rate'"));

    static const char *const gpus[] = {"A100-80GB", "H100-80GB", "L4", NULL};
    CHECK(strcmp(fs_nearest_name("A100-80G", gpus), "A100-80GB") == 0);
    CHECK(strcmp(fs_nearest_name("h100-80gb", gpus), "H100-80GB") == 0);
    CHECK(fs_nearest_name("TPUv5", gpus) == NULL);

    char buf[32];
    fs_format_duration(2592000, buf, sizeof buf);
    CHECK(strcmp(buf, "30d") == 0);
    fs_format_duration(90, buf, sizeof buf);
    CHECK(strcmp(buf, "90s") == 0);

    /* Durations are bounded: at most 3650d (10 years). */
    CHECK(dur("3650d") == 3650 * 86400.0);
    CHECK(fs_parse_duration("3651d", &v, why, sizeof why) == -1 &&
          strcmp(why, "a duration must be at most 3650d (10 years), got "
                 "'3651d'") == 0);
    CHECK(isnan(dur("1e300s")));
    CHECK(isnan(dur("3000w")));

    /* A call argument given twice is refused, naming it. */
    CHECK(fs_parse_call("poisson(rate=0.5/s, rate=2/s)", &c, why,
                        sizeof why) == -1);
    CHECK(strcmp(why, "argument 'rate' given twice in "
                 "'poisson(rate=0.5/s, rate=2/s)'") == 0);
    CHECK(fs_parse_call("f(a=1, b=2, a = 3)", &c, why, sizeof why) == -1 &&
          strstr(why, "argument 'a' given twice"));

    /* Names: never cut; empty, too long, invalid UTF-8 and control
     * characters refused with the reason. */
    char name[80];
    CHECK(fs_check_name("quickstart", 64, why, sizeof why) == 0);
    memset(name, 'a', 63);
    name[63] = '\0';
    CHECK(fs_check_name(name, 64, why, sizeof why) == 0);
    name[62] = '\0';
    strcat(name, "\xc3\xa9");   /* 62 + 2 bytes: e-acute does not fit */
    CHECK(fs_check_name(name, 64, why, sizeof why) == -1 &&
          strcmp(why, "is 64 bytes long; at most 63") == 0);
    CHECK(fs_check_name("", 64, why, sizeof why) == -1 &&
          strcmp(why, "must not be empty") == 0);
    CHECK(fs_check_name("caf\xc3", 64, why, sizeof why) == -1 &&
          strcmp(why, "is not valid UTF-8") == 0);
    CHECK(fs_check_name("caf\xc3\xa9 \xe2\x82\xac", 64, why,
                        sizeof why) == 0);
    CHECK(fs_check_name("a\tb", 64, why, sizeof why) == -1 &&
          strcmp(why, "must not contain control characters") == 0);

    fs_error err;
    fs_error_at(&err, "a.ini", 7, "pool.x.count", "bad %d", 3);
    CHECK(strcmp(err.msg, "a.ini:7: pool.x.count: bad 3") == 0);
    return check_report("grammar");
}
