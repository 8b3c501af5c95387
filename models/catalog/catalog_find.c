/* catalog_find.c -- finding a GPU or an instance type in a loaded catalog
 * by name; see catalog.h.
 *
 * Apart from catalog.c (loading, suggestions, the cheapest instance)
 * because loading the commitments (catalog_commit.c), which catalog.c
 * calls, looks instances up too: kept below both, they call down to it
 * and never round a circle. */
#include "models/catalog/catalog.h"

#include <string.h>
#include <strings.h>

const fs_gpu *fs_catalog_gpu(const fs_catalog *c, const char *name)
{
    for (size_t i = 0; i < c->ngpus; i++)
        if (strcasecmp(c->gpus[i].name, name) == 0)
            return &c->gpus[i];
    return NULL;
}

const fs_instance_type *fs_catalog_instance(const fs_catalog *c,
                                            const char *name)
{
    const char *colon = strchr(name, ':');
    const fs_instance_type *found = NULL;
    for (size_t i = 0; i < c->ninst; i++) {
        const fs_instance_type *t = &c->inst[i];
        if (colon) {
            size_t pl = (size_t)(colon - name);
            if (strlen(t->provider) == pl &&
                strncasecmp(t->provider, name, pl) == 0 &&
                strcasecmp(t->name, colon + 1) == 0)
                return t;
        } else if (strcasecmp(t->name, name) == 0) {
            if (found)
                return NULL;   /* ambiguous without a provider */
            found = t;
        }
    }
    return found;
}
