/* cmd_help.c -- `fleetsim help [TOPIC]`. */
#include "sim/cli/commands.h"
#include "sim/cli/help.h"
#include "sim/base/error.h"

#include <stdio.h>

int cmd_help(int argc, char **argv)
{
    if (argc > 2)
        return fs_usage_error("help", "one topic at a time");
    const char *topic = argc == 2 ? argv[1] : NULL;
    const char *text = fs_help_text(topic);
    if (!text) {
        const char *near = fs_nearest_name(topic, fs_help_topics);
        return fs_usage_error("help", "no help on '%s'%s%s%s", topic,
                              near ? " (did you mean '" : "",
                              near ? near : "", near ? "'?)" : "");
    }
    fputs(text, stdout);
    return FS_EXIT_OK;
}
