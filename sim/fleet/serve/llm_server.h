/* llm_server.h -- continuous batching of an LLM on each server of a pool.
 *
 * The "continuous" server discipline (servers.h): an iteration at a time,
 * as vLLM and TensorRT-LLM schedule, with the time of each iteration from
 * the hardware model (models/llm/llm.h).  See llm_server.c. */
#ifndef FS_LLM_SERVER_H
#define FS_LLM_SERVER_H

#include "sim/fleet/serve/servers.h"
#include "sim/fleet/run/results.h"

extern const fs_server_discipline fs_llm_discipline;

/* Workload w serves an llm: its replica on each of its pools (refused,
 * with the memory breakdown and the nearest configurations that fit, when
 * the model does not fit a pool's server shape), its statistics, and the
 * running slots of its pools' servers.  -1 with a file:line:key message
 * in err. */
int fs_llm_workload_init(fs_workload *w, fs_error *err);
void fs_llm_workload_free(fs_workload *w);
/* Iterations the workload's servers may run over the horizon, for the
 * run's event estimate: at most one per output token and request (when
 * tokens_out is drawn), at most every server iterating alone all along. */
/* Each request's token counts come from the trace's columns (st) or the
 * workload's tokens_in = / tokens_out =: 0, or -1 with err naming the
 * missing key (a request of unknown length is not one token). */
int fs_llm_check_tokens(const fs_workload *w, const fs_trace_stats *st,
                        fs_error *err);

double fs_llm_estimate_iterations(const fs_workload *w, double requests);
/* A pool's running slots: room for its llm workloads' largest max_batch
 * on every server, made once (a no-op the second time); -1 when out of
 * memory (fs_llm_servers_free is still safe). */
int fs_llm_servers_init(fs_servers *p);
void fs_llm_servers_free(fs_servers *p);
/* The pool's TTFT, TPOT and end-to-end p50 and p99 over the measured
 * requests (arrived after the warmup) of all its llm workloads, from
 * histograms made with the slots (nothing allocated per request); NaN
 * when it has none. */
void fs_llm_servers_latency(const fs_servers *p, fs_llm_pool_lat *out);

#endif
