/* test_disagg.c -- disaggregated prefill and decode, to the arithmetic.
 *
 *   - one request of 2,000 prompt and 10 output tokens on a prefill pool
 *     and a decode pool (A100-80GB, llama-3-8b, a 100 Gbps link): its TTFT
 *     is one prefill iteration of 2,000 tokens (fs_llm_iteration_time)
 *     plus its KV cache (2,000 x the replica's KV bytes per token) over
 *     12.5 GB/s; its TPOT the mean of its nine decode steps alone
 *     (context 2,001 to 2,009 tokens); and the bytes and link time counted
 *     are those (to 1e-6 relative: the TTFT a request carries from pool to
 *     pool is a float);
 *   - two such requests arriving together: one prefill iteration of both,
 *     then the second transfer queues behind the first on the prefill
 *     instance's link: its TTFT is the prefill + two transfers;
 *   - TPOT under rising prefill load: a steady chat workload (1/s, 500 in,
 *     200 out) beside prompts that need no decoding (4,000 in, 1 out) at 0,
 *     1 and 2 a second.  On the prefill and decode pair the chat's TPOT
 *     p50 stays within 1% (the decode replica never runs a prompt); on a
 *     colocated pool of the same two GPUs it grows by more than 20% (the
 *     prompts run in the decode iterations). */
#include "tests/check.h"
#include "tests/simulate.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#define HORIZON 1200.0

static char trace_path[64];

/* n requests of 2,000 prompt and 10 output tokens, at 0 when n is 1;
 * else a short one (16 in, 2 out) at 0 and n - 1 such requests during
 * its prefill, which the next iteration prefills together. */
static int write_trace(int n)
{
    snprintf(trace_path, sizeof trace_path, "/tmp/fleetsim-pd-XXXXXX.csv");
    int fd = mkstemps(trace_path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fprintf(f, "time,in,out\n");
    if (n > 1)
        fprintf(f, "0,16,2\n");
    for (int i = n > 1 ? 1 : 0; i < n; i++)
        fprintf(f, "%s,2000,10\n", n > 1 ? "0.001" : "0");
    return fclose(f);
}

static const char pd_pools[] =
    "[pool.pre]\ngpu = A100-80GB\nprice = 3.00\ncount = 1\n"
    "role = prefill\nnetwork_gbps = 100\n"
    "[pool.dec]\ngpu = A100-80GB\nprice = 3.00\ncount = 1\n"
    "role = decode\nnetwork_gbps = 100\n";

static int run_trace(int n, fs_results *r, fs_llm_perf *perf)
{
    char text[1400];
    if (write_trace(n))
        return -1;
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 10m\nseed = 5\n%s"
             "[workload.w]\npools = pre, dec\n"
             "arrivals = trace(%s, format=generic, tokens_in=in, "
             "tokens_out=out)\nservice = llm(model=llama-3-8b, "
             "precision=bf16)\n", pd_pools, trace_path);
    int rc = check_run_llm(text, r, perf);
    unlink(trace_path);
    return rc;
}

static double prefill(const fs_llm_perf *p, long c)
{
    return fs_llm_iteration_time(p, c, (double)(c + 1) * (double)c / 2, 0,
                                 0);
}

static void check_single_request(void)
{
    fs_results r;
    fs_llm_perf perf;
    if (run_trace(1, &r, &perf)) {
        CHECK(0);
        return;
    }
    const fs_latency_row *l = &r.latency[0];
    double bytes = 2000 * perf.kv_bytes_per_token, link = bytes / 12.5e9;
    double ttft = prefill(&perf, 2000) + link, decode = 0;
    for (int g = 1; g < 10; g++)
        decode += fs_llm_iteration_time(&perf, 0, 0, 1, 2000 + g);
    ttft += perf.output_lag * decode / 9;   /* handed out a step late */
    printf("  one request: TTFT %.6f s = prefill %.6f s + %.0f KV bytes / "
           "12.5 GB/s (%.6f s), model %.6f s; TPOT %.6f s (model %.6f s)\n",
           l->llm.ttft_mean_s, prefill(&perf, 2000), bytes, link, ttft,
           l->llm.tpot_mean_s, decode / 9);
    CHECK(l->count == 1);
    CHECK_NEAR(l->llm.ttft_mean_s, ttft, 1e-6 * ttft);
    CHECK_NEAR(l->llm.tpot_mean_s, decode / 9, 1e-6 * decode);
    CHECK(l->llm.kv_transfers == 1 && l->llm.kv_link_gbps == 100);
    CHECK_NEAR(l->llm.kv_bytes, bytes, 1e-9 * bytes);
    CHECK_NEAR(l->llm.kv_transfer_mean_s, link, 1e-12);
    CHECK(l->llm.kv_wait_mean_s == 0);
    /* both pools bill (10 minutes of one GPU each at $3.00 an hour, to the
     * cent), and the workload's cost is theirs */
    double bill = 0;
    for (size_t i = 0; i < r.ncosts; i++)
        bill += r.costs[i].cost_usd;
    CHECK_NEAR(bill, 2 * 3.00 / 6, 0.005 * (double)r.ncosts);
    CHECK_NEAR(l->llm.cost_usd, bill, 0.005 * (double)r.ncosts);
    fs_results_free(&r);
}

