/* csvin.c -- streaming CSV rows on top of libcsv's push parser.
 *
 * libcsv pushes fields and records at callbacks; callers want to pull one
 * record at a time and to know its line.  So the file is read in blocks
 * into one buffer and cut into physical lines, each ending at its '\n',
 * "\r\n" or lone '\r' (an old Mac file), and fed to csv_parse a line at a
 * time: a line completes at most one record, so the reader stops after it.
 * Fields are copied, NUL-terminated, into one growing byte buffer indexed
 * by offsets, so once the buffers fit the widest record nothing more is
 * allocated.
 *
 * Bounds: a line, and a record, is at most FS_CSV_LINE_MAX bytes, so that a
 * file without line ends (/dev/zero, a binary file) costs that much memory
 * and no more before it is refused; a NUL byte in a field is refused (the
 * field would be cut short as a C string); only regular files are opened
 * (a FIFO would block, a device never ends).
 *
 * Strict mode (CSV_STRICT | CSV_STRICT_FINI) makes a stray quote, text
 * after a closing quote and a quote left open at end of file errors that
 * name the line, instead of silently merging rows. */
#include "sim/base/csvin.h"
#include "sim/base/owned.h"
#include "sim/base/vec.h"

#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* libcsv's parser states (struct csv_parser.pstate, public in csv.h; the
 * names are private to libcsv.c).  0 is the state csv_init sets and every
 * completed record returns to. */
enum { CSVP_ROW_NOT_BEGUN = 0, CSVP_FIELD_BEGUN = 2,
       CSVP_FIELD_MIGHT_HAVE_ENDED = 3 };

#define CSVIN_OPTIONS (CSV_STRICT | CSV_STRICT_FINI)
/* libcsv grows its field buffer by this much at a time (linearly). */
#define CSVIN_BLK_SIZE 65536
/* Bytes read from the file at a time; the buffer grows, up to one line of
 * FS_CSV_LINE_MAX plus "\r\n", only for lines longer than this. */
#define CSVIN_READ_SIZE 65536
#define CSVIN_BUF_MAX (FS_CSV_LINE_MAX + 2)

struct fs_csv {
    char *path;
    FILE *fp;
    struct csv_parser p;

    char *in;            /* bytes read; in[in_pos..in_end) not yet cut */
    size_t in_cap, in_pos, in_end;
    int in_eof;          /* the file has no more bytes */
    char *line;          /* the current physical line, inside in */
    size_t line_len;
    size_t line_pos;     /* bytes of line already fed to the parser */
    long line_no;        /* physical line of line[line_pos] */
    int eof;
    size_t rec_bytes;    /* bytes of the record being built, so far */
    size_t nul_field;    /* 1-based field of the record with a NUL byte */

    long rec_line;       /* line on which the record being built started */
    long quote_line;     /* line on which the open quoted field started */
    int done;            /* set by on_record: a record is complete */
    int failed;          /* sticky: a parse error was reported */

    char *buf;           /* field bytes, each NUL-terminated */
    size_t buf_len, buf_cap;
    size_t *off;         /* start of each field in buf */
    size_t nfields, off_cap;
    size_t cur_nfields;  /* fields of the record last returned */
};

/* Room for one more field of len bytes (and its NUL): 0, or -1 when out
 * of memory. */
static int make_room(fs_csv *r, size_t len)
{
    size_t *off = fs_vec_grow(r->off, &r->off_cap, r->nfields + 1,
                              sizeof *off);
    if (!off)
        return -1;
    r->off = off;
    char *buf = fs_vec_grow(r->buf, &r->buf_cap, r->buf_len + len + 1, 1);
    if (!buf)
        return -1;
    r->buf = buf;
    return 0;
}

/* libcsv field callback: appends one field.  On allocation failure the
 * field is dropped and r->failed set; fs_csv_next reports it. */
