/* main.c -- the fleetsim command: finds the subcommand and runs it. */
#include "sim/cli/commands.h"
#include "sim/cli/help.h"
#include "sim/store/store.h"

#include <stdio.h>
#include <string.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "dev"
#endif

static const struct command {
    const char *name;
    int (*fn)(int, char **);
} commands[] = {
    {"run", cmd_run},         {"runs", cmd_runs},
    {"compare", cmd_compare}, {"catalog", cmd_catalog},
    {"help", cmd_help},       {"rm", cmd_rm},
    {"import", cmd_import},
};

int main(int argc, char **argv)
{
    /* Past a file-size limit (ulimit -f) a write fails with a message
     * rather than SIGXFSZ killing us. */
    fs_store_catch_file_size_limit();
    if (argc < 2) {
        fputs(fs_help_text(NULL), stderr);
        return FS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return cmd_help(argc - 1, argv + 1);
    if (strcmp(name, "--version") == 0) {
        printf("fleetsim %s\n", PACKAGE_VERSION);
        return FS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0) {
            /* `fleetsim CMD --help` is `fleetsim help CMD`. */
            for (int k = 2; k < argc; k++)
                if (strcmp(argv[k], "--help") == 0 ||
                    strcmp(argv[k], "-h") == 0) {
                    char *h[] = {"help", (char *)name, NULL};
                    return cmd_help(2, h);
                }
            return commands[i].fn(argc - 1, argv + 1);
        }
    return fs_usage_error(name, "not a fleetsim command (see fleetsim "
                          "--help)");
}
