/* test_prefix.c -- prefix caching, to the arithmetic.
 *
 *   - the block cache (sim/fleet/llm_kvcache.c): a chain's leading cached
 *     blocks are its hit; a released chain is evicted tail first (least
 *     recently used, the head of a prompt released last); a block a
 *     running request holds is never evicted (a full cache of held blocks
 *     stops the chain); trimming gives idle blocks' memory back;
 *   - a shared 2,000-token system prompt on 90% of 2,500-token prompts,
 *     one request at a time (10 s apart, one output token): each request
 *     that finds the prompt cached prefills its last 500 tokens only, so
 *     its TTFT is exactly one prefill iteration of 500 tokens attending to
 *     2,000 cached ones (fs_llm_iteration_time), the others' a full
 *     2,500-token prefill; the hit rate is the cached requests' 2,000
 *     tokens over the prompts' tokens, near 0.9 x 2000 / 2500 = 72%, and
 *     mean TTFT falls by far more than 30%;
 *   - prefix_cache = no on the same scenario gives exactly the results
 *     of the scenario without any prefix key (the counterfactual). */
#include "tests/check.h"
#include "tests/simulate.h"
#include "sim/fleet/serve/llm_kvcache.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_rng.h>

/* A chain of single-block runs. */
static void chain(fs_kv_cache *c, const uint64_t *keys, long n,
                  fs_kv_hold *h, long *newly)
{
    fs_kv_run *k = fs_kv_cache_runs(c, n);
    for (long i = 0; i < n; i++)
        k[i] = (fs_kv_run){keys[i], 1};
    fs_kv_cache_acquire(c, n, h, newly);
}

static void check_cache_lru(void)
{
    fs_kv_cache *c = fs_kv_cache_new(4);
    fs_kv_hold h;
    long newly;
    static const uint64_t a[] = {1, 2, 3}, b[] = {1, 2, 9}, d[] = {5, 6},
                          e[] = {1, 2};
    chain(c, a, 3, &h, &newly);
    CHECK(h.hit == 0 && h.n == 3 && newly == 3);
    CHECK(fs_kv_cache_release(c, &h) == 3 && fs_kv_cache_idle(c) == 3);
    chain(c, b, 3, &h, &newly);   /* 1, 2 cached; 9 added */
    CHECK(h.hit == 2 && h.n == 3 && newly == 3);
    fs_kv_cache_release(c, &h);   /* LRU now 3, 9, 2, 1 */
    chain(c, d, 2, &h, &newly);   /* full: evicts 3, then 9 */
    CHECK(h.hit == 0 && h.n == 2);
    fs_kv_cache_release(c, &h);
    chain(c, e, 2, &h, &newly);   /* the heads survived */
    CHECK(h.hit == 2);
    fs_kv_cache_release(c, &h);
    chain(c, b, 3, &h, &newly);   /* 9 was evicted: 2 of 3 */
    CHECK(h.hit == 2);
    fs_kv_cache_release(c, &h);
    fs_kv_cache_free(c);
}

static void check_cache_held(void)
{
    fs_kv_cache *c = fs_kv_cache_new(2);
    fs_kv_hold h1, h2;
    long newly;
    static const uint64_t a[] = {1, 2}, b[] = {7, 8};
    chain(c, a, 2, &h1, &newly);
    chain(c, b, 2, &h2, &newly);   /* nothing evictable: no block */
    CHECK(h2.n == 0 && h2.hit == 0 && newly == 0);
    chain(c, a, 2, &h2, &newly);   /* shared: held twice, new to none */
    CHECK(h2.hit == 2 && newly == 0);
    CHECK(fs_kv_cache_release(c, &h2) == 0);   /* h1 still holds them */
    CHECK(fs_kv_cache_release(c, &h1) == 2);
    fs_kv_cache_trim(c, 0);        /* their memory wanted */
    CHECK(fs_kv_cache_idle(c) == 0);
    chain(c, a, 2, &h1, &newly);
    CHECK(h1.hit == 0 && newly == 2);
    fs_kv_cache_release(c, &h1);
    fs_kv_cache_free(c);
}

/* ---- the run cache against a cache of single blocks ------------------
 * A reference written the plain way (every block its own entry, LRU by a
 * clock, linear scans) and the cache of runs get the same random
 * operations: chains of runs that share prefixes (families of prompts
 * with a common head and branches), held, released, trimmed, under a
 * small limit so that evictions, chains cut short and blocks found after
 * a miss all happen.  Every hit, new block, freed block and idle count
 * must agree, operation by operation. */
#define REF_MAX 4096
typedef struct ref_block {
    uint64_t id;
    long ref, stamp;   /* stamp: when it went idle (LRU) */
} ref_block;
typedef struct ref_cache {
    ref_block b[REF_MAX];
    long n, limit, clock, idle;
} ref_cache;
typedef struct ref_hold {
    uint64_t id[REF_MAX / 8];
    long n, hit;
} ref_hold;

