/* cmd_help.c -- `fleetsim help [--man] [TOPIC]`.
 *
 * The topics are the commands of main.c's table, passed in, and the
 * reference listings generated from the tables (help_ref.c): scenario
 * (for people), keys and columns (tab-separated, for scripts), commands.
 * `--man keys|columns` prints the roff that `make man` splices into
 * doc/fleetsim.1. */
#include "sim/cli/commands.h"
#include "sim/cli/shared/help.h"
#include "sim/cli/help/help_ref.h"
#include "sim/base/error.h"

#include <stdio.h>
#include <string.h>

/* The reference topics, after the commands. */
static const struct reference {
    const char *name;
    void (*print)(FILE *out);
    void (*man)(FILE *out);     /* NULL: no roff form */
} references[] = {
    {"scenario", fs_help_scenario, NULL},
    {"keys", fs_help_keys, fs_help_man_keys},
    {"columns", fs_help_columns, fs_help_man_columns},
};
#define NREFERENCES (sizeof references / sizeof references[0])

static const struct reference *find_reference(const char *name)
{
    for (size_t i = 0; i < NREFERENCES; i++)
        if (strcmp(references[i].name, name) == 0)
            return &references[i];
    return NULL;
}

static const fs_command *find_command(const char *name,
                                      const fs_command *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(cmds[i].name, name) == 0)
            return &cmds[i];
    return NULL;
}

/* name TAB arguments TAB summary, one command a line. */
static void print_commands(FILE *out, const fs_command *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s\t%s\t%s\n", cmds[i].name, cmds[i].args,
                cmds[i].summary);
}

/* `fleetsim help help`. */
static void print_generic(FILE *out, const fs_command *cmds, size_t n)
{
    fputs("usage: fleetsim help [--man] [TOPIC]\n\nTOPIC is a command (", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i ? ", " : "", cmds[i].name);
    fputs(") or:\n"
          "  scenario   every scenario key, by section, with type and "
          "default\n"
          "  keys       the scenario keys, one a line: section.key TAB type "
          "TAB default\n"
          "             TAB help (default - when there is none)\n"
          "  columns    the run_summary columns, one a line: name TAB kind "
          "TAB label\n"
          "             TAB help\n"
          "  commands   the commands, one a line: name TAB arguments TAB "
          "summary\n"
          "  options    every command's options, one a line: command TAB "
          "option TAB\n"
          "             value TAB help\n"
          "--man keys|columns|synopsis|options prints those listings as man "
          "page roff;\n--reference the command reference doc/commands.md "
          "(Markdown).\n",
          out);
}

/* The nearest topic to a misspelt one, or NULL. */
static const char *nearest_topic(const char *topic, const fs_command *cmds,
                                 size_t n)
{
    const char *names[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 60; i++)
        names[k++] = cmds[i].name;
    for (size_t i = 0; i < NREFERENCES; i++)
        names[k++] = references[i].name;
    names[k++] = "commands";
    names[k++] = "options";
    names[k] = NULL;
    return fs_nearest_name(topic, names);
}

/* `help --man TOPIC`: the roff of a reference listing or, from the
 * commands' tables, of the SYNOPSIS or OPTIONS section. */
static int print_man(const char *topic, const fs_command *cmds, size_t n)
{
    const struct reference *r = topic ? find_reference(topic) : NULL;
    if (r && r->man)
        r->man(stdout);
    else if (topic && strcmp(topic, "synopsis") == 0)
        fs_help_man_synopsis(stdout, cmds, n);
    else if (topic && strcmp(topic, "options") == 0)
        fs_help_man_options(stdout, cmds, n);
    else
        return fs_usage_error("help", "--man takes keys, columns, synopsis "
                              "or options");
    return FS_EXIT_OK;
}

int fs_help_main(int argc, char **argv, const fs_command *cmds, size_t n)
{
    int man = argc > 1 && strcmp(argv[1], "--man") == 0;
    if (argc > 2 + man)
        return fs_usage_error("help", "one topic at a time");
    const char *topic = argc > 1 + man ? argv[1 + man] : NULL;
    if (man)
        return print_man(topic, cmds, n);
    if (!topic) {
        fs_help_usage(stdout, cmds, n);
        return FS_EXIT_OK;
    }
    const fs_command *c = find_command(topic, cmds, n);
    const struct reference *r = find_reference(topic);
    if (c && strcmp(topic, "help") != 0)
        fs_help_command(stdout, c);
    else if (c)
        print_generic(stdout, cmds, n);
    else if (r)
        r->print(stdout);
    else if (strcmp(topic, "commands") == 0)
        print_commands(stdout, cmds, n);
    else if (strcmp(topic, "options") == 0)
        fs_help_options(stdout, cmds, n);
    else if (strcmp(topic, "--reference") == 0)
        fs_help_reference(stdout, cmds, n);
    else {
        const char *near = nearest_topic(topic, cmds, n);
        return fs_usage_error("help", "no help on '%s'%s%s%s", topic,
                              near ? " (did you mean '" : "",
                              near ? near : "", near ? "'?)" : "");
    }
    return FS_EXIT_OK;
}
