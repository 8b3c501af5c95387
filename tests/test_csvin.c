/* test_csvin.c -- the streaming CSV reader: fields, quoting, line numbers
 * (LF, CRLF, CR, blank lines, records spanning lines), malformed quotes
 * reported at the right line, rewind, and a real trace read end to end.
 * Files with exact bytes (CRLF...) are written to a temporary directory at
 * run time, so no checkout or copy can change their line ends. */
#include "sim/base/csvin.h"
#include "tests/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes bytes to a new file in dir; returns its path in buf. */
static const char *write_file(const char *dir, const char *name,
                              const char *bytes, size_t len, char *buf,
                              size_t buflen)
{
    snprintf(buf, buflen, "%s/%s", dir, name);
    FILE *f = fopen(buf, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        printf("cannot write %s\n", buf);
        exit(99);
    }
    return buf;
}

#define WRITE(name, lit) \
    write_file(dir, name, lit, sizeof lit - 1, path, sizeof path)

/* Opens path, failing the test run if it cannot. */
static fs_csv *open_or_die(const char *path)
{
    fs_error err;
    fs_csv *r = fs_csv_open(path, &err);
    if (!r) {
        printf("%s\n", err.msg);
        exit(99);
    }
    return r;
}

static void test_basic(const char *dir)
{
    char path[512];
    fs_error err;
    WRITE("basic.csv", "a,b,c\n1,2,3\n4,,\"\"\n");
    fs_csv *r = open_or_die(path);
    CHECK(strcmp(fs_csv_path(r), path) == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_nfields(r) == 3);
    CHECK(strcmp(fs_csv_field(r, 0), "a") == 0);
    CHECK(strcmp(fs_csv_field(r, 2), "c") == 0);
    CHECK(strcmp(fs_csv_field(r, 3), "") == 0);   /* out of range */
    CHECK(fs_csv_line(r) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_line(r) == 2);
    CHECK(strcmp(fs_csv_field(r, 1), "2") == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_nfields(r) == 3);
    CHECK(strcmp(fs_csv_field(r, 0), "4") == 0);
    CHECK(strcmp(fs_csv_field(r, 1), "") == 0);
    CHECK(strcmp(fs_csv_field(r, 2), "") == 0);
    CHECK(fs_csv_next(r, &err) == 0);
    CHECK(fs_csv_next(r, &err) == 0);   /* stays at the end */
    CHECK(fs_csv_nfields(r) == 0);
    fs_csv_free(r);
}

static void test_quoting(const char *dir)
{
    char path[512];
    fs_error err;
    WRITE("quoted.csv",
          "id,text\n"
          "1,\"hello, world\"\n"
          "2,\"say \"\"hi\"\"\"\n"
          "3,\"two\n"
          "lines\"\n"
          "4,\"crlf\r\n"
          "inside\"\r\n"
          "5,last\n"
          "6,trailing,\n");
    fs_csv *r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 1);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
    CHECK(strcmp(fs_csv_field(r, 1), "hello, world") == 0);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 3);
    CHECK(strcmp(fs_csv_field(r, 1), "say \"hi\"") == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_line(r) == 4);   /* starts on 4, ends on 5 */
    CHECK(strcmp(fs_csv_field(r, 1), "two\nlines") == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_line(r) == 6);
    CHECK(strcmp(fs_csv_field(r, 1), "crlf\r\ninside") == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_line(r) == 8);
    CHECK(strcmp(fs_csv_field(r, 0), "5") == 0);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_line(r) == 9);
    CHECK(fs_csv_nfields(r) == 3);
    CHECK(strcmp(fs_csv_field(r, 2), "") == 0);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);
}

