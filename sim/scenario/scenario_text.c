/* scenario_text.c -- the keys a stored scenario text sets, as the run
 * read them: run.scenario_text holds each file read under a "; ---- PATH"
 * line (the including file first, then the base it includes, whose keys
 * it overrides), then one "; --set SECTION.KEY=VALUE" line per override.
 * inih reads each file's part; the last setting of a key wins, as in
 * config.c.  Values lose the blanks the unit grammar ignores, so that two
 * spellings of one value compare equal.  Used by scenario_diff.c. */
#include "sim/scenario/scenario_text.h"
#include "sim/base/vec.h"

#include <ini.h>
#include <stdlib.h>
#include <string.h>

static int kv_find(const fs_kvs *m, const char *section, const char *key)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->v[i].section, section) && !strcmp(m->v[i].key, key))
            return (int)i;
    return -1;
}

const char *fs_kvs_get(const fs_kvs *m, const char *section, const char *key)
{
    int i = kv_find(m, section, key);
    return i < 0 ? NULL : m->v[i].value;
}

static int kv_put(fs_kvs *m, const char *section, const char *key,
                  const char *value)
{
    int i = kv_find(m, section, key);
    char *v = strdup(value);
    if (!v)
        return -1;
    if (i >= 0) {
        free(m->v[i].value);
        m->v[i].value = v;
        return 0;
    }
    fs_kv *g = fs_vec_grow(m->v, &m->cap, m->n + 1, sizeof *g);
    if (!g) {
        free(v);
        return -1;
    }
    m->v = g;
    g = &g[m->n];
    g->section = strdup(section);
    g->key = strdup(key);
    g->value = v;
    if (!g->section || !g->key) {
        free(g->section);
        free(g->key);
        free(v);
        return -1;
    }
    m->n++;
    return 0;
}

void fs_kvs_free(fs_kvs *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].section);
        free(m->v[i].key);
        free(m->v[i].value);
    }
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* value without the blanks the grammar ignores, those beside , = ( ):
 * "weibull(shape=0.582, scale=3515s)" is "weibull(shape=0.582,scale=3515s)"
 * whichever way it was written. */
static char *squeeze(const char *value)
{
    char *out = malloc(strlen(value) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = value; *p; p++) {
        if (*p == ' ' || *p == '\t') {
            const char *q = p + strspn(p, " \t");
            int by_mark = (o > out && strchr(",=()", o[-1])) ||
                          (*q && strchr(",=()", *q));
            if (by_mark || !*q) {
                p = q - 1;
                continue;
            }
        }
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

static int put_squeezed(fs_kvs *m, const char *section, const char *key,
                        const char *value)
{
    char *v = squeeze(value ? value : "");
    int rc = v ? kv_put(m, section, key, v) : -1;
    free(v);
    return rc;
}

static int on_key(void *user, const char *section, const char *name,
                  const char *value)
{
    if (!strcmp(section, "scenario") && !strcmp(name, "include"))
        return 1;
    return put_squeezed(user, section, name, value) == 0;
}

/* One file's part [p, end) into its own list. */
static int read_part(const char *p, const char *end, fs_kvs *out)
{
    char *s = strndup(p, (size_t)(end - p));
    if (!s)
        return -1;
    int rc = ini_parse_string(s, on_key, out);
    free(s);
    return rc == 0 ? 0 : -1;
}

/* "; --set SECTION.KEY=VALUE": the key follows the last dot before '='. */
static int read_set(const char *line, size_t len, fs_kvs *out)
{
    char *a = strndup(line, len);
    if (!a)
        return -1;
    char *eq = strchr(a, '='), *dot = NULL;
    for (char *q = a; eq && q < eq; q++)
        if (*q == '.')
            dot = q;
    int rc = 0;
    if (eq && dot) {
        *dot = *eq = '\0';
        rc = put_squeezed(out, a, dot + 1, eq + 1);
    }
    free(a);
    return rc;
}

#define FILE_MARK "; ---- "
#define SET_MARK "; --set "

int fs_kvs_from_text(const char *text, fs_kvs *out, fs_error *err)
{
    memset(out, 0, sizeof *out);
    fs_kvs *parts = NULL;
    size_t nparts = 0, cap = 0;
    const char *part = NULL;
    int rc = 0;
    fs_kvs sets = {0};
    for (const char *p = text ? text : ""; rc == 0 && *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        int file = !strncmp(p, FILE_MARK, strlen(FILE_MARK));
        int set = !strncmp(p, SET_MARK, strlen(SET_MARK));
        if ((file || set) && part) {
            fs_kvs *g = fs_vec_grow(parts, &cap, nparts + 1, sizeof *g);
            rc = g ? 0 : -1;
            if (g) {
                parts = g;
                memset(&parts[nparts], 0, sizeof *parts);
                rc = read_part(part, p, &parts[nparts++]);
            }
            part = NULL;
        }
        if (file)
            part = nl ? nl + 1 : end;
        else if (set && rc == 0)
            rc = read_set(p + strlen(SET_MARK),
                          (size_t)(end - p) - strlen(SET_MARK), &sets);
        p = nl ? nl + 1 : end;
    }
    if (rc == 0 && part) {
        fs_kvs *g = fs_vec_grow(parts, &cap, nparts + 1, sizeof *g);
        rc = g ? 0 : -1;
        if (g) {
            parts = g;
            memset(&parts[nparts], 0, sizeof *parts);
            rc = read_part(part, part + strlen(part), &parts[nparts++]);
        }
    }
    /* the base files last in the text come first; --set lines last */
    for (size_t i = nparts; rc == 0 && i-- > 0;)
        for (size_t k = 0; rc == 0 && k < parts[i].n; k++)
            rc = kv_put(out, parts[i].v[k].section, parts[i].v[k].key,
                        parts[i].v[k].value);
    for (size_t k = 0; rc == 0 && k < sets.n; k++)
        rc = kv_put(out, sets.v[k].section, sets.v[k].key, sets.v[k].value);
    for (size_t i = 0; i < nparts; i++)
        fs_kvs_free(&parts[i]);
    free(parts);
    fs_kvs_free(&sets);
    if (rc) {
        fs_kvs_free(out);
        return fs_error_set(err, "cannot read a stored scenario text (out "
                            "of memory, or not INI)");
    }
    return 0;
}

int fs_text_sets(const char *text, char ***sets, int *n)
{
    *sets = NULL;
    *n = 0;
    for (const char *p = text ? text : ""; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        if (!strncmp(p, SET_MARK, strlen(SET_MARK))) {
            char **v = realloc(*sets, (size_t)(*n + 1) * sizeof *v);
            if (!v)
                return -1;
            *sets = v;
            v[*n] = strndup(p + strlen(SET_MARK),
                            (size_t)(end - p) - strlen(SET_MARK));
            if (!v[*n])
                return -1;
            (*n)++;
        }
        p = nl ? nl + 1 : end;
    }
    return 0;
}