static void on_field(void *s, size_t len, void *data)
{
    fs_csv *r = data;
    if (make_room(r, len)) {
        r->failed = 1;
        return;
    }
    if (len && !r->nul_field && memchr(s, '\0', len))
        r->nul_field = r->nfields + 1;
    r->off[r->nfields++] = r->buf_len;
    if (len)
        memcpy(r->buf + r->buf_len, s, len);
    r->buf_len += len;
    r->buf[r->buf_len++] = '\0';
}

static void on_record(int c, void *data)
{
    (void)c;
    fs_csv *r = data;
    r->done = 1;
}

/* Inside a quoted field whose closing quote has not been seen. */
static int quote_open(const struct csv_parser *p)
{
    return p->quoted && p->pstate == CSVP_FIELD_BEGUN;
}

const char *fs_file_kind(mode_t m)
{
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a file";
}

/* Opens path for reading if it is a regular file.  O_NONBLOCK keeps open
 * from waiting for a FIFO's writer; it is cleared once the file is known
 * to be regular (where it changes nothing anyway). */
static FILE *open_regular(const char *path, fs_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        fs_error_set(err, "%s: %s", path, strerror(e));
        if (fd >= 0)
            close(fd);
        errno = e;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            fs_error_set(err, "%s: a directory, not a file", path);
        else
            fs_error_set(err, "%s: not a regular file (%s)", path,
                         fs_file_kind(st.st_mode));
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    FILE *fp = NULL;
    if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 ||
        !(fp = fdopen(fd, "rb"))) {
        int e = errno;
        fs_error_set(err, "%s: %s", path, strerror(e));
        close(fd);
        errno = e;
        return NULL;
    }
    return fp;
}

fs_csv *fs_csv_open(const char *path, fs_error *err)
{
    fs_csv *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        fs_error_set(err, "%s: out of memory", path);
        errno = ENOMEM;
        return NULL;
    }
    r->fp = open_regular(path, err);
    if (!r->fp) {
        int e = errno;
        free(r->path);
        free(r);
        errno = e;
        return NULL;
    }
    csv_init(&r->p, CSVIN_OPTIONS);
    csv_set_blk_size(&r->p, CSVIN_BLK_SIZE);
    return r;
}

void fs_csv_free(fs_csv *r)
{
    if (!r)
        return;
    csv_free(&r->p);
    if (r->fp)
        fclose(r->fp);
    FS_FREE_ALL(r->in, r->buf, r->off, r->path, r);
}

/* The message for a strict-mode error at byte i of the current line. */
static int parse_error(fs_csv *r, size_t i, fs_error *err)
{
    r->failed = 1;
    int st = csv_error(&r->p);
    if (st != CSV_EPARSE)
        return fs_error_set(err, "%s:%ld: %s", r->path, r->line_no,
                            csv_strerror(st));
    unsigned char c = (unsigned char)r->line[i];
    char what[96];
    if (r->p.pstate == CSVP_FIELD_MIGHT_HAVE_ENDED) {
        if (c >= 0x20 && c < 0x7f)
            snprintf(what, sizeof what, "'%c' after the closing quote of a "
                     "quoted field", c);
        else
            snprintf(what, sizeof what, "byte 0x%02x after the closing quote "
                     "of a quoted field", c);
    } else {
        snprintf(what, sizeof what, "a quote inside an unquoted field "
                 "(quote the whole field and double the inner quote)");
    }
    size_t col = 1, start = i;
    while (start > 0 && r->line[start - 1] != '\r' && r->line[start - 1] != '\n')
        start--;
    col += i - start;
    if (r->rec_line != r->line_no)
        return fs_error_set(err, "%s:%ld: column %zu: malformed CSV: %s "
                            "(record starts on line %ld)", r->path, r->line_no,
                            col, what, r->rec_line);
    return fs_error_set(err, "%s:%ld: column %zu: malformed CSV: %s",
                        r->path, r->line_no, col, what);
}

/* At end of file: completes a last record without a newline, or reports a
 * quote left open. */
