/* scenario_diff.c -- what one stored scenario changes against another,
 * grouped into changes and levers; see scenario_diff.h.
 *
 * Which kind a key's change is comes from two tables: key_kinds[] for the
 * keys named, section_kinds[] for the rest of a section kind; a pool key a
 * purchase option declares (models/purchase/purchase.h, through keys.h) is a
 * purchase change, so a new option's keys are classed without an entry
 * here.  Keys that move no money (descriptions, tags, the run's name) are
 * left out. */
#include "sim/scenario/scenario_diff.h"
#include "sim/scenario/scenario_text.h"
#include "sim/scenario/keys.h"
#include "sim/base/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IGNORED (-1)

static const struct {
    const char *section, *key;
    int kind;
} key_kinds[] = {
    {"pool", "instance", FS_CHANGE_INSTANCE},
    {"pool", "gpu", FS_CHANGE_INSTANCE},
    {"pool", "provider", FS_CHANGE_INSTANCE},
    {"pool", "pricing", FS_CHANGE_PURCHASE},
    {"pool", "price", FS_CHANGE_PURCHASE},
    {"pool", "reserved_1y", FS_CHANGE_PURCHASE},
    {"pool", "reserved_1y_partial", FS_CHANGE_PURCHASE},
    {"pool", "reserved_1y_all", FS_CHANGE_PURCHASE},
    {"pool", "reserved_3y", FS_CHANGE_PURCHASE},
    {"pool", "reserved_3y_partial", FS_CHANGE_PURCHASE},
    {"pool", "reserved_3y_all", FS_CHANGE_PURCHASE},
    {"pool", "description", IGNORED},
    {"pool", "tags", IGNORED},
    {"workload", "pools", FS_CHANGE_POOLS},
    {"workload", "fallback_after", FS_CHANGE_POOLS},
    {"workload", "checkpoint_interval", FS_CHANGE_CHECKPOINT},
    {"workload", "checkpoint_cost", FS_CHANGE_CHECKPOINT},
    {"workload", "restore_cost", FS_CHANGE_CHECKPOINT},
    {"workload", "description", IGNORED},
    {"workload", "tags", IGNORED},
    {"window", "description", IGNORED},
    {"scenario", "name", IGNORED},
    {"scenario", "description", IGNORED},
    {"scenario", "include", IGNORED},
    {"scenario", "replications", IGNORED},
};

static const struct {
    const char *section;
    int kind;
    const char *one, *many;   /* the section in words */
} section_kinds[] = {
    {"pool", FS_CHANGE_CAPACITY, "pool", "pools"},
    {"workload", FS_CHANGE_WORKLOAD, "workload", "workloads"},
    {"window", FS_CHANGE_WINDOW, "window", "windows"},
    {"scenario", FS_CHANGE_SCENARIO, "the scenario", "the scenario"},
};

/* Each kind's name, and what it changes in words before the sections it
 * names. */
static const struct { const char *name, *words; } kinds[FS_CHANGE_KINDS] = {
    [FS_CHANGE_INSTANCE] = {"instances", "instances of"},
    [FS_CHANGE_CAPACITY] = {"capacity", "capacity of"},
    [FS_CHANGE_PURCHASE] = {"purchase", "purchase option of"},
    [FS_CHANGE_POOLS] = {"pools", "pools of"},
    [FS_CHANGE_CHECKPOINT] = {"checkpoints", "checkpoints of"},
    [FS_CHANGE_WORKLOAD] = {"settings", "settings of"},
    [FS_CHANGE_WINDOW] = {"hours", "hours of"},
    [FS_CHANGE_SCENARIO] = {"settings", "settings of"},
};

const char *fs_change_kind_name(fs_change_kind kind)
{
    return kind < FS_CHANGE_KINDS ? kinds[kind].name : "change";
}

/* "pool" of "pool.serving"; the section itself when it has no dot. */
static size_t kind_len(const char *section)
{
    const char *dot = strchr(section, '.');
    return dot ? (size_t)(dot - section) : strlen(section);
}

static int section_is(const char *section, const char *kind)
{
    return kind_len(section) == strlen(kind) &&
           !strncmp(section, kind, strlen(kind));
}

static int classify(const char *section, const char *key)
{
    for (size_t i = 0; i < sizeof key_kinds / sizeof *key_kinds; i++)
        if (section_is(section, key_kinds[i].section) &&
            !strcmp(key, key_kinds[i].key))
            return key_kinds[i].kind;
    fs_key_ref ref;
    if (section_is(section, "pool") &&
        fs_key_find(fs_key_section_find("pool"), key, &ref) && ref.option)
        return FS_CHANGE_PURCHASE;
    for (size_t i = 0; i < sizeof section_kinds / sizeof *section_kinds; i++)
        if (section_is(section, section_kinds[i].section))
            return section_kinds[i].kind;
    return FS_CHANGE_SCENARIO;
}

