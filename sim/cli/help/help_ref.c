/* help_ref.c -- the reference listings, generated from the tables: the
 * scenario keys (sim/scenario/keys.c and each purchase option's keys) and
 * the run_summary columns (sim/store/columns.c).
 *
 * Each comes in three forms: text for people (`fleetsim help scenario`),
 * tab-separated lines for scripts and the docs test (`fleetsim help keys`,
 * `fleetsim help columns`), and roff for the man page (`fleetsim help --man
 * keys|columns`, spliced into doc/fleetsim.1 by `make man`).  None of them
 * lists a key or a column by hand, so none can miss one. */
#include "sim/cli/help/help_ref.h"

#include <string.h>

#include "models/purchase/purchase.h"
#include "sim/scenario/keys.h"
#include "sim/store/columns.h"

#define WIDTH 78          /* text lines end before this column */
#define HELP_COLUMN 30    /* where a key's help starts */

static const char scenario_head[] =
"Scenario files are INI (inih).  Values use one grammar: durations 250ms\n"
"90s 15m 4h 30d 2w (a bare number is seconds); rates 3.2/s 100/m 5000/h\n"
"1M/d; money 4.10 or $4.10 ($ per instance-hour unless said); fractions\n"
"0.7 or 70%; calls NAME(key=value, ...).  ';' or '#' starts a comment.\n"
"`--set SECTION.KEY=VALUE` on `fleetsim run` overrides any key.\n";

static const char scenario_tail[] =
"\n"
"Limits (refused with file:line:key beyond them): a file is a regular file\n"
"of at most 1 MiB, lines at most 198 characters, section names at most 49;\n"
"durations at most 3650d; count, min, max at most 1000000; gpus_per_instance\n"
"at most 64; batch_max at most 65536; replications at most 10000; price at\n"
"most $10000 per instance-hour; rate_scale at most 1000; lognormal sigma at\n"
"most 4; weibull shape 0.1 to 100; per pool, servers x batch_max at most\n"
"4194304; pools x replications x (samples + months) at most 5000000.\n"
"A window's every at least 1m; a spot trace's available a whole number at\n"
"most 1000000 and the pool's count + spot_extra; a jobs file at most\n"
"1000000 jobs (about 1 KB each), ids unique, deadline_s after submit_s.\n"
"A workload's queue holds at most 10000000 waiting requests (queue_max,\n"
"512 MiB): arrivals to a full queue are dropped and counted, and `run`\n"
"warns first when the arrivals beyond its pools' capacity exceed it.\n";

/* ---- text ------------------------------------------------------------- */

/* Prints words from column `at`, wrapping at WIDTH to column `indent`. */
static void wrap(FILE *out, const char *text, int at, int indent)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (at > indent && at + 1 + (int)len >= WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            at = indent;
        } else if (at > indent) {
            fputc(' ', out);
            at++;
        }
        fwrite(p, 1, len, out);
        at += (int)len;
        p += len;
    }
    fputc('\n', out);
}

/* "  name = TYPE   help; default D", the help wrapped at HELP_COLUMN. */
static void text_key(FILE *out, const fs_key_doc *k)
{
    char line[1024];
    int at = fprintf(out, "  %s = %s", k->name, k->type);
    if (k->def)
        snprintf(line, sizeof line, "%s; default %s", k->help, k->def);
    else
        snprintf(line, sizeof line, "%s", k->help);
    if (at + 2 > HELP_COLUMN) {
        fprintf(out, "\n%*s", HELP_COLUMN, "");
    } else {
        fprintf(out, "%*s", HELP_COLUMN - at, "");
    }
    wrap(out, line, HELP_COLUMN, HELP_COLUMN);
}

/* "  not in this version: a, b (spot pools); c (MIG partitions)". */
static void text_later(FILE *out, const fs_key_section *sec)
{
    if (!sec->later[0].name)
        return;
    char line[1024];
    size_t n = 0;
    for (const fs_key_later *l = sec->later; l->name; l++) {
        int last = !l[1].name ||
                   strcmp(l[1].capability, l->capability) != 0;
        n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0,
                              "%s%s", l->name, last ? " (" : ", ");
        if (last && n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s)%s",
                                  l->capability, l[1].name ? "; " : "");
        if (n >= sizeof line)
            break;
    }
    fputs("  not in this version:", out);
    wrap(out, line, 23, 4);
}

/* One way of printing the key reference: each section's heading, its
 * keys, then each purchase option's (a line before them, has_keys 0 for
 * an option with none), then what the section refuses as not in this
 * version.  The text of help and the man page walk the tables the same
 * way (each_key), each with its printer. */
typedef struct key_printer {
    void (*section)(FILE *out, const fs_key_section *sec);
    void (*key)(FILE *out, const fs_key_doc *k);
    void (*option)(FILE *out, const fs_purchase_option *o, int has_keys);
    void (*later)(FILE *out, const fs_key_section *sec);
} key_printer;