static long ref_find(const ref_cache *c, uint64_t id)
{
    for (long i = 0; i < c->n; i++)
        if (c->b[i].id == id)
            return i;
    return -1;
}

/* Evicts the least recently idle block: 0, or -1 if none is idle. */
static int ref_evict(ref_cache *c)
{
    long best = -1;
    for (long i = 0; i < c->n; i++)
        if (c->b[i].ref == 0 && (best < 0 || c->b[i].stamp < c->b[best].stamp))
            best = i;
    if (best < 0)
        return -1;
    c->b[best] = c->b[--c->n];
    c->idle--;
    return 0;
}

static void ref_acquire(ref_cache *c, const fs_kv_run *runs, long nr,
                        ref_hold *h, long *newly)
{
    int streak = 1;
    h->n = h->hit = *newly = 0;
    for (long k = 0; k < nr; k++)
        for (int32_t t = 0; t < runs[k].len; t++) {
            uint64_t id = runs[k].key * 64 + (uint64_t)t;
            long i = ref_find(c, id);
            if (i < 0) {
                if (c->n >= c->limit && ref_evict(c))
                    return;
                i = c->n++;
                c->b[i] = (ref_block){id, 0, 0};
                streak = 0;
            } else if (streak) {
                h->hit++;
            }
            if (c->b[i].ref++ == 0) {
                (*newly)++;
                if (i < c->n && ref_find(c, id) == i && c->b[i].stamp)
                    c->idle--;
            }
            c->b[i].stamp = 0;
            h->id[h->n++] = id;
        }
}

static long ref_release(ref_cache *c, ref_hold *h)
{
    long freed = 0;
    for (long k = h->n - 1; k >= 0; k--) {
        long i = ref_find(c, h->id[k]);
        if (--c->b[i].ref == 0) {
            c->b[i].stamp = ++c->clock;
            c->idle++;
            freed++;
        }
    }
    h->n = h->hit = 0;
    return freed;
}

/* A prompt of family f (0..5) and branch b (0..2): runs 0..split-1 are
 * the family's, the others the branch's; each key's full length is fixed
 * (1 to 32 blocks), the last run cut at random. */
static long random_chain(gsl_rng *rng, fs_kv_run *runs)
{
    uint64_t f = gsl_rng_uniform_int(rng, 6), b = gsl_rng_uniform_int(rng, 3);
    long nr = 1 + (long)gsl_rng_uniform_int(rng, 6), split = 2;
    for (long h = 0; h < nr; h++) {
        uint64_t key = h < split ? 1000 * f + (uint64_t)h
                                 : 1000 * f + 100 * (b + 1) + (uint64_t)h;
        int32_t full = 1 + (int32_t)(key * 7 % 32);
        runs[h] = (fs_kv_run){key, full};
    }
    runs[nr - 1].len = 1 + (int32_t)gsl_rng_uniform_int(rng,
                                                        (unsigned long)runs[nr - 1].len);
    return nr;
}

static void check_cache_against_blocks(void)
{
    static ref_cache ref;
    static ref_hold rh[8];
    fs_kv_hold kh[8];
    int active[8] = {0};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 28);
    ref.limit = 150;
    fs_kv_cache *c = fs_kv_cache_new(ref.limit);
    long bad = 0, hits = 0, evictions = 0, short_chains = 0;
    for (long step = 0; step < 20000 && c; step++) {
        int k = (int)gsl_rng_uniform_int(rng, 8);
        if (!active[k]) {
            fs_kv_run *runs = fs_kv_cache_runs(c, 8);
            long nr = random_chain(rng, runs), n1, n2, want = 0;
            for (long i = 0; i < nr; i++)
                want += runs[i].len;
            long before = ref.n;
            ref_acquire(&ref, runs, nr, &rh[k], &n1);
            fs_kv_cache_acquire(c, nr, &kh[k], &n2);
            bad += kh[k].n != rh[k].n || kh[k].hit != rh[k].hit || n1 != n2;
            hits += rh[k].hit;
            short_chains += rh[k].n < want;
            evictions += before + (rh[k].n - rh[k].hit) > ref.n;
            active[k] = 1;
        } else if (gsl_rng_uniform(rng) < 0.9) {
            bad += ref_release(&ref, &rh[k]) != fs_kv_cache_release(c, &kh[k]);
            active[k] = 0;
        } else {
            long max = (long)gsl_rng_uniform_int(rng, 60);
            while (ref.idle > max)
                ref_evict(&ref);
            fs_kv_cache_trim(c, max);
        }
        bad += ref.idle != fs_kv_cache_idle(c);
    }
    printf("  runs against single blocks: 20000 operations, %ld blocks hit, "
           "%ld acquisitions evicting, %ld chains cut short, %ld "
           "disagreements\n", hits, evictions, short_chains, bad);
    CHECK(c && bad == 0);
    CHECK(hits > 1000 && evictions > 100 && short_chains > 10);
    fs_kv_cache_free(c);
    gsl_rng_free(rng);
}

