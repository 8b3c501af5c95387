/* config.c -- reading scenario files with inih; see config.h.
 *
 * inih does not tell its handler which line it is on, so we feed it through
 * ini_parse_stream with a reader that counts lines: inih calls the handler
 * for a line right after reading it, so the count is that line's number. */
#include "config.h"

#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INCLUDE_DEPTH 8

typedef struct reader_state {
    FILE *f;
    int line;
    int too_long;       /* line number of an over-long line, 0 if none */
} reader_state;

typedef struct parse_state {
    fs_config *c;
    const char *file;
    reader_state *rd;
    size_t first;        /* index of this file's first entry */
    char include[PATH_MAX];
    int include_line;
    fs_error *err;
    int failed;
} parse_state;

static char *reader(char *buf, int size, void *stream)
{
    reader_state *rd = stream;
    if (!fgets(buf, size, rd->f))
        return NULL;
    rd->line++;
    size_t n = strlen(buf);
    if (n == (size_t)size - 1 && buf[n - 1] != '\n' && !feof(rd->f)) {
        if (!rd->too_long)
            rd->too_long = rd->line;
        int ch;   /* drop the rest of the line */
        while ((ch = fgetc(rd->f)) != EOF && ch != '\n')
            ;
    }
    return buf;
}

static const char *intern_file(fs_config *c, const char *name)
{
    for (size_t i = 0; i < c->nfiles; i++)
        if (strcmp(c->files[i], name) == 0)
            return c->files[i];
    char **f = realloc(c->files, (c->nfiles + 1) * sizeof *f);
    if (!f)
        return NULL;
    c->files = f;
    c->files[c->nfiles] = strdup(name);
    return c->files[c->nfiles] ? c->files[c->nfiles++] : NULL;
}

static int append_text(fs_config *c, const char *s, size_t n)
{
    char *t = realloc(c->text, c->text_len + n + 1);
    if (!t)
        return -1;
    memcpy(t + c->text_len, s, n);
    c->text_len += n;
    t[c->text_len] = '\0';
    c->text = t;
    return 0;
}

static int add_entry(fs_config *c, const char *section, const char *key,
                     const char *value, const char *file, int line)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 32;
        fs_config_entry *e = realloc(c->e, cap * sizeof *e);
        if (!e)
            return -1;
        c->e = e;
        c->cap = cap;
    }
    fs_config_entry *e = &c->e[c->n];
    e->section = strdup(section);
    e->key = strdup(key);
    e->value = strdup(value);
    e->file = file;
    e->line = line;
    e->used = 0;
    if (!e->section || !e->key || !e->value) {
        free(e->section);
        free(e->key);
        free(e->value);
        return -1;
    }
    c->n++;
    return 0;
}

static int handler(void *user, const char *section, const char *name,
                   const char *value)
{
    parse_state *ps = user;
    int line = ps->rd->line;
    if (ps->failed)
        return 0;
    if (section[0] == '\0') {
        fs_error_at(ps->err, ps->file, line, name,
                    "key outside any section (start the file with "
                    "[scenario])");
        ps->failed = 1;
        return 0;
    }
    if (strcmp(section, "scenario") == 0 && strcmp(name, "include") == 0) {
        if (ps->include[0]) {
            fs_error_at(ps->err, ps->file, line, "scenario.include",
                        "only one include per file (first at line %d)",
                        ps->include_line);
            ps->failed = 1;
            return 0;
        }
        snprintf(ps->include, sizeof ps->include, "%s", value);
        ps->include_line = line;
        return 1;
    }
    for (size_t i = ps->first; i < ps->c->n; i++) {
        fs_config_entry *e = &ps->c->e[i];
        if (strcmp(e->section, section) == 0 && strcmp(e->key, name) == 0) {
            fs_error_at(ps->err, ps->file, line, NULL,
                        "%s.%s: set twice (first at line %d)", section, name,
                        e->line);
            ps->failed = 1;
            return 0;
        }
    }
    if (add_entry(ps->c, section, name, value, ps->file, line)) {
        fs_error_set(ps->err, "out of memory reading %s", ps->file);
        ps->failed = 1;
        return 0;
    }
    return 1;
}

static int read_whole(fs_config *c, FILE *f, const char *path)
{
    char header[PATH_MAX + 16];
    int n = snprintf(header, sizeof header, "; ---- %s\n", path);
    if (append_text(c, header, (size_t)n))
        return -1;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (append_text(c, buf, got))
            return -1;
    rewind(f);
    return 0;
}

