/* keys.h -- the scenario keys, declared once.
 *
 * One table per section kind ([scenario], [pool.NAME], [workload.NAME],
 * [window.NAME]) of fs_key_doc: name, type, default, one line of help.
 * The parser accepts exactly these keys (fs_rd_check_keys), `fleetsim
 * help scenario` and `fleetsim help keys` print them, and the man page's
 * SCENARIO FILE section is generated from them, so that a key cannot be
 * accepted and undocumented, or documented and refused.
 *
 * A pool also accepts the keys each purchase option declares
 * (models/purchase/purchase.h): term, upfront, ... are listed by the option that
 * reads them, never here, so that a new option brings its keys along.
 *
 * Keys of the contract whose capability is not built yet (spot
 * interruptions, MIG, training jobs, ...) are declared too, per section,
 * with the capability they belong to: they are refused with "comes in a
 * later version" rather than "unknown key". */
#ifndef FS_SCENARIO_KEYS_H
#define FS_SCENARIO_KEYS_H

#include <stddef.h>

#include "sim/base/keydoc.h"

/* A key of a later version. */
typedef struct fs_key_later {
    const char *name;         /* "interruption" */
    const char *capability;   /* what brings it: "spot pools" */
} fs_key_later;

typedef struct fs_key_section {
    const char *name;         /* "pool": the section kind */
    const char *header;       /* "[pool.NAME]": as written in a file */
    const fs_key_doc *keys;   /* its own keys; NULL-name ended */
    int purchase_keys;        /* also every purchase option's keys */
    const fs_key_later *later;   /* NULL-name ended */
} fs_key_section;

/* The section kinds, in the order of the help and the man page. */
typedef enum fs_section_kind {
    FS_SECTION_SCENARIO,
    FS_SECTION_POOL,
    FS_SECTION_WORKLOAD,
    FS_SECTION_WINDOW,
    FS_SECTIONS
} fs_section_kind;

/* Indexed by fs_section_kind; fs_key_sections[FS_SECTIONS] has a NULL
 * name. */
extern const fs_key_section fs_key_sections[FS_SECTIONS + 1];

/* The section kind named name ("pool"), or NULL. */
const fs_key_section *fs_key_section_find(const char *name);

/* One key a section accepts, and where it is declared. */
typedef struct fs_key_ref {
    const fs_key_doc *doc;
    const char *option;       /* the purchase option declaring it, or NULL */
} fs_key_ref;

/* The i-th key sec accepts (0-based): its own keys, then each purchase
 * option's in the registry's order.  1 with *out set, 0 past the last.
 * For `for (i = 0; fs_key_at(sec, i, &k); i++)`. */
int fs_key_at(const fs_key_section *sec, size_t i, fs_key_ref *out);

/* The key of sec named name: 1 with *out set, or 0. */
int fs_key_find(const fs_key_section *sec, const char *name,
                fs_key_ref *out);

/* The later-version key of sec named name, or NULL. */
const fs_key_later *fs_key_find_later(const fs_key_section *sec,
                                      const char *name);

/* The most keys a section accepts, own and purchase options' together:
 * the size of a name array for fs_nearest_name. */
#define FS_KEYS_MAX 64

#endif
