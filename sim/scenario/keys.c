/* keys.c -- the scenario keys of each section; see keys.h.
 *
 * Adding a key: one line in its section's table below (name, what a value
 * looks like, the default as written, one line of help), then read it in
 * the section's parser (scenario.c, scenario_pool.c).  `make man` puts it
 * in doc/fleetsim.1; tests/cli_docs.sh fails until doc/scenarios.md has it, and
 * tests/cli_keys_doc.sh until `make keys-doc` has put it in
 * doc/scenario-keys.md.
 * A purchase option's keys go in its own table (models/purchase/purchase_*.c). */
#include "sim/scenario/keys.h"

#include <string.h>

#include "models/purchase/purchase.h"

static const fs_key_doc scenario_keys[] = {
    {"name", "text", "the file name without .ini",
     "run name, 1 to 63 bytes of UTF-8 (--name overrides it)"},
    {"start", "YYYY-MM-DD[ HH:MM]", "2026-01-01",
     "calendar start, UTC: months for costs, hour of day for diurnal()"},
    {"horizon", "duration", "30d", "simulated time"},
    {"seed", "integer", "1", "random seed (--seed overrides it)"},
    {"replications", "integer, 1 to 10000", "1",
     "independent replications, each stored as a run with replication "
     "0..N-1"},
    {"metrics_interval", "duration", "5m", "utilization sampling period"},
    {"warmup", "duration, shorter than horizon", "0s",
     "requests arriving before it are left out of latency, wait and SLO "
     "figures (not out of cost or utilization)"},
    {"include", "path", NULL,
     "a scenario file read first; this file's keys override its keys; "
     "relative to the file that names it, as are the data files an "
     "included file names"},
    {"timezone", "tz database zone", "UTC",
     "the zone of windows' open and close times, e.g. Europe/Paris (the "
     "system's tz database)"},
    {"catalog", "directory", "the installed catalog",
     "holds gpus.csv and instances.csv (your negotiated prices)"},
    {"catalog_gpus", "path", NULL, "the GPU catalog file, instead of "
     "catalog's gpus.csv"},
    {"catalog_instances", "path", NULL, "the instance catalog file, instead "
     "of catalog's instances.csv"},
    {"models", "path", NULL, "your own LLMs: a CSV with models.csv's "
     "columns, looked up before the catalog's models by llm(model=...)"},
    {"description", "text", NULL, "ignored; for people"},
    {"budget", "AMOUNT/month", NULL,
     "the whole run's budget, dollars per 730-hour month: run exits 3 "
     "when the run rate (GPU bill, storage and transfer) is over it"},
    {"budgets", "TAG:VALUE=AMOUNT/month, ...", NULL,
     "budgets per tag (team:ml=8000/month): the cost_allocation and "
     "cost_extra rows carrying the tag, as a 730-hour run rate"},
    {NULL, NULL, NULL, NULL},
};

/* The pricing keys (term, upfront, min_billed, ...) come from the purchase
 * options: see fs_key_at. */