static fs_change *atom(fs_scenario_diff *d, const char *section, int kind)
{
    for (size_t i = 0; i < d->n; i++)
        if ((int)d->v[i].kind == kind && !strcmp(d->v[i].section, section))
            return &d->v[i];
    fs_change *v = fs_vec_grow(d->v, &d->cap, d->n + 1, sizeof *v);
    if (!v)
        return NULL;
    d->v = v;
    v = &v[d->n];
    memset(v, 0, sizeof *v);
    v->kind = (fs_change_kind)kind;
    v->section = strdup(section);
    if (!v->section)
        return NULL;
    v->lever = d->n++;
    return v;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static int add_key(fs_change *c, const char *key, const char *before,
                   const char *after)
{
    fs_key_change *k = fs_vec_grow(c->keys, &c->cap, c->nkeys + 1,
                                   sizeof *k);
    if (!k)
        return -1;
    c->keys = k;
    k = &k[c->nkeys++];
    k->key = strdup(key);
    k->before = dup_or_null(before);
    k->after = dup_or_null(after);
    return k->key && (!before || k->before) && (!after || k->after) ? 0 : -1;
}

static int same_value(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Every key that differs, in the order `after` (then `before`) sets it. */
static int collect(const fs_kvs *a, const fs_kvs *b, fs_scenario_diff *d)
{
    const fs_kvs *lists[2] = {b, a};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->n; i++) {
            const fs_kv *e = &lists[l]->v[i];
            if (l == 1 && fs_kvs_get(b, e->section, e->key))
                continue;
            const char *x = fs_kvs_get(a, e->section, e->key);
            const char *y = fs_kvs_get(b, e->section, e->key);
            int kind = classify(e->section, e->key);
            if (same_value(x, y) || kind == IGNORED)
                continue;
            fs_change *c = atom(d, e->section, kind);
            if (!c || add_key(c, e->key, x, y))
                return -1;
        }
    return 0;
}

static void change_free(fs_change *c)
{
    for (size_t k = 0; k < c->nkeys; k++) {
        free(c->keys[k].key);
        free(c->keys[k].before);
        free(c->keys[k].after);
    }
    free(c->keys);
    for (size_t k = 0; k < c->npools; k++)
        free(c->pools[k]);
    free(c->pools);
    free(c->section);
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const fs_key_change *)a)->key,
                  ((const fs_key_change *)b)->key);
}

/* Each change's keys by name, so that two scenarios setting the same
 * keys in another order make the same change. */
static void sort_keys(fs_scenario_diff *d)
{
    for (size_t i = 0; i < d->n; i++)
        qsort(d->v[i].keys, d->v[i].nkeys, sizeof *d->v[i].keys, by_key);
}

/* A pool whose instance type changes takes its capacity and purchase
 * changes along: they are in the new instance's terms. */
static int fold_instances(fs_scenario_diff *d)
{
    for (size_t i = 0; i < d->n; i++) {
        if (d->v[i].kind != FS_CHANGE_INSTANCE)
            continue;
        for (size_t j = 0; j < d->n; j++) {
            fs_change *o = &d->v[j];
            if (j == i || strcmp(o->section, d->v[i].section) ||
                (o->kind != FS_CHANGE_CAPACITY &&
                 o->kind != FS_CHANGE_PURCHASE))
                continue;
            for (size_t k = 0; k < o->nkeys; k++)
                if (add_key(&d->v[i], o->keys[k].key, o->keys[k].before,
                            o->keys[k].after))
                    return -1;
            change_free(o);
            memmove(o, o + 1, (d->n - j - 1) * sizeof *o);
            d->n--;
            if (j < i)
                i--;
            j--;
        }
    }
    return 0;
}

static int add_pool(fs_change *c, const char *pool, size_t len)
{
    for (size_t k = 0; k < c->npools; k++)
        if (strlen(c->pools[k]) == len && !strncmp(c->pools[k], pool, len))
            return 0;
    char **v = realloc(c->pools, (c->npools + 1) * sizeof *v);
    if (!v)
        return -1;
    c->pools = v;
    v[c->npools] = strndup(pool, len);
    return v[c->npools++] ? 0 : -1;
}

/* The pools of a "a, b" list. */
static int add_pool_list(fs_change *c, const char *list)
{
    for (const char *p = list; p && *p;) {
        p += strspn(p, " \t,");
        size_t n = strcspn(p, ",");
        size_t m = n;
        while (m > 0 && (p[m - 1] == ' ' || p[m - 1] == '\t'))
            m--;
        if (m && add_pool(c, p, m))
            return -1;
        p += n;
    }
    return 0;
}

