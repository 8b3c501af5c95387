/* cmd_common.c -- what every subcommand does the same way: usage errors,
 * failure messages, and options that take a value.
 *
 * The subcommands parse their own arguments (each knows its options);
 * these helpers keep the messages and the "--db FILE" / "--db=FILE"
 * spellings identical across them. */
#include "sim/cli/commands.h"
#include "sim/base/textout.h"
#include <stdlib.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/error.h"
#include "sim/cli/shared/help.h"

int fs_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    char msg[2048];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char *v = fs_text_visible(msg);   /* arguments never drive the tty */
    fprintf(stderr, "fleetsim %s: %s\n", cmd, v ? v : msg);
    free(v);
    fprintf(stderr, "Run `fleetsim help %s` for usage.\n", cmd);
    return FS_EXIT_USAGE;
}

int fs_option_value(const char *cmd, int argc, char **argv, int *i,
                    const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    const char *v;
    if (arg[n] == '=') {
        v = arg + n + 1;
    } else if (arg[n] == '\0') {
        if (*i + 1 >= argc) {
            fs_usage_error(cmd, "%s needs a value", name);
            return -1;
        }
        v = argv[++*i];
    } else {
        return 0;           /* --dbx is another (unknown) option */
    }
    if (*v == '\0') {
        fs_usage_error(cmd, "%s needs a value, not an empty string", name);
        return -1;
    }
    *value = v;
    return 1;
}

int fs_option_values(const char *cmd, int argc, char **argv, int *i,
                     const char *const *names, const char **const *slots,
                     int n)
{
    for (int k = 0; k < n; k++) {
        int taken = fs_option_value(cmd, argc, argv, i, names[k], slots[k]);
        if (taken)
            return taken;
    }
    return 0;
}

int fs_parse_operands(const char *cmd, int argc, char **argv,
                      const char *const *options, const char **const *slots,
                      int nvalues, char **operands, int *n)
{
    int options_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done) {
            int taken = fs_option_values(cmd, argc, argv, &i, options, slots,
                                         nvalues);
            if (taken < 0)
                return FS_EXIT_USAGE;
            if (taken)
                continue;
            if (strcmp(arg, "--") == 0) {
                options_done = 1;
                continue;
            }
            if (fs_is_help(arg)) {
                fputs(fs_help_text(cmd), stdout);
                return FS_EXIT_OK;
            }
            if (arg[0] == '-' && arg[1] != '\0')
                return fs_unknown_option(cmd, arg, options);
        }
        operands[(*n)++] = argv[i];
    }
    return -1;
}

int fs_unknown_option(const char *cmd, const char *arg,
                      const char *const *known)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
    const char *near = fs_nearest_name(name, known);
    if (near)
        return fs_usage_error(cmd, "unknown option '%s'; did you mean '%s'?",
                              arg, near);
    return fs_usage_error(cmd, "unknown option '%s'", arg);
}

int fs_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

long fs_default_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? cpus : 1;
}