static const fs_key_doc pool_keys[] = {
    {"gpu", "catalog GPU", NULL,
     "the GPU, e.g. A100-80GB (fleetsim catalog gpus); or give instance"},
    {"instance", "PROVIDER:TYPE", NULL,
     "a catalog instance type, e.g. aws:p4d.24xlarge: its GPU, GPUs per "
     "instance and prices"},
    {"provider", "aws|azure|gcp", NULL,
     "whose catalog prices a gpu that several providers sell (required "
     "then, unless instance or price is given)"},
    {"gpus_per_instance", "integer, 1 to 64", "the instance's, else 1",
     "GPUs in one instance"},
    {"gpus_per_server", "integer", "1",
     "GPUs one replica uses; divides gpus_per_instance"},
    {"pricing", "purchase option", "on-demand",
     "how the instances are paid for: one of the purchase options below, "
     "each with its keys"},
    {"count", "integer, 0 to 1000000", "1", "fixed number of instances"},
    {"autoscale", "utilization(target=F)|queue(target=N)", NULL,
     "target tracking instead of count, with min and max (on-demand only); "
     "utilization counts busy time plus the growth of the queued work "
     "(refused on a pool serving llm(...): use queue)"},
    {"min", "integer, 0 to 1000000", "0", "autoscaling: fewest instances"},
    {"max", "integer, 1 to 1000000", NULL,
     "autoscaling: most instances (required with autoscale)"},
    {"autoscale_interval", "duration", "1m",
     "how often the autoscaler decides"},
    {"cooldown", "duration", "5m",
     "scale-in window: shrink only to the most instances wanted within it"},
    {"provision_delay", "duration", "3m",
     "launch to ready (instances present at the start are ready at once)"},
    {"load_time", "auto|duration", "auto",
     "llm: a launched replica's cold start after provision_delay: auto = "
     "its weights per GPU over the instance's network bandwidth per GPU "
     "(catalog network_gbps) plus the engine's startup_s; a duration "
     "replaces both"},
    {"price", "money per instance-hour", "the catalog's",
     "overrides the catalog price; at most $10000"},
    {"tags", "KEY:VALUE,...", NULL,
     "showback tags of the pool's cost (cost_allocation, export)"},
    {"reserved_1y", "money per instance-hour (2.10/h)", NULL,
     "your quote for a 1-year no-upfront reservation: `fleetsim roi` "
     "prices this pool's reservation from it (not the pool's own bill)"},
    {"reserved_1y_partial", "UPFRONT+HOURLY (6000+0.70/h)", NULL,
     "your 1-year partial-upfront quote, for `fleetsim roi`"},
    {"reserved_1y_all", "money per instance (40000)", NULL,
     "your 1-year all-upfront quote (the term's payment), for `fleetsim roi`"},
    {"reserved_3y", "money per instance-hour (1.40/h)", NULL,
     "your 3-year no-upfront quote, for `fleetsim roi`"},
    {"reserved_3y_partial", "UPFRONT+HOURLY (12000+0.50/h)", NULL,
     "your 3-year partial-upfront quote, for `fleetsim roi`"},
    {"reserved_3y_all", "money per instance (40000)", NULL,
     "your 3-year all-upfront quote (the term's payment), for `fleetsim roi`; "
     "every quote as price and upfront_price: at most $10000 an hour and "
     "$10000 for each hour of the term upfront"},
    {"mfu", "fraction, above 0 to 1", "the engine's default",
     "llm: prefill compute efficiency (share of the GPU's peak)"},
    {"bw_efficiency", "fraction, above 0 to 1", "the engine's default",
     "llm: decode memory-bandwidth efficiency"},
    {"kv_cache_tokens", "integer, 16 to 1000000000", "the engine's",
     "llm: KV-cache tokens of each replica on this pool (rounded down to "
     "16-token blocks), instead of what the engine profile computes"},
    {"prefix_cache", "yes|no|unlimited|TOKENS", "the engine's (no for "
     "every profile of engines.csv)",
     "llm: each replica's KV block cache of prompt prefixes (a cached "
     "prefix skips its prefill): yes holds it in the replica's free KV "
     "memory, unlimited in a tier without bound, TOKENS at most that many "
     "tokens of it; no: none"},
    {"routing", "least-loaded|round-robin|prefix-aware", "least-loaded",
     "llm: which busy replica admits a waiting request: least-loaded, the "
     "first with room (every replica takes the oldest waiting request); "
     "round-robin, each in turn; prefix-aware, the one holding the longest "
     "cached prefix of it, unless its running requests exceed this one's "
     "by more than an eighth of max_batch (doc/llm.md)"},
    {"role", "colocated|prefill|decode", "colocated",
     "llm: disaggregated serving: a prefill pool runs only prompts and "
     "sends each request's KV cache over the network to the decode pool "
     "of the same workload, which runs only decode steps (a workload "
     "names one of each in pools)"},
    {"network_gbps", "number, above 0 to 100000", "the catalog's",
     "llm: the instances' network bandwidth in Gbps, which a KV cache "
     "crosses from a prefill pool to a decode pool (the lower of the "
     "two pools' figures is the link)"},
    {"share_instances", "pool name", "none",
     "llm: on a role = decode pool, the prefill pool of the same workload "
     "whose instances it shares: the two pools split each instance's GPUs "
     "(gpus_per_instance each, at most the instance's together; same "
     "instance type, count and pricing), each billing its share, and a "
     "KV cache crosses NVLink (half the GPU's nvlink_gbs a direction) "
     "instead of the network (doc/llm.md)"},
    {"llm_profile", "file", "engines.csv",
     "llm: serving-stack profiles (engines.csv columns) for this pool's "
     "replicas: the workload's engine= when the file has it, else its first"},
    {"schedule", "window name", NULL,
     "up (count instances) and billed only inside the window's openings "
     "(training jobs running at a close finish first); not with "
     "autoscale nor on a spot pool"},
    {"drain", "yes|no", "no",
     "with schedule: stay up past a close until no request waits"},
    {"growth", "G%/month [± S%], 0 to 100", "the workloads'",
     "the pool's demand over the long view (commit --horizon, forecast), "
     "overriding its workloads' growth there; ± S: each replication draws "
     "its own; stored in run_growth (pool); the simulated traffic is the "
     "workloads'"},
    {"mig", "PROFILE[*N]+...|balanced", NULL,
     "MIG layout of every GPU, e.g. 3g.40gb+2g.20gb*2: each instance a "
     "server running at its SM share, counted busy at its compute share "
     "(1g = 1/7 on an A100; sm_utilization counts SMs) (fleetsim catalog "
     "mig GPU lists the valid ones)"},
    {"sharing", "timeslice(N)|mps(N[, sm_cap=F])", NULL,
     "N replicas on each whole GPU, sharing its speed while busy together "
     "(mps: each at most sm_cap of the SMs, default 1/N)"},
    {"timeslice_efficiency", "fraction, above 0 to 1", "0.9",
     "timeslice: share of the GPU's speed left to k >= 2 busy replicas "
     "(context switches); an assumption, see doc/simulation.md"},
    {"description", "text", NULL, "ignored; for people"},
    {NULL, NULL, NULL, NULL},
};

