/* check.h -- the smallest test harness that says what failed.
 *
 * Each test program is one file with a main(): CHECK(cond),
 * CHECK_NEAR(a, b, tol) and CHECK_CONTAINS(text, part) count checks and
 * print "FAIL file:line: expr" (with the values) for each failure, and
 * check_report(name) prints "test_NAME: N checks, M failed" and returns the
 * exit status.  The two counters are file-level statics on purpose: a test
 * program is a single translation unit and a single run.
 *
 * Test data is found under the source tree: $SRCDIR or $srcdir (set for
 * `make check`), else the compile-time FS_SRCDIR, so that out-of-tree
 * builds (make distcheck) find it. */
#ifndef FS_CHECK_H
#define FS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FS_SRCDIR
#define FS_SRCDIR "."
#endif

static int check_count, check_failed;

static inline int check_result(int ok, const char *file, int line,
                               const char *expr)
{
    check_count++;
    if (!ok) {
        check_failed++;
        printf("FAIL %s:%d: %s\n", file, line, expr);
    }
    return ok;
}

#define CHECK(cond) check_result(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_NEAR(a, b, tol)                                              \
    do {                                                                   \
        double check_a_ = (a), check_b_ = (b), check_t_ = (tol);           \
        if (!check_result(fabs(check_a_ - check_b_) <= check_t_, __FILE__, \
                          __LINE__, #a " ~ " #b))                          \
            printf("     got %.17g, expected %.17g +- %.3g\n", check_a_,   \
                   check_b_, check_t_);                                    \
    } while (0)

#define CHECK_CONTAINS(text, part)                                         \
    do {                                                                   \
        const char *check_s_ = (text), *check_p_ = (part);                 \
        if (!check_result(check_s_ && strstr(check_s_, check_p_) != NULL,  \
                          __FILE__, __LINE__, #text " contains " #part))   \
            printf("     text: %s\n     part: %s\n",                       \
                   check_s_ ? check_s_ : "(null)", check_p_);              \
    } while (0)

static inline int check_report(const char *name)
{
    printf("test_%s: %d checks, %d failed\n", name, check_count,
           check_failed);
    return check_failed ? 1 : 0;
}

/* The source tree, where tests/data and traces/sample live. */
static inline const char *check_srcdir(void)
{
    const char *d = getenv("SRCDIR");
    if (!d || !*d)
        d = getenv("srcdir");
    return d && *d ? d : FS_SRCDIR;
}

/* srcdir + "/" + rel into buf. */
static inline const char *check_path(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", check_srcdir(), rel);
    return buf;
}

#endif
