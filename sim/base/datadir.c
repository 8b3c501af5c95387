/* datadir.c -- the directory of shipped data files (datadir.h). */
#include "sim/base/datadir.h"

#include <stdlib.h>
#include <sys/stat.h>

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *fs_data_dir(const char *env, const char *installed,
                        const char *source)
{
    const char *v = getenv(env);
    if (v && v[0])
        return v;
    return is_dir(installed) ? installed : source;
}
