/* config.c -- reading scenario files with inih; see config.h.
 *
 * A file is read whole first, with limits, and its lines checked for what
 * inih would get wrong silently (config_text.c).  inih
 * then parses the text through a reader that counts lines: it calls the
 * handler for a line right after reading it, so the count is that line's
 * number. */
#include "sim/scenario/config.h"
#include "sim/scenario/config_text.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INCLUDE_DEPTH 8

typedef struct reader_state {
    const char *p, *end;   /* the text not yet handed to inih */
    int line;
    int too_long;          /* line number of an over-long line, 0 if none */
} reader_state;

typedef struct parse_state {
    fs_config *c;
    const char *file, *dir;
    reader_state *rd;
    fs_strmap seen;      /* this file's "section\0key"s: line numbers */
    char include[PATH_MAX];
    int include_line;
    fs_error *err;
    int failed;
} parse_state;

/* Hands inih one line of the text.  The line check has already refused
 * lines too long for the header's INI_MAX_LINE; this stops on one too long
 * for the library's buffer, should it have been built smaller. */
static char *reader(char *buf, int size, void *stream)
{
    reader_state *rd = stream;
    if (rd->p >= rd->end || rd->too_long)
        return NULL;
    const char *nl = memchr(rd->p, '\n', (size_t)(rd->end - rd->p));
    size_t n = nl ? (size_t)(nl - rd->p) + 1 : (size_t)(rd->end - rd->p);
    if (n > (size_t)size - 1) {
        rd->too_long = rd->line + 1;
        return NULL;
    }
    memcpy(buf, rd->p, n);
    buf[n] = '\0';
    rd->p += n;
    rd->line++;
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

/* "section\0key", the index's key for an entry; 0 when it does not fit
 * (no entry can have such a section or key: lines are bounded). */
#define JOINT_MAX (FS_CONFIG_SECTION_MAX + FS_CONFIG_LINE_MAX + 2)

static size_t joint_key(char *buf, const char *section, const char *key)
{
    size_t s = strlen(section), k = strlen(key);
    if (s + 1 + k > JOINT_MAX)
        return 0;
    memcpy(buf, section, s);
    buf[s] = '\0';
    memcpy(buf + s + 1, key, k);
    return s + 1 + k;
}

/* Adds entry i to the index: its key now names it (the last one wins),
 * and it joins its section's list. */
static int index_entry(fs_config *c, size_t i)
{
    const fs_config_entry *e = &c->e[i];
    char joint[JOINT_MAX];
    size_t jlen = joint_key(joint, e->section, e->key), si;
    if (!jlen || fs_strmap_put(&c->keys, joint, jlen, i))
        return -1;
    if (!fs_strmap_get(&c->names, e->section, strlen(e->section), &si)) {
        fs_config_section *grown = fs_vec_grow(c->sections,
                                               &c->sections_cap,
                                               c->nsections + 1,
                                               sizeof *grown);
        if (!grown)
            return -1;
        c->sections = grown;
        si = c->nsections;
        if (fs_strmap_put(&c->names, e->section, strlen(e->section), si))
            return -1;
        c->sections[c->nsections++] = (fs_config_section){e->section, NULL,
                                                          0, 0};
    }
    fs_config_section *sec = &c->sections[si];
    size_t *entries = fs_vec_grow(sec->entries, &sec->cap, sec->n + 1,
                                  sizeof *entries);
    if (!entries)
        return -1;
    sec->entries = entries;
    sec->entries[sec->n++] = i;
    return 0;
}

static int index_all(fs_config *c)
{
    for (; c->indexed < c->n; c->indexed++)
        if (index_entry(c, c->indexed))
            return -1;
    return 0;
}

static void index_free(fs_config *c)
{
    fs_strmap_free(&c->keys);
    fs_strmap_free(&c->names);
    for (size_t i = 0; i < c->nsections; i++)
        free(c->sections[i].entries);
    free(c->sections);
    c->sections = NULL;
    c->nsections = c->sections_cap = c->indexed = 0;
}

static int add_entry(fs_config *c, const char *section, const char *key,
                     const char *value, const char *file, const char *dir,
                     int line)
{
    fs_config_entry *grown = fs_vec_grow(c->e, &c->cap, c->n + 1,
                                         sizeof *grown);
    if (!grown)
        return -1;
    c->e = grown;
    fs_config_entry *e = &c->e[c->n];
    e->section = strdup(section);
    e->key = strdup(key);
    e->value = strdup(value);
    e->file = file;
    e->dir = dir;
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
    char joint[JOINT_MAX];
    size_t jlen = joint_key(joint, section, name);
    size_t first;
    if (jlen && fs_strmap_get(&ps->seen, joint, jlen, &first)) {
        fs_error_at(ps->err, ps->file, line, NULL,
                    "%s.%s: set twice (first at line %d)", section, name,
                    (int)first);
        ps->failed = 1;
        return 0;
    }
    if (!jlen || fs_strmap_put(&ps->seen, joint, jlen, (size_t)line) ||
        add_entry(ps->c, section, name, value, ps->file, ps->dir, line)) {
        fs_error_set(ps->err, "out of memory reading %s", ps->file);
        ps->failed = 1;
        return 0;
    }
    return 1;
}

static int load_file(fs_config *c, const char *path, const char *as_written,
                     int depth, const char *from_file, int from_line,
                     fs_error *err);

/* Reads path whole; NULL with the message set: as the scenario itself, or
 * as the include at from_file:from_line (as_written as its user wrote it). */
static char *open_text(const char *path, const char *as_written,
                       const char *from_file, int from_line, size_t *len,
                       fs_error *err)
{
    const char *why;
    char whybuf[160];
    char *text = fs_config_read_limited(path, len, &why, whybuf, sizeof whybuf);
    if (text)
        return text;
    if (from_file && why)
        fs_error_at(err, from_file, from_line, "scenario.include", "'%s' %s",
                    as_written, why);
    else if (from_file)
        fs_error_at(err, from_file, from_line, "scenario.include",
                    "cannot open '%s' (as %s): %m", as_written, path);
    else if (why)
        fs_error_set(err, "%s: %s", path, why);
    else
        fs_error_set(err, "%s: cannot open scenario: %m", path);
    return NULL;
}

/* Parses path's text (len bytes, freed here) into c: its lines checked,
 * the text kept for the record, its entries added.  ps is filled as inih
 * leaves it: ps->include names the file it includes, if any. */
static int parse_text(fs_config *c, const char *path, char *text, size_t len,
                      parse_state *ps, fs_error *err)
{
    const char *file = intern_file(c, path);
    char dirbuf[PATH_MAX];
    snprintf(dirbuf, sizeof dirbuf, "%s", path);
    const char *dir = file ? intern_file(c, dirname(dirbuf)) : NULL;
    if (!file || !dir) {
        free(text);
        return fs_error_set(err, "out of memory reading %s", path);
    }
    if (fs_config_check_lines(text, len, file, err)) {
        free(text);
        return -1;
    }
    if (append_text(c, "; ---- ", 7) ||
        append_text(c, path, strlen(path)) || append_text(c, "\n", 1) ||
        append_text(c, text, len)) {
        free(text);
        return fs_error_set(err, "out of memory reading %s", path);
    }
    reader_state rd = {text, text + len, 0, 0};
    *ps = (parse_state){.c = c, .file = file, .dir = dir, .rd = &rd,
                        .err = err};
    fs_strmap_init(&ps->seen);
    int rc = ini_parse_stream(reader, &rd, handler, ps);
    fs_strmap_free(&ps->seen);
    ps->rd = NULL;
    free(text);
    if (ps->failed)
        return -1;
    if (rd.too_long)
        return fs_error_at(err, file, rd.too_long, NULL,
                           "line too long for this build of inih");
    if (rc > 0)
        return fs_error_at(err, file, rc, NULL,
                           "cannot parse this line (expected [section] or "
                           "key = value)");
    if (rc < 0)
        return fs_error_set(err, "%s: cannot read scenario", path);
    return 0;
}

/* Puts base's entries before c's (so that c's keys override them) and
 * base's text after c's; frees what is left of base. */
static int merge_base(fs_config *c, fs_config *base, int brc, const char *inc,
                      fs_error *err)
{
    if (brc == 0 && base->n) {
        size_t total = base->n + c->n;
        fs_config_entry *e = realloc(base->e, total * sizeof *e);
        if (!e) {
            brc = fs_error_set(err, "out of memory reading %s", inc);
        } else {
            memcpy(e + base->n, c->e, c->n * sizeof *e);
            free(c->e);
            c->e = e;
            c->n = c->cap = total;
            base->e = NULL;
            base->n = 0;
        }
    }
    if (brc == 0 && append_text(c, base->text ? base->text : "",
                                base->text_len))
        brc = fs_error_set(err, "out of memory reading %s", inc);
    for (size_t i = 0; i < base->n; i++) {
        free(base->e[i].section);
        free(base->e[i].key);
        free(base->e[i].value);
    }
    free(base->e);
    free(base->text);
    return brc;
}

/* The file path includes (ps->include, beside path unless absolute),
 * read into a separate config that goes first, at depth + 1. */
static int load_include(fs_config *c, const char *path, const parse_state *ps,
                        int depth, fs_error *err)
{
    char inc[2 * PATH_MAX + 2];
    if (ps->include[0] == '/') {
        snprintf(inc, sizeof inc, "%s", ps->include);
    } else {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        snprintf(inc, sizeof inc, "%s/%s", dirname(dir), ps->include);
    }
    fs_config base = {0};
    base.files = c->files;
    base.nfiles = c->nfiles;
    int brc = load_file(&base, inc, ps->include, depth + 1, ps->file,
                        ps->include_line, err);
    c->files = base.files;
    c->nfiles = base.nfiles;
    base.files = NULL;
    base.nfiles = 0;
    return merge_base(c, &base, brc, inc, err);
}

static int load_file(fs_config *c, const char *path, const char *as_written,
                     int depth, const char *from_file, int from_line,
                     fs_error *err)
{
    if (depth > MAX_INCLUDE_DEPTH)
        return fs_error_at(err, from_file, from_line, "scenario.include",
                           "includes nested more than %d deep (a cycle?)",
                           MAX_INCLUDE_DEPTH);
    size_t len = 0;
    char *text = open_text(path, as_written, from_file, from_line, &len, err);
    if (!text)
        return -1;
    parse_state ps;
    if (parse_text(c, path, text, len, &ps, err))
        return -1;
    if (!ps.include[0])
        return 0;
    return load_include(c, path, &ps, depth, err);
}

fs_config *fs_config_load(const char *path, fs_error *err)
{
    fs_config *c = calloc(1, sizeof *c);
    if (!c) {
        fs_error_set(err, "out of memory");
        return NULL;
    }
    if (load_file(c, path, path, 0, NULL, 0, err))
        return FS_DISCARD(fs_config_free, c);
    if (index_all(c)) {
        fs_error_set(err, "out of memory reading %s", path);
        return FS_DISCARD(fs_config_free, c);
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
    index_free(c);
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
    for (size_t i = c->n; i-- > c->indexed;)
        if (strcmp(c->e[i].section, section) == 0 &&
            strcmp(c->e[i].key, key) == 0)
            return &c->e[i];
    char joint[JOINT_MAX];
    size_t jlen = joint_key(joint, section, key), i;
    if (jlen && fs_strmap_get(&c->keys, joint, jlen, &i))
        return &c->e[i];
    return NULL;
}

const fs_config_section *fs_config_section_find(const fs_config *c,
                                                const char *name)
{
    size_t i;
    if (fs_strmap_get(&c->names, name, strlen(name), &i))
        return &c->sections[i];
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
    /* What a file could not hold is refused here too, never cut. */
    size_t slen = (size_t)(dot - assignment), klen = (size_t)(eq - dot - 1);
    if (slen > FS_CONFIG_SECTION_MAX)
        return fs_error_set(err, "--set %s: section name is %zu characters; "
                            "at most %d", assignment, slen,
                            FS_CONFIG_SECTION_MAX);
    if (strlen(assignment) > FS_CONFIG_LINE_MAX)
        return fs_error_set(err, "--set %.*s: too long (%zu characters; at "
                            "most %d, as a line of a file)",
                            (int)(eq - assignment), assignment,
                            strlen(assignment), FS_CONFIG_LINE_MAX);
    char section[FS_CONFIG_SECTION_MAX + 1], key[FS_CONFIG_LINE_MAX + 1];
    snprintf(section, sizeof section, "%.*s", (int)slen, assignment);
    snprintf(key, sizeof key, "%.*s", (int)klen, dot + 1);
    /* the include is read with the file; set afterwards it would be
     * ignored without a word */
    if (strcmp(section, "scenario") == 0 && strcmp(key, "include") == 0)
        return fs_error_set(err, "--set %s: scenario.include is read with "
                            "the scenario file and cannot be set from the "
                            "command line; write `include = FILE` in the "
                            "file", assignment);
    const char *file = intern_file(c, "--set");
    if (!file || add_entry(c, section, key, eq + 1, file, NULL, 0) ||
        append_text(c, "; --set ", 8) ||
        append_text(c, assignment, strlen(assignment)) ||
        append_text(c, "\n", 1) || index_all(c))
        return fs_error_set(err, "out of memory");
    return 0;
}

const char *fs_config_entry_dir(const fs_config_entry *e,
                                const char *fallback)
{
    return e && e->dir ? e->dir : fallback;
}
