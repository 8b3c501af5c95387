/* rng.h -- independent, reproducible random streams.
 *
 * Every source of randomness (a workload's arrivals, its service demands, a
 * pool's interruptions, ...) gets its own generator seeded from (scenario
 * seed, replication, source name).  Two scenarios that differ only in the
 * fleet therefore draw the same requests: common random numbers.
 *
 * The generator is xoshiro256++ (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", ACM Trans. Math. Softw. 47(4), 2021;
 * reference code and test results at https://prng.di.unimi.it/): period
 * 2^256 - 1, 256 bits of state, no failure in the authors' runs of
 * TestU01's BigCrush and of PractRand, and about 1 ns a draw (mt19937,
 * which fleetsim used before, fails two of BigCrush's linear-complexity
 * tests).  It is wrapped as a GSL gsl_rng_type, so every gsl_ran_*
 * distribution takes it.  Its 256-bit state is filled from the source's
 * 64-bit seed by splitmix64, the seeding its authors recommend, so two
 * sources' streams start at unrelated points of the period. */
#ifndef FS_RNG_H
#define FS_RNG_H

#include <math.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

/* Seed for a named source: a 64-bit mix of the three inputs. */
uint64_t fs_rng_seed(uint64_t seed, unsigned replication, const char *source);

/* A new generator (fs_rng_xoshiro256pp) for the named source; free it with
 * gsl_rng_free.  Returns NULL only when out of memory. */
gsl_rng *fs_rng_new(uint64_t seed, unsigned replication, const char *source);

/* xoshiro256++ as a GSL generator type: gsl_rng_get gives the top 32 bits
 * of a draw, gsl_rng_uniform 53 bits in [0, 1).  gsl_rng_set seeds it
 * through splitmix64 like fs_rng_new. */
extern const gsl_rng_type *fs_rng_xoshiro256pp;

/* The generator's state (what r->state points to). */
typedef struct fs_xoshiro_state {
    uint64_t s[4];
} fs_xoshiro_state;

/* Fills the state from a 64-bit seed (splitmix64, never all zero). */
void fs_xoshiro_seed(fs_xoshiro_state *st, uint64_t seed);

static inline uint64_t fs_xoshiro_next(fs_xoshiro_state *st)
{
    uint64_t *s = st->s;
    uint64_t x = s[0] + s[3];
    uint64_t r = (x << 23 | x >> 41) + s[0], t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3] << 45 | s[3] >> 19;
    return r;
}

/* A uniform in (0, 1]: 53 random bits, plus one ulp so it is never 0.
 * Inline for fleetsim's generator; any other GSL generator works too. */
static inline double fs_rng_uniform_pos(gsl_rng *r)
{
    if (r->type == fs_rng_xoshiro256pp) {
        uint64_t x = fs_xoshiro_next((fs_xoshiro_state *)r->state);
        return (double)((x >> 11) + 1) * 0x1.0p-53;
    }
    return gsl_rng_uniform_pos(r);
}

/* The ziggurat of the exponential (Marsaglia and Tsang, "The ziggurat
 * method for generating random variables", J. Stat. Softw. 5(8), 2000):
 * 256 layers of equal area; k, the fast path's acceptance bound on a
 * 53-bit draw, w the layer's width per unit of draw, f the density at the
 * layer's edge.  Filled once, by the first fs_rng_new (rng.c). */
typedef struct fs_zig_table {
    uint64_t k[256];
    double w[256], f[256];
} fs_zig_table;
extern fs_zig_table fs_zig_exp;

/* The rare path of fs_rng_exponential (about 1 draw in 90): the wedges
 * and the tail beyond the base layer. */
double fs_rng_exponential_slow(gsl_rng *r, unsigned layer, uint64_t draw);

/* An exponential of the given mean.  For fleetsim's generator, the
 * ziggurat: the low 8 bits of one draw pick a layer, the high 53 bits a
 * point in it, and 99% of the time that point is the answer with no log
 * or exp.  For any other GSL generator, inversion, -mean log(u). */
static inline double fs_rng_exponential(gsl_rng *r, double mean)
{
    if (r->type == fs_rng_xoshiro256pp) {
        uint64_t x = fs_xoshiro_next((fs_xoshiro_state *)r->state);
        unsigned layer = (unsigned)(x & 255);
        uint64_t draw = x >> 11;
        if (draw < fs_zig_exp.k[layer])
            return mean * ((double)draw * fs_zig_exp.w[layer]);
        return mean * fs_rng_exponential_slow(r, layer, draw);
    }
    return -mean * log(gsl_rng_uniform_pos(r));
}

#endif
