/* app_msg.h -- the exit statuses and the two ways a message reaches
 * stderr, shared by the application layer (run_exec.c) and every command.
 *
 * Below the command line because running a scenario (run_exec.c) reports
 * its failures and warnings the way the commands do: one wording, one
 * escaping of what came from the input. */
#ifndef FS_APP_MSG_H
#define FS_APP_MSG_H

#define FS_EXIT_OK 0
#define FS_EXIT_FAIL 1
#define FS_EXIT_USAGE 2
/* run: every replication stored, and one is over a budget (budget_run.h) */
#define FS_EXIT_BUDGET 3

/* Prints "fleetsim: message" on stderr; returns FS_EXIT_FAIL. */
int fs_fail(const char *msg);
/* prefix and msg on stderr, msg's control and invisible reordering
 * characters escaped (sim/base/textout.h), as fs_fail does. */
void fs_print_line(const char *prefix, const char *msg);

#endif
