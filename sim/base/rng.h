/* rng.h -- independent, reproducible random streams.
 *
 * Every source of randomness (a workload's arrivals, its service demands, a
 * pool's interruptions, ...) gets its own GSL generator seeded from
 * (scenario seed, replication, source name).  Two scenarios that differ only
 * in the fleet therefore draw the same requests: common random numbers. */
#ifndef FS_RNG_H
#define FS_RNG_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

/* Seed for a named source: a 64-bit mix of the three inputs. */
uint64_t fs_rng_seed(uint64_t seed, unsigned replication, const char *source);

/* A new generator (gsl_rng_mt19937) for the named source; free it with
 * gsl_rng_free.  Returns NULL only when out of memory. */
gsl_rng *fs_rng_new(uint64_t seed, unsigned replication, const char *source);

#endif
