/* owned.h -- freeing what an object owns: the two steps every module's
 * constructor and destructor repeat, written once.
 *
 * A destructor frees its object's arrays and then the object; a
 * constructor that fails halfway hands what it has built to that
 * destructor and answers NULL.  With these a destructor lists what its
 * object owns in one call, and a constructor's way out is one expression:
 *
 *     void fs_thing_free(fs_thing *t)
 *     {
 *         if (t)
 *             FS_FREE_ALL(t->rows, t->names, t);
 *     }
 *
 *     if (load_rows(t, path, err))
 *         return FS_DISCARD(fs_thing_free, t);
 *     return t;
 *
 * FS_FREE_ALL is for plain malloc'd buffers; what needs its own
 * destructor (a CSV reader, a GSL generator) is still freed by name. */
#ifndef FS_OWNED_H
#define FS_OWNED_H

#include <stddef.h>
#include <stdlib.h>

/* free() of each of the n pointers p[0..n-1], in order (NULL ones too). */
static inline void fs_free_each(void *const *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i]);
}

/* free() of each argument, in order: FS_FREE_ALL(c->rows, c). */
#define FS_FREE_ALL(...)                                                   \
    fs_free_each((void *const[]){__VA_ARGS__},                             \
                 sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

/* destroy(obj), then NULL: what a constructor answers when it fails after
 * obj was allocated (destroy takes a half-built object). */
#define FS_DISCARD(destroy, obj) ((destroy)(obj), NULL)

#endif
