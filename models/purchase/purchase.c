/* purchase.c -- the registry of purchase options (purchase.h), and the
 * typed key reads the options share.
 *
 * Adding an option: write models/purchase/purchase_NAME.c with its table, and add
 * one line below. */
#include "models/purchase/purchase.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "sim/base/error.h"
#include "sim/base/grammar.h"

extern const fs_purchase_option fs_purchase_on_demand;
extern const fs_purchase_option fs_purchase_reserved;
extern const fs_purchase_option fs_purchase_savings_plan;
extern const fs_purchase_option fs_purchase_spot;
extern const fs_purchase_option fs_purchase_capacity_block;
extern const fs_purchase_option fs_purchase_owned;

const fs_purchase_option *const fs_purchase_options[] = {
    &fs_purchase_on_demand,
    &fs_purchase_reserved,
    &fs_purchase_savings_plan,
    &fs_purchase_spot,
    &fs_purchase_capacity_block,
    &fs_purchase_owned,
    NULL,
};

/* Options of the contract (DESIGN.md) that this version does not have yet:
 * named as such rather than as a typo.  One leaves this list when its file
 * joins the registry. */
static const char *const later_options[] = {NULL};

const fs_purchase_option *fs_purchase_committing(fs_commitment kind)
{
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        if ((*o)->commitment == kind &&
            (kind != FS_COMMIT_NONE || (*o)->list_priced))
            return *o;
    return NULL;
}

const fs_purchase_option *fs_purchase_interruptible(void)
{
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        if ((*o)->interruptible)
            return *o;
    return NULL;
}

const char *fs_purchase_column_words(int column)
{
    const fs_purchase_option *o = NULL;
    switch (column) {
    case FS_PRICE_ON_DEMAND:
        o = fs_purchase_committing(FS_COMMIT_NONE);
        break;
    case FS_PRICE_SPOT:
        o = fs_purchase_interruptible();
        break;
    case FS_PRICE_RESERVED_1Y:
        return "1-year reserved";
    case FS_PRICE_RESERVED_3Y:
        return "3-year reserved";
    }
    return o ? o->name : "list";
}

void fs_purchase_cut(const fs_purchase_option *o, const fs_purchase_terms *t,
                     const fs_purchase_bill *b, double t0)
{
    if (o->cut)
        o->cut(t, b, t0);
    else
        o->terminate(t, b, t0, b->cal->horizon_s);
}

void fs_purchase_finish(const fs_purchase_option *o,
                        const fs_purchase_terms *t, const fs_purchase_bill *b,
                        long count)
{
    if (o->finish)
        o->finish(t, b, count);
}

void fs_purchase_energy_model(const fs_purchase_option *o,
                              const fs_purchase_terms *t, double tdp_w,
                              double idle_w, fs_energy_model *e)
{
    *e = (fs_energy_model){tdp_w, idle_w, 0, 1};
    if (o->facility)
        o->facility(t, e);
}

const fs_purchase_option *fs_purchase_find(const char *name)
{
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        if (strcasecmp((*o)->name, name) == 0)
            return *o;
    return NULL;
}

/* "a, b and c" of the registered names, or of key's owners when key. */
static int list_options(const char *key, char *buf, size_t len)
{
    int n = 0, total = 0;
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        if (!key || fs_purchase_has_key(*o, key))
            total++;
    size_t at = 0;
    buf[0] = '\0';
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++) {
        if (key && !fs_purchase_has_key(*o, key))
            continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? " and " : ", ";
        int w = snprintf(buf + at, len - at, "%s%s", sep, (*o)->name);
        n++;
        if (w < 0 || (size_t)w >= len - at)
            break;
        at += (size_t)w;
    }
    return total;
}