static const fs_key_doc workload_keys[] = {
    {"kind", "inference|batch|training", "inference",
     "what the workload is: requests served as they come, items held until "
     "a window of their pools opens, or jobs placed by the training "
     "scheduler"},
    {"pools", "POOL, ...", NULL,
     "the pools that serve it, in preference order (required)"},
    {"arrivals", "arrival process", NULL,
     "poisson(rate=R) | diurnal(peak=R, trough=R, peak_hour=H) | "
     "mmpp(high=R, low=R, high_for=D, low_for=D) | trace(PATH, "
     "format=azure-llm|alibaba-lora|mooncake|generic, ...), generic with "
     "time=COL "
     "service=COL tokens_in=COL tokens_out=COL time_unit=s|ms|us|datetime "
     "(required)"},
    {"service", "distribution", NULL,
     "const(D) | exponential(mean=D) | lognormal(mean=D, sigma=S) | "
     "lognormal(mu=M, sigma=S) | weibull(shape=K, scale=D) | "
     "empirical(FILE) | linear(base=D, per_item=D) | trace: seconds on reference_gpu; or llm(model=M, "
     "precision=P, tp=N, ep=N, max_batch=B, kv_precision=P, engine=E, "
     "profile=FILE, chunked_prefill=T): continuous batching of an LLM; E a "
     "profile of engines.csv (vllm, trt-llm, sglang, NAME@VERSION) "
     "(required)"},
    {"reference_gpu", "catalog GPU", "the first pool's GPU",
     "the GPU service times are stated for; other GPUs scale them by dense "
     "bf16 throughput"},
    {"batch_max", "integer, 1 to 65536", "1", "requests per batch"},
    {"batch_wait", "duration", "0s",
     "longest a request waits for its batch to fill"},
    {"slo_p99", "duration", NULL,
     "latency objective; attainment = share of served requests within it"},
    {"rate_scale", "number above 0, at most 1000", "1",
     "traces: thin (below 1) or replicate (above 1) the requests"},
    {"repeat", "yes|no", "no", "traces: loop the trace until the horizon"},
    {"growth", "G%/month [± S%], 0 to 100", "0%/month",
     "traffic compounding from start: rates times (1+G)^(t/730h), by "
     "thinning; traces replicated or thinned as rate_scale does; ± S "
     "(or +-): each replication draws its G from a normal of sd S "
     "truncated to 0..100%, stored in run_growth"},
    {"bad_rows", "fail|skip", "fail",
     "traces: stop at a malformed row, or skip it and count it"},
    /* read where the trace is opened (traces/arrivals.c) */
    {"statuses", "STATUS, ...", "SUCCEED",
     "traces with a status column (alibaba-lora): the statuses replayed; "
     "the other rows are counted in the run summary"},
    {"queue_max", "integer", "10000000 (its most)",
     "arrivals beyond this many waiting are dropped (requests_dropped); "
     "the bound keeps a queue within 768 MiB"},
    {"tags", "KEY:VALUE,...", NULL,
     "showback tags, merged with its pools' in cost_allocation"},
    {"jobs", "trace(PATH, format=generic|openb)", NULL,
     "training: the jobs, generic job_id,submit_s,gpus,duration_s"
     "[,deadline_s,priority] or the Alibaba openb pod list (required)"},
    {"checkpoint_interval", "duration", "0s (none)",
     "training: work between checkpoints; an interruption loses the work "
     "since the last one"},
    {"checkpoint_cost", "duration", "0s",
     "training: time a checkpoint takes (the job makes no progress)"},
    {"restore_cost", "duration", "0s",
     "training: time a restarted job takes to load its checkpoint"},
    {"checkpoint_size", "GB", "0 (not priced); with model =: its weights, "
     "master weights and optimizer states",
     "training: one checkpoint's size; each written is stored for "
     "checkpoint_retention at the provider's object-storage price"},
    {"checkpoint_retention", "duration", "730h (a month)",
     "training: how long each checkpoint written is kept (billed as "
     "GB-months in the month it is written)"},
    {"checkpoint_transfer", "none|zone|region|internet", "none",
     "training: where a restart restores its checkpoint from; each restore "
     "moves checkpoint_size GB at the provider's price for that move"},
    {"storage_price", "$ per GB-month", "the catalog's (storage.csv)",
     "object-storage price of a training workload's checkpoints, or of an "
     "llm workload's weights (with weights_from)"},
    {"transfer_price", "$ per GB", "the catalog's (storage.csv)",
     "price of a GB a restore moves, or a cold start pulls (weights_from)"},
    {"weights_from", "none|same-region|other-zone|other-region|internet",
     "none (not priced)",
     "llm: where a launching replica pulls its weights from; the weights "
     "stored (GB x GB-months of the horizon) and every cold start's pull "
     "(GB x cold starts, same-region free) become the model-storage and "
     "weights-transfer lines at the pool's provider's storage.csv prices"},
    {"window", "window name", "its pools' schedule",
     "batch: the window its items wait for; its pools must have schedule = "
     "this window"},
    {"span_instances", "yes|no", "no",
     "training: a job may take its GPUs from several instances of a pool"},
    {"mig_profile", "MIG profile", NULL,
     "the slice profile it runs on, e.g. 2g.20gb (its pools must have "
     "one); default: any server of its pools"},
    {"fallback_after", "duration", "0s (all pools at once)",
     "training: a job waiting this long may take the next pool of its list"},
    {"model", "MODEL(batch=, seq=, precision=, optimizer=, ...)", NULL,
     "training: the LLM fine-tuned: refused where it does not fit a pool's "
     "GPU; durations stated on reference_gpu rescale by tokens/s.  llm: "
     "custom(params_b=, layers=, hidden=, heads=, kv_heads=, head_dim=, "
     "ffn=, vocab=, max_context=, ...) is the shape of llm(model=custom)"},
    {"tokens_in", "distribution of counts", NULL,
     "llm: prompt tokens of a generated request, e.g. lognormal(mean=1000, "
     "sigma=0.8), const(512) or empirical(FILE) (one count a row; no unit); "
     "traces with token columns use theirs; required otherwise"},
    {"tokens_out", "distribution of counts", NULL,
     "llm: output tokens of a generated request, as tokens_in"},
    {"prefix", "shared(tokens=N, share=F)", NULL,
     "llm: a system prompt of N tokens that a share F of the generated "
     "requests start with (their cached prefix with prefix_cache); a "
     "format=mooncake trace brings its own prefixes"},
    {"spec", "draft(model=M, k=K, acceptance=A) | mtp(k=K, acceptance=A) "
     "| none",
     "none",
     "llm: speculative decoding: each step a draft model (smaller, same "
     "vocabulary) or the model's MTP head drafts K tokens (1 to 16) and the "
     "target verifies K+1 in one pass; each drafted token accepted with "
     "chance A (above 0, below 1), so a step emits (1-A^(K+1))/(1-A) "
     "tokens on average; the draft's weights and KV cache share the "
     "replica's memory; none turns it off (--set)"},
    {"sessions", "turns(mean=M, think=T)", NULL,
     "llm: generated requests come in multi-turn sessions of M turns on "
     "average (geometric); an arrival continues the session that has "
     "waited longest past its think time (exponential, mean T), else "
     "starts one; turn k's prompt is turn k-1's prompt and output, then "
     "the tokens_in drawn (its cached prefix with prefix_cache)"},
    {"adapters", "integer 1..100000", NULL,
     "llm: LoRA adapters on the workload's model, served together on its "
     "replicas as vLLM multi-LoRA and S-LoRA do; each request asks for "
     "one, drawn by adapter_popularity"},
    {"adapter_popularity", "zipf(S) | uniform", "uniform",
     "llm: how often each adapter is asked for: adapter i (1 the most "
     "popular) with weight i^-S"},
    {"adapter_rank", "integer 1..1024", "16",
     "llm: the adapters' LoRA rank (every attention and FFN matrix); their "
     "bytes are rank x layers x (in + out) x 2"},
    {"max_adapters", "integer >= 1", "1 (vLLM's max_loras)",
     "llm: adapters loaded on a replica at once; their memory comes out "
     "of its KV cache; a request for another waits for a slot no running "
     "request uses (least recently used evicted)"},
    {"adapter_load_time", "auto | duration", "auto",
     "llm: the time to load a missing adapter, which the iteration that "
     "admits its request waits for; auto: its bytes over the GPU's PCIe "
     "link from host memory"},
    {"adapter_overhead", "duration", "2ms (Punica)",
     "llm: the batched-adapter kernels' time added to every iteration of "
     "a replica serving adapters"},
    {"replicas", "integer >= 1", "by demand",
     "llm: on a pool serving several models, the replicas that host this "
     "workload's model; default: the pool's replicas split in proportion "
     "to each model's demand"},
    {"slo_ttft", "duration", NULL,
     "llm: time-to-first-token objective; attainment = share of served "
     "requests within it"},
    {"slo_tpot", "duration", NULL,
     "llm: time-per-output-token objective (after the first token)"},
    {"description", "text", NULL, "ignored; for people"},
    {NULL, NULL, NULL, NULL},
};

