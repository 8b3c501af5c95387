/* config_text.c -- a scenario file's text, read safely before inih parses
 * it; see config_text.h.
 *
 * A file is read whole, with limits (a regular file of at most
 * FS_CONFIG_FILE_MAX bytes), and its lines checked for what inih would get
 * wrong silently: a NUL byte (the rest of the line dropped), a line longer
 * than inih's buffer, a section name longer than inih holds (cut).  Kept
 * apart from config.c, which parses and indexes what these accept. */
#include "sim/scenario/config_text.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What kind of file st is, for "'x' is a directory" messages; NULL for a
 * regular file. */
static const char *not_regular(const struct stat *st)
{
    if (S_ISREG(st->st_mode))
        return NULL;
    if (S_ISDIR(st->st_mode))
        return "is a directory, not a scenario file";
    return "is not a regular file (a device, pipe or socket)";
}

/* Reads a whole regular file of at most FS_CONFIG_FILE_MAX bytes into a
 * malloc'd, NUL-terminated buffer.  On a refusal, *why says what is wrong
 * and errno is 0; on a system error, errno says which.  O_NONBLOCK: opening
 * a FIFO must not wait for a writer before it is refused. */
char *fs_config_read_limited(const char *path, size_t *len, const char **why,
                             char *whybuf, size_t whylen)
{
    *why = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0)
        goto fail;
    if ((*why = not_regular(&st)))
        goto refuse;
    if (st.st_size > FS_CONFIG_FILE_MAX) {
        snprintf(whybuf, whylen, "is %lld bytes; a scenario file holds at "
                 "most %d (1 MiB)", (long long)st.st_size,
                 FS_CONFIG_FILE_MAX);
        *why = whybuf;
        goto refuse;
    }
    /* One byte more than the limit: a file that grew is still caught. */
    buf = malloc(FS_CONFIG_FILE_MAX + 2);
    if (!buf)
        goto fail;
    size_t n = 0;
    while (n <= FS_CONFIG_FILE_MAX) {
        ssize_t got = read(fd, buf + n, FS_CONFIG_FILE_MAX + 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            goto fail;
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > FS_CONFIG_FILE_MAX) {
        snprintf(whybuf, whylen, "is more than %d bytes; a scenario file "
                 "holds at most that (1 MiB)", FS_CONFIG_FILE_MAX);
        *why = whybuf;
        goto refuse;
    }
    close(fd);
    buf[n] = '\0';
    *len = n;
    return buf;
refuse:
    errno = 0;
fail:;
    int saved = errno;
    free(buf);
    close(fd);
    errno = saved;
    return NULL;
}

/* The section and key a line sets, for messages: "pool.p.price", or the
 * section alone, or NULL before any section. */
static const char *line_key(const char *line, size_t n, const char *section,
                            char *buf, size_t len)
{
    while (n && (*line == ' ' || *line == '\t')) {
        line++;
        n--;
    }
    size_t k = 0;
    while (k < n && line[k] != '=' && line[k] != ':' && line[k] != ';' &&
           line[k] != '#' && line[k] != '[' && line[k] != '\0')
        k++;
    int is_key = k < n && (line[k] == '=' || line[k] == ':');
    while (k && (line[k - 1] == ' ' || line[k - 1] == '\t'))
        k--;
    if (!section[0])
        return NULL;
    if (is_key && k)
        snprintf(buf, len, "%s.%.*s", section, (int)k, line);
    else
        snprintf(buf, len, "%s", section);
    return buf;
}

/* Refuses, with file:line, what inih would silently get wrong: NUL bytes,
 * over-long lines, section names inih would cut. */
int fs_config_check_lines(const char *text, size_t len, const char *file,
                          fs_error *err)
{
    char section[FS_CONFIG_SECTION_MAX + 1] = "";
    char key[FS_CONFIG_SECTION_MAX + 128];
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;   /* inih skips a UTF-8 byte order mark */
    for (int line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *k = line_key(p, n, section, key, sizeof key);
        if (memchr(p, '\0', n))
            return fs_error_at(err, file, line, k, "the line holds a NUL "
                               "byte (not a text file?)");
        if (n > FS_CONFIG_LINE_MAX)
            return fs_error_at(err, file, line, k, "line too long (%zu "
                               "characters; at most %d)", n,
                               FS_CONFIG_LINE_MAX);
        const char *s = p;
        while (s < p + n && (*s == ' ' || *s == '\t'))
            s++;
        const char *close = s < p + n && *s == '[' ?
                            memchr(s, ']', (size_t)(p + n - s)) : NULL;
        if (close) {
            size_t sl = (size_t)(close - s - 1);
            if (sl > FS_CONFIG_SECTION_MAX)
                return fs_error_at(err, file, line, NULL, "%.*s: section "
                                   "name is %zu characters; at most %d",
                                   (int)sl, s + 1, sl,
                                   FS_CONFIG_SECTION_MAX);
            snprintf(section, sizeof section, "%.*s", (int)sl, s + 1);
        }
        p += n + (nl != NULL);
    }
    return 0;
}