#define NREQ 300
static char trace_path[64];

/* NREQ prompts of 2,500 tokens, 10 s apart, one output token each. */
static int write_trace(void)
{
    snprintf(trace_path, sizeof trace_path, "/tmp/fleetsim-pfx-XXXXXX.csv");
    int fd = mkstemps(trace_path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fprintf(f, "time,in,out\n");
    for (int i = 0; i < NREQ; i++)
        fprintf(f, "%d,2500,1\n", 10 * i);
    return fclose(f);
}

static int run(const char *extra_pool, const char *extra_wl, fs_results *r,
               fs_llm_perf *perf)
{
    char text[1400];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\nseed = 5\n"
             "[pool.a]\ngpu = A100-80GB\nprice = 3.00\ncount = 1\n%s"
             "[workload.w]\npools = a\n"
             "arrivals = trace(%s, format=generic, tokens_in=in, "
             "tokens_out=out)\nservice = llm(model=llama-3-8b, "
             "precision=bf16)\n%s", extra_pool, trace_path, extra_wl);
    return check_run_llm(text, r, perf);
}

/* Equal to the bit, NaN (no value) included. */
static int same(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static double prefill(const fs_llm_perf *p, long done, long c)
{
    return fs_llm_iteration_time(p, c, (double)(2 * done + c + 1) *
                                 (double)c / 2, 0, 0);
}

static void check_shared_prompt(void)
{
    fs_results on, off, none;
    fs_llm_perf perf;
    const char *pfx = "prefix = shared(tokens=2000, share=0.9)\n";
    if (write_trace() || run("prefix_cache = yes\n", pfx, &on, &perf) ||
        run("prefix_cache = no\n", pfx, &off, NULL) ||
        run("", "", &none, NULL)) {
        CHECK(0);
        return;
    }
    const fs_llm_row *l = &on.latency[0].llm;
    double hits = l->tokens_cached / 2000;
    double t_hit = prefill(&perf, 2000, 500), t_full = prefill(&perf, 0, 2500);
    double want = (hits * t_hit + (NREQ - hits) * t_full) / NREQ;
    printf("  shared prompt: %.0f of %d requests cached (hit rate %.4f), "
           "mean TTFT %.4f s (model %.4f) against %.4f s uncached; prefill "
           "%.4f s for 500 tokens after 2000 cached, %.4f s for 2500\n",
           hits, NREQ, l->token_hit_rate, l->ttft_mean_s, want,
           off.latency[0].llm.ttft_mean_s, t_hit, t_full);
    CHECK(on.latency[0].count == NREQ && hits == floor(hits));
    /* which requests have the prompt is a draw: 0.9 of them, the first of
     * them a miss; binomial sd sqrt(300 x 0.09) = 5.2, 4 sd allowed */
    CHECK(fabs(hits - (0.9 * NREQ - 1)) <= 4 * sqrt(NREQ * 0.09));
    CHECK_NEAR(l->token_hit_rate, hits * 2000 / (NREQ * 2500.0), 1e-12);
    CHECK_NEAR(l->ttft_mean_s, want, 1e-9 * want);
    CHECK_NEAR(off.latency[0].llm.ttft_mean_s, t_full, 1e-9 * t_full);
    CHECK(l->ttft_mean_s <= 0.7 * off.latency[0].llm.ttft_mean_s);
    CHECK(isnan(off.latency[0].llm.token_hit_rate));
    /* the counterfactual: exactly the results without the keys */
    const fs_latency_row *x = &off.latency[0], *y = &none.latency[0];
    CHECK(x->count == y->count && x->mean_s == y->mean_s &&
          x->p99_s == y->p99_s && x->wait_mean_s == y->wait_mean_s);
    CHECK(x->llm.ttft_mean_s == y->llm.ttft_mean_s &&
          same(x->llm.tpot_mean_s, y->llm.tpot_mean_s) &&
          x->llm.cost_usd == y->llm.cost_usd &&
          x->llm.cost_per_mtok == y->llm.cost_per_mtok &&
          x->llm.tokens_in == y->llm.tokens_in);
    CHECK(off.pools[0].gpu_hours_busy == none.pools[0].gpu_hours_busy);
    /* the parts add up: computed input plus cached is the input */
    CHECK(l->tokens_cached <= l->tokens_in);
    CHECK_NEAR(l->cost_per_mtok_uncached,
               l->cost_usd * 1e6 / (l->tokens_in - l->tokens_cached +
                                    l->tokens_out), 1e-9);
    fs_results_free(&on);
    fs_results_free(&off);
    fs_results_free(&none);
    unlink(trace_path);
}

int main(void)
{
    check_cache_lru();
    check_cache_held();
    check_cache_against_blocks();
    check_shared_prompt();
    return check_report("prefix");
}
