/* scenario_text.h -- the keys a stored scenario text (run.scenario_text)
 * sets, each to the value the run used: a plain list, in order of first
 * setting.  See scenario_text.c. */
#ifndef FS_SCENARIO_TEXT_H
#define FS_SCENARIO_TEXT_H

#include <stddef.h>
#include "sim/base/error.h"

typedef struct fs_kv {
    char *section, *key, *value;
} fs_kv;

typedef struct fs_kvs {
    fs_kv *v;
    size_t n, cap;
} fs_kvs;

/* Reads text into out: 0, or -1 with err. */
int fs_kvs_from_text(const char *text, fs_kvs *out, fs_error *err);
void fs_kvs_free(fs_kvs *m);

/* The value of section.key, or NULL. */
const char *fs_kvs_get(const fs_kvs *m, const char *section,
                       const char *key);

/* The --set assignments a stored text records ("SECTION.KEY=VALUE" as
 * given), in order, malloc'd into *sets (the caller frees the *n of them
 * and *sets, also on failure).  0, or -1 when out of memory. */
int fs_text_sets(const char *text, char ***sets, int *n);

#endif
