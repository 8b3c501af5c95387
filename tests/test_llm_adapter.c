/* test_llm_adapter.c -- LoRA adapters and several models on one fleet,
 * against hand computations and closed forms.
 *
 *   - loads: requests 10 s apart (each alone on its replica) for 2
 *     adapters drawn uniformly, one loaded at a time: a request whose
 *     adapter is not the one loaded waits for its load, so the mean TTFT
 *     is the prefill alone (fs_llm_iteration_time, + the profile's
 *     request_s, + its decode step where the engine hands tokens out a
 *     step late, output_lag) + the kernel overhead + the load time x
 *     loads / requests, to 1e-9 s, overall and per adapter; the loads are 1 + the changes of
 *     adapter between consecutive requests, (n - 1) / 2 + 1 on average,
 *     within 5 standard errors; with one adapter, one load in all;
 *   - every adapter loaded (max_adapters = adapters): TTFT and TPOT means
 *     those of one adapter served alone within 1% (after the first loads
 *     no request waits), and, without the kernel overhead, those of the
 *     base model without adapters within 1%; with Punica's 2 ms, TPOT
 *     rises by 2 ms a token at light load (within 2%);
 *   - zipf(1.1) over 50 adapters: each adapter's share of about 72,000
 *     requests within 5 standard errors of the closed form
 *     i^-s / sum_j j^-s, the shares of the closed form add up to 1, and
 *     the adapters' requests and cost add up to the workload's;
 *   - several models on one pool: replicas by demand (3:1 of the
 *     GPU-seconds asked) and stated, each served only by its own
 *     replicas. */
#include "tests/check.h"
#include "tests/simulate.h"
#include "sim/fleet/serve/llm_adapter.h"

#include <math.h>
#include <string.h>

#define SPACED 200     /* requests of the spaced trace, 10 s apart */

static char trace[64];

/* SPACED requests of 500 prompt and 2 output tokens, 10 s apart. */
static const char *spaced_trace(void)
{
    static char rows[SPACED * 16];
    size_t n = 0;
    for (int i = 0; i < SPACED; i++)
        n += (size_t)snprintf(rows + n, sizeof rows - n, "%d,500,2\n",
                              10 * i);
    snprintf(trace, sizeof trace, "%s", check_temp_csv("time,in,out", rows));
    return trace;
}

static int run_spaced(const char *adapters, fs_results *r, fs_llm_perf *perf)
{
    char text[1600];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 2100s\nseed = 3\n"
             "[pool.h100]\ngpu = H100-80GB\nprice = 4.00\ncount = 1\n"
             "[workload.chat]\npools = h100\n"
             "arrivals = trace(%s, format=generic, tokens_in=in, "
             "tokens_out=out)\n"
             "service = llm(model=llama-3-8b, precision=bf16)\n%s",
             trace, adapters);
    return check_run_llm(text, r, perf);
}

static const fs_adapter_row *adapter_of(const fs_results *r, long id)
{
    for (size_t i = 0; i < r->nadapters; i++)
        if (r->adapters[i].adapter == id)
            return &r->adapters[i];
    return NULL;
}

static void check_loads(void)
{
    const double load = 0.05;
    fs_results r, one;
    fs_llm_perf perf;
    spaced_trace();
    int rc = run_spaced("adapters = 2\nmax_adapters = 1\n"
                        "adapter_load_time = 50ms\nadapter_overhead = 0s\n",
                        &r, &perf) ||
             run_spaced("adapters = 1\nadapter_load_time = 50ms\n"
                        "adapter_overhead = 0s\n", &one, NULL);
    CHECK(rc == 0);
    if (rc == 0) {
        const fs_llm_row *m = &r.latency[0].llm;
        long n = r.latency[0].count;
        /* + the step that hands the token out (output_lag): the
         * request's one decode step, batch 1 at 501 tokens */
        double base = fs_llm_iteration_time(&perf, 500, 501.0 * 500 / 2, 0,
                                            0) + perf.request_s +
                      perf.output_lag *
                          fs_llm_iteration_time(&perf, 0, 0, 1, 501);
        double want = base + load * (double)m->adapter_loads / (double)n;
        double se = sqrt((n - 1) / 4.0);
        printf("  2 adapters, 1 loaded: %ld requests, %ld loads (expected "
               "%.1f, se %.1f); TTFT mean %.6f s = prefill %.6f s + 50 ms x "
               "%ld / %ld = %.6f s\n", n, m->adapter_loads,
               1 + (n - 1) / 2.0, se, m->ttft_mean_s, base, m->adapter_loads,
               n, want);
        CHECK(n == SPACED);
        CHECK(m->adapter_loads > 1);
        CHECK_NEAR((double)m->adapter_loads, 1 + (n - 1) / 2.0, 5 * se);
        CHECK_NEAR(m->ttft_mean_s, want, 1e-9);
        CHECK_NEAR(m->adapter_load_sum_s, load * m->adapter_loads, 1e-9);
        for (long id = 1; id <= 2; id++) {
            const fs_adapter_row *a = adapter_of(&r, id);
            CHECK(a != NULL);
            if (a)
                CHECK_NEAR(a->ttft_mean_s, base + load * (double)a->loads /
                               (double)a->requests, 1e-9);
        }
        /* one adapter: loaded once, by the first request */
        CHECK(one.latency[0].llm.adapter_loads == 1);
        CHECK_NEAR(one.latency[0].llm.ttft_mean_s, base + load / n, 1e-9);
    }
    fs_results_free(&r);
    fs_results_free(&one);
}

