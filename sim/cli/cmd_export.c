/* cmd_export.c -- `fleetsim export [--db FILE] --format focus|csv
 * [--granularity hour|day] --out FILE RUN...`: the simulated bill as a
 * FOCUS 1.2 cost and usage dataset, or as plain CSV.
 *
 * The rows come from export_rows.c (periods, exact spreading of each
 * pool-month's cost); this file names the columns and writes them.  The
 * output is written through sim/base/outfile.h (a temporary renamed when
 * complete): a failed export leaves the file as it was. */
#include "sim/cli/commands.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "sim/cli/export.h"
#include "sim/cli/help.h"
#include "sim/base/outfile.h"
#include "sim/store/store.h"
#include "models/purchase.h"

typedef struct export_out {
    FILE *f;
    int focus;
} export_out;

/* UTC, YYYY-MM-DDTHH:MM:SSZ, t seconds after the run's start. */
static void stamp(const fs_export_run *r, double t, char *buf, size_t len)
{
    time_t at = r->start + (time_t)llround(t);
    struct tm tm;
    gmtime_r(&at, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A CSV field: quoted when it holds a comma, quote or newline; empty for
 * NULL. */
static void field(FILE *f, const char *v, int last)
{
    if (v && strpbrk(v, ",\"\n\r")) {
        fputc('"', f);
        for (const char *c = v; *c; c++) {
            if (*c == '"')
                fputc('"', f);
            fputc(*c, f);
        }
        fputc('"', f);
    } else if (v) {
        fputs(v, f);
    }
    fputc(last ? '\n' : ',', f);
}

static void money(char *buf, size_t len, long long cents)
{
    snprintf(buf, len, "%s%lld.%02lld", cents < 0 ? "-" : "",
             llabs(cents) / 100, llabs(cents) % 100);
}

static const char *const focus_columns[] = {
    "BilledCost", "BillingAccountId", "BillingAccountName",
    "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart",
    "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargeFrequency",
    "ChargePeriodEnd", "ChargePeriodStart", "CommitmentDiscountCategory",
    "CommitmentDiscountId", "CommitmentDiscountName",
    "CommitmentDiscountStatus", "CommitmentDiscountType", "ConsumedQuantity",
    "ConsumedUnit", "ContractedCost", "EffectiveCost", "InvoiceIssuerName",
    "ListCost", "PricingCategory", "ProviderName", "PublisherName",
    "RegionId", "RegionName", "ResourceId", "ResourceName", "ResourceType",
    "ServiceCategory", "ServiceName", "SubAccountId", "SubAccountName",
    "Tags", "x_RunId", "x_RunName", "x_Pool", "x_Pricing", "x_Gpu",
    "x_GpuHoursBusy", "x_AmortizedUpfrontCost", NULL,
};

static const char *const csv_columns[] = {
    "run_id", "run", "pool", "pricing", "period_start", "period_end",
    "gpu_hours", "gpu_hours_busy", "billed_usd", "effective_usd", NULL,
};

/* The provider, from an instance type "aws:p4d.24xlarge". */
static void provider_of(const fs_export_pool *p, char *name, size_t nlen,
                        char *service, size_t slen)
{
    static const struct { const char *key, *name, *service; } known[] = {
        {"aws", "AWS", "Amazon Elastic Compute Cloud"},
        {"azure", "Microsoft", "Virtual Machines"},
        {"gcp", "Google Cloud", "Compute Engine"},
    };
    snprintf(name, nlen, "fleetsim");
    snprintf(service, slen, "GPU instances");
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t k = strlen(known[i].key);
        if (!strncmp(p->instance_type, known[i].key, k) &&
            p->instance_type[k] == ':') {
            snprintf(name, nlen, "%s", known[i].name);
            snprintf(service, slen, "%s", known[i].service);
        }
    }
}

/* The commitment's kind, as providers label it. */
static const char *commitment_type(const fs_export_pool *p)
{
    return !strcmp(p->pricing, "savings-plan") ? "Savings Plan"
                                                : "Reserved Instance";
}

static int write_focus(FILE *f, const fs_export_row *row)
{
    const fs_export_run *r = row->run;
    const fs_export_pool *p = row->pool;
    const fs_purchase_option *o = fs_purchase_find(p->pricing);
    int committed = o && !strcmp(o->focus_category, "Committed");
    char billed[32], effective[32], amort[32], qty[32], busy[32];
    char bstart[32], bend[32], cstart[32], cend[32], run_id[32];
    char provider[64], service[64], resource[200], cd_id[240], desc[240];
    char tags[FS_TAGS_JSON_MAX];
    money(billed, sizeof billed, row->billed_cents);
    money(effective, sizeof effective,
          row->purchase ? 0 : row->billed_cents + row->amortized_cents);
    money(amort, sizeof amort, row->amortized_cents);
    snprintf(qty, sizeof qty, "%.6f", row->gpu_hours);
    snprintf(busy, sizeof busy, "%.6f", row->busy_gpu_hours);
    stamp(r, r->cal.bound[row->month], bstart, sizeof bstart);
    stamp(r, r->cal.bound[row->month + 1], bend, sizeof bend);
    stamp(r, row->t0, cstart, sizeof cstart);
    stamp(r, row->t1, cend, sizeof cend);
    snprintf(run_id, sizeof run_id, "%ld", r->id);
    provider_of(p, provider, sizeof provider, service, sizeof service);
    snprintf(resource, sizeof resource, "fleetsim/run/%ld/pool/%s", r->id,
             p->name);
    snprintf(cd_id, sizeof cd_id, "%s/reservation", resource);
    if (row->purchase)
        snprintf(desc, sizeof desc, "upfront payment for %ld reserved %s "
                 "instance(s), %d-month term", p->instances, p->gpu,
                 p->term_months);
    else
        snprintf(desc, sizeof desc, "%s %s instances of pool %s",
                 p->pricing, p->gpu, p->name);
    fs_tags_json(p->tags, NULL, tags, sizeof tags);
    const char *status = !committed || row->purchase ? NULL
                         : row->busy_gpu_hours > 0 ? "Used" : "Unused";
    const char *v[] = {
        billed, "fleetsim", "simulated", "USD", bend, bstart,
        row->purchase ? "Purchase" : "Usage", NULL, desc,
        row->purchase ? "One-Time" : committed ? "Recurring" : "Usage-Based",
        cend, cstart, committed ? "Usage" : NULL, committed ? cd_id : NULL,
        committed ? p->name : NULL, status,
        committed ? commitment_type(p) : NULL,
        row->purchase ? NULL : qty, row->purchase ? NULL : "GPU-Hours",
        row->purchase ? billed : effective, effective, provider,
        row->purchase ? billed : effective,
        o ? o->focus_category : "Standard", provider, provider, NULL, NULL,
        resource, p->name, p->instance_type[0] ? p->instance_type
                                               : "GPU instance",
        "Compute", service, "fleetsim", "fleetsim", tags, run_id, r->name,
        p->name, p->pricing, p->gpu, row->purchase ? NULL : busy, amort,
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        field(f, v[i], i + 1 == sizeof v / sizeof v[0]);
    return 0;
}

/* Plain CSV: a purchase's upfront is billed in the period it is made. */
static int write_csv(FILE *f, const fs_export_row *row)
{
    const fs_export_run *r = row->run;
    char run_id[32], start[32], end[32], qty[32], busy[32], billed[32];
    char effective[32];
    snprintf(run_id, sizeof run_id, "%ld", r->id);
    stamp(r, row->t0, start, sizeof start);
    stamp(r, row->t1, end, sizeof end);
    snprintf(qty, sizeof qty, "%.6f", row->gpu_hours);
    snprintf(busy, sizeof busy, "%.6f", row->busy_gpu_hours);
    money(billed, sizeof billed, row->billed_cents);
    money(effective, sizeof effective,
          row->purchase ? 0 : row->billed_cents + row->amortized_cents);
    const char *v[] = {run_id, r->name, row->pool->name, row->pool->pricing,
                       start, end, qty, busy, billed, effective};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        field(f, v[i], i + 1 == sizeof v / sizeof v[0]);
    return 0;
}

static int emit(void *ctx, const fs_export_row *row)
{
    export_out *out = ctx;
    int rc = out->focus ? write_focus(out->f, row) : write_csv(out->f, row);
    return rc || ferror(out->f) ? -1 : 0;
}

static void header(FILE *f, const char *const *cols)
{
    for (size_t i = 0; cols[i]; i++)
        field(f, cols[i], !cols[i + 1]);
}

typedef struct export_args {
    const char *db, *format, *granularity, *out;
    char **runs;
    int nruns;
} export_args;

static int parse_args(int argc, char **argv, export_args *a)
{
    static const char *const options[] = {
        "--db", "--format", "--granularity", "--out", "--help", NULL };
    /* the first four of options take a value, in this order */
    const char **slots[] = {&a->db, &a->format, &a->granularity, &a->out};
    int rc = fs_parse_operands("export", argc, argv, options, slots, 4,
                               a->runs, &a->nruns);
    if (rc != -1)
        return rc == FS_EXIT_OK ? -1 : rc;
    if (!a->format || (strcmp(a->format, "focus") && strcmp(a->format, "csv")))
        return fs_usage_error("export", "--format focus or --format csv, "
                              "please%s%s%s", a->format ? " (not '" : "",
                              a->format ? a->format : "",
                              a->format ? "')" : "");
    if (strcmp(a->granularity, "hour") && strcmp(a->granularity, "day"))
        return fs_usage_error("export", "--granularity hour or day, not '%s'",
                              a->granularity);
    if (!a->out)
        return fs_usage_error("export", "where to? give --out FILE");
    if (a->nruns == 0)
        return fs_usage_error("export", "which runs? give at least one RUN "
                              "(an id or a name; see `fleetsim runs`)");
    return 0;
}

/* Every RUN's rows into f. */
static int export_runs(fs_store *s, const export_args *a, FILE *f,
                       fs_error *err)
{
    export_out out = {f, !strcmp(a->format, "focus")};
    double period = strcmp(a->granularity, "day") ? 3600 : 86400;
    header(f, out.focus ? focus_columns : csv_columns);
    for (int i = 0; i < a->nruns; i++) {
        long id;
        if (fs_store_find_run(s, a->runs[i], &id, err))
            return -1;
        fs_export_run r;
        int rc = fs_export_read(fs_store_db(s), id, &r, err);
        if (!rc && fs_export_rows(&r, period, emit, &out))
            rc = fs_error_set(err, "%s: cannot write (out of memory or "
                              "disk full)", a->out);
        fs_export_free(&r);
        if (rc)
            return -1;
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    export_args a = {FS_DEFAULT_DB, NULL, "hour", NULL, NULL, 0};
    a.runs = calloc((size_t)argc, sizeof *a.runs);
    if (!a.runs)
        return fs_fail("out of memory");
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        free(a.runs);
        return rc < 0 ? FS_EXIT_OK : rc;
    }
    fs_error err;
    fs_store *s = fs_store_open(a.db, FS_STORE_EXISTING, &err);
    fs_outfile out = {0};
    rc = s ? fs_outfile_open(&out, a.out, &err) : -1;
    if (!rc)
        rc = export_runs(s, &a, out.f, &err);
    if (!rc)
        rc = fs_outfile_commit(&out, &err);
    fs_outfile_abort(&out);
    fs_store_close(s);
    free(a.runs);
    return rc ? fs_fail(err.msg) : FS_EXIT_OK;
}