static const fs_key_doc window_keys[] = {
    {"every", "duration", "1d",
     "the window's period (not with days); whole days keep the local "
     "time across DST changes"},
    {"open", "HH:MM", "00:00",
     "when it opens, time of day in the scenario's timezone (the first "
     "opening is on the start day)"},
    {"duration", "duration, at most every", NULL,
     "how long it stays open (required unless days is given)"},
    {"days", "DAY-DAY or DAY,... (mon..sun)", NULL,
     "office hours: open on these days from open to close, e.g. mon-fri"},
    {"close", "HH:MM, after open", NULL,
     "with days: when it closes, time of day (required with days)"},
    {"description", "text", NULL, "ignored; for people"},
    {NULL, NULL, NULL, NULL},
};

/* Keys promised for a later version: none in any section today, so every
 * section points at this one empty list (a section that gains some gets
 * its own). */
static const fs_key_later no_later[] = {{NULL, NULL}};

const fs_key_section fs_key_sections[FS_SECTIONS + 1] = {
    [FS_SECTION_SCENARIO] = {"scenario", "[scenario]", scenario_keys, 0,
                             no_later},
    [FS_SECTION_POOL] = {"pool", "[pool.NAME]", pool_keys, 1, no_later},
    [FS_SECTION_WORKLOAD] = {"workload", "[workload.NAME]", workload_keys, 0,
                             no_later},
    [FS_SECTION_WINDOW] = {"window", "[window.NAME]", window_keys, 0,
                           no_later},
    [FS_SECTIONS] = {NULL, NULL, NULL, 0, NULL},
};