static void check_link_queue(void)
{
    fs_results r;
    fs_llm_perf perf;
    if (run_trace(3, &r, &perf)) {
        CHECK(0);
        return;
    }
    const fs_latency_row *l = &r.latency[0];
    double kvb = perf.kv_bytes_per_token;
    double small = prefill(&perf, 16), s_link = 16 * kvb / 12.5e9;
    double link = 2000 * kvb / 12.5e9;
    double both = fs_llm_iteration_time(&perf, 4000,
                                        2 * 2001.0 * 2000 / 2, 0, 0);
    /* the short one's TTFT; then the two from 0.001 s: both prefills,
     * after the short one's, and one transfer or two */
    double end = small + both - 0.001;
    /* + the step each token is handed out late (output_lag), at each
     * request's own time per output token: their mean */
    double want = (small + s_link + 2 * end + 3 * link) / 3 +
                  perf.output_lag * l->llm.tpot_mean_s;
    printf("  a short prompt, then two during its prefill: mean TTFT %.6f s "
           "(model %.6f s: %.6f s for both prefills, %.6f s a transfer, "
           "the second queued behind the first); mean wait for the link "
           "%.6f s\n", l->llm.ttft_mean_s, want, both, link,
           l->llm.kv_wait_mean_s);
    CHECK(l->count == 3 && l->llm.kv_transfers == 3);
    CHECK_NEAR(l->llm.ttft_mean_s, want, 1e-6 * want);
    CHECK_NEAR(l->llm.kv_wait_mean_s, link / 3, 1e-12);
    fs_results_free(&r);
}

/* A trace of 20 minutes: chat requests (500 in, 200 out) at 1 a second
 * and prompts that need no decoding (4,000 in, 1 out) at `rate` a second,
 * each a Poisson stream (GSL's exponential gaps, fixed seeds). */
static int write_mix(double rate)
{
    snprintf(trace_path, sizeof trace_path, "/tmp/fleetsim-pd-XXXXXX.csv");
    int fd = mkstemps(trace_path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng *h = gsl_rng_alloc(gsl_rng_mt19937);
    if (!f || !g || !h) {
        if (f)
            fclose(f);
        gsl_rng_free(g);
        gsl_rng_free(h);
        return -1;
    }
    gsl_rng_set(h, 7);
    fprintf(f, "time,in,out\n");
    double chat = gsl_ran_exponential(g, 1);
    double bulk = rate > 0 ? gsl_ran_exponential(h, 1 / rate) : HORIZON;
    while (chat < HORIZON || bulk < HORIZON) {
        if (chat <= bulk) {
            fprintf(f, "%.6f,500,200\n", chat);
            chat += gsl_ran_exponential(g, 1);
        } else {
            fprintf(f, "%.6f,4000,1\n", bulk);
            bulk += gsl_ran_exponential(h, 1 / rate);
        }
    }
    gsl_rng_free(g);
    gsl_rng_free(h);
    return fclose(f);
}

/* The TPOT p50 of that trace on the prefill and decode pair (pd) or a
 * colocated pool of the same two GPUs; its requests with one output
 * token have none, so it is the chat's. */
static double chat_tpot(int pd, double rate)
{
    char text[2000];
    if (write_mix(rate))
        return NAN;
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 20m\nwarmup = 2m\nseed = 3\n%s"
             "[workload.w]\npools = %s\narrivals = trace(%s, "
             "format=generic, tokens_in=in, tokens_out=out)\n"
             "service = llm(model=llama-3-8b, precision=bf16)\n",
             pd ? pd_pools : "[pool.both]\ngpu = A100-80GB\nprice = 3.00\n"
                             "count = 2\n",
             pd ? "pre, dec" : "both", trace_path);
    fs_results r;
    int rc = check_run_llm(text, &r, NULL);
    unlink(trace_path);
    double t = rc ? NAN : r.latency[0].tpot_p50_s;
    fs_results_free(&r);
    return t;
}

static void check_tpot_flat(void)
{
    static const double rates[] = {0, 1, 2};
    double pd[3], co[3];
    for (int i = 0; i < 3; i++) {
        pd[i] = chat_tpot(1, rates[i]);
        co[i] = chat_tpot(0, rates[i]);
        printf("  %g prompts/s beside the chat: TPOT p50 %.2f ms with "
               "prefill and decode pools, %.2f ms colocated\n", rates[i],
               pd[i] * 1e3, co[i] * 1e3);
    }
    for (int i = 1; i < 3; i++)
        CHECK(fabs(pd[i] / pd[0] - 1) <= 0.01);
    CHECK(co[1] >= 1.1 * co[0] && co[2] >= 1.3 * co[0]);
}

int main(void)
{
    check_single_request();
    check_link_queue();
    check_tpot_flat();
    return check_report("disagg");
}
