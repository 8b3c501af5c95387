/* scenario_read.c -- reading the typed keys of one scenario section.
 *
 * Every reader marks the entry it consumed and, on a bad value, writes one
 * "file:line: section.key: what is wrong" message; a key outside the
 * section's table (keys.c) is refused with the nearest known name, and keys
 * of the contract that later versions implement are refused as such rather
 * than silently ignored. */
#include "sim/scenario/scenario_impl.h"

#include <assert.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

fs_config_entry *fs_rd_entry(fs_reader *rd, const char *key)
{
    fs_config_entry *e = fs_config_find(rd->cfg, rd->section, key);
    if (e)
        e->used = 1;
    return e;
}

int fs_rd_bad(fs_reader *rd, const fs_config_entry *e, const char *fmt,
              const char *why)
{
    if (!e) {
        const fs_config_entry *f = fs_rd_first(rd);
        return fs_error_at(rd->err, f ? f->file : NULL, f ? f->line : 0,
                           rd->section, fmt, why);
    }
    char key[256];
    snprintf(key, sizeof key, "%s.%s", rd->section, e->key);
    return fs_error_at(rd->err, e->file, e->line, key, fmt, why);
}

/* The first key of the section, for "missing key" messages. */
const fs_config_entry *fs_rd_first(fs_reader *rd)
{
    const fs_config_section *sec = fs_config_section_find(rd->cfg,
                                                          rd->section);
    return sec && sec->n ? &rd->cfg->e[sec->entries[0]] : NULL;
}

int fs_scenario_name_index(const void *items, size_t n, size_t size,
                           size_t off, const char *name)
{
    const char *item = items;
    for (size_t i = 0; i < n; i++, item += size)
        if (strcmp(item + off, name) == 0)
            return (int)i;
    return -1;
}

int fs_rd_missing(fs_reader *rd, const char *what)
{
    const fs_config_entry *e = fs_rd_first(rd);
    return fs_error_at(rd->err, e ? e->file : NULL, e ? e->line : 0,
                       rd->section, "missing %s", what);
}

/* How a typed reader parses a value: text into out (of the reader's
 * type), given with (the parser the reader was handed, or NULL); nonzero
 * with why written when it cannot. */
typedef int (*rd_parse)(const void *with, const char *text, void *out,
                        char *why, size_t size);

/* Key's value through parse into out: 1 when the key is absent (out
 * untouched: the caller's default stands), 0 when parsed, -1 with the
 * message at file:line:key when not. */
static int rd_value(fs_reader *rd, const char *key, rd_parse parse,
                    const void *with, void *out)
{
    fs_config_entry *e = fs_rd_entry(rd, key);
    char why[256];
    if (!e)
        return 1;
    if (parse(with, e->value, out, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    return 0;
}

static int parse_double(const void *with, const char *text, void *out,
                      char *why, size_t size)
{
    const fs_parse_fn *parse = with;
    return (*parse)(text, out, why, size);
}

static int parse_count(const void *with, const char *text, void *out,
                       char *why, size_t size)
{
    (void)with;
    return fs_parse_count(text, out, why, size);
}

static int parse_bool(const void *with, const char *text, void *out,
                      char *why, size_t size)
{
    (void)with;
    return fs_parse_bool(text, out, why, size);
}

int fs_rd_double(fs_reader *rd, const char *key, fs_parse_fn parse,
                 double def, double *out)
{
    int r = rd_value(rd, key, parse_double, &parse, out);
    if (r > 0)
        *out = def;
    return r < 0 ? -1 : 0;
}

int fs_rd_count(fs_reader *rd, const char *key, long def, long min, long max,
                long *out)
{
    int r = rd_value(rd, key, parse_count, NULL, out);
    if (r > 0)
        *out = def;
    if (r != 0)
        return r < 0 ? -1 : 0;
    char why[256];
    if (*out < min) {
        snprintf(why, sizeof why, "must be at least %ld, got %ld", min, *out);
        return fs_rd_bad(rd, fs_rd_entry(rd, key), "%s", why);
    }
    if (*out > max) {
        snprintf(why, sizeof why, "must be at most %ld, got %ld", max, *out);
        return fs_rd_bad(rd, fs_rd_entry(rd, key), "%s", why);
    }
    return 0;
}

int fs_rd_bool(fs_reader *rd, const char *key, int def, int *out)
{
    int r = rd_value(rd, key, parse_bool, NULL, out);
    if (r > 0)
        *out = def;
    return r < 0 ? -1 : 0;
}

/* One of a fixed set of words; *out is its index. */
int fs_rd_choice(fs_reader *rd, const char *key, const char *const *words,
                 int def, int *out)
{
    fs_config_entry *e = fs_rd_entry(rd, key);
    if (!e) {
        *out = def;
        return 0;
    }
    for (int i = 0; words[i]; i++)
        if (strcasecmp(e->value, words[i]) == 0) {
            *out = i;
            return 0;
        }
    char why[256];
    size_t n = (size_t)snprintf(why, sizeof why, "'%s' is not one of",
                                e->value);
    for (int i = 0; words[i] && n < sizeof why; i++)
        n += (size_t)snprintf(why + n, sizeof why - n, "%s %s",
                              i ? "," : "", words[i]);
    return fs_rd_bad(rd, e, "%s", why);
}

/* A key that is neither accepted nor of a later version: the nearest
 * accepted name, if one is close. */
static int unknown_key(fs_reader *rd, const fs_config_entry *e,
                       const fs_key_section *sec)
{
    const char *names[FS_KEYS_MAX + 1];
    size_t n = 0;
    fs_key_ref k;
    for (size_t i = 0; n < FS_KEYS_MAX && fs_key_at(sec, i, &k); i++)
        names[n++] = k.doc->name;
    assert(!fs_key_at(sec, n, &k));     /* raise FS_KEYS_MAX */
    names[n] = NULL;
    const char *near = fs_nearest_name(e->key, names);
    char why[256];
    if (near)
        snprintf(why, sizeof why, "unknown key (did you mean '%s'?)", near);
    else
        snprintf(why, sizeof why, "unknown key (see `fleetsim help "
                 "scenario`)");
    return fs_rd_bad(rd, e, "%s", why);
}

int fs_rd_check_keys(fs_reader *rd, fs_section_kind kind)
{
    const fs_key_section *sec = &fs_key_sections[kind];
    const fs_config_section *cs = fs_config_section_find(rd->cfg,
                                                         rd->section);
    for (size_t i = 0; cs && i < cs->n; i++) {
        fs_config_entry *e = &rd->cfg->e[cs->entries[i]];
        fs_key_ref k;
        if (fs_key_find(sec, e->key, &k))
            continue;
        const fs_key_later *l = fs_key_find_later(sec, e->key);
        if (!l)
            return unknown_key(rd, e, sec);
        char why[256];
        snprintf(why, sizeof why, "is part of the contract but not "
                 "implemented in this version of fleetsim (%s come in a "
                 "later version)", l->capability);
        return fs_rd_bad(rd, e, "%s", why);
    }
    return 0;
}

int fs_rd_tags(fs_reader *rd, char out[FS_TAGS_MAX])
{
    out[0] = '\0';
    fs_config_entry *e = fs_rd_entry(rd, "tags");
    char why[300];
    if (e && fs_tags_parse(e->value, out, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    return 0;
}
