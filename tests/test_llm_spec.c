/* test_llm_spec.c -- speculative decoding against its closed forms.
 *
 *   - the law: GSL draws of the tokens a step emits, N = min(G, k + 1),
 *     G geometric with success 1 - a, have P(N = n) = a^(n-1) (1 - a)
 *     (n <= k), P(N = k + 1) = a^k and mean (1 - a^(k+1)) / (1 - a),
 *     each within 5 standard errors of 400,000 draws;
 *   - a long run (about 10^5 decoding steps): the mean accepted tokens a
 *     step stored within 2% of (1 - a^(k+1)) / (1 - a) (and within 5
 *     standard errors), for a draft model and for an MTP head, and the
 *     same scenario and seed give the same figures bit for bit;
 *   - TPOT at light load (one request at a time) falls to the step's
 *     time over the tokens it emits: the speculative step
 *     (fs_llm_spec_step_time) over the closed form, within 2%, against the
 *     plain decode step; and the gain shrinks as the batch grows (the
 *     verify pass of (k + 1) x batch tokens binds on compute), in the
 *     model and in runs at light and heavy load;
 *   - memory: the draft's weights and KV cache share the replica's: the
 *     parts add up, and the KV cache holds (free - draft weights) /
 *     (target's + draft's bytes a token) tokens; the MTP module's
 *     parameters are one block of the target's and a 2h x h projection. */
#include "tests/check.h"
#include "tests/simulate.h"
#include "models/llm/llm_spec.h"
#include "sim/base/rng.h"

#include <math.h>
#include <string.h>

/* The law's variance of N: E[N^2] - E[N]^2 summed from its masses. */
static double law_var(double a, int k)
{
    double m = 0, m2 = 0;
    for (int n = 1; n <= k + 1; n++) {
        double p = n <= k ? pow(a, n - 1) * (1 - a) : pow(a, k);
        m += n * p;
        m2 += (double)n * n * p;
    }
    return m2 - m * m;
}

static void check_law(double a, int k)
{
    const long draws = 400000;
    gsl_rng *rng = fs_rng_new(7, 0, "test-spec");
    long count[FS_SPEC_K_MAX + 2] = {0}, outside = 0;
    double sum = 0;
    for (long i = 0; i < draws; i++) {
        int n = fs_llm_spec_draw(a, k, rng);
        if (n >= 1 && n <= k + 1)
            count[n]++;
        else
            outside++;
        sum += n;
    }
    CHECK(outside == 0);
    gsl_rng_free(rng);
    double mean = sum / draws, law = fs_llm_spec_expected(a, k);
    double se = sqrt(law_var(a, k) / draws);
    printf("  law a=%.2f k=%d: mean %.4f, closed form %.4f (se %.4f)\n", a,
           k, mean, law, se);
    CHECK_NEAR(mean, law, 5 * se);
    for (int n = 1; n <= k + 1; n++) {
        double p = n <= k ? pow(a, n - 1) * (1 - a) : pow(a, k);
        double f = (double)count[n] / draws;
        CHECK_NEAR(f, p, 5 * sqrt(p * (1 - p) / draws) + 1e-9);
    }
}

/* The scenario of text, the first workload's target replica on its
 * first pool as the fleet makes it (the spec's memory charged) and its
 * proposer; NULL after a failed check. */
static fs_scenario *spec_replica(const char *text, fs_llm_perf *perf,
                                 fs_llm_spec_perf *sp)
{
    char why[512];
    fs_scenario *sc = check_load(text);
    memset(sp, 0, sizeof *sp);
    if (sc && check_replica(sc, perf) == 0 &&
        fs_llm_spec_perf_init(sp, perf, why, sizeof why) == 0)
        return sc;
    CHECK(0);
    fs_llm_spec_perf_free(sp);
    if (sc)
        fs_scenario_free(sc);
    return NULL;
}

#define SCENARIO \
    "[scenario]\nhorizon = %s\nseed = 3\n" \
    "[pool.a]\ngpu = H100-80GB\nprice = 3.00\ncount = 1\n" \
    "[workload.w]\npools = a\narrivals = poisson(rate=%s)\n" \
    "service = llm(model=llama-3-8b, precision=bf16)\n" \
    "tokens_in = const(%ld)\ntokens_out = const(%ld)\n%s"

static int run(const char *horizon, const char *rate, long in, long out,
               const char *spec, fs_results *r)
{
    char text[1024];
    snprintf(text, sizeof text, SCENARIO, horizon, rate, in, out, spec);
    return check_simulate(text, r);
}

