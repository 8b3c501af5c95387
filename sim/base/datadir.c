/* datadir.c -- the directory of shipped data files (datadir.h). */
#include "sim/base/datadir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int fs_temp_dir(const char *stem, char *dir, size_t len, fs_error *err)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    if (snprintf(dir, len, "%s/%s.XXXXXX", tmp, stem) >= (int)len ||
        !mkdtemp(dir))
        return fs_error_set(err, "cannot make a temporary directory in %s: "
                            "%s", tmp, strerror(errno));
    return 0;
}
