/* test_catalog.c -- the shipped instance catalog and its commitment rates.
 *
 * Every row of models/catalog/instances.csv parses; every reserved rate is
 * below its on-demand rate; every payment option (upfront + hourly over the
 * term) costs less than on-demand over the term; an option is marked
 * derived exactly where its published figures are absent; derived options
 * follow the closed form a reserved pool uses; a published option is taken
 * as it is; a file without the optional columns still reads; a bad
 * discount is refused with file:line and column. */
#include "check.h"
#include "models/catalog/catalog.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static fs_catalog *load_shipped(char *inst_path, size_t len)
{
    char gpus[1024];
    check_path(gpus, sizeof gpus, "models/catalog/gpus.csv");
    check_path(inst_path, len, "models/catalog/instances.csv");
    fs_error err;
    fs_catalog *c = fs_catalog_load(gpus, inst_path, &err);
    if (!c)
        printf("     %s\n", err.msg);
    return c;
}

/* Data rows in a CSV file (lines after the header that are not empty). */
static size_t data_rows(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    size_t n = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '\n')
            n++;
    fclose(f);
    return n ? n - 1 : 0;
}

/* The cell's status as the catalog files give it. */
static int published(const fs_instance_type *t, int term, int u)
{
    return t->commit[term][u].status == FS_RATE_PUBLISHED;
}

/* The rules every row must keep, for each term and payment option. */
static void check_row(const fs_instance_type *t, int *derived_seen)
{
    for (int term = 0; term < 2; term++) {
        double rate = term ? t->reserved_3y : t->reserved_1y;
        double hours = term ? 26280 : 8760;
        if (!isnan(rate))
            CHECK(rate < t->on_demand);
        if (!isnan(t->sp_discount[term]))
            CHECK(t->sp_discount[term] > 0 && t->sp_discount[term] < 1);
        for (int u = FS_UPFRONT_NONE; u <= FS_UPFRONT_ALL; u++) {
            fs_reserved_option o;
            int rc = fs_instance_reserved_option(t, term, u, &o);
            if (t->commit[term][u].status == FS_RATE_NOT_SOLD) {
                CHECK(rc == -1 && o.status == FS_RATE_NOT_SOLD);
                continue;   /* never derived */
            }
            if (isnan(rate) && t->commit[term][u].status == FS_RATE_UNKNOWN) {
                CHECK(rc == -1);
                continue;
            }
            if (!CHECK(rc == 0))
                continue;
            CHECK(o.hourly < t->on_demand);
            CHECK(o.upfront + o.hourly * hours < t->on_demand * hours);
            CHECK(o.derived == !published(t, term, u));
            if (o.derived)
                (*derived_seen)++;
        }
    }
}

