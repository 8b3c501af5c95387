/* fuzz_common.h -- what the libFuzzer harnesses share: a private temporary
 * directory, and writing each input to a file in it (the readers under
 * test read files, as fleetsim does).  Built and run by tests/fuzz.sh, not
 * by `make check`. */
#ifndef FS_FUZZ_COMMON_H
#define FS_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/scenario/scenario.h"

#ifndef FS_SRC_CATALOG_DIR
#define FS_SRC_CATALOG_DIR "models/catalog"
#endif

static char fuzz_dir[256];

/* Creates the directory once; removed at exit. */
static void fuzz_cleanup(void)
{
    static const char *const names[] = {
        "input", "input.ini", "input.csv", "input.db", "target.db",
        "target.db-journal", "target.db-wal", "target.db-shm", NULL};
    char path[400];
    for (const char *const *n = names; *n; n++) {
        snprintf(path, sizeof path, "%s/%s", fuzz_dir, *n);
        unlink(path);
    }
    rmdir(fuzz_dir);
}

static void fuzz_init_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_dir, sizeof fuzz_dir, "%s/fleetsim-fuzz.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fuzz_dir)) {
        perror("mkdtemp");
        abort();
    }
    atexit(fuzz_cleanup);
}

/* The directory, and the project's catalog for every lookup: what a
 * harness that loads scenarios does first. */
static inline void fuzz_init_catalog(void)
{
    fuzz_init_dir();
    setenv("FLEETSIM_CATALOG", FS_SRC_CATALOG_DIR, 1);
}

/* The input's first line, as a user types a value, into buf: its length,
 * or -1 when it holds a NUL (which cannot reach a command line). */
static inline long fuzz_first_line(const uint8_t *data, size_t size,
                                   char *buf, size_t len)
{
    size_t n = 0;
    while (n < size && n < len - 1 && data[n] != '\n')
        n++;
    memcpy(buf, data, n);
    buf[n] = 0;
    return strlen(buf) == n ? (long)n : -1;
}

/* Writes data to fuzz_dir/name; the path in buf. */
static const char *fuzz_write(const char *name, const uint8_t *data,
                              size_t size, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", fuzz_dir, name);
    FILE *f = fopen(buf, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(buf);
        abort();
    }
    return buf;
}

/* The scenario text base, written as input.ini and loaded with the one
 * override `KEY=VALUE` (as --set gives it): the scenario, or NULL with
 * err.  The caller frees it. */
static inline fs_scenario *fuzz_load_set(const char *base, const char *key,
                                         const char *value, fs_error *err)
{
    char path[400], set[1200];
    fuzz_write("input.ini", (const uint8_t *)base, strlen(base), path,
               sizeof path);
    snprintf(set, sizeof set, "%s=%s", key, value);
    char *sets[1] = {set};
    return fs_scenario_load(path, sets, 1, err);
}

/* FNV-1a: picks a variant from the input itself, so that seeds can be
 * plain files and every byte still matters. */
static inline uint32_t fuzz_hash(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

#endif
