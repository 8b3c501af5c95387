/* csvin.h -- streaming CSV rows, one at a time, parsed by libcsv.
 *
 * A pull iterator over libcsv's push parser: the file is read a physical
 * line at a time and fed to csv_parse until a record completes, so memory
 * stays bounded by the longest record and every record knows the line it
 * started on (for "file:line" messages).  Nothing is allocated per row once
 * the buffers have grown to the widest record. */
#ifndef FS_CSVIN_H
#define FS_CSVIN_H

#include <stddef.h>
#include <sys/types.h>
#include "sim/base/error.h"

/* The longest physical line, and the longest record (a quoted field may
 * span lines), in bytes without the line end: beyond it the file is
 * refused ("path:line: line longer than ..."), so a file with no line ends
 * (a binary file, /dev/zero) is never read into memory whole. */
#define FS_CSV_LINE_MAX 1048576

typedef struct fs_csv fs_csv;

/* What a file that is not a regular file is, for a message ("a FIFO",
 * "a character device"): every reader that refuses one says it alike. */
const char *fs_file_kind(mode_t m);

/* Opens path for reading.  NULL with a message when it cannot be opened;
 * errno then says why, for callers that word their own message. */
fs_csv *fs_csv_open(const char *path, fs_error *err);
void fs_csv_free(fs_csv *r);

/* Reads the next record: 1 when one was read, 0 at end of file, -1 on a
 * malformed file (unterminated quote...) with "path:line: ..." in err.
 * Blank lines are skipped; LF, CRLF and CR line ends are accepted, and a
 * UTF-8 byte order mark is dropped.  After -1 the reader only reports
 * errors until fs_csv_rewind (where a broken quote ends is unknowable). */
int fs_csv_next(fs_csv *r, fs_error *err);

size_t fs_csv_nfields(const fs_csv *r);
/* The i-th field of the current record, NUL-terminated, "" when i is out of
 * range.  Valid until the next fs_csv_next. */
const char *fs_csv_field(const fs_csv *r, size_t i);
/* Physical line (1-based) on which the current record starts. */
long fs_csv_line(const fs_csv *r);
const char *fs_csv_path(const fs_csv *r);

/* The index of the field of header (a record just read) named name,
 * compared without case; -1 when there is none. */
int fs_csv_column(const fs_csv *header, const char *name);

/* A field that is a whole finite number (any sign; no blanks, no unit):
 * 0 with *out set, -1 otherwise.  For the readers of plain numeric columns
 * (spot traces, job lists, lifetimes); the scenario grammar has its own,
 * with units. */
int fs_csv_number(const char *field, double *out);
/* Field col of the current row as a time in seconds (a t_seconds
 * column): 0, or -1 with "path:line: ..." when it is not a number, is
 * negative, or comes before prev (the rows must be sorted by time). */
int fs_csv_time_field(const fs_csv *r, int col, double prev, double *t,
                      fs_error *err);

/* Starts again from the first line (for traces replayed with repeat). */
int fs_csv_rewind(fs_csv *r, fs_error *err);

#endif
