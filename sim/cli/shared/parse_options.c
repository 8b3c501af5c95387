/* parse_options.c -- fs_parse_options: argv against an option table
 * (parse_options.h).  The messages are the ones every command gave by
 * hand before: "--db needs a value", "-j needs a whole number of at least
 * 1, got '0'", "unknown option '--frob'; did you mean '--from'?". */
#include "sim/cli/shared/parse_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/error.h"
#include "sim/base/grammar.h"
#include "sim/cli/commands.h"

#define MAX_OPTIONS 64

/* One parse: the table flattened (includes resolved to absolute offsets)
 * and how often each option was given. */
typedef struct parser {
    const char *cmd;
    const fs_option *opt[MAX_OPTIONS];
    size_t base[MAX_OPTIONS];     /* offset of the option's struct */
    int seen[MAX_OPTIONS];
    int n;
    char *obj;
} parser;

static void flatten(parser *p, const fs_option *opts, size_t base)
{
    for (; opts->type != FS_OPTION_END; opts++) {
        if (opts->type == FS_OPTION_INCLUDE) {
            flatten(p, opts->sub, base + opts->offset);
        } else if (p->n < MAX_OPTIONS) {
            p->opt[p->n] = opts;
            p->base[p->n++] = base;
        }
    }
}

/* The option argv names: by long name (up to '=') or short letter. */
static int find_long(const parser *p, const char *name, size_t len)
{
    for (int k = 0; k < p->n; k++) {
        const char *l = p->opt[k]->long_name;
        if (l && strlen(l) == len && strncmp(l, name, len) == 0)
            return k;
    }
    return -1;
}

static int find_short(const parser *p, char c)
{
    for (int k = 0; k < p->n; k++)
        if (p->opt[k]->short_name && p->opt[k]->short_name == c)
            return k;
    return -1;
}

static int unknown(const parser *p, const char *arg)
{
    const char *names[MAX_OPTIONS * 2 + 2];
    char buf[MAX_OPTIONS][40];
    int k = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->opt[i]->long_name) {
            snprintf(buf[i], sizeof buf[i], "--%s", p->opt[i]->long_name);
            names[k++] = buf[i];
        }
    }
    names[k++] = "--help";
    names[k] = NULL;
    return fs_unknown_option(p->cmd, arg, names);
}

static int whole(const parser *p, const fs_option *o, const char *name,
                 const char *v, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (*end || end == v || errno == ERANGE || x < o->min) {
        char least[48] = "";
        if (o->min != 0)
            snprintf(least, sizeof least, " of at least %ld", o->min);
        return fs_usage_error(p->cmd, "%s needs a whole number%s, got '%s'",
                              name, least, v);
    }
    if (x > o->max)
        return fs_usage_error(p->cmd, "%s: at most %ld, got '%s'", name,
                              o->max, v);
    *out = x;
    return 0;
}

/* Stores option k's value v (NULL for a flag) under the name as typed. */
static int take(parser *p, int k, const char *name, const char *v)
{
    const fs_option *o = p->opt[k];
    char *field = p->obj + p->base[k] + o->offset, why[256];
    if (p->seen[k]++ && !(o->flags & FS_OPTION_MULTI))
        return fs_usage_error(p->cmd, "%s is given twice", name);
    switch (o->type) {
    case FS_OPTION_BOOL:
        *(int *)field = 1;
        return 0;
    case FS_OPTION_STRING:
        *(const char **)field = v;
        return 0;
    case FS_OPTION_INT:
        return whole(p, o, name, v, (long *)field);
    case FS_OPTION_DOUBLE: {
        char *end;
        errno = 0;
        double x = strtod(v, &end);
        if (*end || end == v || errno == ERANGE || !(x >= 0) || !isfinite(x))
            return fs_usage_error(p->cmd, "%s needs a number, got '%s'",
                                  name, v);
        *(double *)field = x;
        return 0;
    }
    case FS_OPTION_DURATION:
        if (fs_parse_duration(v, (double *)field, why, sizeof why))
            return fs_usage_error(p->cmd, "%s: %s", name, why);
        return 0;
    case FS_OPTION_CALLBACK:
        return o->fn(p->cmd, name, v, p->obj + p->base[k]);
    default:
        return 0;
    }
}

/* The value of an option that takes one: attached (after '=' or, for a
 * short option, right after the letter) or the next argument. */
static int value_of(const parser *p, const char *name, const char *attached,
                    int argc, char **argv, int *i, const char **v)
{
    if (attached)
        *v = attached;
    else if (*i + 1 < argc)
        *v = argv[++*i];
    else
        return fs_usage_error(p->cmd, "%s needs a value", name);
    if (**v == '\0')
        return fs_usage_error(p->cmd, "%s needs a value, not an empty string",
                              name);
    return 0;
}

/* argv[*i], which starts with '-': one option, perhaps with its value. */
static int option(parser *p, int argc, char **argv, int *i)
{
    const char *arg = argv[*i], *attached = NULL, *v = NULL;
    char name[64];
    int k;
    if (arg[1] == '-') {
        size_t len = strcspn(arg + 2, "=");
        k = find_long(p, arg + 2, len);
        if (arg[2 + len] == '=')
            attached = arg + 3 + len;
        snprintf(name, sizeof name, "--%.*s", (int)len, arg + 2);
    } else {
        k = find_short(p, arg[1]);
        if (arg[2])
            attached = arg + 2 + (arg[2] == '=');
        snprintf(name, sizeof name, "-%c", arg[1]);
    }
    if (k < 0 || (arg[1] != '-' && attached && !p->opt[k]->argh))
        return unknown(p, arg);
    if (!p->opt[k]->argh) {
        if (attached)
            return fs_usage_error(p->cmd, "%s takes no value", name);
        return take(p, k, name, NULL);
    }
    if (value_of(p, name, attached, argc, argv, i, &v))
        return FS_EXIT_USAGE;
    return take(p, k, name, v);
}

int fs_parse_options(const char *cmd, int argc, char **argv,
                     const fs_option *opts, void *base,
                     const char **operands, int *n)
{
    return fs_parse_options_few(cmd, argc, argv, opts, base, operands, argc,
                                n);
}

int fs_parse_options_few(const char *cmd, int argc, char **argv,
                         const fs_option *opts, void *base,
                         const char **operands, int room, int *n)
{
    parser p = {.cmd = cmd, .obj = base};
    flatten(&p, opts, 0);
    int done = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!done && strcmp(arg, "--") == 0) {
            done = 1;
            continue;
        }
        if (!done && arg[0] == '-' && arg[1] != '\0') {
            if (option(&p, argc, argv, &i))
                return FS_EXIT_USAGE;
            continue;
        }
        if (*n < room)
            operands[*n] = arg;
        ++*n;
    }
    return 0;
}
