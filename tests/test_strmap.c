/* test_strmap.c -- the string hash table: every key found with its value
 * after growth, replaced values, absent keys, keys that differ only in
 * length or hold a NUL, and the empty key. */
#include "sim/base/strmap.h"
#include "tests/check.h"

#include <stdio.h>

int main(void)
{
    fs_strmap m;
    fs_strmap_init(&m);
    size_t v = 99;
    CHECK(!fs_strmap_get(&m, "x", 1, &v));   /* empty table */
    CHECK(v == 99);

    enum { N = 100000 };
    char key[32];
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        int n = snprintf(key, sizeof key, "pool.p%zu", i);
        ok &= fs_strmap_put(&m, key, (size_t)n, i) == 0;
    }
    CHECK(ok);
    CHECK(fs_strmap_count(&m) == N);
    CHECK(m.cap >= 2 * N);   /* at most half full */
    int found = 1;
    for (size_t i = 0; i < N; i++) {
        int n = snprintf(key, sizeof key, "pool.p%zu", i);
        found &= fs_strmap_get(&m, key, (size_t)n, &v) && v == i;
    }
    CHECK(found);
    int absent = 1;
    for (size_t i = N; i < 2 * N; i++) {
        int n = snprintf(key, sizeof key, "pool.p%zu", i);
        absent &= !fs_strmap_get(&m, key, (size_t)n, &v);
    }
    CHECK(absent);

    /* Replacing keeps the count. */
    CHECK(fs_strmap_put(&m, "pool.p7", 7, 12345) == 0);
    CHECK(fs_strmap_get(&m, "pool.p7", 7, &v) && v == 12345);
    CHECK(fs_strmap_count(&m) == N);

    /* Lengths count: a prefix, a NUL inside, the empty key. */
    CHECK(!fs_strmap_get(&m, "pool.p7", 6, &v));   /* "pool.p" */
    CHECK(fs_strmap_put(&m, "a\0b", 3, 1) == 0);
    CHECK(fs_strmap_put(&m, "a\0c", 3, 2) == 0);
    CHECK(fs_strmap_put(&m, "a", 1, 3) == 0);
    CHECK(fs_strmap_get(&m, "a\0b", 3, &v) && v == 1);
    CHECK(fs_strmap_get(&m, "a\0c", 3, &v) && v == 2);
    CHECK(fs_strmap_get(&m, "a", 1, &v) && v == 3);
    CHECK(!fs_strmap_get(&m, "", 0, &v));
    CHECK(fs_strmap_put(&m, "", 0, 4) == 0);
    CHECK(fs_strmap_get(&m, "", 0, &v) && v == 4);
    CHECK(fs_strmap_count(&m) == N + 4);

    fs_strmap_free(&m);
    CHECK(m.cap == 0 && m.n == 0);
    fs_strmap_free(&m);   /* twice is harmless */
    return check_report("strmap");
}
