/* cmd_export.c -- `fleetsim export [--db FILE] --format focus|csv
 * [--granularity hour|day] --out FILE RUN...`: the simulated bill as a
 * FOCUS 1.2 cost and usage dataset, or as plain CSV.
 *
 * The rows come from export_rows.c (periods, exact spreading of each
 * pool-month's cost); export_focus.c writes them as FOCUS, this file as
 * plain CSV, every cell through fs_csv_write_field (no live formula).  The
 * output is written through sim/base/outfile.h (a temporary renamed when
 * complete): a failed export leaves the file as it was. */
#include "sim/cli/commands.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/textout.h"
#include "sim/app/focus.h"
#include "sim/cli/export/export.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/shared/run_args.h"
#include "sim/base/outfile.h"
#include "sim/store/store.h"

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

static void money(char *buf, size_t len, long long cents)
{
    snprintf(buf, len, "%s%lld.%02lld", cents < 0 ? "-" : "",
             llabs(cents) / 100, llabs(cents) % 100);
}

static const char *const csv_columns[] = {
    "run_id", "run", "pool", "pricing", "period_start", "period_end",
    "gpu_hours", "gpu_hours_busy", "billed_usd", "effective_usd", "list_usd",
    NULL,
};

/* Plain CSV: a purchase's upfront is billed in the period it is made; a
 * commitment's unused part is its own row, pricing PRICING-unused. */
static int write_csv(FILE *f, const fs_export_row *row)
{
    const fs_export_run *r = row->run;
    char run_id[32], start[32], end[32], qty[32], busy[32], billed[32];
    char effective[32], list[32], pricing[48];
    snprintf(run_id, sizeof run_id, "%ld", r->id);
    stamp(r, row->t0, start, sizeof start);
    stamp(r, row->t1, end, sizeof end);
    snprintf(qty, sizeof qty, "%.6f", row->gpu_hours);
    snprintf(busy, sizeof busy, "%.6f", row->busy_gpu_hours);
    money(billed, sizeof billed, row->billed_cents);
    money(effective, sizeof effective, row->effective_cents);
    money(list, sizeof list, row->list_cents);
    snprintf(pricing, sizeof pricing, "%s%s", row->pool->pricing,
             row->kind == FS_EXPORT_UNUSED ? "-unused" : "");
    const char *v[] = {run_id, r->name, row->pool->name, pricing, start, end,
                       qty, busy, billed, effective, list};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fs_csv_write_field(f, v[i]);
        fputc(i + 1 == sizeof v / sizeof v[0] ? '\n' : ',', f);
    }
    return 0;
}

static int emit(void *ctx, const fs_export_row *row)
{
    export_out *out = ctx;
    int rc = out->focus ? fs_export_write_focus(out->f, row)
                        : write_csv(out->f, row);
    return rc || ferror(out->f) ? -1 : 0;
}

/* A cost beside the GPU hour: its FOCUS row, or a plain row priced by
 * its item (checkpoint-storage, checkpoint-transfer), no GPU-hours. */
static int emit_extra(void *ctx, const fs_export_run *r,
                      const fs_export_extra *x)
{
    export_out *out = ctx;
    if (out->focus)
        return fs_export_write_focus_extra(out->f, r, x) || ferror(out->f)
                   ? -1 : 0;
    fs_export_pool p = {0};
    snprintf(p.name, sizeof p.name, "%s", x->pool);
    snprintf(p.pricing, sizeof p.pricing, "%s", x->item);
    fs_export_row row = {.run = r, .pool = &p, .t0 = x->t0, .t1 = x->t1,
                         .billed_cents = x->cents,
                         .effective_cents = x->cents,
                         .list_cents = x->cents};
    return emit(out, &row);
}

static void header(FILE *f, const char *const *cols)
{
    for (size_t i = 0; cols[i]; i++) {
        fs_csv_write_field(f, cols[i]);
        fputc(cols[i + 1] ? ',' : '\n', f);
    }
}

typedef struct export_args {
    const char *db, *format, *granularity, *out;
    fs_run_args r;
} export_args;

const fs_option fs_options_export[] = {
    OPT__DB_READ(export_args, db),
    OPT_STRING_F(0, "format", export_args, format, "focus|csv",
                 "a FOCUS 1.2 cost and usage dataset, or plain CSV",
                 FS_OPTION_REQUIRED),
    OPT_STRING(0, "granularity", export_args, granularity, "hour|day",
               "one row per pool and hour (default) or day"),
    OPT_STRING_F(0, "out", export_args, out, "FILE",
                 "the CSV file, written whole or not at all",
                 FS_OPTION_REQUIRED),
    OPT_END(),
};

static int parse_args(int argc, char **argv, export_args *a)
{
    int rc = fs_run_args_parse("export", argc, argv, fs_options_export, a,
                               &a->r);
    if (rc)
        return rc;
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
    if (a->r.n == 0)
        return fs_run_args_none("export");
    return 0;
}

/* Every RUN's rows into f. */
static int export_runs(fs_store *s, const export_args *a, FILE *f,
                       fs_error *err)
{
    export_out out = {f, !strcmp(a->format, "focus")};
    double period = strcmp(a->granularity, "day") ? 3600 : 86400;
    header(f, out.focus ? fs_focus_columns : csv_columns);
    for (int i = 0; i < a->r.n; i++) {
        fs_export_run r;
        int rc = fs_export_read(s, a->r.ids[i], &r, err);
        if (!rc && fs_export_rows(&r, period, emit, &out))
            rc = fs_error_set(err, "%s: cannot write (out of memory or "
                              "disk full)", a->out);
        if (!rc && fs_export_extras(s, &r, emit_extra, &out, err))
            rc = -1;
        fs_export_free(&r);
        if (rc)
            return -1;
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    export_args a = {.db = FS_DEFAULT_DB, .granularity = "hour"};
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        fs_run_args_free(&a.r);
        return rc;
    }
    fs_error err;
    fs_store *s = fs_run_args_open(a.db, &a.r, &err);
    fs_outfile out = {0};
    rc = s ? fs_outfile_open(&out, a.out, &err) : -1;
    if (!rc)
        rc = export_runs(s, &a, out.f, &err);
    if (!rc)
        rc = fs_outfile_commit(&out, &err);
    fs_outfile_abort(&out);
    fs_store_close(s);
    fs_run_args_free(&a.r);
    return rc ? fs_fail(err.msg) : FS_EXIT_OK;
}