void fs_purchase_why_unknown(const char *name, char *why, size_t len)
{
    char names[256];
    list_options(NULL, names, sizeof names);
    for (const char *const *l = later_options; *l; l++)
        if (strcasecmp(*l, name) == 0) {
            snprintf(why, len, "%s pools are not implemented in this version "
                     "of fleetsim (%s are)", *l, names);
            return;
        }
    const char *cand[16];
    size_t n = 0, at = 0;
    at = (size_t)snprintf(why, len, "'%s' is not one of", name);
    for (const fs_purchase_option *const *o = fs_purchase_options;
         *o && n + 1 < sizeof cand / sizeof cand[0]; o++) {
        cand[n] = (*o)->name;
        if (at < len)
            at += (size_t)snprintf(why + at, len - at, "%s %s",
                                   n ? "," : "", cand[n]);
        n++;
    }
    cand[n] = NULL;
    const char *near = fs_nearest_name(name, cand);
    if (near && at < len)
        snprintf(why + at, len - at, " (did you mean '%s'?)", near);
}

int fs_purchase_has_key(const fs_purchase_option *o, const char *key)
{
    for (const fs_key_doc *k = o->keys; k->name; k++)
        if (strcmp(k->name, key) == 0)
            return 1;
    return 0;
}

int fs_purchase_key_owners(const char *key, char *buf, size_t len)
{
    return list_options(key, buf, len);
}

int fs_purchase_read_price(const fs_purchase_reader *rd, int column,
                           fs_purchase_terms *t)
{
    int given = rd->price(rd->ctx, &t->price);
    if (given < 0)
        return -1;
    if (given) {
        snprintf(t->price_source, sizeof t->price_source, "price key");
        return 0;
    }
    return rd->catalog_price(rd->ctx, column, &t->price, t->price_source,
                             sizeof t->price_source);
}

int fs_purchase_read_duration(const fs_purchase_reader *rd, const char *key,
                              double def, double *out)
{
    const char *v = rd->value(rd->ctx, key);
    char why[256];
    if (!v) {
        *out = def;
        return 0;
    }
    if (fs_parse_duration(v, out, why, sizeof why))
        return rd->bad(rd->ctx, key, why);
    return 0;
}

int fs_purchase_read_choice(const fs_purchase_reader *rd, const char *key,
                            const char *const *words, int def, int *out)
{
    const char *v = rd->value(rd->ctx, key);
    if (!v) {
        *out = def;
        return 0;
    }
    for (int i = 0; words[i]; i++)
        if (strcasecmp(v, words[i]) == 0) {
            *out = i;
            return 0;
        }
    char why[256];
    size_t n = (size_t)snprintf(why, sizeof why, "'%s' is not one of", v);
    for (int i = 0; words[i] && n < sizeof why; i++)
        n += (size_t)snprintf(why + n, sizeof why - n, "%s %s",
                              i ? "," : "", words[i]);
    return rd->bad(rd->ctx, key, why);
}

/* A key parsed by parse, within [lo, hi] ("BOUND, got 'V'" otherwise):
 * 1 when given, 0 when absent, -1 refused. */
static int read_bounded(const fs_purchase_reader *rd, const char *key,
                        int (*parse)(const char *, double *, char *, size_t),
                        double lo, double hi, const char *bound, double *out)
{
    const char *v = rd->value(rd->ctx, key);
    char why[600];
    if (!v)
        return 0;
    if (parse(v, out, why, sizeof why))
        return rd->bad(rd->ctx, key, why);
    if (!(*out >= lo && *out <= hi)) {
        snprintf(why, sizeof why, "%s, got '%s'", bound, v);
        return rd->bad(rd->ctx, key, why);
    }
    return 1;
}

int fs_purchase_read_money(const fs_purchase_reader *rd, const char *key,
                           double max, const char *bound, double *out)
{
    char b[300];
    snprintf(b, sizeof b, "at most %s", bound);
    return read_bounded(rd, key, fs_parse_money, 0, max, b, out);
}

int fs_purchase_read_number(const fs_purchase_reader *rd, const char *key,
                            double lo, double hi, double *out)
{
    char b[160];
    snprintf(b, sizeof b, "expected a number from %g to %g", lo, hi);
    return read_bounded(rd, key, fs_parse_number, lo, hi, b, out);
}
