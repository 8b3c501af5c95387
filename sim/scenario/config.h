/* config.h -- a scenario file as a list of (section, key, value, file, line).
 *
 * inih reads the INI syntax; this layer adds what inih leaves to us: the
 * line of every key (for messages), `include = base.ini` in [scenario]
 * (the base is read first, the including file overrides it), duplicate-key
 * detection, and --set SECTION.KEY=VALUE overrides.  Typed interpretation
 * is scenario.c's job. */
#ifndef FS_CONFIG_H
#define FS_CONFIG_H

#include <stddef.h>
#include <ini.h>
#include "sim/base/error.h"
#include "sim/base/strmap.h"

/* Limits of what is read (doc/scenarios.md, "Scenario reference"): a file is a
 * regular file of at most 1 MiB; a line holds what inih's buffer does; a
 * section name what inih keeps (its MAX_SECTION is 50 with the NUL) rather
 * than cut.  --set assignments obey the same limits. */
#define FS_CONFIG_FILE_MAX (1 << 20)
#define FS_CONFIG_LINE_MAX (INI_MAX_LINE - 2)
#define FS_CONFIG_SECTION_MAX 49

typedef struct fs_config_entry {
    char *section;   /* "scenario", "pool.a100", ... */
    char *key;
    char *value;
    const char *file;   /* owned by the config (interned) */
    const char *dir;    /* the folder of that file (interned): a relative
                           path in the value is relative to it, so that a
                           file included from another folder names its
                           own data; NULL for --set */
    int line;           /* 0 for --set */
    int used;           /* set when a typed reader consumed it */
} fs_config_entry;

/* A section's entries, in file order (indexes into fs_config.e). */
typedef struct fs_config_section {
    const char *name;   /* the first entry's section string */
    size_t *entries;
    size_t n, cap;
} fs_config_section;

typedef struct fs_config {
    fs_config_entry *e;
    size_t n, cap;
    /* The index, so that reading a scenario is linear in its size: each
     * (section, key) to its last entry, each section by name, and the
     * sections in order of first appearance.  Built when the file is
     * loaded, kept up by fs_config_set; entries past `indexed` (none
     * after a load) are searched one by one. */
    fs_strmap keys, names;
    fs_config_section *sections;
    size_t nsections, sections_cap, indexed;
    char **files;       /* interned file names, and "--set" */
    size_t nfiles;
    char *text;         /* every file read, concatenated, plus --set lines */
    size_t text_len;
} fs_config;

/* The folder a relative path in e's value is relative to: the folder of
 * the file that set it, or fallback (the scenario's) for --set. */
const char *fs_config_entry_dir(const fs_config_entry *e,
                                const char *fallback);

/* Reads path (and its includes).  NULL with "file:line: ..." on error,
 * including a file or line beyond the limits above or a NUL byte. */
fs_config *fs_config_load(const char *path, fs_error *err);
void fs_config_free(fs_config *c);

/* Applies "SECTION.KEY=VALUE" (the section may itself contain dots: the
 * key is what follows the last one). */
int fs_config_set(fs_config *c, const char *assignment, fs_error *err);

/* The entry for section/key (the last one set), or NULL. */
fs_config_entry *fs_config_find(const fs_config *c, const char *section,
                                const char *key);

/* The section of that name, or NULL: its entries in file order.  Every
 * section of a config is c->sections[0 .. nsections), in order of first
 * appearance. */
const fs_config_section *fs_config_section_find(const fs_config *c,
                                                const char *name);

#endif
