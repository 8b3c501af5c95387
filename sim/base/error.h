/* error.h -- one error message, carried up to the command that prints it.
 *
 * Every function that can fail on user input takes an fs_error * and, on
 * failure, fills it with one complete message ("file:line: key: what is
 * wrong") and returns -1 (or NULL).  Nothing below the command layer prints
 * or exits: the command decides.  */
#ifndef FS_ERROR_H
#define FS_ERROR_H

#include <stddef.h>

typedef struct fs_error {
    char msg[1024];
} fs_error;

/* Sets the message from a printf format; returns -1 so callers can write
 * `return fs_error_set(err, ...)`.  err may be NULL. */
int fs_error_set(fs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Same, prefixed with "file:line: key: " (line 0 omits the line, a NULL
 * key omits the key). */
int fs_error_at(fs_error *err, const char *file, int line, const char *key,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Levenshtein distance, for "did you mean" suggestions. */
int fs_edit_distance(const char *a, const char *b);

/* Picks the candidate closest to name (case-insensitive); NULL when none is
 * close enough to be a plausible typo.  candidates is NULL-terminated. */
const char *fs_nearest_name(const char *name, const char *const *candidates);

#endif
