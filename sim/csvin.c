/* csvin.c -- streaming CSV rows on top of libcsv's push parser.
 *
 * libcsv pushes fields and records at callbacks; callers want to pull one
 * record at a time and to know its line.  So the file is read with getline
 * into one reused buffer and fed to csv_parse in segments that each end at
 * a record terminator (the line's '\n', or a lone '\r' of an old Mac file),
 * which means a segment completes at most one record: the reader stops
 * after it and resumes in the same line on the next call.  Fields are
 * copied, NUL-terminated, into one growing byte buffer indexed by offsets,
 * so once the buffers fit the widest record nothing more is allocated.
 *
 * Strict mode (CSV_STRICT | CSV_STRICT_FINI) makes a stray quote, text
 * after a closing quote and a quote left open at end of file errors that
 * name the line, instead of silently merging rows. */
#include "csvin.h"

#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* libcsv's parser states (struct csv_parser.pstate, public in csv.h; the
 * names are private to libcsv.c).  0 is the state csv_init sets and every
 * completed record returns to. */
enum { CSVP_ROW_NOT_BEGUN = 0, CSVP_FIELD_BEGUN = 2,
       CSVP_FIELD_MIGHT_HAVE_ENDED = 3 };

#define CSVIN_OPTIONS (CSV_STRICT | CSV_STRICT_FINI)

struct fs_csv {
    char *path;
    FILE *fp;
    struct csv_parser p;

    char *line;          /* current physical line(s) from getline */
    size_t line_cap;
    size_t line_len;
    size_t line_pos;     /* bytes of line already fed to the parser */
    long line_no;        /* physical line of line[line_pos] */
    int eof;

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

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* libcsv field callback: appends one field.  On allocation failure the
 * field is dropped and r->failed set; fs_csv_next reports it. */
static void on_field(void *s, size_t len, void *data)
{
    fs_csv *r = data;
    if (grow((void **)&r->off, &r->off_cap, r->nfields + 1, sizeof *r->off) ||
        grow((void **)&r->buf, &r->buf_cap, r->buf_len + len + 1, 1)) {
        r->failed = 1;
        return;
    }
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

fs_csv *fs_csv_open(const char *path, fs_error *err)
{
    fs_csv *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        fs_error_set(err, "%s: out of memory", path);
        errno = ENOMEM;
        return NULL;
    }
    r->fp = fopen(path, "rb");
    if (!r->fp) {
        int e = errno;
        fs_error_set(err, "%s: %s", path, strerror(e));
        free(r->path);
        free(r);
        errno = e;
        return NULL;
    }
    csv_init(&r->p, CSVIN_OPTIONS);
    csv_set_blk_size(&r->p, 1024);
    return r;
}

void fs_csv_free(fs_csv *r)
{
    if (!r)
        return;
    csv_free(&r->p);
    if (r->fp)
        fclose(r->fp);
    free(r->line);
    free(r->buf);
    free(r->off);
    free(r->path);
    free(r);
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

int fs_csv_next(fs_csv *r, fs_error *err)
{
    assert(r);
    if (r->failed)
        return fs_error_set(err, "%s:%ld: CSV reader stopped after an "
                            "earlier error", r->path, r->line_no);
    r->nfields = 0;
    r->buf_len = 0;
    r->cur_nfields = 0;
    r->done = 0;
    for (;;) {
        if (r->line_pos >= r->line_len) {
            if (r->eof)
                return 0;
            errno = 0;
            ssize_t n = getline(&r->line, &r->line_cap, r->fp);
            if (n < 0) {
                if (ferror(r->fp))
                    return fs_error_set(err, "%s:%ld: read error: %s",
                                        r->path, r->line_no,
                                        strerror(errno ? errno : EIO));
                if (finish(r, err))
                    return -1;
                break;
            }
            r->line_no++;
            r->line_len = (size_t)n;
            r->line_pos = 0;
            if (r->line_no == 1 && n >= 3 &&
                memcmp(r->line, "\xEF\xBB\xBF", 3) == 0)
                r->line_pos = 3;   /* UTF-8 byte order mark */
        }
        /* One segment: up to and including the next terminator. */
        size_t pos = r->line_pos, end = r->line_len;
        int lone_cr = 0;
        char *cr = memchr(r->line + pos, '\r', end - pos);
        if (cr) {
            size_t k = (size_t)(cr - r->line) + 1;
            if (k < end && r->line[k] == '\n')
                k++;
            else
                lone_cr = 1;   /* an old Mac line end: count the line */
            end = k;
        }
        if (r->p.pstate == CSVP_ROW_NOT_BEGUN)
            r->rec_line = r->line_no;
        int was_quoted = quote_open(&r->p);
        size_t before = r->nfields;
        size_t used = csv_parse(&r->p, r->line + pos, end - pos, on_field,
                                on_record, r);
        if (used != end - pos)
            return parse_error(r, pos + used, err);
        if (quote_open(&r->p) && (!was_quoted || r->nfields != before))
            r->quote_line = r->line_no;
        r->line_pos = end;
        if (lone_cr)
            r->line_no++;
        if (r->done)
            break;
    }
    if (r->failed)
        return fs_error_set(err, "%s:%ld: out of memory", r->path,
                            r->rec_line);
    if (!r->done)
        return 0;
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
    csv_set_blk_size(&r->p, 1024);
    r->line_len = r->line_pos = 0;
    r->line_no = 0;
    r->eof = r->failed = r->done = 0;
    r->rec_line = r->quote_line = 0;
    r->nfields = r->buf_len = r->cur_nfields = 0;
    return 0;
}
