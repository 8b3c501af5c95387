/* catalog_commit.c -- the catalog's commitment options: reserved payment
 * options, committed-use discounts and Savings Plan rates, per instance x
 * term x option, each marked published, derived (by a documented rule) or
 * not sold.
 *
 * commitments.csv sits beside instances.csv (models/catalog/, with its
 * sources in SOURCES.md); a user's own catalog directory may leave it out,
 * and then instances.csv's reserved and optional ri_ and savings_plan_
 * columns say everything.  fs_instance_reserved_option is the one answer
 * to "what does this option cost and where from" for the scenario, `roi`
 * and `catalog instances`. */
#include "models/catalog/catalog.h"
#include "sim/base/csvin.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *fs_rate_status_name(int status)
{
    switch (status) {
    case FS_RATE_PUBLISHED: return "published";
    case FS_RATE_DERIVED: return "derived";
    case FS_RATE_NOT_SOLD: return "not sold";
    }
    return "not found";
}

static void set_cell(fs_commit_cell *c, double hourly, double upfront,
                     int status)
{
    c->hourly = hourly;
    c->upfront = upfront;
    c->status = status;
}

void fs_instance_commit_from_columns(fs_instance_type *t)
{
    for (int term = 0; term < 2; term++) {
        fs_commit_cell *c = t->commit[term];
        double rate = term ? t->reserved_3y : t->reserved_1y;
        for (int o = 0; o < 4; o++)
            set_cell(&c[o], NAN, NAN, FS_RATE_UNKNOWN);
        if (!isnan(rate))
            set_cell(&c[FS_UPFRONT_NONE], rate, 0, FS_RATE_PUBLISHED);
        if (!isnan(t->ri_partial_h[term]) &&
            !isnan(t->ri_partial_upfront[term]))
            set_cell(&c[FS_UPFRONT_PARTIAL], t->ri_partial_h[term],
                     t->ri_partial_upfront[term], FS_RATE_PUBLISHED);
        if (!isnan(t->ri_all_upfront[term]))
            set_cell(&c[FS_UPFRONT_ALL], 0, t->ri_all_upfront[term],
                     FS_RATE_PUBLISHED);
        if (!isnan(t->sp_discount[term]) && !isnan(t->on_demand))
            set_cell(&c[FS_COMMIT_PLAN],
                     t->on_demand * (1 - t->sp_discount[term]), 0,
                     FS_RATE_PUBLISHED);
    }
}

/* The column positions of commitments.csv. */
enum { C_PROVIDER, C_INSTANCE, C_TERM, C_OPTION, C_STATUS, C_UPFRONT,
       C_HOURLY, C_N };

static int pick(const char *v, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcasecmp(v, words[i]) == 0)
            return i;
    return -1;
}

static int bad(fs_csv *r, const char *column, const char *why,
               fs_error *err)
{
    return fs_error_at(err, fs_csv_path(r), (int)fs_csv_line(r), column,
                       "%s", why);
}

/* A money cell: >= 0, required unless the option is not sold. */
static int money_cell(fs_csv *r, const int *idx, int k, const char *name,
                      int need, double *out, fs_error *err)
{
    const char *v = fs_csv_field(r, (size_t)idx[k]);
    *out = NAN;
    if (!need)
        return v[0] ? bad(r, name, "must be empty for a not-sold option",
                          err) : 0;
    if (fs_csv_number(v, out) || *out < 0 || isinf(*out))
        return bad(r, name, "expected an amount >= 0", err);
    return 0;
}

