/* app_msg.c -- failure and warning lines on stderr (app_msg.h): what came
 * from the input is escaped, so that it never drives the terminal. */
#include "sim/app/app_msg.h"
#include "sim/base/textout.h"

#include <stdio.h>
#include <stdlib.h>

void fs_print_line(const char *prefix, const char *msg)
{
    char *v = fs_text_visible(msg);
    fprintf(stderr, "%s%s\n", prefix, v ? v : msg);
    free(v);
}

int fs_fail(const char *msg)
{
    char *v = fs_text_visible(msg);   /* input bytes never drive the tty */
    fprintf(stderr, "fleetsim: %s\n", v ? v : msg);
    free(v);
    return FS_EXIT_FAIL;
}
