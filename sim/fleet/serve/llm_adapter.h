/* llm_adapter.h -- LoRA adapters on an LLM workload's base model, served
 * together on its replicas (vLLM multi-LoRA, S-LoRA, Punica).
 *
 * The hooks the continuous-batching server (llm_server.c) and the
 * replica's setup (llm_setup.c) call; each does nothing for a workload
 * without adapters =, so every other run is as before, bit for bit.  See
 * llm_adapter.c. */
#ifndef FS_LLM_ADAPTER_H
#define FS_LLM_ADAPTER_H

#include "sim/fleet/serve/servers.h"
#include "sim/fleet/run/results.h"

typedef struct fs_lora_run fs_lora_run;

/* Bytes of one adapter of rank r on model m at 16 bits: r x layers x
 * (in + out) of every attention and FFN matrix (fs_llm_lora_params). */
double fs_lora_adapter_bytes(const fs_llm_model *m, long rank);
/* Seconds to load one adapter onto a replica of perf: the pool's
 * adapter_load_time, else its bytes split over the replica's tp GPUs,
 * each over its PCIe link one way (half the catalog's both-ways
 * pcie_gbs). */
double fs_lora_load_s(const fs_workload *w, const fs_llm_perf *perf);
/* Zipf(s) popularity of n adapters: adapter i's (0 the most popular)
 * closed-form share (i+1)^-s / sum_j (j+1)^-s; s = 0 is uniform. */
double fs_lora_share(long n, double s, long i);

/* Pool k's replica of w (perf filled): max_adapters' memory comes out of
 * its KV cache; -1 with file:line:key in err when none would be left. */
int fs_lora_fit(fs_workload *w, int k, fs_error *err);
/* w's adapters: the popularity table and the stream that draws from it
 * ("adapter:NAME" of the run's seed), the per-adapter counters. */
int fs_lora_workload_init(fs_workload *w, unsigned replication,
                          fs_error *err);
void fs_lora_workload_free(fs_workload *w);
/* The adapter an arriving request of w asks for; -1 without adapters. */
int32_t fs_lora_draw(fs_workload *w);

/* Server s may admit r now: its adapter is loaded, or a slot is free or
 * holds an adapter no running request uses. */
int fs_lora_admits(const fs_server *s, const fs_request *r);
/* r joins s's running set: its adapter held, loaded first when missing
 * (the least recently used idle slot evicted; the load time is added to
 * the iteration being planned).  -1 when out of memory (run failed). */
void fs_lora_acquire(fs_server *s, const fs_request *r);
/* r leaves s's running set (retired, preempted, lost, handed off). */
void fs_lora_release(fs_server *s, const fs_request *r);
/* The seconds the loads and the batched-adapter kernels add to s's
 * iteration of t seconds; the iteration's time is charged to the running
 * requests' adapters in equal shares, the loads to their adapters. */
double fs_lora_step(fs_server *s, double t);
/* r retired at s: its adapter's requests, tokens, and (measured) TTFT and
 * end-to-end latency. */
void fs_lora_retire(fs_server *s, const fs_request *r, double ttft,
                    double e2e, int measured);
/* s's instance is gone: its adapters with it. */
void fs_lora_lose(fs_server *s);
void fs_lora_slots_free(fs_llm_run *run);

/* The workload's adapter rows (fs_results_add_adapter), its cost split by
 * the GPU-seconds each adapter's requests took; and the loads and load
 * seconds of the whole workload into its llm row. */
int fs_lora_collect(const fs_workload *w, double cost_usd, fs_llm_row *row,
                    fs_results *out);

#endif