#define LOADED_SCENARIO \
    "[scenario]\nhorizon = 1h\nseed = 11\n" \
    "[pool.h100]\ngpu = H100-80GB\nprice = 4.00\ncount = 1\n" \
    "[workload.chat]\npools = h100\narrivals = poisson(rate=%s)\n" \
    "service = llm(model=llama-3-8b, precision=bf16)\n" \
    "tokens_in = lognormal(mean=400, sigma=0.5)\n" \
    "tokens_out = lognormal(mean=150, sigma=0.5)\n%s"

static int run_loaded(const char *rate, const char *adapters, fs_results *r)
{
    char text[1400];
    snprintf(text, sizeof text, LOADED_SCENARIO, rate, adapters);
    return check_simulate(text, r);
}

static void check_all_loaded(void)
{
    fs_results all, single, base, bare, light, light_base;
    int rc = run_loaded("4/s", "adapters = 8\nmax_adapters = 8\n", &all) ||
             run_loaded("4/s", "adapters = 1\n", &single) ||
             run_loaded("4/s", "adapters = 8\nmax_adapters = 8\n"
                        "adapter_overhead = 0s\n", &bare) ||
             run_loaded("4/s", "", &base) ||
             run_loaded("0.02/s", "adapters = 8\nmax_adapters = 8\n",
                        &light) ||
             run_loaded("0.02/s", "", &light_base);
    CHECK(rc == 0);
    if (rc == 0) {
        const fs_llm_row *a = &all.latency[0].llm, *s = &single.latency[0].llm;
        const fs_llm_row *b = &bare.latency[0].llm, *z = &base.latency[0].llm;
        printf("  8 adapters all loaded: TTFT %.3f ms, TPOT %.4f ms; one "
               "adapter %.3f / %.4f ms; without the kernels' 2 ms %.3f / "
               "%.4f ms, base model %.3f / %.4f ms; %ld loads\n",
               1e3 * a->ttft_mean_s, 1e3 * a->tpot_mean_s,
               1e3 * s->ttft_mean_s, 1e3 * s->tpot_mean_s,
               1e3 * b->ttft_mean_s, 1e3 * b->tpot_mean_s,
               1e3 * z->ttft_mean_s, 1e3 * z->tpot_mean_s, a->adapter_loads);
        CHECK(a->adapter_loads == 8);
        CHECK_NEAR(a->ttft_mean_s, s->ttft_mean_s, 0.01 * s->ttft_mean_s);
        CHECK_NEAR(a->tpot_mean_s, s->tpot_mean_s, 0.01 * s->tpot_mean_s);
        CHECK_NEAR(b->ttft_mean_s, z->ttft_mean_s, 0.01 * z->ttft_mean_s);
        CHECK_NEAR(b->tpot_mean_s, z->tpot_mean_s, 0.01 * z->tpot_mean_s);
        double up = light.latency[0].llm.tpot_mean_s -
                    light_base.latency[0].llm.tpot_mean_s;
        printf("  light load: TPOT %.4f ms with adapters, %.4f ms without "
               "(+%.4f ms)\n", 1e3 * light.latency[0].llm.tpot_mean_s,
               1e3 * light_base.latency[0].llm.tpot_mean_s, 1e3 * up);
        CHECK_NEAR(up, 0.002, 0.02 * 0.002);
    }
    fs_results_free(&all);
    fs_results_free(&single);
    fs_results_free(&bare);
    fs_results_free(&base);
    fs_results_free(&light);
    fs_results_free(&light_base);
}

