/* commands.h -- the subcommands, each in its folder (sim/cli/NAME/cmd_NAME.c),
 * as git's builtin/, with the option table its parser reads
 * (sim/cli/shared/parse_options.h), and the messages they share
 * (sim/cli/shared/cmd_common.c).
 *
 * Each takes the arguments after `fleetsim` (argv[0] is the subcommand's
 * name) and returns the process exit status: 0 success, 1 the work could
 * not be done (message on stderr naming file, line and key), 2 usage. */
#ifndef FS_COMMANDS_H
#define FS_COMMANDS_H

#include "sim/app/app_msg.h"   /* FS_EXIT_*, fs_fail, fs_print_line */

#include "sim/cli/shared/parse_options.h"
#include "sim/cli/shared/options_common.h"

int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_roi(int argc, char **argv);
int cmd_commit(int argc, char **argv);
int cmd_forecast(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* The option tables, one a command (main.c lists them with the
 * commands; help and the reference are printed from them); runs and rm
 * share fs_options_db_read, --db alone (run_args.c). */
extern const fs_option fs_options_run[], fs_options_sweep[],
    fs_options_plan[], fs_options_db_read[], fs_options_compare[],
    fs_options_import[], fs_options_merge[],
    fs_options_roi[], fs_options_export[], fs_options_plot[],
    fs_options_report[], fs_options_trace[], fs_options_catalog[],
    fs_options_fit[], fs_options_calibrate[], fs_options_commit[],
    fs_options_forecast[];

/* `fleetsim catalog models` (catalog_models.c): models_csv, else
 * DIR/models.csv. */
int fs_catalog_print_models(const char *dir, const char *models_csv);

/* Prints "fleetsim CMD: message" and a pointer to `fleetsim help CMD` on
 * stderr; returns FS_EXIT_USAGE. */
int fs_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* --budget USD[/month] of run and forecast into *usd: above $0, a finite
 * amount (models/purchase/budget.h); else a usage error, FS_EXIT_USAGE. */
int fs_take_budget(const char *cmd, const char *opt, const char *v,
                   double *usd);

/* The results database when no --db is given. */
#define FS_DEFAULT_DB "fleetsim.db"

/* Usage error for an unknown option arg, suggesting the nearest of the
 * NULL-terminated known options; returns FS_EXIT_USAGE. */
int fs_unknown_option(const char *cmd, const char *arg,
                      const char *const *known);

/* The default of -j/--jobs: the processors online, at least 1. */
long fs_default_jobs(void);

#endif
