/* scenario_adapter.c -- the keys of many models and LoRA adapters on one
 * fleet.
 *
 *   [workload]  adapters = N                 LoRA adapters on its model
 *               adapter_popularity = zipf(S) | uniform
 *               adapter_rank = R             (16)
 *               max_adapters = M             loaded per replica (1)
 *               adapter_load_time = auto | DURATION
 *               adapter_overhead = DURATION  per iteration (2ms)
 *               replicas = N                 replicas of a pool shared by
 *                                            several models that host its
 *                                            model
 *
 * Read and bounded here, once per workload; what they do is the fleet's
 * (sim/fleet/serve/llm_adapter.c, llm_placement.c), which also refuses
 * adapters whose memory leaves a replica no KV cache, at max_adapters.
 * The adapter keys need adapters =; every key needs service = llm(...). */
#include "sim/scenario/scenario_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What vLLM and S-LoRA run unless told: vLLM's max_loras default is 1
 * and its max_lora_rank 16; the batched kernels' cost an iteration is
 * Punica's measured 2 ms a token (doc/llm.md). */
#define ADAPTER_RANK 16
#define ADAPTER_MAX_LOADED 1
#define ADAPTER_OVERHEAD_S 0.002
/* a row each in the results (FS_MAX_RESULT_ROWS) */
#define ADAPTERS_MAX 100000

static const char *const adapter_keys[] = {
    "adapter_popularity", "adapter_rank", "max_adapters",
    "adapter_load_time", "adapter_overhead", NULL,
};

/* adapter_popularity = zipf(S) (S > 0) or uniform (S = 0). */
static int parse_popularity(fs_reader *rd, fs_adapter_conf *a)
{
    fs_config_entry *e = fs_rd_entry(rd, "adapter_popularity");
    a->zipf_s = 0;
    if (!e || strcmp(e->value, "uniform") == 0)
        return 0;
    fs_call c;
    char why[300];
    const char *s = NULL;
    if (fs_parse_call(e->value, &c, why, sizeof why) == 0 &&
        strcmp(c.name, "zipf") == 0 && c.nargs == 1)
        s = fs_call_positional(&c, 0);
    if (!s || fs_parse_number(s, &a->zipf_s, why, sizeof why) ||
        !(a->zipf_s > 0) || !isfinite(a->zipf_s))
        return fs_rd_bad(rd, e, "%s", "expected zipf(S) with an exponent S "
                         "above 0 (e.g. zipf(1.1)), or uniform");
    return 0;
}

/* A duration key >= 0, its default when absent (auto: NaN). */
static int parse_seconds(fs_reader *rd, const char *key, double def,
                         double *out)
{
    fs_config_entry *e = fs_rd_entry(rd, key);
    *out = def;
    if (!e || strcmp(e->value, "auto") == 0)
        return 0;
    if (fs_rd_double(rd, key, fs_parse_duration, def, out))
        return -1;
    if (!isfinite(*out) || *out < 0)
        return fs_rd_bad(rd, e, "%s", "expected a duration >= 0 (e.g. "
                         "50ms)");
    return 0;
}

static int serves_llm(const fs_workload_conf *w)
{
    return w->service.model && w->service.model->server;
}

static int not_llm(fs_reader *rd, const fs_config_entry *e)
{
    return fs_rd_bad(rd, e, "%s", "applies to workloads with service = "
                     "llm(...) only");
}

/* An adapter key without adapters =, or any of them off an llm. */
static int refuse_stray(fs_reader *rd, const fs_workload_conf *w)
{
    for (int i = 0; adapter_keys[i]; i++) {
        fs_config_entry *e = fs_rd_entry(rd, adapter_keys[i]);
        if (e && !serves_llm(w))
            return not_llm(rd, e);
        if (e)
            return fs_rd_bad(rd, e, "%s", "needs adapters = N (the LoRA "
                             "adapters on the workload's model)");
    }
    return 0;
}

/* replicas = N (absent: 0, placed by demand). */
static int parse_replicas(fs_reader *rd, fs_workload_conf *w)
{
    w->replicas_entry = fs_rd_entry(rd, "replicas");
    if (w->replicas_entry && !serves_llm(w))
        return not_llm(rd, w->replicas_entry);
    return fs_rd_count(rd, "replicas", 0, 1, 1000000, &w->replicas);
}

int fs_scenario_parse_adapters(fs_reader *rd, fs_workload_conf *w)
{
    fs_adapter_conf *a = &w->adapters;
    memset(a, 0, sizeof *a);
    if (parse_replicas(rd, w))
        return -1;
    fs_config_entry *e = fs_rd_entry(rd, "adapters");
    if (!e)
        return refuse_stray(rd, w);
    if (!serves_llm(w))
        return not_llm(rd, e);
    a->entry = e;
    a->max_entry = fs_rd_entry(rd, "max_adapters");
    if (fs_rd_count(rd, "adapters", 1, 1, ADAPTERS_MAX, &a->n) ||
        parse_popularity(rd, a) ||
        fs_rd_count(rd, "adapter_rank", ADAPTER_RANK, 1, 1024, &a->rank) ||
        fs_rd_count(rd, "max_adapters", ADAPTER_MAX_LOADED, 1, 4096,
                    &a->max_loaded) ||
        parse_seconds(rd, "adapter_load_time", NAN, &a->load_s) ||
        parse_seconds(rd, "adapter_overhead", ADAPTER_OVERHEAD_S,
                      &a->overhead_s))
        return -1;
    return 0;
}