/* A long run's mean accepted tokens a step against the closed form. */
static void check_long_run(const char *spec, double a, int k)
{
    fs_results r, again;
    if (run("30m", "1/s", 200, 400, spec, &r) ||
        run("30m", "1/s", 200, 400, spec, &again)) {
        CHECK(0);
        fs_results_free(&r);
        fs_results_free(&again);
        return;
    }
    const fs_llm_row *m = &r.latency[0].llm;
    double law = fs_llm_spec_expected(a, k);
    double se = sqrt(law_var(a, k) / (double)m->spec_steps);
    printf("  long run %.*s: %ld steps, %.4f tokens a step, closed form %.4f "
           "(%.3f%%, se %.4f)\n", (int)strcspn(spec, "\n"), spec,
           m->spec_steps, m->spec_accepted_mean,
           law, 100 * (m->spec_accepted_mean / law - 1), se);
    CHECK(m->spec_steps > 50000);
    CHECK_NEAR(m->spec_accepted_mean, law, 0.02 * law);
    CHECK_NEAR(m->spec_accepted_mean, law, 5 * se);
    CHECK(m->spec_expected == law && m->spec_k == k);
    CHECK(m->spec_acceptance == a);
    /* deterministic: the same scenario and seed, the same figures */
    const fs_llm_row *n = &again.latency[0].llm;
    CHECK(n->spec_steps == m->spec_steps);
    CHECK(n->spec_accepted_mean == m->spec_accepted_mean);
    CHECK(again.latency[0].llm.tpot_mean_s == r.latency[0].llm.tpot_mean_s);
    fs_results_free(&r);
    fs_results_free(&again);
}

/* TPOT of requests served one at a time: the plain decode step's, and the
 * speculative step's over the tokens it emits. */
static void check_light_tpot(void)
{
    const char *spec = "spec = draft(model=llama-3.2-1b, k=4, "
                       "acceptance=0.7)\n";
    const long in = 200, out = 400;
    char text[1024];
    snprintf(text, sizeof text, SCENARIO, "1h", "0.02/s", in, out, spec);
    fs_llm_perf perf;
    fs_llm_spec_perf sp;
    fs_scenario *sc = spec_replica(text, &perf, &sp);
    if (!sc)
        return;
    fs_results plain, fast;
    int rc = run("1h", "0.02/s", in, out, "", &plain) ||
             run("1h", "0.02/s", in, out, spec, &fast);
    CHECK(rc == 0);
    if (rc == 0) {
        /* the context half way through a request, where the mean step
         * sits (the steps grow linearly with it) */
        long kv = in + out / 2;
        double a = sc->workloads[0].service.llm.spec.acceptance;
        double law = fs_llm_spec_expected(a, 4);
        double step = fs_llm_iteration_time(&perf, 0, 0, 1, kv);
        double spec_step = fs_llm_spec_step_time(&sp, &perf, 0, 0, 1, kv);
        double t0 = plain.latency[0].llm.tpot_mean_s;
        double t1 = fast.latency[0].llm.tpot_mean_s;
        printf("  light load: TPOT %.3f ms plain (step %.3f ms), %.3f ms "
               "with a draft (step %.3f ms / %.3f tokens = %.3f ms): %.2fx\n",
               1e3 * t0, 1e3 * step, 1e3 * t1, 1e3 * spec_step, law,
               1e3 * spec_step / law, t0 / t1);
        CHECK(fast.latency[0].mean_batch_size < 1.1);
        CHECK_NEAR(t0, step, 0.02 * step);
        CHECK_NEAR(t1, spec_step / law, 0.02 * spec_step / law);
        CHECK(t0 / t1 > 1.5);
    }
    fs_results_free(&plain);
    fs_results_free(&fast);
    fs_llm_spec_perf_free(&sp);
    fs_scenario_free(sc);
}

/* The model's gain, plain step x tokens a step over the speculative step,
 * falls as the batch grows: the verify pass reads the weights once but
 * computes (k + 1) x the batch's tokens. */
static void check_gain_by_batch(void)
{
    char text[1024];
    snprintf(text, sizeof text, SCENARIO, "1h", "1/s", 200L, 400L,
             "spec = draft(model=llama-3.2-1b, k=4, acceptance=0.7)\n");
    fs_llm_perf perf;
    fs_llm_spec_perf sp;
    fs_scenario *sc = spec_replica(text, &perf, &sp);
    if (!sc)
        return;
    double law = fs_llm_spec_expected(0.7, 4), last = INFINITY;
    static const int batch[] = {1, 8, 32, 64, 128, 256};
    for (size_t i = 0; i < sizeof batch / sizeof batch[0]; i++) {
        int b = batch[i];
        long kv = 600L * b;
        double g = fs_llm_iteration_time(&perf, 0, 0, b, kv) * law /
                   fs_llm_spec_step_time(&sp, &perf, 0, 0, b, kv);
        printf("  batch %3d: gain %.3fx\n", b, g);
        CHECK(g < last);
        last = g;
    }
    CHECK(last < 1.2);
    fs_llm_spec_perf_free(&sp);
    fs_scenario_free(sc);
}

