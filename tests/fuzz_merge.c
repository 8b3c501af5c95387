/* fuzz_merge.c -- libFuzzer harness for the merge reader
 * (sim/store/store_merge.c): a database file given to `fleetsim merge`.
 *
 * Seeds are small valid fleetsim databases (tests/data/fuzz-seeds/
 * merge-*.db); libFuzzer mutates their bytes.  Each input is written as a
 * part and merged into a new target: the merge either copies its runs or
 * refuses the part with a message, and the part file is never modified
 * (its bytes are compared after).  A second merge of the same part into
 * the target it made must copy nothing new and succeed.  Any crash,
 * sanitizer report, leak, hang or modified part is a bug.  Run with
 * tests/fuzz.sh. */
#include "tests/fuzz_common.h"
#include "sim/store/store.h"

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_init_dir();
    sink = fopen("/dev/null", "w");
    if (!sink)
        abort();
    return 0;
}

static void remove_target(const char *target)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    char name[512];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s%s", target, suffixes[i]);
        unlink(name);
    }
}

/* The part's bytes as written: 1 when unchanged. */
static int unchanged(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int same = 1;
    for (size_t i = 0; i < size && same; i++)
        same = fgetc(f) == data[i];
    same = same && fgetc(f) == EOF;
    fclose(f);
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char part[400], target[400];
    fuzz_write("input.db", data, size, part, sizeof part);
    snprintf(target, sizeof target, "%s/target.db", fuzz_dir);
    remove_target(target);
    char *parts[1] = {part};
    fs_error err;
    int rc = fs_store_merge(target, parts, 1, sink, &err);
    if (!unchanged(part, data, size))
        abort();
    if (rc == 0 && fs_store_merge(target, parts, 1, sink, &err) != 0)
        abort();   /* merging the same part again changes nothing */
    remove_target(target);
    return 0;
}
