/* outfile.h -- writing a command's --out file safely.
 *
 * A regular file (or a name that does not exist yet) is written to a new
 * temporary beside it, made by mkstemp() (a fresh name opened with O_EXCL:
 * a symbolic link or file planted at any predictable name is never
 * followed or written), flushed to disk and renamed over the name only
 * when complete: readers see the old file or the whole new one, two
 * concurrent writers each leave a whole file (the last rename wins), and a
 * failure removes the temporary and leaves the user's file as it was.
 *
 * A name that is not a regular file is never replaced:
 *   - a character device or FIFO (/dev/null, /dev/stdout, a named pipe)
 *     is written in place, as a shell redirection would;
 *   - a symbolic link to a regular file is refused (name the file itself:
 *     replacing the link, or writing through it, would surprise);
 *   - a directory, socket or block device is refused.
 * Every message names the --out path and the reason. */
#ifndef FS_OUTFILE_H
#define FS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include "sim/base/error.h"

typedef struct fs_outfile {
    FILE *f;            /* write here */
    char *path;         /* the name the user gave */
    char *tmp;          /* the temporary, NULL when writing in place */
} fs_outfile;

/* Opens path for writing as above: 0 with o->f set, or -1 with a message
 * ("PATH: cannot write: why"). */
int fs_outfile_open(fs_outfile *o, const char *path, fs_error *err);
/* Flushes, syncs and closes, then renames the temporary over the name.
 * 0, or -1 with a message, the temporary removed and the name untouched. */
int fs_outfile_commit(fs_outfile *o, fs_error *err);
/* Gives up: closes and removes the temporary; the name is untouched.
 * Safe on an outfile that failed to open, or after commit. */
void fs_outfile_abort(fs_outfile *o);
/* The whole of data[0..n) to path, through open and commit. */
int fs_outfile_write(const char *path, const void *data, size_t n,
                     fs_error *err);

#endif