static void test_shipped(void)
{
    char inst[1024];
    fs_catalog *c = load_shipped(inst, sizeof inst);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK(c->ninst == data_rows(inst));
    CHECK(c->ninst >= 30);
    int derived = 0;
    for (size_t i = 0; i < c->ninst; i++)
        check_row(&c->inst[i], &derived);
    CHECK(derived > 0);

    /* The quickstart's instance: GCP sells CUDs with no upfront only
     * (billed monthly), so partial and all are not sold, never derived. */
    const fs_instance_type *g2 = fs_catalog_instance(c, "gcp:g2-standard-4");
    CHECK(g2 != NULL);
    if (g2) {
        fs_reserved_option o;
        CHECK(g2->reserved_1y == 0.445304318);
        CHECK(fs_instance_reserved_option(g2, 0, FS_UPFRONT_NONE, &o) == 0);
        CHECK(o.hourly == 0.445304318 && o.upfront == 0 && !o.derived);
        CHECK(strcmp(o.basis, "published") == 0);
        CHECK(fs_instance_reserved_option(g2, 0, FS_UPFRONT_PARTIAL, &o) ==
              -1);
        CHECK(o.status == FS_RATE_NOT_SOLD);
        CHECK(fs_instance_reserved_option(g2, 1, FS_UPFRONT_ALL, &o) == -1);
    }
    /* p4de: all three options published or split by rule, and the EC2
     * Instance Savings Plan rate: partial's published effective 16.57278
     * $/h split half up front (x 8760 / 2) and half by the hour; all's
     * upfront is its published effective rate x 8760. */
    const fs_instance_type *p4de = fs_catalog_instance(c,
                                                       "aws:p4de.24xlarge");
    CHECK(p4de != NULL);
    if (p4de) {
        fs_reserved_option o;
        double sp;
        CHECK(fs_instance_reserved_option(p4de, 0, FS_UPFRONT_NONE, &o) ==
              0 && o.hourly == 17.401365 && !o.derived);
        CHECK(fs_instance_reserved_option(p4de, 0, FS_UPFRONT_PARTIAL, &o) ==
              0 && o.derived && !o.from_rate);
        CHECK(o.hourly == 8.28639 && o.upfront == 72588.7764);
        CHECK(strcmp(o.basis, "derived (split by rule)") == 0);
        CHECK(fs_instance_reserved_option(p4de, 0, FS_UPFRONT_ALL, &o) == 0);
        CHECK(o.hourly == 0 && o.upfront == 142273.99824 && !o.derived);
        CHECK(fs_instance_plan_rate(p4de, 0, &sp) == 0 && sp == 17.40137);
        CHECK_NEAR(p4de->sp_discount[1], 1 - 11.71777 / 27.44705, 1e-15);
    }
    /* p5: no 1-year Standard RI is sold (its Savings Plan is); p5en: no
     * RI at all.  Not sold is never derived from anything. */
    const char *none_sold[] = {"aws:p5.48xlarge", "aws:p5.4xlarge",
                               "aws:p5en.48xlarge"};
    for (int i = 0; i < 3; i++) {
        const fs_instance_type *t = fs_catalog_instance(c, none_sold[i]);
        CHECK(t != NULL);
        for (int u = FS_UPFRONT_NONE; t && u <= FS_UPFRONT_ALL; u++) {
            fs_reserved_option o;
            CHECK(fs_instance_reserved_option(t, 0, u, &o) == -1 &&
                  o.status == FS_RATE_NOT_SOLD);
        }
        if (t)
            CHECK(isnan(t->reserved_1y));
    }
    const fs_instance_type *p5 = fs_catalog_instance(c, "aws:p5.48xlarge");
    double sp5;
    CHECK(p5 && fs_instance_plan_rate(p5, 0, &sp5) == 0 && sp5 == 34.6752);
    /* p3.2xlarge 3y all upfront, derived: 1.132 x 26280 h = 29748.96. */
    const fs_instance_type *p3 = fs_catalog_instance(c, "aws:p3.2xlarge");
    CHECK(p3 != NULL);
    if (p3) {
        fs_reserved_option o;
        CHECK(fs_instance_reserved_option(p3, 1, FS_UPFRONT_ALL, &o) == 0);
        CHECK_NEAR(o.upfront, 29748.96, 1e-6);
    }
    /* Azure ND H100 v5: the published reservation total is all upfront
     * ($551,221 for a year); monthly payment of the same total is derived;
     * Azure sells no partial upfront. */
    const fs_instance_type *nd =
        fs_catalog_instance(c, "azure:Standard_ND96isr_H100_v5");
    CHECK(nd != NULL);
    if (nd) {
        fs_reserved_option o;
        CHECK(fs_instance_reserved_option(nd, 0, FS_UPFRONT_PARTIAL, &o) ==
              -1 && o.status == FS_RATE_NOT_SOLD);
        CHECK(fs_instance_reserved_option(nd, 0, FS_UPFRONT_ALL, &o) == 0);
        CHECK(o.upfront == 551221 && !o.derived);
        CHECK(fs_instance_reserved_option(nd, 0, FS_UPFRONT_NONE, &o) == 0);
        CHECK(o.derived && fabs(o.hourly * 8760 - 551221) < 0.01);
    }
    /* Every instance of commitments.csv is in instances.csv (it loaded). */
    CHECK(fs_catalog_instance(c, "gcp:a2-ultragpu-1g")->reserved_1y ==
          4.199690411);
    fs_catalog_free(c);
}

/* Writes text to a temporary file named into path. */
static int write_tmp(char *path, size_t len, const char *text)
{
    snprintf(path, len, "/tmp/fs_test_catalog_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return -1;
    }
    fputs(text, f);
    fclose(f);
    return 0;
}

static const char gpus_csv[] =
    "name,memory_gb,memory_bw_gbs,bf16_tflops,fp8_tflops,int8_tops,tdp_w,"
    "mig,source\nX1,80,2000,300,0,600,400,yes,test\n";

static fs_catalog *load_text(const char *inst_text, fs_error *err)
{
    char g[64], i[64];
    if (write_tmp(g, sizeof g, gpus_csv) ||
        write_tmp(i, sizeof i, inst_text)) {
        fs_error_set(err, "cannot write a temporary file");
        return NULL;
    }
    fs_catalog *c = fs_catalog_load(g, i, err);
    unlink(g);
    unlink(i);
    return c;
}

