/* rng.c -- seeding one GSL generator per named source.
 *
 * The seed of a stream is a splitmix64 mix of the scenario seed, the
 * replication and an FNV-1a hash of the source's name, so adding a pool or
 * a workload never shifts the draws of the others. */
#include "sim/base/rng.h"

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t fnv1a64(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t fs_rng_seed(uint64_t seed, unsigned replication, const char *source)
{
    uint64_t x = splitmix64(seed);
    x = splitmix64(x ^ (uint64_t)replication * 0xd1b54a32d192ed03ULL);
    return splitmix64(x ^ fnv1a64(source));
}

gsl_rng *fs_rng_new(uint64_t seed, unsigned replication, const char *source)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return NULL;
    /* mt19937 takes 32 bits of seed; fold the 64 so both halves count.
     * GSL treats seed 0 as its default seed (4357), which is fine. */
    uint64_t s = fs_rng_seed(seed, replication, source);
    gsl_rng_set(r, (unsigned long)((s ^ (s >> 32)) & 0xffffffffULL));
    return r;
}