const fs_key_section *fs_key_section_find(const char *name)
{
    for (const fs_key_section *s = fs_key_sections; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

int fs_key_at(const fs_key_section *sec, size_t i, fs_key_ref *out)
{
    for (const fs_key_doc *k = sec->keys; k->name; k++, i--)
        if (i == 0) {
            *out = (fs_key_ref){k, NULL};
            return 1;
        }
    if (!sec->purchase_keys)
        return 0;
    for (const fs_purchase_option *const *o = fs_purchase_options; *o; o++)
        for (const fs_key_doc *k = (*o)->keys; k && k->name; k++, i--)
            if (i == 0) {
                *out = (fs_key_ref){k, (*o)->name};
                return 1;
            }
    return 0;
}

int fs_key_find(const fs_key_section *sec, const char *name,
                fs_key_ref *out)
{
    fs_key_ref k;
    for (size_t i = 0; fs_key_at(sec, i, &k); i++)
        if (strcmp(k.doc->name, name) == 0) {
            *out = k;
            return 1;
        }
    return 0;
}

const fs_key_later *fs_key_find_later(const fs_key_section *sec,
                                      const char *name)
{
    for (const fs_key_later *l = sec->later; l->name; l++)
        if (strcmp(l->name, name) == 0)
            return l;
    return NULL;
}