static int load_file(fs_config *c, const char *path, const char *as_written,
                     int depth, const char *from_file, int from_line,
                     fs_error *err)
{
    if (depth > MAX_INCLUDE_DEPTH)
        return fs_error_at(err, from_file, from_line, "scenario.include",
                           "includes nested more than %d deep (a cycle?)",
                           MAX_INCLUDE_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (from_file)
            return fs_error_at(err, from_file, from_line, "scenario.include",
                               "cannot open '%s' (as %s): %m", as_written,
                               path);
        return fs_error_set(err, "%s: cannot open scenario: %m", path);
    }
    const char *file = intern_file(c, path);
    reader_state rd = {f, 0, 0};
    parse_state ps = {.c = c, .file = file, .rd = &rd, .first = c->n,
                      .err = err};
    if (!file || read_whole(c, f, path)) {
        fclose(f);
        return fs_error_set(err, "out of memory reading %s", path);
    }
    int rc = ini_parse_stream(reader, &rd, handler, &ps);
    fclose(f);
    if (ps.failed)
        return -1;
    if (rd.too_long)
        return fs_error_at(err, file, rd.too_long, NULL,
                           "line too long (at most %d characters)",
                           INI_MAX_LINE - 2);
    if (rc > 0)
        return fs_error_at(err, file, rc, NULL,
                           "cannot parse this line (expected [section] or "
                           "key = value)");
    if (rc < 0)
        return fs_error_set(err, "%s: cannot read scenario", path);
    if (!ps.include[0])
        return 0;

    /* The base goes first so that this file's keys override it: read it
     * into a separate config, then put its entries before ours. */
    char inc[2 * PATH_MAX + 2];
    if (ps.include[0] == '/') {
        snprintf(inc, sizeof inc, "%s", ps.include);
    } else {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        snprintf(inc, sizeof inc, "%s/%s", dirname(dir), ps.include);
    }
    fs_config base = {0};
    base.files = c->files;
    base.nfiles = c->nfiles;
    int brc = load_file(&base, inc, ps.include, depth + 1, file,
                        ps.include_line, err);
    c->files = base.files;
    c->nfiles = base.nfiles;
    base.files = NULL;
    base.nfiles = 0;
    if (brc == 0 && base.n) {
        size_t total = base.n + c->n;
        fs_config_entry *e = realloc(base.e, total * sizeof *e);
        if (!e) {
            brc = fs_error_set(err, "out of memory reading %s", inc);
        } else {
            memcpy(e + base.n, c->e, c->n * sizeof *e);
            free(c->e);
            c->e = e;
            c->n = c->cap = total;
            base.e = NULL;
            base.n = 0;
        }
    }
    if (brc == 0 && append_text(c, base.text ? base.text : "",
                                base.text_len))
        brc = fs_error_set(err, "out of memory reading %s", inc);
    for (size_t i = 0; i < base.n; i++) {
        free(base.e[i].section);
        free(base.e[i].key);
        free(base.e[i].value);
    }
    free(base.e);
    free(base.text);
    return brc;
}

fs_config *fs_config_load(const char *path, fs_error *err)
{
    fs_config *c = calloc(1, sizeof *c);
    if (!c) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    if (load_file(c, path, path, 0, NULL, 0, err)) {
        fs_config_free(c);
        return NULL;
    }
    return c;
}

void fs_config_free(fs_config *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->e[i].section);
        free(c->e[i].key);
        free(c->e[i].value);
    }
    free(c->e);
    for (size_t i = 0; i < c->nfiles; i++)
        free(c->files[i]);
    free(c->files);
    free(c->text);
    free(c);
}

fs_config_entry *fs_config_find(const fs_config *c, const char *section,
                                const char *key)
{
    /* Last one wins: includes come first, --set last. */
    for (size_t i = c->n; i-- > 0;)
        if (strcmp(c->e[i].section, section) == 0 &&
            strcmp(c->e[i].key, key) == 0)
            return &c->e[i];
    return NULL;
}

int fs_config_set(fs_config *c, const char *assignment, fs_error *err)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = NULL;
    for (const char *p = assignment; eq && p < eq; p++)
        if (*p == '.')
            dot = p;
    if (!eq || !dot || dot == assignment || dot + 1 == eq)
        return fs_error_set(err, "--set %s: expected SECTION.KEY=VALUE, "
                            "e.g. --set pool.a100.count=6", assignment);
    char section[256], key[128];
    snprintf(section, sizeof section, "%.*s", (int)(dot - assignment),
             assignment);
    snprintf(key, sizeof key, "%.*s", (int)(eq - dot - 1), dot + 1);
    const char *file = intern_file(c, "--set");
    char line[1024];
    int n = snprintf(line, sizeof line, "; --set %s\n", assignment);
    if (!file || add_entry(c, section, key, eq + 1, file, 0) ||
        append_text(c, line, (size_t)n))
        return fs_error_set(err, "out of memory");
    return 0;
}