static int finish(fs_csv *r, fs_error *err)
{
    r->eof = 1;
    if (quote_open(&r->p)) {
        r->failed = 1;
        return fs_error_set(err, "%s:%ld: malformed CSV: quoted field "
                            "never closed (it runs to the end of the file)",
                            r->path, r->quote_line);
    }
    if (csv_fini(&r->p, on_field, on_record, r) != 0) {
        r->failed = 1;
        return fs_error_set(err, "%s:%ld: malformed CSV: %s", r->path,
                            r->quote_line, csv_strerror(csv_error(&r->p)));
    }
    return 0;
}

/* Makes room and reads more of the file after in[in_pos..in_end): 0, or
 * -1 on a read error (errno set). */
static int fill(fs_csv *r)
{
    if (r->in_pos > 0) {   /* the unused tail moves to the front */
        memmove(r->in, r->in + r->in_pos, r->in_end - r->in_pos);
        r->in_end -= r->in_pos;
        r->in_pos = 0;
    }
    if (r->in_end == r->in_cap) {
        size_t cap = r->in_cap ? 2 * r->in_cap : CSVIN_READ_SIZE;
        if (cap > CSVIN_BUF_MAX)
            cap = CSVIN_BUF_MAX;
        assert(cap > r->in_cap);
        char *q = realloc(r->in, cap);
        if (!q) {
            errno = ENOMEM;
            return -1;
        }
        r->in = q;
        r->in_cap = cap;
    }
    size_t got = fread(r->in + r->in_end, 1, r->in_cap - r->in_end, r->fp);
    r->in_end += got;
    if (got == 0) {
        if (ferror(r->fp))
            return -1;
        r->in_eof = 1;
    }
    return 0;
}

/* Cuts the next physical line, line end included, out of the input:
 * 1, 0 at end of file, -1 with a message (too long, read error). */
static int next_line(fs_csv *r, fs_error *err)
{
    for (;;) {
        char *p = r->in ? r->in + r->in_pos : NULL;   /* none read yet */
        size_t n = r->in_end - r->in_pos;
        char *nl = n ? memchr(p, '\n', n) : NULL;
        size_t t = nl ? (size_t)(nl - p) : n;   /* first line end, or n */
        char *cr = t ? memchr(p, '\r', t) : NULL;
        if (cr)
            t = (size_t)(cr - p);
        if (t > FS_CSV_LINE_MAX) {
            r->failed = 1;
            return fs_error_set(err, "%s:%ld: line longer than %d bytes "
                                "(the limit; is this a CSV file?)", r->path,
                                r->line_no + 1, FS_CSV_LINE_MAX);
        }
        size_t len = 0;
        if (cr && t + 1 < n)
            len = t + 1 + (p[t + 1] == '\n');   /* "\r\n" or a lone '\r' */
        else if (cr && r->in_eof)
            len = t + 1;
        else if (nl)
            len = t + 1;
        else if (r->in_eof)
            len = n;   /* a last line without a line end; 0 at the end */
        if (len || (r->in_eof && n == 0)) {
            if (len == 0)
                return 0;
            r->line = p;
            r->line_len = len;
            r->line_pos = 0;
            r->in_pos += len;
            r->line_no++;
            return 1;
        }
        errno = 0;
        if (fill(r) < 0) {
            r->failed = 1;
            return fs_error_set(err, "%s:%ld: read error: %s", r->path,
                                r->line_no + 1, strerror(errno ? errno : EIO));
        }
    }
}

/* Feeds the rest of the current line to libcsv: 0, or -1 with a message. */
static int feed_line(fs_csv *r, fs_error *err)
{
    size_t pos = r->line_pos, n = r->line_len - pos;
    if (r->p.pstate == CSVP_ROW_NOT_BEGUN) {
        r->rec_line = r->line_no;
        r->rec_bytes = 0;
    }
    r->rec_bytes += n;
    if (r->rec_bytes > FS_CSV_LINE_MAX + 2) {
        r->failed = 1;
        return fs_error_set(err, "%s:%ld: record longer than %d bytes (the "
                            "limit; a quoted field left open?)", r->path,
                            r->rec_line, FS_CSV_LINE_MAX);
    }
    int was_quoted = quote_open(&r->p);
    size_t before = r->nfields;
    size_t used = csv_parse(&r->p, r->line + pos, n, on_field, on_record, r);
    if (used != n)
        return parse_error(r, pos + used, err);
    if (quote_open(&r->p) && (!was_quoted || r->nfields != before))
        r->quote_line = r->line_no;
    r->line_pos = r->line_len;
    return 0;
}