/* CRLF, CR-only, blank lines, a byte order mark, no final newline. */
static void test_line_ends(const char *dir)
{
    char path[512];
    fs_error err;

    WRITE("crlf.csv", "a,b\r\n1,2\r\n\r\n3,4\r\n");
    fs_csv *r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 1);
    CHECK(strcmp(fs_csv_field(r, 1), "b") == 0);   /* no '\r' left */
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
    CHECK(strcmp(fs_csv_field(r, 1), "2") == 0);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 4);
    CHECK(strcmp(fs_csv_field(r, 0), "3") == 0);
    CHECK(strcmp(fs_csv_field(r, 1), "4") == 0);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);

    WRITE("cr.csv", "a,b\r1,2\r\r3,4");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 1);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
    CHECK(strcmp(fs_csv_field(r, 1), "2") == 0);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 4);
    CHECK(strcmp(fs_csv_field(r, 1), "4") == 0);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);

    WRITE("blank.csv", "\n\nx,y\n   \n\n1,2\n\n");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 3);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 6);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);

    WRITE("bom.csv", "\xEF\xBB\xBFTIMESTAMP,n\n2023-11-16 18:17:03,1");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(strcmp(fs_csv_field(r, 0), "TIMESTAMP") == 0);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
    CHECK(strcmp(fs_csv_field(r, 1), "1") == 0);   /* no final newline */
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);

    WRITE("empty.csv", "");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);
}

/* Malformed quoting: -1 and "path:line:" naming where it is. */
static void test_malformed(const char *dir)
{
    char path[512], want[600];
    fs_error err;

    WRITE("unterminated.csv", "a,b\n1,2\n3,\"open\n4,5\n6,7\n");
    fs_csv *r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:3: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    CHECK_CONTAINS(err.msg, "never closed");
    CHECK(fs_csv_next(r, &err) == -1);   /* sticky */
    /* Rewind recovers the reader. */
    CHECK(fs_csv_rewind(r, &err) == 0);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 1);
    fs_csv_free(r);

    WRITE("stray.csv", "a,b\n1,2\n3,x\"y\n");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:3: column 4: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    CHECK_CONTAINS(err.msg, "quote inside an unquoted field");
    fs_csv_free(r);

    WRITE("after_quote.csv", "a,b\r\n\"q\"x,1\r\n");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:2: column 4: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    CHECK_CONTAINS(err.msg, "'x' after the closing quote");
    fs_csv_free(r);

    /* The error is on line 4, in a record that started on line 3. */
    WRITE("late.csv", "a,b\n1,2\n3,\"multi\nline\" z\n");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:4: column 7: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    CHECK_CONTAINS(err.msg, "(record starts on line 3)");
    fs_csv_free(r);

    /* An open quote on the last line, without a newline. */
    WRITE("eof_quote.csv", "a,b\n1,\"x");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:2: ", path);
    CHECK(strncmp(err.msg, want, strlen(want)) == 0);
    fs_csv_free(r);

    snprintf(path, sizeof path, "%s/does-not-exist.csv", dir);
    CHECK(fs_csv_open(path, &err) == NULL);
    CHECK_CONTAINS(err.msg, path);
    CHECK_CONTAINS(err.msg, "No such file or directory");
}

/* A file of n bytes: prefix, then fill bytes up to n - strlen(suffix),
 * then suffix. */
static const char *write_filled(const char *dir, const char *name,
                                const char *prefix, char fill, size_t n,
                                const char *suffix, char *buf, size_t buflen)
{
    size_t lp = strlen(prefix), ls = strlen(suffix);
    char *b = malloc(n);
    if (!b || n < lp + ls)
        exit(99);
    memcpy(b, prefix, lp);
    memset(b + lp, fill, n - lp - ls);
    memcpy(b + n - ls, suffix, ls);
    write_file(dir, name, b, n, buf, buflen);
    free(b);
    return buf;
}

/* Lines and records are bounded (FS_CSV_LINE_MAX): a file without line
 * ends, such as /dev/zero or a binary file, is refused after that many
 * bytes, naming the line, instead of being read into memory whole. */
