/* config_text.h -- a scenario file's text, read and checked before inih
 * parses it (config.c): the size limit, regular files only, and the lines
 * inih would get wrong silently. */
#ifndef FS_CONFIG_TEXT_H
#define FS_CONFIG_TEXT_H

#include <stddef.h>
#include "sim/base/error.h"
#include "sim/scenario/config.h"

/* Reads a whole regular file of at most FS_CONFIG_FILE_MAX bytes into a
 * malloc'd, NUL-terminated buffer of *len bytes.  NULL on a refusal (*why
 * says what is wrong, in whybuf when it needs the numbers; errno is 0) or
 * a system error (errno says which). */
char *fs_config_read_limited(const char *path, size_t *len, const char **why,
                             char *whybuf, size_t whylen);

/* 0, or -1 with file:line in err: a NUL byte, a line longer than
 * FS_CONFIG_LINE_MAX, a section name longer than FS_CONFIG_SECTION_MAX. */
int fs_config_check_lines(const char *text, size_t len, const char *file,
                          fs_error *err);

#endif