int fs_csv_next(fs_csv *r, fs_error *err)
{
    assert(r);
    if (r->failed)
        return fs_error_set(err, "%s:%ld: CSV reader stopped after an "
                            "earlier error", r->path, r->line_no);
    r->nfields = 0;
    r->buf_len = 0;
    r->cur_nfields = 0;
    r->nul_field = 0;
    r->done = 0;
    while (!r->done) {
        if (r->eof)
            return 0;
        int rc = next_line(r, err);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            if (finish(r, err))
                return -1;
            break;
        }
        if (r->line_no == 1 && r->line_len >= 3 &&
            memcmp(r->line, "\xEF\xBB\xBF", 3) == 0)
            r->line_pos = 3;   /* UTF-8 byte order mark */
        if (feed_line(r, err))
            return -1;
    }
    if (r->failed)
        return fs_error_set(err, "%s:%ld: out of memory", r->path,
                            r->rec_line);
    if (!r->done)
        return 0;
    if (r->nul_field) {
        r->failed = 1;
        return fs_error_set(err, "%s:%ld: field %zu: a NUL byte (a binary "
                            "file, or text that is not UTF-8 or ASCII?)",
                            r->path, r->rec_line, r->nul_field);
    }
    r->cur_nfields = r->nfields;
    return 1;
}

size_t fs_csv_nfields(const fs_csv *r)
{
    return r->cur_nfields;
}

const char *fs_csv_field(const fs_csv *r, size_t i)
{
    return i < r->cur_nfields ? r->buf + r->off[i] : "";
}

long fs_csv_line(const fs_csv *r)
{
    return r->rec_line;
}

const char *fs_csv_path(const fs_csv *r)
{
    return r->path;
}

int fs_csv_rewind(fs_csv *r, fs_error *err)
{
    assert(r);
    if (fseek(r->fp, 0, SEEK_SET) != 0)
        return fs_error_set(err, "%s: cannot rewind: %s", r->path,
                            strerror(errno));
    clearerr(r->fp);
    csv_free(&r->p);
    csv_init(&r->p, CSVIN_OPTIONS);
    csv_set_blk_size(&r->p, CSVIN_BLK_SIZE);
    r->in_pos = r->in_end = 0;
    r->in_eof = 0;
    r->line_len = r->line_pos = 0;
    r->line_no = 0;
    r->eof = r->failed = r->done = 0;
    r->rec_line = r->quote_line = 0;
    r->nfields = r->buf_len = r->cur_nfields = 0;
    r->rec_bytes = r->nul_field = 0;
    return 0;
}

int fs_csv_number(const char *field, double *out)
{
    char *end;
    if (!*field)
        return -1;
    errno = 0;
    double v = strtod(field, &end);
    if (*end || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int fs_csv_column(const fs_csv *header, const char *name)
{
    size_t n = fs_csv_nfields(header);
    for (size_t i = 0; i < n && i < INT_MAX; i++)
        if (strcasecmp(fs_csv_field(header, i), name) == 0)
            return (int)i;
    return -1;
}

int fs_csv_time_field(const fs_csv *r, int col, double prev, double *t,
                      fs_error *err)
{
    const char *path = fs_csv_path(r), *ts = fs_csv_field(r, (size_t)col);
    long line = fs_csv_line(r);
    if (fs_csv_number(ts, t))
        return fs_error_set(err, "%s:%ld: t_seconds '%s' is not a number",
                            path, line, ts);
    if (*t < 0)
        return fs_error_set(err, "%s:%ld: negative time %s", path, line, ts);
    if (*t < prev)
        return fs_error_set(err, "%s:%ld: time %s is before the previous "
                            "row's %.17g: the trace must be sorted by time",
                            path, line, ts, prev);
    return 0;
}