/* Which pools' bills a change can move, in either scenario. */
static int find_pools(fs_change *c, const fs_kvs *s)
{
    const char *name = c->section + kind_len(c->section);
    name += *name == '.';
    for (size_t i = 0; i < s->n; i++) {
        const fs_kv *e = &s->v[i];
        if (!section_is(e->section, "pool") ||
            (strcmp(e->key, "instance") && strcmp(e->key, "gpu") &&
             strcmp(e->key, "schedule")))
            continue;
        const char *pool = e->section + 5;
        int hit = c->kind == FS_CHANGE_SCENARIO ||
                  (section_is(c->section, "pool") && !strcmp(pool, name)) ||
                  (section_is(c->section, "window") &&
                   !strcmp(e->key, "schedule") && !strcmp(e->value, name));
        if (hit && add_pool(c, pool, strlen(pool)))
            return -1;
    }
    if (section_is(c->section, "workload"))
        return add_pool_list(c, fs_kvs_get(s, c->section, "pools"));
    return 0;
}

static size_t root(size_t *up, size_t i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

static int same_keys(const fs_change *a, const fs_change *b)
{
    if (a->kind != b->kind || a->nkeys != b->nkeys ||
        kind_len(a->section) != kind_len(b->section) ||
        strncmp(a->section, b->section, kind_len(a->section)))
        return 0;
    for (size_t k = 0; k < a->nkeys; k++)
        if (strcmp(a->keys[k].key, b->keys[k].key) ||
            !same_value(a->keys[k].before, b->keys[k].before) ||
            !same_value(a->keys[k].after, b->keys[k].after))
            return 0;
    return 1;
}

/* A workload's checkpoints go with the purchase change of its pools. */
static int rides_with(const fs_change *ck, const fs_change *p)
{
    if (ck->kind != FS_CHANGE_CHECKPOINT ||
        (p->kind != FS_CHANGE_PURCHASE && p->kind != FS_CHANGE_INSTANCE))
        return 0;
    return p->npools == 1 && fs_change_touches(ck, p->pools[0]);
}

static int group_levers(fs_scenario_diff *d)
{
    size_t *up = malloc((d->n ? d->n : 1) * sizeof *up);
    if (!up)
        return -1;
    for (size_t i = 0; i < d->n; i++)
        up[i] = i;
    for (size_t i = 0; i < d->n; i++)
        for (size_t j = 0; j < i; j++)
            if (same_keys(&d->v[i], &d->v[j]) ||
                rides_with(&d->v[i], &d->v[j]) ||
                rides_with(&d->v[j], &d->v[i]))
                up[root(up, i)] = root(up, j);
    d->nlevers = 0;
    for (size_t i = 0; i < d->n; i++) {
        size_t r = root(up, i);
        if (r == i)
            d->v[i].lever = d->nlevers++;
        else
            d->v[i].lever = d->v[r].lever;
    }
    free(up);
    return 0;
}

int fs_scenario_diff_texts(const char *before, const char *after,
                           fs_scenario_diff *d, fs_error *err)
{
    memset(d, 0, sizeof *d);
    fs_kvs a, b;
    if (fs_kvs_from_text(before, &a, err))
        return -1;
    if (fs_kvs_from_text(after, &b, err)) {
        fs_kvs_free(&a);
        return -1;
    }
    int rc = collect(&a, &b, d) || fold_instances(d) ? -1 : 0;
    if (rc == 0)
        sort_keys(d);
    for (size_t i = 0; rc == 0 && i < d->n; i++)
        rc = find_pools(&d->v[i], &a) || find_pools(&d->v[i], &b) ? -1 : 0;
    if (rc == 0)
        rc = group_levers(d);
    fs_kvs_free(&a);
    fs_kvs_free(&b);
    if (rc) {
        fs_scenario_diff_free(d);
        return fs_error_set(err, "out of memory comparing scenarios");
    }
    return 0;
}

void fs_scenario_diff_free(fs_scenario_diff *d)
{
    for (size_t i = 0; i < d->n; i++)
        change_free(&d->v[i]);
    free(d->v);
    memset(d, 0, sizeof *d);
}

int fs_change_same(const fs_change *a, const fs_change *b)
{
    return !strcmp(a->section, b->section) && same_keys(a, b);
}

int fs_change_within(const fs_change *a, const fs_change *b)
{
    int kinds = a->kind == b->kind ||
                (b->kind == FS_CHANGE_INSTANCE &&
                 (a->kind == FS_CHANGE_CAPACITY ||
                  a->kind == FS_CHANGE_PURCHASE));
    if (!kinds || strcmp(a->section, b->section))
        return 0;
    for (size_t k = 0; k < a->nkeys; k++) {
        size_t j = 0;
        while (j < b->nkeys && strcmp(a->keys[k].key, b->keys[j].key))
            j++;
        if (j == b->nkeys ||
            !same_value(a->keys[k].before, b->keys[j].before) ||
            !same_value(a->keys[k].after, b->keys[j].after))
            return 0;
    }
    return 1;
}

int fs_change_touches(const fs_change *c, const char *pool)
{
    for (size_t k = 0; k < c->npools; k++)
        if (!strcmp(c->pools[k], pool))
            return 1;
    return 0;
}

/* ---- in words ----------------------------------------------------------- */

static void put(char *buf, size_t size, size_t *at, const char *fmt,
                const char *a, const char *b)
{
    if (*at >= size)
        return;
    int n = snprintf(buf + *at, size - *at, fmt, a, b);
    *at += n > 0 ? (size_t)n : 0;
}

static const char *section_word(const char *section, int many)
{
    for (size_t i = 0; i < sizeof section_kinds / sizeof *section_kinds; i++)
        if (section_is(section, section_kinds[i].section))
            return many ? section_kinds[i].many : section_kinds[i].one;
    return "section";
}

#define KEYS_SHOWN 4

/* The keys a reader looks for first in a change's words. */
static int headline_key(const char *key)
{
    static const char *const first[] = {
        "instance", "gpu", "pricing", "count", "gpus_per_instance", "mig",
        "sharing", "autoscale", "min", "max", "schedule", "pools", "term",
        "duration", NULL};
    for (int i = 0; first[i]; i++)
        if (!strcmp(key, first[i]))
            return 1;
    return 0;
}

/* "instances of pools a, b: k x -> y, ..." for the atoms of lever like i
 * (same kind and keys); marks them done. */
static void describe_group(const fs_scenario_diff *d, size_t i, char *done,
                           char *buf, size_t size, size_t *at)
{
    const fs_change *c = &d->v[i];
    size_t same = 0;
    for (size_t j = i; j < d->n; j++)
        same += d->v[j].lever == c->lever && same_keys(c, &d->v[j]);
    put(buf, size, at, "%s %s", kinds[c->kind].words,
        section_word(c->section, same > 1));
    const char *sep = " ";
    for (size_t j = i; j < d->n; j++) {
        const fs_change *o = &d->v[j];
        if (o->lever != c->lever || !same_keys(c, o))
            continue;
        done[j] = 1;
        const char *name = o->section + kind_len(o->section);
        if (*name == '.')
            put(buf, size, at, "%s%s", sep, name + 1);
        sep = ", ";
    }
    size_t shown = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t k = 0; k < c->nkeys && shown < KEYS_SHOWN; k++) {
            const fs_key_change *kc = &c->keys[k];
            if (headline_key(kc->key) != !pass)
                continue;
            put(buf, size, at, "%s%s ", shown++ ? ", " : ": ", kc->key);
            put(buf, size, at, "%.40s → %.40s",
                kc->before ? kc->before : "(default)",
                kc->after ? kc->after : "(default)");
        }
    if (c->nkeys > KEYS_SHOWN) {
        char more[32];
        snprintf(more, sizeof more, "%zu", c->nkeys - KEYS_SHOWN);
        put(buf, size, at, " and %s more key%s", more,
            c->nkeys - KEYS_SHOWN == 1 ? "" : "s");
    }
}

