/* dist_empirical.h -- empirical(FILE): a distribution given by a sample,
 * one value a row in the first column of a CSV (a first row that is not
 * a number is a header), read with libcsv (sim/base/csvin.c).
 *
 * Shared by every key that takes a distribution: service times, token
 * counts (tokens_in =, tokens_out =), spot lifetimes, replacement delays.
 * A draw inverts the sample's empirical CDF: a uniform index into the
 * values (gsl_rng_uniform_int), so every value is equally likely and the
 * draws' mean and quantiles converge to the file's. */
#ifndef FS_DIST_EMPIRICAL_H
#define FS_DIST_EMPIRICAL_H

#include <stddef.h>

/* The most values a file may hold (kept in memory, 8 bytes each). */
#define FS_EMPIRICAL_MAX 10000000

/* What the values are, for messages: noun "a lifetime", unit "seconds"
 * give "path:3: 'abc' is not a number of seconds" and "path:2: a
 * lifetime must be above 0 seconds, got '-5'". */
typedef struct fs_empirical_words {
    const char *noun, *unit;
    int count;   /* the values are counts of unit (tokens): a call's
                    arguments are plain numbers, a duration's unit refused
                    (fs_dist_parse_in) */
} fs_empirical_words;

/* Reads path's values (each finite and above 0) into *values (malloc'd,
 * file order) and *n.  0, or -1 with "path:line: why" in why (nothing
 * kept). */
int fs_empirical_read(const char *path, fs_empirical_words w,
                      double **values, size_t *n, char *why, size_t whylen);

/* path against base_dir unless absolute or base_dir is empty or ".";
 * -1 when it does not fit in len. */
int fs_empirical_resolve(const char *base_dir, const char *path, char *out,
                         size_t len);

#endif
