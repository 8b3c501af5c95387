/* datadir.h -- where fleetsim finds the data files it ships (the catalog,
 * the chart templates): the directory an environment variable names,
 * else the installed one if it is there, else the source tree's, so that
 * an uninstalled build run from its tree finds its own files. */
#ifndef FS_DATADIR_H
#define FS_DATADIR_H

/* $env when set and not empty, else installed when it is a directory,
 * else source. */
const char *fs_data_dir(const char *env, const char *installed,
                        const char *source);

#endif
