/* llm_server_retire.c -- what an LLM request leaves behind when its last
 * token is out: its latencies (end-to-end, TTFT, TPOT) in the workload's
 * and pool's histograms and SLO counts, its tokens in the running totals,
 * and its KV blocks, adapter and cached prefix given back.
 *
 * Kept apart from llm_server.c (the iteration loop) because this is where
 * a request's time on the GPU becomes what a client sees: the engine's
 * time off the GPU and its output lag are added here, to the request and
 * never to the replica. */
#include "sim/fleet/serve/llm_run.h"
#include "sim/fleet/serve/llm_prefix.h"
#include "sim/fleet/serve/llm_adapter.h"
#include "sim/fleet/serve/llm_disagg.h"
#include "sim/fleet/serve/dispatch.h"

/* A request's latencies beyond its tokens' times on the GPU, for a
 * request whose time per output token is tpot (0 for one token): the
 * profile's time off the GPU (API server) before the first token, and
 * where the engine hands a step's tokens out only once the next step runs
 * (output_lag: vLLM's asynchronous output processing) that step, for the
 * first and last token alike, at the request's own mean time per output
 * token as the predictor charges it (llm_predict.c). */
static double handout_delay(const fs_llm_perf *p, double tpot)
{
    return p->request_s + p->output_lag * tpot;
}

/* Request q has its last token at now: its measures go to the workload's
 * and the pool's histograms, its tokens to their counts, and its KV blocks,
 * adapter and prefix come free. */
void fs_llm_retire(fs_server *s, llm_seq *q, double now)
{
    fs_workload *w = s->wl;
    fs_llm_stats *st = &w->llm;
    const fs_workload_conf *c = w->conf;
    int measured = q->r.arrival >= w->sim->sc->warmup_s;
    double tpot = q->out > 1 ? (now - q->first_t) / (q->out - 1) : 0;
    /* delays the request, not the replica */
    double api = handout_delay(s->llm->perf, tpot);
    double e2e = now - q->r.arrival + api;
    double ttft = q->first_t - q->r.arrival + api;
    if (measured) {
        fs_hist_add(&w->latency, e2e);
        if (fs_llm_disagg_counts_wait(s->pool))   /* else at hand_off */
            fs_hist_add(&w->wait, q->admitted - q->r.arrival);
        w->slo_met += e2e <= c->slo_s;
        w->measured++;
        llm_store *ps = s->pool->llm_store;
        fs_hist_add(&ps->e2e, e2e);
        fs_hist_add(&st->ttft, ttft);
        fs_hist_add(&ps->ttft, ttft);
        st->ttft_met += ttft <= c->slo_ttft_s;
        if (q->out > 1) {
            fs_hist_add(&st->tpot, tpot);
            fs_hist_add(&ps->tpot, tpot);
            st->tpot_met += tpot <= c->slo_tpot_s;
            st->tpot_n++;
        }
    }
    double in = q->r.tokens_in > 0 ? q->r.tokens_in : 0;
    double out = q->r.tokens_out > 0 ? q->r.tokens_out : 0;
    st->tokens_in += in;
    st->tokens_out += out;
    s->pool->tokens_in += in;
    s->pool->tokens_out += out;
    w->completed++;
    s->llm->free_blocks += q->blocks;
    fs_lora_retire(s, &q->r, ttft, e2e, measured);
    if (q->r.prefix >= 0) {
        double cached = q->r.cached > 0 ? q->r.cached : 0;
        st->tokens_cached += cached;
        s->pool->tokens_cached += cached;
        fs_llm_prefix_release(s->llm, q);
        fs_llm_prefix_forget(w, &q->r);
    }
}
