/* rng.c -- seeding one generator per named source, and xoshiro256++ as a
 * GSL generator type (see rng.h for the generator's published quality).
 *
 * The seed of a stream is a splitmix64 mix of the scenario seed, the
 * replication and an FNV-1a hash of the source's name, so adding a pool or
 * a workload never shifts the draws of the others.  That 64-bit seed is
 * expanded into the generator's 256-bit state by four more splitmix64
 * steps. */
#include "sim/base/rng.h"

#include <pthread.h>

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

void fs_xoshiro_seed(fs_xoshiro_state *st, uint64_t seed)
{
    /* splitmix64's outputs for seed + k * golden gamma, k = 1..4: the
     * sequence generator the xoshiro authors use for seeding.  They are
     * a bijection of their inputs, so the four are never all zero. */
    for (int i = 0; i < 4; i++) {
        st->s[i] = splitmix64(seed);
        seed += 0x9e3779b97f4a7c15ULL;
    }
}

/* ---- the exponential's ziggurat ---------------------------------------- */

/* The base layer's edge and every layer's area, for 256 layers of the
 * density exp(-x) (Marsaglia and Tsang, 2000). */
#define ZIG_R 7.69711747013104972
#define ZIG_V 3.949659822581572e-3
#define ZIG_M 9007199254740992.0   /* 2^53: draws are 53 bits */

fs_zig_table fs_zig_exp;
static pthread_once_t zig_once = PTHREAD_ONCE_INIT;

static void zig_fill(void)
{
    fs_zig_table *z = &fs_zig_exp;
    double de = ZIG_R, te = ZIG_R, q = ZIG_V / exp(-ZIG_R);
    z->k[0] = (uint64_t)(de / q * ZIG_M);
    z->k[1] = 0;
    z->w[0] = q / ZIG_M;
    z->w[255] = de / ZIG_M;
    z->f[0] = 1;
    z->f[255] = exp(-de);
    for (int i = 254; i >= 1; i--) {
        de = -log(ZIG_V / de + exp(-de));
        z->k[i + 1] = (uint64_t)(de / te * ZIG_M);
        te = de;
        z->f[i] = exp(-de);
        z->w[i] = de / ZIG_M;
    }
}

static void zig_init(void)
{
    pthread_once(&zig_once, zig_fill);
}

double fs_rng_exponential_slow(gsl_rng *r, unsigned layer, uint64_t draw)
{
    const fs_zig_table *z = &fs_zig_exp;
    fs_xoshiro_state *st = r->state;
    for (;;) {
        if (layer == 0)   /* the tail beyond R is R plus an exponential */
            return ZIG_R - log(fs_rng_uniform_pos(r));
        double x = (double)draw * z->w[layer];
        double y = z->f[layer] +
                   fs_rng_uniform_pos(r) * (z->f[layer - 1] - z->f[layer]);
        if (y < exp(-x))
            return x;
        uint64_t u = fs_xoshiro_next(st);
        layer = (unsigned)(u & 255);
        draw = u >> 11;
        if (draw < z->k[layer])
            return (double)draw * z->w[layer];
    }
}

/* ---- the GSL generator type ------------------------------------------- */

static void xoshiro_set(void *state, unsigned long seed)
{
    zig_init();
    fs_xoshiro_seed(state, (uint64_t)seed);
}

static unsigned long xoshiro_get(void *state)
{
    return (unsigned long)(fs_xoshiro_next(state) >> 32);
}

static double xoshiro_get_double(void *state)
{
    return (double)(fs_xoshiro_next(state) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type xoshiro_type = {
    "xoshiro256++", 0xffffffffUL, 0, sizeof(fs_xoshiro_state),
    xoshiro_set, xoshiro_get, xoshiro_get_double,
};

const gsl_rng_type *fs_rng_xoshiro256pp = &xoshiro_type;

gsl_rng *fs_rng_new(uint64_t seed, unsigned replication, const char *source)
{
    gsl_rng *r = gsl_rng_alloc(fs_rng_xoshiro256pp);   /* zig_init too */
    if (!r)
        return NULL;
    /* The whole 64-bit seed counts (gsl_rng_set would take an unsigned
     * long, 32 bits on some platforms). */
    fs_xoshiro_seed(r->state, fs_rng_seed(seed, replication, source));
    return r;
}