static void check_zipf(void)
{
    const long n = 50;
    const double s = 1.1;
    double sum = 0;
    for (long i = 0; i < n; i++)
        sum += fs_lora_share(n, s, i);
    CHECK_NEAR(sum, 1, 1e-12);
    CHECK_NEAR(fs_lora_share(n, s, 1) / fs_lora_share(n, s, 0),
               pow(2, -s), 1e-12);
    CHECK_NEAR(fs_lora_share(4, 0, 3), 0.25, 1e-15);
    fs_results r;
    char text[1400];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\nseed = 5\n"
             "[pool.h100]\ngpu = H100-80GB\nprice = 4.00\ncount = 1\n"
             "[workload.chat]\npools = h100\narrivals = poisson(rate=20/s)\n"
             "service = llm(model=llama-3-8b, precision=bf16)\n"
             "tokens_in = const(64)\ntokens_out = const(4)\n"
             "adapters = %ld\nadapter_popularity = zipf(%g)\n"
             "max_adapters = 16\n", n, s);
    CHECK(check_simulate(text, &r) == 0);
    if (r.nlatency == 1) {
        long total = r.latency[0].count, got = 0, outside = 0;
        double cost = 0, worst = 0;
        for (size_t i = 0; i < r.nadapters; i++) {
            const fs_adapter_row *a = &r.adapters[i];
            double p = fs_lora_share(n, s, a->adapter - 1);
            double se = sqrt(p * (1 - p) / (double)total);
            double z = fabs((double)a->requests / (double)total - p) / se;
            worst = z > worst ? z : worst;
            outside += z > 5;
            got += a->requests;
            cost += a->cost_usd;
            CHECK(a->share_expected == p);
        }
        printf("  zipf(%.1f) over %ld adapters: %ld requests, worst share "
               "%.2f standard errors from the closed form; adapters' cost "
               "$%.4f of the workload's $%.4f\n", s, n, total, worst, cost,
               r.latency[0].llm.cost_usd);
        CHECK(r.nadapters == (size_t)n);
        CHECK(outside == 0);
        CHECK(got == total);
        CHECK_NEAR(cost, r.latency[0].llm.cost_usd, 1e-9);
    }
    fs_results_free(&r);
}

#define TWO_MODELS \
    "[scenario]\nhorizon = 30m\nseed = 2\n" \
    "[pool.h100]\ngpu = H100-80GB\nprice = 4.00\ncount = 4\n" \
    "[workload.a]\npools = h100\narrivals = poisson(rate=%s)\n" \
    "service = llm(model=llama-3-8b, precision=bf16)\n" \
    "tokens_in = const(500)\ntokens_out = const(100)\n%s" \
    "[workload.b]\npools = h100\narrivals = poisson(rate=%s)\n" \
    "service = llm(model=mistral-7b, precision=bf16)\n" \
    "tokens_in = const(500)\ntokens_out = const(100)\n%s"

static void check_placement(void)
{
    fs_results d, st;
    char text[1400];
    /* a asks 3 times b's tokens; mistral-7b's step is about llama's */
    snprintf(text, sizeof text, TWO_MODELS, "3/s", "", "1/s", "");
    int rc = check_simulate(text, &d);
    snprintf(text, sizeof text, TWO_MODELS, "3/s", "replicas = 1\n", "1/s",
             "replicas = 3\n");
    rc = rc || check_simulate(text, &st);
    CHECK(rc == 0);
    if (rc == 0) {
        printf("  two models on 4 replicas: by demand %ld + %ld, stated "
               "%ld + %ld\n", d.latency[0].llm.replicas,
               d.latency[1].llm.replicas, st.latency[0].llm.replicas,
               st.latency[1].llm.replicas);
        CHECK(d.latency[0].llm.replicas == 3);
        CHECK(d.latency[1].llm.replicas == 1);
        CHECK(st.latency[0].llm.replicas == 1);
        CHECK(st.latency[1].llm.replicas == 3);
        /* a replica serves its own model alone: a's requests on one
         * replica run in batches about three times those on three */
        printf("  workload a's mean batch: %.2f on 3 replicas, %.2f on 1\n",
               d.latency[0].mean_batch_size, st.latency[0].mean_batch_size);
        CHECK(d.latency[0].count > 0 && d.latency[1].count > 0);
        CHECK(st.latency[0].mean_batch_size >
              2 * d.latency[0].mean_batch_size);
    }
    fs_results_free(&d);
    fs_results_free(&st);
}

int main(void)
{
    check_loads();
    check_all_loaded();
    check_zipf();
    check_placement();
    check_temp_csv_remove();
    return check_report("llm_adapter");
}