static void test_limits(const char *dir)
{
    char path[512], want[600];
    fs_error err;
    CHECK(FS_CSV_LINE_MAX == 1048576);

    /* A line of exactly FS_CSV_LINE_MAX bytes before its '\n' is read. */
    write_filled(dir, "max_line.csv", "k,v\nlong,", 'x',
                 4 + FS_CSV_LINE_MAX + 1 + 8, "\nshort,1\n", path,
                 sizeof path);
    fs_csv *r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
    CHECK(strlen(fs_csv_field(r, 1)) == FS_CSV_LINE_MAX - 5);
    CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 3);
    CHECK(fs_csv_next(r, &err) == 0);
    fs_csv_free(r);

    /* One byte more is refused, with the line. */
    write_filled(dir, "long_line.csv", "k,v\nlong,", 'x',
                 4 + FS_CSV_LINE_MAX + 2 + 8, "\nshort,1\n", path,
                 sizeof path);
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:2: line longer than 1048576 bytes",
             path);
    CHECK_CONTAINS(err.msg, want);
    CHECK(fs_csv_next(r, &err) == -1);   /* sticky */
    fs_csv_free(r);

    /* Zero bytes and no line end at all (what /dev/zero gives). */
    write_filled(dir, "zeros.csv", "", '\0', 3 * FS_CSV_LINE_MAX, "", path,
                 sizeof path);
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:1: line longer than", path);
    CHECK_CONTAINS(err.msg, want);
    fs_csv_free(r);

    /* A quoted field spanning many short lines: the record is bounded too,
     * and named by the line it starts on. */
    size_t nlines = FS_CSV_LINE_MAX / 8 + 2;
    char *b = malloc(nlines * 8 + 32);
    if (!b)
        exit(99);
    size_t len = (size_t)sprintf(b, "a,b\n1,2\n3,\"");
    for (size_t i = 0; i < nlines; i++, len += 8)
        memcpy(b + len, "abcdefg\n", 8);
    memcpy(b + len, "\"\n", 2);
    write_file(dir, "long_record.csv", b, len + 2, path, sizeof path);
    free(b);
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:3: record longer than 1048576 bytes",
             path);
    CHECK_CONTAINS(err.msg, want);
    fs_csv_free(r);
}

/* A NUL byte would cut its field short (fields are C strings): refused
 * with the line and the field. */
static void test_nul_byte(const char *dir)
{
    char path[512], want[600];
    fs_error err;
    WRITE("nul.csv", "time,x\n1,2\n2,a\0b\n3,4\n");
    fs_csv *r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:3: field 2: a NUL byte", path);
    CHECK_CONTAINS(err.msg, want);
    fs_csv_free(r);

    WRITE("nul_quoted.csv", "time,x\n\"1\0junk\",2\n");
    r = open_or_die(path);
    CHECK(fs_csv_next(r, &err) == 1);
    CHECK(fs_csv_next(r, &err) == -1);
    snprintf(want, sizeof want, "%s:2: field 1: a NUL byte", path);
    CHECK_CONTAINS(err.msg, want);
    fs_csv_free(r);
}

/* Only regular files are read: a directory, a device or a FIFO is refused
 * at open, without blocking (a FIFO with no writer would block fopen). */
static void test_not_regular(const char *dir)
{
    char path[512];
    fs_error err;
    CHECK(fs_csv_open(dir, &err) == NULL);
    CHECK_CONTAINS(err.msg, dir);
    CHECK_CONTAINS(err.msg, "a directory, not a file");
    CHECK(fs_csv_open("/dev/zero", &err) == NULL);
    CHECK_CONTAINS(err.msg, "/dev/zero: not a regular file (a character "
                   "device)");
    snprintf(path, sizeof path, "%s/fifo", dir);
    if (mkfifo(path, 0600) == 0) {
        CHECK(fs_csv_open(path, &err) == NULL);
        CHECK_CONTAINS(err.msg, "not a regular file (a FIFO)");
        unlink(path);
    }
}

