/* options_help.c -- an option table (parse_options.h) printed: the usage
 * synopsis and option list of `fleetsim help CMD`, the Markdown of
 * doc/commands.md, the roff of the man page and a tab-separated listing.
 * Printed from the table the parser reads, so none can name an option the
 * command does not take, or miss one it does. */
#include "sim/cli/shared/parse_options.h"

#include <string.h>

typedef void (*option_visit)(FILE *out, const fs_option *o, void *ctx);

/* Calls visit for each option of opts, includes in place. */
static void each(FILE *out, const fs_option *opts, option_visit visit,
                 void *ctx)
{
    for (; opts->type != FS_OPTION_END; opts++) {
        if (opts->type == FS_OPTION_INCLUDE)
            each(out, opts->sub, visit, ctx);
        else
            visit(out, opts, ctx);
    }
}

/* "--db FILE", or "-j N, --jobs N" (long 0: the short form only). */
static void label(const fs_option *o, int both, char *buf, size_t len)
{
    const char *a = o->argh ? o->argh : "";
    const char *sp = o->argh ? " " : "";
    if (o->short_name && o->long_name && both)
        snprintf(buf, len, "-%c%s%s, --%s%s%s", o->short_name, sp, a,
                 o->long_name, sp, a);
    else if (o->long_name)
        snprintf(buf, len, "--%s%s%s", o->long_name, sp, a);
    else
        snprintf(buf, len, "-%c%s%s", o->short_name, sp, a);
}

typedef struct synopsis {
    size_t indent, column;
} synopsis;

static void synopsis_item(FILE *out, const fs_option *o, void *ctx)
{
    synopsis *s = ctx;
    char l[96], item[112];
    label(o, 0, l, sizeof l);
    int req = (o->flags & FS_OPTION_REQUIRED) != 0;
    snprintf(item, sizeof item, "%s%s%s%s", req ? "" : "[", l, req ? "" : "]",
             (o->flags & FS_OPTION_MULTI) ? "..." : "");
    size_t n = strlen(item);
    if (s->column + 1 + n > 78) {
        fprintf(out, "\n%*s", (int)s->indent, "");
        s->column = s->indent;
    } else {
        fputc(' ', out);
        s->column++;
    }
    fputs(item, out);
    s->column += n;
}

size_t fs_options_print_synopsis(FILE *out, const fs_option *opts,
                                 size_t indent, size_t column)
{
    synopsis s = {indent, column};
    each(out, opts, synopsis_item, &s);
    return s.column;
}

size_t fs_options_print_word(FILE *out, const char *word, size_t indent,
                             size_t column)
{
    size_t n = strlen(word);
    if (!n)
        return column;
    if (column + 1 + n > 78) {
        fprintf(out, "\n%*s%s", (int)indent, "", word);
        return indent + n;
    }
    fprintf(out, " %s", word);
    return column + 1 + n;
}

/* text from column 21, wrapped at 78 and at each '\n'. */
static void wrapped(FILE *out, const char *text)
{
    size_t col = 21;
    const char *p = text;
    int brk = 0;
    while (*p) {
        size_t n = strcspn(p, " \n");
        if (col > 21 && (brk || col + 1 + n > 78)) {
            fprintf(out, "\n%21s", "");
            col = 21;
        } else if (col > 21) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, n, out);
        col += n;
        p += n;
        for (brk = 0; *p == ' ' || *p == '\n'; p++)
            brk |= *p == '\n';
    }
}

static void help_item(FILE *out, const fs_option *o, void *ctx)
{
    (void)ctx;
    char l[96];
    label(o, 1, l, sizeof l);
    if (strlen(l) > 17)
        fprintf(out, "  %s\n%21s", l, "");
    else
        fprintf(out, "  %-17s  ", l);
    wrapped(out, o->help);
    fputc('\n', out);
}

void fs_options_print_help(FILE *out, const fs_option *opts)
{
    each(out, opts, help_item, NULL);
}

/* The help on one line: its '\n's read as spaces. */
static void joined(FILE *out, const char *h, int roff)
{
    for (const char *p = h; *p; p++) {
        if (*p == '\n')
            fputc(' ', out);
        else if (roff && *p == '\\')
            fputs("\\e", out);
        else if (roff && *p == '-' && (p == h || p[-1] == ' ' ||
                                       p[-1] == '(' || p[-1] == '-'))
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

/* One spelling of o in Markdown ("`-j N`") or roff. */
static void spelling(FILE *out, const fs_option *o, int lng, int roff)
{
    const char *dash = roff ? "\\-" : "-";
    fputs(roff ? "\\fB" : "`", out);
    fprintf(out, "%s%s", dash, lng ? dash : "");
    if (lng)
        for (const char *p = o->long_name; *p; p++)
            fputs(*p == '-' ? dash : (char[]){*p, 0}, out);
    else
        fputc(o->short_name, out);
    if (o->argh) {
        fputs(roff ? "\\fR \\fI" : " ", out);
        joined(out, o->argh, roff);
    }
    fputs(roff ? "\\fR" : "`", out);
}

static void spellings(FILE *out, const fs_option *o, int roff)
{
    if (o->short_name)
        spelling(out, o, 0, roff);
    if (o->short_name && o->long_name)
        fputs(", ", out);
    if (o->long_name)
        spelling(out, o, 1, roff);
}

/* An option in the reference: a Markdown bullet ("- `--db FILE`: ...")
 * or, when *ctx (roff) is set, a man page item (.TP, the spellings, the
 * help on the next line, guarded from reading as a request). */
static void reference_item(FILE *out, const fs_option *o, void *ctx)
{
    int roff = *(const int *)ctx;
    fputs(roff ? ".TP\n" : "- ", out);
    spellings(out, o, roff);
    fputs(roff ? "\n" : ": ", out);
    if (roff && (*o->help == '.' || *o->help == '\''))
        fputs("\\&", out);
    joined(out, o->help, roff);
    fputc('\n', out);
}

void fs_options_print_markdown(FILE *out, const fs_option *opts)
{
    static const int markdown = 0;
    each(out, opts, reference_item, (void *)&markdown);
}

void fs_options_print_man(FILE *out, const fs_option *opts)
{
    static const int roff = 1;
    each(out, opts, reference_item, (void *)&roff);
}

static void list_item(FILE *out, const fs_option *o, void *ctx)
{
    if (o->long_name)
        fprintf(out, "%s\t--%s\t", (const char *)ctx, o->long_name);
    else
        fprintf(out, "%s\t-%c\t", (const char *)ctx, o->short_name);
    fprintf(out, "%s\t", o->argh ? o->argh : "");
    joined(out, o->help, 0);
    fputc('\n', out);
}

void fs_options_print_list(FILE *out, const char *cmd,
                           const fs_option *opts)
{
    each(out, opts, list_item, (void *)cmd);
}
