/* datadir.h -- where fleetsim finds the data files it ships (the catalog,
 * the chart templates): the directory an environment variable names,
 * else the installed one if it is there, else the source tree's, so that
 * an uninstalled build run from its tree finds its own files; and where
 * it puts its scratch files (a chart's data and image) while it works. */
#ifndef FS_DATADIR_H
#define FS_DATADIR_H

#include <stddef.h>

#include "sim/base/error.h"

/* $env when set and not empty, else installed when it is a directory,
 * else source. */
const char *fs_data_dir(const char *env, const char *installed,
                        const char *source);

/* A new private directory STEM.XXXXXX (mkdtemp) under $TMPDIR, else
 * /tmp, into dir[0..len): 0, or -1 with err ("cannot make a temporary
 * directory in /tmp: ..."). */
int fs_temp_dir(const char *stem, char *dir, size_t len, fs_error *err);

#endif
