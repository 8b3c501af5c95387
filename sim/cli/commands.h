/* commands.h -- the subcommands, each in its folder (sim/cli/NAME/cmd_NAME.c),
 * as git's builtin/, and the option parsing they share
 * (sim/cli/shared/cmd_common.c).
 *
 * Each takes the arguments after `fleetsim` (argv[0] is the subcommand's
 * name) and returns the process exit status: 0 success, 1 the work could
 * not be done (message on stderr naming file, line and key), 2 usage. */
#ifndef FS_COMMANDS_H
#define FS_COMMANDS_H

#define FS_EXIT_OK 0
#define FS_EXIT_FAIL 1
#define FS_EXIT_USAGE 2

int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
/* `catalog mig [GPU] [--model M ...] [--catalog DIR]` (catalog_mig.c):
 * argv[0] is "mig". */
int fs_catalog_mig(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_roi(int argc, char **argv);
int cmd_commit(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

/* `fleetsim catalog models` (catalog_models.c): models_csv, else
 * DIR/models.csv. */
int fs_catalog_print_models(const char *dir, const char *models_csv);

/* Prints "fleetsim CMD: message" and a pointer to `fleetsim help CMD` on
 * stderr; returns FS_EXIT_USAGE. */
int fs_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints "fleetsim: message" on stderr; returns FS_EXIT_FAIL. */
int fs_fail(const char *msg);
/* prefix and msg on stderr, msg's control and invisible reordering
 * characters escaped (sim/base/textout.h), as fs_fail does. */
void fs_print_line(const char *prefix, const char *msg);

/* The results database when no --db is given. */
#define FS_DEFAULT_DB "fleetsim.db"

/* Reads an option that takes a value, "NAME VALUE" or "NAME=VALUE", at
 * argv[*i].  Returns 1 with *value set (and *i moved past what it used),
 * 0 when argv[*i] is not that option, and -1 after printing a usage error
 * when the value is missing or empty. */
int fs_option_value(const char *cmd, int argc, char **argv, int *i,
                    const char *name, const char **value);

/* fs_option_value for each of the first n names in turn, the value of
 * names[k] going to *slots[k]: 1 when one took argv[*i], 0 when none is
 * argv[*i], -1 after a usage error. */
int fs_option_values(const char *cmd, int argc, char **argv, int *i,
                     const char *const *names, const char **const *slots,
                     int n);

/* The argument loop of a command that takes value options and operands
 * (runs, files).  options is NULL-terminated: its first nvalues names take
 * a value, which goes to *slots[k]; -h/--help prints the command's help;
 * "--" ends the options.  Operands go to operands[(*n)++], which has room
 * for argc.  Returns -1 to go on, FS_EXIT_OK when the help was printed,
 * FS_EXIT_USAGE after a usage error. */
int fs_parse_operands(const char *cmd, int argc, char **argv,
                      const char *const *options, const char **const *slots,
                      int nvalues, char **operands, int *n);

/* Usage error for an unknown option arg, suggesting the nearest of the
 * NULL-terminated known options; returns FS_EXIT_USAGE. */
int fs_unknown_option(const char *cmd, const char *arg,
                      const char *const *known);

/* True for -h and --help. */
int fs_is_help(const char *arg);
/* The default of -j/--jobs: the processors online, at least 1. */
long fs_default_jobs(void);

#endif