void fs_scenario_diff_describe(const fs_scenario_diff *d, size_t lever,
                               char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    char *done = calloc(d->n ? d->n : 1, 1);
    if (!done)
        return;
    for (size_t i = 0; i < d->n; i++) {
        if (d->v[i].lever != lever || done[i])
            continue;
        if (at)
            put(buf, size, &at, "%s%s", "; ", "");
        describe_group(d, i, done, buf, size, &at);
    }
    free(done);
}

int fs_scenario_diff_sets(const fs_scenario_diff *d, size_t lever,
                          char ***sets, int *n, char *why, size_t whysize)
{
    *sets = NULL;
    *n = 0;
    for (size_t i = 0; i < d->n; i++)
        for (size_t k = 0; k < d->v[i].nkeys; k++) {
            const fs_change *c = &d->v[i];
            if (c->lever != lever)
                continue;
            if (!c->keys[k].after) {
                snprintf(why, whysize, "it removes %s.%s, which --set "
                         "cannot do", c->section, c->keys[k].key);
                return 1;
            }
            char **v = realloc(*sets, (size_t)(*n + 1) * sizeof *v);
            if (!v)
                return -1;
            *sets = v;
            if (asprintf(&v[*n], "%s.%s=%s", c->section, c->keys[k].key,
                         c->keys[k].after) < 0)
                return -1;
            (*n)++;
        }
    return 0;
}