/* The same in runs: the TPOT gain at a heavy load is below the light
 * load's. */
static void check_gain_by_load(void)
{
    const char *spec = "spec = draft(model=llama-3.2-1b, k=4, "
                       "acceptance=0.7)\n";
    static const char *const rate[] = {"0.05/s", "40/s"};
    double gain[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        fs_results a, b;
        if (run("20m", rate[i], 200, 400, "", &a) == 0 &&
            run("20m", rate[i], 200, 400, spec, &b) == 0) {
            gain[i] = a.latency[0].llm.tpot_mean_s /
                      b.latency[0].llm.tpot_mean_s;
            printf("  rate %s: batch %.1f plain, %.1f with a draft; TPOT "
                   "gain %.2fx\n", rate[i], a.latency[0].mean_batch_size,
                   b.latency[0].mean_batch_size, gain[i]);
        }
        fs_results_free(&a);
        fs_results_free(&b);
    }
    CHECK(gain[0] > 1.5);
    CHECK(gain[1] < gain[0]);
}

/* The replica's memory: the parts add up, the proposer's counted. */
static void check_memory(void)
{
    char text[1024];
    snprintf(text, sizeof text, SCENARIO, "1h", "1/s", 200L, 400L,
             "spec = draft(model=llama-3.2-1b, k=4, acceptance=0.7)\n");
    fs_llm_perf perf, plain;
    fs_llm_spec_perf sp;
    fs_scenario *sc = spec_replica(text, &perf, &sp);
    if (!sc)
        return;
    fs_llm_config c = perf.cfg;
    fs_llm_memory mem, off;
    fs_llm_fit_inference(&c, &perf.hw, 4096, 8, &mem);
    CHECK_NEAR(mem.total, mem.weights + mem.kv_cache + mem.activations +
               mem.overhead + mem.cuda_graphs + mem.reserved + mem.spec,
               1e-9);
    /* llama-3.2-1b: 1.236e9 parameters in bf16 */
    CHECK_NEAR(mem.spec, 1.236e9 * 2 / 1e9, 1e-9);
    /* KV a token: llama-3-8b 2 x 32 x 8 x 128 x 2, the draft 2 x 16 x 8
     * x 64 x 2 */
    double t = 131072, d = 32768;
    CHECK_NEAR(mem.kv_cache, (t + d) * 4096 * 8 / 1e9, 1e-9);
    c.spec = NULL;
    fs_llm_fit_inference(&c, &perf.hw, 0, 0, &off);
    char why[256];
    CHECK(fs_llm_perf_init(&plain, &c, &perf.hw, why, sizeof why) == 0);
    double free_gb = (off.capacity - off.total) * off.kv_share;
    double with = (off.capacity - off.total - mem.spec) * off.kv_share;
    printf("  KV cache: %ld tokens plain, %ld with the draft\n",
           plain.kv_capacity_tokens, perf.kv_capacity_tokens);
    CHECK(labs(plain.kv_capacity_tokens - (long)(free_gb * 1e9 / t)) <= 16);
    CHECK(labs(perf.kv_capacity_tokens -
               (long)(with * 1e9 / (t + d))) <= 16);
    /* the MTP module of llama-3-8b: a block and the projection */
    fs_llm_spec mtp = {FS_SPEC_MTP, 1, 0.9, NULL};
    c.spec = &mtp;
    fs_llm_model pm;
    double held;
    fs_llm_spec_proposer(&c, &pm, &held);
    double block = (8.03e9 - 2.0 * 128256 * 4096) / 32 + 2.0 * 4096 * 4096;
    CHECK_NEAR(held, block, 1);
    CHECK(pm.layers == 1);
    CHECK_NEAR(pm.params, block + 128256.0 * 4096, 1);
    fs_llm_spec_perf_free(&sp);
    fs_scenario_free(sc);
}

int main(void)
{
    check_law(0.7, 4);
    check_law(0.9, 1);
    check_law(0.5, 8);
    check_law(0.95, 16);
    check_long_run("spec = draft(model=llama-3.2-1b, k=4, acceptance=0.7)\n",
                   0.7, 4);
    check_long_run("spec = mtp(k=1, acceptance=0.9)\n", 0.9, 1);
    check_light_tpot();
    check_gain_by_batch();
    check_gain_by_load();
    check_memory();
    return check_report("llm_spec");
}