static void each_key(FILE *out, const key_printer *pr)
{
    for (const fs_key_section *sec = fs_key_sections; sec->name; sec++) {
        pr->section(out, sec);
        for (const fs_key_doc *k = sec->keys; k->name; k++)
            pr->key(out, k);
        for (const fs_purchase_option *const *o = fs_purchase_options;
             sec->purchase_keys && *o; o++) {
            const fs_key_doc *k = (*o)->keys;
            pr->option(out, *o, k && k->name);
            for (; k && k->name; k++)
                pr->key(out, k);
        }
        pr->later(out, sec);
    }
}

static void text_section(FILE *out, const fs_key_section *sec)
{
    fprintf(out, "\n%s\n", sec->header);
}

static void text_option(FILE *out, const fs_purchase_option *o, int has_keys)
{
    fprintf(out, " with pricing = %s:%s\n", o->name,
            has_keys ? "" : " no keys of its own");
}

void fs_help_scenario(FILE *out)
{
    static const key_printer text = {text_section, text_key, text_option,
                                     text_later};
    fputs(scenario_head, out);
    each_key(out, &text);
    fputs(scenario_tail, out);
}

/* ---- tab-separated ---------------------------------------------------- */

/* True when an earlier key of sec has the same name (two purchase options
 * may read the same key). */
static int listed_before(const fs_key_section *sec, size_t i)
{
    fs_key_ref k, e;
    fs_key_at(sec, i, &k);
    for (size_t j = 0; j < i && fs_key_at(sec, j, &e); j++)
        if (strcmp(e.doc->name, k.doc->name) == 0)
            return 1;
    return 0;
}

void fs_help_keys(FILE *out)
{
    for (const fs_key_section *sec = fs_key_sections; sec->name; sec++) {
        fs_key_ref k;
        for (size_t i = 0; fs_key_at(sec, i, &k); i++)
            if (!listed_before(sec, i))
                fprintf(out, "%s.%s\t%s\t%s\t%s\n", sec->name, k.doc->name,
                        k.doc->type, k.doc->def ? k.doc->def : "-",
                        k.doc->help);
    }
}

void fs_help_columns(FILE *out)
{
    for (size_t i = 0; i < FS_SUMMARY_COLUMNS; i++) {
        const fs_column *c = &fs_summary_columns[i];
        fprintf(out, "%s\t%s\t%s\t%s\n", c->name, fs_column_kind_name(c->kind),
                c->label ? c->label : "-", c->help);
    }
}

/* ---- roff --------------------------------------------------------------- */

/* Text as roff: backslashes escaped, a dash that starts a word (--set)
 * or follows one a minus sign (copied from a terminal, it is typed). */
static void roff_text(FILE *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-' && (p == s || p[-1] == ' ' || p[-1] == '(' ||
                               p[-1] == '-'))
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

/* A sentence on a line of its own (it could start with a control
 * character), with a final period. */
static void roff_line(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    roff_text(out, s);
    fputs(".\n", out);
}

static void roff_key(FILE *out, const fs_key_doc *k)
{
    fputs(".TP\n\\fB", out);
    roff_text(out, k->name);
    fputs("\\fR = \\fI", out);
    roff_text(out, k->type);
    fputs("\\fR\n", out);
    roff_line(out, k->help);    /* one line, no final period: add one */
    if (k->def) {
        fputs("Default: ", out);
        roff_text(out, k->def);
        fputs(".\n", out);
    }
}

static void roff_later(FILE *out, const fs_key_section *sec)
{
    if (!sec->later[0].name)
        return;
    fputs(".PP\nRefused as not in this version:\n", out);
    for (const fs_key_later *l = sec->later; l->name; l++) {
        int last = !l[1].name ||
                   strcmp(l[1].capability, l->capability) != 0;
        fputs(".BR ", out);
        roff_text(out, l->name);
        if (last) {
            fputs(" \" (", out);
            roff_text(out, l->capability);
            fprintf(out, ")%s\"\n", l[1].name ? ";" : ".");
        } else {
            fputs(" ,\n", out);
        }
    }
}

static void roff_section(FILE *out, const fs_key_section *sec)
{
    fprintf(out, ".SS \"%s\"\n", sec->header);
}

static void roff_option(FILE *out, const fs_purchase_option *o, int has_keys)
{
    fputs(".PP\nWith\n.BR \"pricing = ", out);
    roff_text(out, o->name);
    fputs(has_keys ? "\" :\n" : "\"\nno keys of its own.\n", out);
}

void fs_help_man_keys(FILE *out)
{
    static const key_printer roff = {roff_section, roff_key, roff_option,
                                     roff_later};
    each_key(out, &roff);
}

void fs_help_man_columns(FILE *out)
{
    for (size_t i = 0; i < FS_SUMMARY_COLUMNS; i++) {
        const fs_column *c = &fs_summary_columns[i];
        fputs(".TP\n.B ", out);
        roff_text(out, c->name);
        fprintf(out, "\n(%s) ", fs_column_kind_name(c->kind));
        roff_line(out, c->help);
    }
}
