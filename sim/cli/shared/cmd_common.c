/* cmd_common.c -- what every subcommand does the same way: usage errors
 * and failure messages.
 *
 * The options themselves are read by one parser from each command's table
 * (parse_options.c); these keep the messages identical across them. */
#include "sim/cli/commands.h"
#include "sim/base/textout.h"
#include <stdlib.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/base/error.h"
#include "sim/cli/shared/help.h"
#include "models/purchase/budget.h"

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

int fs_take_budget(const char *cmd, const char *opt, const char *v,
                   double *usd)
{
    char why[256];
    return fs_budget_parse_amount(v, usd, why, sizeof why)
               ? fs_usage_error(cmd, "%s %s", opt, why) : FS_EXIT_OK;
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

long fs_default_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? cpus : 1;
}
