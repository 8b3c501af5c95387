/* help_ref.h -- the reference listings of `fleetsim help`, generated from
 * the tables (scenario keys, run_summary columns) as text, tab-separated
 * lines or man page roff (help_ref.c). */
#ifndef FS_HELP_REF_H
#define FS_HELP_REF_H

#include <stdio.h>

#include "sim/cli/shared/help.h"

void fs_help_scenario(FILE *out);      /* `fleetsim help scenario` */
void fs_help_keys(FILE *out);          /* section.key TAB type TAB default
                                          TAB help, one key a line */
void fs_help_columns(FILE *out);       /* name TAB kind TAB label TAB help */
void fs_help_man_keys(FILE *out);      /* the man page's key listing */
void fs_help_man_columns(FILE *out);   /* its run_summary column listing */

/* The commands of cmds[0..n) from their option tables (help_commands.c):
 * doc/commands.md, the man page's SYNOPSIS lines and OPTIONS section, and
 * command TAB option TAB value TAB help, one option a line. */
void fs_help_reference(FILE *out, const fs_command *cmds, size_t n);
void fs_help_man_synopsis(FILE *out, const fs_command *cmds, size_t n);
void fs_help_man_options(FILE *out, const fs_command *cmds, size_t n);
void fs_help_options(FILE *out, const fs_command *cmds, size_t n);

#endif
