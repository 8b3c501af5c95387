/* test_pd_shared.c -- prefill and decode inside one instance, over NVLink.
 *
 *   - one request of 2,000 prompt and 10 output tokens (llama-3-8b, bf16)
 *     on a prefill and a decode pool that split aws:p4de.24xlarge's
 *     A100-80GB GPUs (share_instances = pre): its TTFT is one prefill
 *     iteration of 2,000 tokens plus its KV cache (2,000 x 131,072 bytes)
 *     over one direction of the GPU's NVLink: half of gpus.csv's
 *     nvlink_gbs (NVIDIA's A100 SXM4 datasheet: 600 GB/s both directions
 *     together), 300 GB/s, with no latency term; the link is reported as
 *     2,400 Gbps and the transfer's
 *     seconds are the bytes over it (1e-12 s), the TTFT to 1e-6 relative
 *     (a request carries its TTFT from pool to pool as a float);
 *   - the same with replicas of 2 GPUs (tp = 2): the cache is in two
 *     shards, each over its own GPU's NVLink: 600 GB/s, 4,800 Gbps;
 *   - the bill: 2 instances for an hour split 4 + 4 between the pools
 *     cost, added up, exactly what 2 instances of one colocated pool cost,
 *     and that is 2 x the catalog's on-demand price of the instance (to
 *     the cent): the shared instance is billed once, not twice. */
#include "tests/check.h"
#include "tests/simulate.h"

#include <math.h>
#include <string.h>

static char trace_path[64];

/* One request of 2,000 prompt and 10 output tokens at 0. */
static int write_trace(void)
{
    snprintf(trace_path, sizeof trace_path, "/tmp/fleetsim-pds-XXXXXX.csv");
    int fd = mkstemps(trace_path, 4);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return -1;
    fprintf(f, "time,in,out\n0,2000,10\n");
    return fclose(f);
}

/* The two pools on instance type it, each gpus GPUs of every instance,
 * replicas of tp GPUs. */
static void pools(char *buf, size_t len, const char *it, int gpus, int tp,
                  int count)
{
    snprintf(buf, len,
             "[pool.pre]\ninstance = %s\ngpus_per_instance = %d"
             "\ngpus_per_server = %d\ncount = %d\nrole = prefill\n"
             "[pool.dec]\ninstance = %s\ngpus_per_instance = %d"
             "\ngpus_per_server = %d\ncount = %d\nrole = decode\n"
             "share_instances = pre\n", it, gpus, tp, count, it, gpus, tp,
             count);
}

static double prefill(const fs_llm_perf *p, long c)
{
    return fs_llm_iteration_time(p, c, (double)(c + 1) * (double)c / 2, 0,
                                 0);
}

/* The GPU's NVLink in GB/s (both directions), from the catalog. */
static double nvlink_gbs(void)
{
    fs_scenario *sc = check_load("[pool.p]\ninstance = aws:p4de.24xlarge\n"
                                 "[workload.w]\npools = p\n"
                                 "arrivals = poisson(rate=1/s)\n"
                                 "service = const(1s)\n");
    double g = sc ? sc->pools[0].gpu.nvlink_gbs : NAN;
    fs_scenario_free(sc);
    return g;
}

static void check_one_request(int tp)
{
    char p[600], text[1400];
    fs_results r;
    fs_llm_perf perf;
    double nv = nvlink_gbs(), gbs = nv / 2 * tp;
    pools(p, sizeof p, "aws:p4de.24xlarge", tp, tp, 1);
    if (write_trace()) {
        CHECK(0);
        return;
    }
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 10m\nseed = 5\n%s"
             "[workload.w]\npools = pre, dec\n"
             "arrivals = trace(%s, format=generic, tokens_in=in, "
             "tokens_out=out)\nservice = llm(model=llama-3-8b, "
             "precision=bf16, tp=%d)\n", p, trace_path, tp);
    int rc = check_run_llm(text, &r, &perf);
    unlink(trace_path);
    if (rc) {
        CHECK(0);
        return;
    }
    const fs_latency_row *l = &r.latency[0];
    double bytes = 2000 * perf.kv_bytes_per_token, link = bytes / (gbs * 1e9);
    /* + the step its first token is handed out late (output_lag), at the
     * request's own time per output token */
    double ttft = prefill(&perf, 2000) + link +
                  perf.output_lag * l->llm.tpot_mean_s;
    printf("  tp=%d: TTFT %.6f s = prefill %.6f s + %.0f KV bytes / %.0f "
           "GB/s of NVLink (%.6f s), model %.6f s; link %g Gbps\n", tp,
           l->llm.ttft_mean_s, prefill(&perf, 2000), bytes, gbs, link, ttft,
           l->llm.kv_link_gbps);
    CHECK(nv == 600);   /* the A100 SXM4 datasheet's figure */
    CHECK(perf.kv_bytes_per_token == 2.0 * 32 * 8 * 128 * 2);
    CHECK(l->count == 1 && l->llm.kv_transfers == 1);
    CHECK(l->llm.kv_link_gbps == gbs * 8);
    CHECK_NEAR(l->llm.kv_transfer_mean_s, link, 1e-12);
    CHECK(l->llm.kv_wait_mean_s == 0);
    CHECK_NEAR(l->llm.ttft_mean_s, ttft, 1e-6 * ttft);
    fs_results_free(&r);
}

/* The pools' costs, added up, over an hour of poisson chat. */
static double bill(const char *pool_text, const char *names)
{
    char text[1400];
    snprintf(text, sizeof text,
             "[scenario]\nhorizon = 1h\nseed = 2\n%s"
             "[workload.w]\npools = %s\narrivals = poisson(rate=1/s)\n"
             "tokens_in = const(500)\ntokens_out = const(50)\n"
             "service = llm(model=llama-3-8b, precision=bf16)\n",
             pool_text, names);
    fs_results r;
    double sum = NAN;
    if (check_run_llm(text, &r, NULL) == 0) {
        sum = 0;
        for (size_t i = 0; i < r.ncosts; i++)
            sum += r.costs[i].cost_usd;
    }
    fs_results_free(&r);
    return sum;
}

static void check_billed_once(void)
{
    char p[600];
    pools(p, sizeof p, "aws:p5.48xlarge", 4, 1, 2);
    double shared = bill(p, "pre, dec");
    double whole = bill("[pool.both]\ninstance = aws:p5.48xlarge\n"
                        "count = 2\n", "both");
    fs_scenario *sc = check_load("[pool.p]\ninstance = aws:p5.48xlarge\n"
                                 "[workload.w]\npools = p\n"
                                 "arrivals = poisson(rate=1/s)\n"
                                 "service = const(1s)\n");
    const fs_instance_type *it =
        sc ? fs_catalog_instance(sc->catalog, "aws:p5.48xlarge") : NULL;
    double list = it ? it->on_demand : NAN;
    fs_scenario_free(sc);
    printf("  2 p5.48xlarge for 1 h split 4 + 4: $%.2f; one colocated pool "
           "of them: $%.2f; 2 x $%.2f list: $%.2f\n", shared, whole, list,
           2 * list);
    CHECK(shared == whole);
    CHECK_NEAR(shared, 2 * list, 0.005);
}

int main(void)
{
    check_one_request(1);
    check_one_request(2);
    check_billed_once();
    return check_report("pd_shared");
}
