/* parse_options.h -- the one option parser of the subcommands, table-driven
 * as git's parse-options is.
 *
 * A command declares its options once, in a static table of OPT_*
 * entries ending with OPT_END(): short and long name, the field of its
 * options struct the value goes to (by offsetof, so the table is a
 * constant that help and the generated reference read too), the value's
 * name and a one-line description.  fs_parse_options reads argv against
 * it: "--name value" and "--name=value", "-j 4", "-j4" and "-j=4"; an
 * option given twice is refused unless marked FS_OPTION_MULTI; an unknown
 * one is refused with the nearest name; "--" ends the options.  The usage
 * synopsis and the option list of `fleetsim help CMD`, doc/commands.md and
 * the man page are printed from the same table (fs_options_print_*), so
 * help and parser cannot drift. */
#ifndef FS_PARSE_OPTIONS_H
#define FS_PARSE_OPTIONS_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

typedef enum fs_option_type {
    FS_OPTION_END = 0,
    FS_OPTION_BOOL,       /* int field set to 1; takes no value */
    FS_OPTION_STRING,     /* const char * field */
    FS_OPTION_INT,        /* long field, a whole number in [min, max] */
    FS_OPTION_DOUBLE,     /* double field, a finite number >= 0 */
    FS_OPTION_DURATION,   /* double field, seconds, the duration grammar */
    FS_OPTION_CALLBACK,   /* fn reads the value (or the flag) */
    FS_OPTION_INCLUDE,    /* the options of sub, fields at offset */
} fs_option_type;

/* The option may be given more than once (each value to its callback). */
#define FS_OPTION_MULTI 1u
/* Shown in the synopsis without brackets: the command needs it. */
#define FS_OPTION_REQUIRED 2u

typedef struct fs_option fs_option;

/* A callback: cmd the command's name, name the option as typed ("-j",
 * "--jobs"), value NULL for a flag, base the options struct.  Returns 0,
 * or the exit status after printing a usage error. */
typedef int (*fs_option_fn)(const char *cmd, const char *name,
                            const char *value, void *base);

struct fs_option {
    fs_option_type type;
    char short_name;          /* 'j', or 0 */
    const char *long_name;    /* "jobs" (no dashes), or NULL */
    size_t offset;            /* of the field in the options struct */
    const char *argh;         /* the value's name ("FILE"); NULL: a flag */
    const char *help;         /* a line ('\n': a line break in help) */
    unsigned flags;           /* FS_OPTION_MULTI, FS_OPTION_REQUIRED */
    long min, max;            /* FS_OPTION_INT bounds */
    fs_option_fn fn;          /* FS_OPTION_CALLBACK */
    const fs_option *sub;     /* FS_OPTION_INCLUDE */
};

#define OPT_END() { .type = FS_OPTION_END }
#define OPT_BOOL(s, l, T, f, h) \
    { .type = FS_OPTION_BOOL, .short_name = (s), .long_name = (l), \
      .offset = offsetof(T, f), .help = (h) }
#define OPT_STRING_F(s, l, T, f, a, h, fl) \
    { .type = FS_OPTION_STRING, .short_name = (s), .long_name = (l), \
      .offset = offsetof(T, f), .argh = (a), .help = (h), .flags = (fl) }
#define OPT_STRING(s, l, T, f, a, h) OPT_STRING_F(s, l, T, f, a, h, 0)
#define OPT_INT(s, l, T, f, a, h, lo, hi) \
    { .type = FS_OPTION_INT, .short_name = (s), .long_name = (l), \
      .offset = offsetof(T, f), .argh = (a), .help = (h), .min = (lo), \
      .max = (hi) }
#define OPT_DOUBLE(s, l, T, f, a, h) \
    { .type = FS_OPTION_DOUBLE, .short_name = (s), .long_name = (l), \
      .offset = offsetof(T, f), .argh = (a), .help = (h) }
#define OPT_DURATION(s, l, T, f, a, h) \
    { .type = FS_OPTION_DURATION, .short_name = (s), .long_name = (l), \
      .offset = offsetof(T, f), .argh = (a), .help = (h) }
/* a NULL: a flag whose callback gets value NULL. */
#define OPT_CALLBACK_F(s, l, a, h, cb, fl) \
    { .type = FS_OPTION_CALLBACK, .short_name = (s), .long_name = (l), \
      .argh = (a), .help = (h), .fn = (cb), .flags = (fl) }
#define OPT_CALLBACK(s, l, a, h, cb) OPT_CALLBACK_F(s, l, a, h, cb, 0)
#define OPT_INCLUDE(table, T, f) \
    { .type = FS_OPTION_INCLUDE, .offset = offsetof(T, f), .sub = (table) }

/* Reads argv[1..argc) of command cmd against opts into the options struct
 * at base; the other arguments (operands) go to operands[(*n)++], which
 * has room for argc.  0, or FS_EXIT_USAGE after a usage error on stderr.
 * (-h and --help never get here: main.c turns them into `help CMD`.) */
int fs_parse_options(const char *cmd, int argc, char **argv,
                     const fs_option *opts, void *base,
                     const char **operands, int *n);
/* The same for a command of a few operands: the first room of them go to
 * operands[], *n counts them all (the caller says what is too many). */
int fs_parse_options_few(const char *cmd, int argc, char **argv,
                         const fs_option *opts, void *base,
                         const char **operands, int room, int *n);

/* The synopsis: " [--db FILE] [-j N] [--set S.K=V]..." from column on,
 * wrapped at 78 columns, continuation lines indented by indent; returns
 * the column it ends at.  fs_options_print_word: one more word (" RUN...")
 * the same way. */
size_t fs_options_print_synopsis(FILE *out, const fs_option *opts,
                                 size_t indent, size_t column);
size_t fs_options_print_word(FILE *out, const char *word, size_t indent,
                             size_t column);
/* The option list of help: "  -j N, --jobs N     description". */
void fs_options_print_help(FILE *out, const fs_option *opts);
/* The list as Markdown (a bullet an option) and as man page roff (.TP). */
void fs_options_print_markdown(FILE *out, const fs_option *opts);
void fs_options_print_man(FILE *out, const fs_option *opts);
/* cmd TAB option TAB value TAB help, one option a line, for scripts and
 * tests/cli_docs.sh. */
void fs_options_print_list(FILE *out, const char *cmd,
                           const fs_option *opts);

#endif
