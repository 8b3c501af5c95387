/* keydoc.h -- how a scenario key is described, once.
 *
 * The scenario parser (which keys a section accepts), `fleetsim help
 * scenario`, the man page and doc/scenario-keys.md (both generated) all read
 * the same descriptions.  The type lives in the base layer because modules below
 * the scenario layer declare keys of their own: a purchase option in
 * models/ lists the pool keys it reads (term, upfront, ...) in its table,
 * so that adding one never means editing a central list. */
#ifndef FS_KEYDOC_H
#define FS_KEYDOC_H

typedef struct fs_key_doc {
    const char *name;     /* "upfront" */
    const char *type;     /* what a value looks like: "none|partial|all" */
    const char *def;      /* the default as written, or NULL: none/required */
    const char *help;     /* one line, lower case, no final period */
} fs_key_doc;

#endif
