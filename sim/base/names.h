/* names.h -- how long a name may be.
 *
 * Scenario, pool, workload and window names are stored in fixed buffers of
 * FS_NAME_MAX bytes (63 and the NUL).  The scenario layer refuses a longer
 * name with file:line:key, never cuts it (a cut inside a UTF-8 character
 * would make invalid JSON); the results and the store rely on that. */
#ifndef FS_NAMES_H
#define FS_NAMES_H

#define FS_NAME_MAX 64

#endif