static void test_published_and_old_files(void)
{
    fs_error err;
    /* A published partial option is taken as it is; all upfront is
     * derived; the Savings Plan discount is read. */
    fs_catalog *c = load_text(
        "provider,instance,gpu,gpus,on_demand_usd_h,spot_usd_h,"
        "reserved_1y_usd_h,reserved_3y_usd_h,region,as_of,source,"
        "ri_1y_partial_usd_h,ri_1y_partial_upfront_usd,"
        "savings_plan_1y_discount\n"
        "p,big,X1,8,10,,6,4,r,2026-01-01,s,2.5,30000,0.35\n", &err);
    CHECK(c != NULL);
    if (c) {
        const fs_instance_type *t = &c->inst[0];
        fs_reserved_option o;
        CHECK(fs_instance_reserved_option(t, 0, FS_UPFRONT_PARTIAL, &o) ==
              0);
        CHECK(o.hourly == 2.5 && o.upfront == 30000 && !o.derived);
        CHECK(fs_instance_reserved_option(t, 0, FS_UPFRONT_ALL, &o) == 0);
        CHECK(o.upfront == 6 * 8760.0 && o.hourly == 0 && o.derived);
        CHECK(t->sp_discount[0] == 0.35 && isnan(t->sp_discount[1]));
        CHECK(isnan(t->ri_all_upfront[1]));
        fs_catalog_free(c);
    }
    /* A file with the original eleven columns only still reads. */
    c = load_text("provider,instance,gpu,gpus,on_demand_usd_h,spot_usd_h,"
                  "reserved_1y_usd_h,reserved_3y_usd_h,region,as_of,source\n"
                  "p,old,X1,1,2,,1.5,,r,2026-01-01,s\n", &err);
    CHECK(c != NULL);
    if (c) {
        CHECK(isnan(c->inst[0].ri_partial_h[0]));
        CHECK(isnan(c->inst[0].sp_discount[0]));
        fs_catalog_free(c);
    }
    /* A discount of 1 or more is refused, naming line and column. */
    c = load_text("provider,instance,gpu,gpus,on_demand_usd_h,spot_usd_h,"
                  "reserved_1y_usd_h,reserved_3y_usd_h,region,as_of,source,"
                  "savings_plan_3y_discount\n"
                  "p,bad,X1,1,2,,,,r,2026-01-01,s,1.2\n", &err);
    CHECK(c == NULL);
    if (!c) {
        CHECK_CONTAINS(err.msg, ":2: savings_plan_3y_discount");
        CHECK_CONTAINS(err.msg, "discount");
    }
    fs_catalog_free(c);
}

/* commitments.csv beside instances.csv: its rows set the options; a bad
 * row is refused with file:line: column. */
static void test_commitments_file(void)
{
    char dir[] = "/tmp/fs_test_commit_XXXXXX", g[128], i[128], k[128];
    if (!CHECK(mkdtemp(dir) != NULL))
        return;
    snprintf(g, sizeof g, "%s/gpus.csv", dir);
    snprintf(i, sizeof i, "%s/instances.csv", dir);
    snprintf(k, sizeof k, "%s/commitments.csv", dir);
    FILE *f = fopen(g, "w");
    if (f) {
        fputs(gpus_csv, f);
        fclose(f);
    }
    f = fopen(i, "w");
    if (f) {
        fputs("provider,instance,gpu,gpus,on_demand_usd_h,spot_usd_h,"
              "reserved_1y_usd_h,reserved_3y_usd_h,region,as_of,source\n"
              "p,box,X1,1,10,,,,r,2026-01-01,s\n", f);
        fclose(f);
    }
    static const char *const bodies[] = {
        "p,box,1y,none,published,0,6,2026,s\n"
        "p,box,1y,partial,derived,20000,3,2026,s\n"
        "p,box,3y,none,not-sold,,,2026,s\n"
        "p,box,1y,savings-plan,published,0,7,2026,s\n",
        "p,box,1y,none,maybe,0,6,2026,s\n",
        "p,nope,1y,none,published,0,6,2026,s\n",
        "p,box,1y,none,published,0,12,2026,s\n",
        "p,box,3y,all,not-sold,5,,2026,s\n",
    };
    static const char *const errs[] = {
        NULL, ":2: status: expected published", ":2: instance: not in",
        ":2: hourly_usd: not below the on-demand", ":2: upfront_usd: must "
        "be empty"};
    for (int n = 0; n < 5; n++) {
        f = fopen(k, "w");
        if (!f)
            break;
        fputs("provider,instance,term,option,status,upfront_usd,hourly_usd,"
              "as_of,source\n", f);
        fputs(bodies[n], f);
        fclose(f);
        fs_error err;
        fs_catalog *c = fs_catalog_load(g, i, &err);
        if (errs[n]) {
            CHECK(c == NULL);
            if (!c)
                CHECK_CONTAINS(err.msg, errs[n]);
            fs_catalog_free(c);
            continue;
        }
        CHECK(c != NULL);
        if (!c)
            continue;
        fs_reserved_option o;
        const fs_instance_type *t = &c->inst[0];
        CHECK(t->reserved_1y == 6 && isnan(t->reserved_3y));
        CHECK(fs_instance_reserved_option(t, 0, FS_UPFRONT_PARTIAL, &o) ==
              0 && o.upfront == 20000 && o.hourly == 3 && o.derived);
        /* all upfront: not in the file, derived from the 1y rate */
        CHECK(fs_instance_reserved_option(t, 0, FS_UPFRONT_ALL, &o) == 0 &&
              o.from_rate && o.upfront == 6 * 8760.0);
        CHECK(fs_instance_reserved_option(t, 1, FS_UPFRONT_ALL, &o) == -1 &&
              o.status == FS_RATE_UNKNOWN);
        CHECK(fs_instance_reserved_option(t, 1, FS_UPFRONT_NONE, &o) == -1 &&
              o.status == FS_RATE_NOT_SOLD);
        CHECK_NEAR(t->sp_discount[0], 0.3, 1e-15);
        fs_catalog_free(c);
    }
    unlink(k);
    unlink(g);
    unlink(i);
    rmdir(dir);
}

int main(void)
{
    test_shipped();
    test_commitments_file();
    test_published_and_old_files();
    return check_report("catalog");
}