static void test_rewind_and_long_fields(const char *dir)
{
    char path[512];
    fs_error err;
    size_t n = 100000;
    char *big = malloc(n + 64);
    if (!big)
        exit(99);
    strcpy(big, "k,v\nlong,");
    size_t len = strlen(big);
    memset(big + len, 'x', n);
    len += n;
    memcpy(big + len, "\nshort,1\n", 9);
    len += 9;
    write_file(dir, "long.csv", big, len, path, sizeof path);
    free(big);

    fs_csv *r = open_or_die(path);
    for (int pass = 0; pass < 3; pass++) {
        CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 1);
        CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 2);
        CHECK(strlen(fs_csv_field(r, 1)) == n);
        CHECK(fs_csv_field(r, 1)[n - 1] == 'x');
        CHECK(fs_csv_next(r, &err) == 1 && fs_csv_line(r) == 3);
        CHECK(strcmp(fs_csv_field(r, 0), "short") == 0);
        CHECK(fs_csv_next(r, &err) == 0);
        CHECK(fs_csv_rewind(r, &err) == 0);
    }
    fs_csv_free(r);
}

/* A real trace: every line is one record, the fields are as in the file. */
static void test_real_trace(void)
{
    char path[1024];
    fs_error err;
    check_path(path, sizeof path,
               "traces/sample/AzureLLMInferenceTrace_conv.csv");
    fs_csv *r = fs_csv_open(path, &err);
    CHECK(r != NULL);
    if (!r) {
        printf("%s\n", err.msg);
        return;
    }
    long records = 0, bad_width = 0, bad_line = 0;
    int rc;
    while ((rc = fs_csv_next(r, &err)) == 1) {
        records++;
        bad_width += fs_csv_nfields(r) != 3;
        bad_line += fs_csv_line(r) != records;
        if (records == 1)
            CHECK(strcmp(fs_csv_field(r, 0), "TIMESTAMP") == 0);
        if (records == 2) {
            CHECK(strcmp(fs_csv_field(r, 0), "2023-11-16 18:15:46.6805900") == 0);
            CHECK(strcmp(fs_csv_field(r, 1), "374") == 0);
            CHECK(strcmp(fs_csv_field(r, 2), "44") == 0);
        }
    }
    CHECK(rc == 0);
    /* Header + 19366 requests: CRLF line ends and no final newline, so
     * `wc -l` counts one line less. */
    CHECK(records == 19367);
    CHECK(bad_width == 0);
    CHECK(bad_line == 0);
    /* The last record, completed at end of file. */
    CHECK(strcmp(fs_csv_field(r, 0), "") == 0);   /* cleared by the 0 */
    fs_csv_free(r);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char dirbuf[256];
    snprintf(dirbuf, sizeof dirbuf, "%s/test_csvin.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dirbuf)) {
        perror("mkdtemp");
        return 99;
    }
    test_basic(dirbuf);
    test_quoting(dirbuf);
    test_line_ends(dirbuf);
    test_malformed(dirbuf);
    test_rewind_and_long_fields(dirbuf);
    test_limits(dirbuf);
    test_nul_byte(dirbuf);
    test_not_regular(dirbuf);
    test_real_trace();

    /* Clean up the temporary files. */
    static const char *const files[] = {
        "basic.csv", "quoted.csv", "crlf.csv", "cr.csv", "blank.csv",
        "bom.csv", "empty.csv", "unterminated.csv", "stray.csv",
        "after_quote.csv", "late.csv", "eof_quote.csv", "long.csv",
        "max_line.csv", "long_line.csv", "zeros.csv", "long_record.csv",
        "nul.csv", "nul_quoted.csv", NULL,
    };
    char path[600];
    for (const char *const *f = files; *f; f++) {
        snprintf(path, sizeof path, "%s/%s", dirbuf, *f);
        unlink(path);
    }
    rmdir(dirbuf);
    return check_report("csvin");
}
