/* help.h -- `fleetsim help`: the command overview and a text per command
 * (help.c), which every command's usage error points to.  The reference
 * listings generated from the tables are help_ref.h's. */
#ifndef FS_HELP_H
#define FS_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "sim/cli/shared/parse_options.h"

/* One subcommand, as main.c's table declares it. */
typedef struct fs_command {
    const char *name;                 /* "compare" */
    int (*fn)(int argc, char **argv); /* argv[0] is the name */
    const char *args;                 /* "RUN...", shown after the name */
    const char *summary;              /* one line for `fleetsim help` */
    const fs_option *options;         /* the table its parser reads */
    const char *operands;             /* "RUN...": the synopsis' operands */
} fs_command;

/* `fleetsim help CMD`: the synopsis and the option list printed from
 * c's table around the text of fs_help_text (help_commands.c). */
void fs_help_command(FILE *out, const fs_command *c);

/* `fleetsim help [--man] [TOPIC]` (cmd_help.c; argv[0] is "help" or
 * "--help") for the commands cmds[0..n): the overview, a command's help, or
 * a reference topic (scenario, keys, columns, commands).  Returns the exit
 * status. */
int fs_help_main(int argc, char **argv, const fs_command *cmds, size_t n);

/* The overview: usage, then every command of cmds with its arguments and
 * summary. */
void fs_help_usage(FILE *out, const fs_command *cmds, size_t n);

/* What a command does ("run"), between its synopsis and its options;
 * NULL if it has no text. */
const char *fs_help_text(const char *topic);

/* `fleetsim help commit` (help_commit.c). */
extern const char fs_commit_help[];
extern const char fs_forecast_help[];

#endif