/* One row into its instance's cell. */
static int read_row(fs_catalog *c, fs_csv *r, const int *idx, fs_error *err)
{
    static const char *const terms[] = {"1y", "3y", NULL};
    static const char *const options[] = {"none", "partial", "all",
                                          "savings-plan", NULL};
    static const char *const statuses[] = {"published", "derived",
                                           "not-sold", NULL};
    char name[128];
    snprintf(name, sizeof name, "%s:%s", fs_csv_field(r, (size_t)idx[0]),
             fs_csv_field(r, (size_t)idx[1]));
    fs_instance_type *t = (fs_instance_type *)fs_catalog_instance(c, name);
    int term = pick(fs_csv_field(r, (size_t)idx[C_TERM]), terms);
    int opt = pick(fs_csv_field(r, (size_t)idx[C_OPTION]), options);
    int st = pick(fs_csv_field(r, (size_t)idx[C_STATUS]), statuses);
    if (!t)
        return bad(r, "instance", "not in instances.csv", err);
    if (term < 0)
        return bad(r, "term", "expected 1y or 3y", err);
    if (opt < 0)
        return bad(r, "option", "expected none, partial, all or "
                   "savings-plan", err);
    if (st < 0)
        return bad(r, "status", "expected published, derived or not-sold",
                   err);
    int status = st == 0 ? FS_RATE_PUBLISHED : st == 1 ? FS_RATE_DERIVED
                                                       : FS_RATE_NOT_SOLD;
    double up, h;
    int need = status != FS_RATE_NOT_SOLD;
    if (money_cell(r, idx, C_UPFRONT, "upfront_usd", need, &up, err) ||
        money_cell(r, idx, C_HOURLY, "hourly_usd", need, &h, err))
        return -1;
    if (need && !isnan(t->on_demand) && h >= t->on_demand)
        return bad(r, "hourly_usd", "not below the on-demand rate", err);
    set_cell(&t->commit[term][opt], h, up, status);
    if (opt == FS_UPFRONT_NONE) {
        double *col = term ? &t->reserved_3y : &t->reserved_1y;
        *col = need ? h : NAN;
    }
    if (opt == FS_COMMIT_PLAN)
        t->sp_discount[term] = need && t->on_demand > 0
            ? 1 - h / t->on_demand : NAN;
    return 0;
}

void fs_reserved_derive(double rate, int term_months, int upfront,
                        double *hourly, double *upfront_usd)
{
    /* The same arithmetic, in the same order, as a reserved pool has
     * always used: results stay bit-identical. */
    double term_cost = rate * 24 * 365 * term_months / 12.0;
    *upfront_usd = 0;
    if (upfront == FS_UPFRONT_PARTIAL) {
        *upfront_usd = term_cost / 2;
        rate /= 2;
    } else if (upfront == FS_UPFRONT_ALL) {
        *upfront_usd = term_cost;
        rate = 0;
    }
    *hourly = rate;
}

int fs_catalog_load_commitments(fs_catalog *c, const char *path,
                                fs_error *err)
{
    static const char *const names[C_N] = {
        "provider", "instance", "term", "option", "status", "upfront_usd",
        "hourly_usd"};
    FILE *probe = fopen(path, "r");
    if (!probe)
        return 0;   /* a catalog without commitments.csv */
    fclose(probe);
    fs_csv *r = fs_csv_open(path, err);
    if (!r)
        return -1;
    int idx[C_N], rc = fs_csv_next(r, err);
    if (rc == 0)
        rc = fs_error_at(err, path, 1, NULL, "empty file (expected a "
                         "header)");
    for (int k = 0; rc > 0 && k < C_N; k++)
        if ((idx[k] = fs_csv_column(r, names[k])) < 0)
            rc = fs_error_at(err, path, 1, NULL, "missing column '%s'",
                             names[k]);
    while (rc > 0 && (rc = fs_csv_next(r, err)) == 1)
        if (read_row(c, r, idx, err))
            rc = -1;
    fs_csv_free(r);
    return rc < 0 ? -1 : 0;
}

int fs_instance_plan_rate(const fs_instance_type *t, int term,
                          double *hourly)
{
    const fs_commit_cell *p = &t->commit[term][FS_COMMIT_PLAN];
    if (p->status != FS_RATE_PUBLISHED)
        return -1;
    *hourly = p->hourly;
    return 0;
}

int fs_instance_reserved_option(const fs_instance_type *t, int term,
                                int upfront, fs_reserved_option *out)
{
    const fs_commit_cell *cell = &t->commit[term][upfront];
    out->derived = 0;
    out->from_rate = 0;
    out->status = cell->status;
    if (cell->status == FS_RATE_NOT_SOLD) {
        out->basis = "not sold";
        return -1;
    }
    if (cell->status == FS_RATE_PUBLISHED ||
        cell->status == FS_RATE_DERIVED) {
        out->hourly = cell->hourly;
        out->upfront = cell->upfront;
        out->derived = cell->status == FS_RATE_DERIVED;
        out->basis = out->derived ? "derived (split by rule)" : "published";
        return 0;
    }
    double rate = term ? t->reserved_3y : t->reserved_1y;
    if (isnan(rate)) {
        out->basis = "not found";
        return -1;
    }
    fs_reserved_derive(rate, term ? 36 : 12, upfront, &out->hourly,
                       &out->upfront);
    out->derived = 1;
    out->from_rate = 1;
    out->status = FS_RATE_DERIVED;
    out->basis = "derived (from the no-upfront rate)";
    return 0;
}
