/* llm_server.c -- continuous batching of an LLM, an iteration at a time.
 *
 * The "continuous" server discipline (servers.h), as vLLM and TensorRT-LLM
 * schedule.  A server runs one replica of its workload's model (tp GPUs
 * of its pool, models/llm/llm.h) and holds up to max_batch running requests.
 * Each iteration is ONE event per server:
 *   1. reserve the KV blocks the running requests' next tokens need; when
 *      the cache is full mid-decode, preempt the newest request: it goes
 *      back to the head of the queue, counted, and when admitted again
 *      recomputes its prompt and the tokens it had (vLLM's recompute
 *      preemption);
 *   2. unless it preempted, admit waiting requests, oldest first, while
 *      their prompt's KV cache fits beside a watermark of 1% of the blocks
 *      (the cache is the memory left beside the weights, activations and
 *      overhead, fs_llm_perf.kv_capacity_tokens, in blocks of 16 tokens);
 *      a full cache makes them wait in the workload's queue;
 *   3. run the admitted requests' prefill (at most chunked_prefill prompt
 *      tokens per iteration when set) and one decode step for every
 *      request past its prefill, in the time fs_llm_iteration_time gives.
 * When the iteration ends, a request whose prefill completed has its first
 * token (TTFT), every decoding request one token more, and a request with
 * its last token out retires: end-to-end latency, TTFT and TPOT (time per
 * output token after the first: (end - first token) / (out - 1)) go into
 * the workload's streaming histograms.
 *
 * A request whose prompt and output together exceed the KV cache of a
 * whole replica could never finish: it is dropped when it reaches the head
 * of the queue (counted in dropped and in the workload's too_long).  So is
 * one longer than the model's context (max_context), which vLLM refuses
 * (max_model_len: the prompt and the tokens asked for must fit), counted
 * in over_context.
 * Running slots are made once per pool; an iteration allocates nothing.
 * A spot interruption requeues the running requests (lose), as dispatch
 * does for batches; during a notice or a drain the server admits nothing
 * and finishes what runs.
 *
 * Invariants (asserted, each at no more cost than an add per request
 * already visited): the running set never exceeds the workload's
 * max_batch; the KV blocks the running requests hold and the free ones
 * add up to the replica's cache, free never negative, so the tokens in
 * flight stay within the KV budget; counts never go below zero. */
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/serve/sharing.h"
#include "sim/fleet/serve/dispatch.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KV_BLOCK 16

typedef struct llm_seq {
    fs_request r;
    int32_t in, out;        /* prompt and output tokens, >= 1 */
    int32_t fill;           /* tokens to prefill: the prompt, and after a
                               preemption the tokens it had generated */
    int32_t prefilled, generated;
    int32_t step;           /* prompt tokens the running iteration fills */
    int32_t decoding;       /* it decodes a token in the running iteration */
    long blocks;            /* KV blocks held */
    double admitted, first_t;
} llm_seq;

struct fs_llm_run {
    llm_seq *seq;           /* running, oldest admitted first */
    int n, cap;
    long free_blocks, total_blocks, watermark;
    int preempted;          /* in the iteration being planned */
    const fs_llm_perf *perf;    /* its workload's replica on this pool */
    long chunk;             /* prefill tokens per iteration */
};

typedef struct llm_store {
    fs_llm_run *runs;
    llm_seq *seqs;
    fs_hist ttft, tpot, e2e;    /* the pool's measured requests */
} llm_store;

static void on_iteration(fs_engine *e, void *obj, long arg);

static long blocks_for(long tokens)
{
    return (tokens + KV_BLOCK - 1) / KV_BLOCK;
}

static int pool_index(const fs_workload *w, const fs_servers *p)
{
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k] == p)
            return k;
    return 0;
}

static int32_t at_least_one(int32_t x)
{
    return x < 1 ? 1 : x;
}

/* The running set's bounds: within the batch bound, and the free KV
 * blocks within the cache (held = total - free, never negative). */
static void assert_run(const fs_llm_run *run)
{
    assert(run->n >= 0 && run->n <= run->cap);
    assert(run->free_blocks >= 0 && run->free_blocks <= run->total_blocks);
    (void)run;
}

/* Takes r into the running set (its prompt's blocks are free). */
static void add_seq(fs_server *s, const fs_request *r, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    assert(run->n < run->cap);
    llm_seq *q = &run->seq[run->n++];
    memset(q, 0, sizeof *q);
    q->r = *r;
    q->in = at_least_one(r->tokens_in);
    q->out = at_least_one(r->tokens_out);
    q->generated = r->generated;
    q->first_t = r->arrival + (double)r->ttft;
    q->fill = q->in + q->generated;
    q->blocks = blocks_for((long)q->fill + 1);
    q->admitted = now;
    /* the first request of an empty set always fits (drop_unservable),
     * a later one fits beside the watermark (admit) */
    assert(q->blocks <= run->free_blocks);
    run->free_blocks -= q->blocks;
    if (r->arrival >= w->sim->sc->warmup_s) {
        w->wait_sum += now - r->arrival;
        w->measured_started++;
    }
}

/* Whether r can never be served here: dropped (and counted) if so. */
static int drop_unservable(const fs_llm_run *run, fs_workload *w,
                           const fs_request *r)
{
    long t = (long)at_least_one(r->tokens_in) + at_least_one(r->tokens_out);
    long ctx = w->conf->service.llm.model->max_context;
    if (ctx > 0 && t > ctx)
        w->llm.over_context++;
    else if (blocks_for(t) > run->total_blocks)
        w->llm.too_long++;
    else
        return 0;
    w->dropped++;
    return 1;
}

/* Admits waiting requests while the batch has room and their prompts'
 * KV blocks are free; none while the instance takes no new work. */
static void admit(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    fs_servers *p = s->pool;
    if (!fs_capacity_takes_work(p->cap, s->instance) || run->preempted)
        return;
    while (run->n < run->cap && w->queue.len) {
        const fs_request *head = fs_queue_peek(&w->queue);
        if (drop_unservable(run, w, head)) {
            fs_queue_pop(&w->queue);
            continue;
        }
        long fill = (long)at_least_one(head->tokens_in) + head->generated;
        if (blocks_for(fill + 1) > run->free_blocks - run->watermark &&
            run->n > 0)
            break;
        fs_request r = fs_queue_pop(&w->queue);
        add_seq(s, &r, now);
    }
}

/* Takes back request q's wait (it will be counted when it is admitted
 * again) and frees its blocks. */
static void unadmit(fs_server *s, const llm_seq *q)
{
    fs_workload *w = s->wl;
    if (q->r.arrival >= w->sim->sc->warmup_s) {
        w->wait_sum -= q->admitted - q->r.arrival;
        w->measured_started--;
        assert(w->measured_started >= 0);
    }
    s->llm->free_blocks += q->blocks;
}

/* q goes back to the head of the queue: with what it has generated after
 * a preemption (resume), from the start after an interruption. */
static void requeue(fs_server *s, const llm_seq *q, int resume)
{
    fs_workload *w = s->wl;
    fs_request r = q->r;
    r.generated = resume ? q->generated : 0;
    r.ttft = resume ? (float)(q->first_t - q->r.arrival) : 0;
    if (fs_queue_push_front(&w->queue, r)) {
        fs_error_set(w->sim->err, "out of memory queueing requests");
        fs_sim_fail(w->sim);
    }
}

/* When the cache may not hold the next tokens (fewer free blocks than
 * running requests: each needs at most one more), preempts the newest
 * requests while the blocks the decoding ones need are not free. */
static void preempt_for_decode(fs_server *s)
{
    fs_llm_run *run = s->llm;
    while (run->free_blocks < run->n && run->n > 1) {
        long need = 0;
        for (int i = 0; i < run->n; i++) {
            const llm_seq *q = &run->seq[i];
            if (q->prefilled == q->fill)
                need += blocks_for((long)q->in + q->generated + 1) -
                        q->blocks;
        }
        if (need <= run->free_blocks)
            break;
        const llm_seq *newest = &run->seq[--run->n];
        unadmit(s, newest);
        requeue(s, newest, 1);
        s->wl->llm.preempted++;
        run->preempted = 1;
    }
}

/* What the iteration being planned does with q, still prefilling: the
 * next chunk of its prompt, within the iteration's budget. */
static void plan_prefill(llm_seq *q, long *budget, long *tokens,
                         double *attn)
{
    if (*budget <= 0)
        return;
    long a = q->prefilled;
    long c = q->fill - a < *budget ? q->fill - a : *budget;
    q->step = (int32_t)c;
    *budget -= c;
    *tokens += c;
    *attn += (double)(2 * a + c + 1) * (double)c / 2;
}

/* Plans and schedules the next iteration, or gives the server back when
 * nothing runs: the decoding requests' next blocks (preempting when the
 * cache is full), then new requests if none was preempted, then the
 * prefill chunks within the budget, in admission order.  Two passes over
 * the running requests at most (and a third only when the cache is
 * nearly full). */
static void iterate(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    long prefill = 0, budget = run->chunk, kv = 0, held = 0;
    double attn = 0;
    int batch = 0;
    run->preempted = 0;
    preempt_for_decode(s);
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (q->prefilled == q->fill) {
            long b = blocks_for((long)q->in + q->generated + 1);
            run->free_blocks -= b - q->blocks;
            q->blocks = b;
            q->decoding = 1;
            batch++;
            kv += (long)q->in + q->generated;
        } else {
            plan_prefill(q, &budget, &prefill, &attn);
        }
        held += run->seq[i].blocks;
    }
    int old = run->n;
    admit(s, now);
    for (int i = old; i < run->n; i++) {
        plan_prefill(&run->seq[i], &budget, &prefill, &attn);
        held += run->seq[i].blocks;
    }
    /* every block is held by a running request or free: none lost, none
     * counted twice, and the decode reservations fit (preempt_for_decode) */
    assert_run(run);
    assert(held == run->total_blocks - run->free_blocks);
    (void)held;
    if (run->n == 0) {
        s->pool->done(s);
        return;
    }
    s->nbatch = run->n;
    w->llm.iterations++;
    w->llm.running_sum += run->n;
    double t = fs_llm_iteration_time(run->perf, prefill, attn, batch, kv);
    if (s->pool->sharing)   /* a shared GPU: at its speed now */
        t /= fs_sharing_speed(s->pool->sharing, s);
    s->timer = fs_engine_at(w->sim->engine, now + t, on_iteration, s, 0);
    if (!s->timer) {
        fs_error_set(w->sim->err, "out of memory scheduling an iteration "
                     "of workload %s", w->conf->name);
        fs_sim_fail(w->sim);
    }
}

/* Request q has its last token at now. */
static void retire(fs_server *s, const llm_seq *q, double now)
{
    fs_workload *w = s->wl;
    fs_llm_stats *st = &w->llm;
    const fs_workload_conf *c = w->conf;
    if (q->r.arrival >= w->sim->sc->warmup_s) {
        double e2e = now - q->r.arrival, ttft = q->first_t - q->r.arrival;
        fs_hist_add(&w->latency, e2e);
        fs_hist_add(&w->wait, q->admitted - q->r.arrival);
        w->slo_met += e2e <= c->slo_s;
        w->measured++;
        llm_store *ps = s->pool->llm_store;
        fs_hist_add(&ps->e2e, e2e);
        fs_hist_add(&st->ttft, ttft);
        fs_hist_add(&ps->ttft, ttft);
        st->ttft_met += ttft <= c->slo_ttft_s;
        if (q->out > 1) {
            double tpot = (now - q->first_t) / (q->out - 1);
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
}

static void on_iteration(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_server *s = obj;
    fs_llm_run *run = s->llm;
    double now = fs_engine_now(e);
    s->timer = 0;
    int kept = 0;
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (q->step) {
            q->prefilled += q->step;
            q->step = 0;
            /* a prefill ends with a token: the first, or after a
             * preemption the next */
            if (q->prefilled == q->fill && q->generated++ == 0)
                q->first_t = now;
        } else if (q->decoding) {
            q->generated++;
            q->decoding = 0;
        }
        if (q->generated >= q->out)
            retire(s, q, now);
        else if (kept++ != i)
            run->seq[kept - 1] = *q;
    }
    run->n = kept;
    assert_run(run);
    iterate(s, now);
}

static int llm_take(const fs_server *s, const fs_workload *w)
{
    (void)s;
    (void)w;
    return 1;
}

/* s was idle: it takes its workload's replica and the request dispatch
 * gave it, then iterates. */
static void llm_start(fs_server *s)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    double now = fs_engine_now(w->sim->engine);
    run->perf = &w->perf[pool_index(w, s->pool)];
    run->total_blocks = run->perf->kv_capacity_tokens / KV_BLOCK;
    run->free_blocks = run->total_blocks;
    run->watermark = run->total_blocks / 100;
    run->preempted = 0;
    run->n = 0;
    run->cap = w->conf->service.llm.max_batch;
    long chunk = w->conf->service.llm.chunked_prefill;
    run->chunk = chunk > 0 ? chunk : LONG_MAX;
    fs_servers_set_busy(s->pool, s, 1);
    s->state = FS_SERVER_BUSY;
    for (int i = 0; i < s->nbatch; i++) {
        if (!drop_unservable(run, w, &s->batch[i]))
            add_seq(s, &s->batch[i], now);
    }
    iterate(s, now);
}

static void llm_lose(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    fs_servers *p = s->pool;
    fs_engine_cancel(w->sim->engine, s->timer);
    s->timer = 0;
    for (int i = run->n - 1; i >= 0; i--) {
        unadmit(s, &run->seq[i]);
        requeue(s, &run->seq[i], 0);
    }
    w->retried += run->n;
    p->retried += run->n;
    p->lost_last += now - s->busy_since;
    fs_servers_set_busy(p, s, 0);
    run->n = 0;
    /* every block came back with its request */
    assert(run->free_blocks == run->total_blocks);
    s->nbatch = 0;
    s->wl = NULL;
}

static long llm_in_service(const fs_server *s)
{
    return s->llm->n;
}

const fs_server_discipline fs_llm_discipline = {
    .name = "continuous",
    .take = llm_take,
    .start = llm_start,
    .lose = llm_lose,
    .in_service = llm_in_service,
    .free_servers = fs_llm_servers_free,
};

/* The largest max_batch among the pool's llm workloads. */
static int pool_batch_cap(const fs_servers *p)
{
    const fs_scenario *sc = p->sim->sc;
    int ipool = (int)(p->conf - sc->pools), cap = 1;
    for (size_t i = 0; i < sc->nworkloads; i++) {
        const fs_workload_conf *c = &sc->workloads[i];
        if (!c->service.model || !c->service.model->server)
            continue;
        for (int k = 0; k < c->npools; k++)
            if (c->pools[k] == ipool && c->service.llm.max_batch > cap)
                cap = c->service.llm.max_batch;
    }
    return cap;
}

int fs_llm_servers_init(fs_servers *p)
{
    if (p->llm_store)
        return 0;
    llm_store *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    p->llm_store = st;
    if (fs_hist_init(&st->ttft) || fs_hist_init(&st->tpot) ||
        fs_hist_init(&st->e2e))
        return -1;
    size_t n = p->nservers ? p->nservers : 1;
    int cap = pool_batch_cap(p);
    st->runs = calloc(n, sizeof *st->runs);
    st->seqs = calloc(n * (size_t)cap, sizeof *st->seqs);
    if (!st->runs || !st->seqs)
        return -1;
    for (size_t i = 0; i < p->nservers; i++) {
        st->runs[i].seq = &st->seqs[i * (size_t)cap];
        p->servers[i].llm = &st->runs[i];
    }
    return 0;
}

void fs_llm_servers_free(fs_servers *p)
{
    llm_store *st = p->llm_store;
    if (!st)
        return;
    free(st->runs);
    free(st->seqs);
    fs_hist_free(&st->ttft);
    fs_hist_free(&st->tpot);
    fs_hist_free(&st->e2e);
    free(st);
    p->llm_store = NULL;
}

void fs_llm_servers_latency(const fs_servers *p, fs_llm_pool_lat *out)
{
    const llm_store *st = p->llm_store;
    if (!st) {
        out->ttft_p50_s = out->ttft_p99_s = out->tpot_p50_s = NAN;
        out->tpot_p99_s = out->e2e_p50_s = out->e2e_p99_s = NAN;
        out->ttft_p90_s = out->tpot_p90_s = out->e2e_p90_s = NAN;
        out->ttft_mean_s = out->tpot_mean_s = out->e2e_mean_s = NAN;
        return;
    }
    out->ttft_p50_s = fs_hist_quantile(&st->ttft, 0.50);
    out->ttft_p99_s = fs_hist_quantile(&st->ttft, 0.99);
    out->tpot_p50_s = fs_hist_quantile(&st->tpot, 0.50);
    out->tpot_p99_s = fs_hist_quantile(&st->tpot, 0.99);
    out->e2e_p50_s = fs_hist_quantile(&st->e2e, 0.50);
    out->e2e_p99_s = fs_hist_quantile(&st->e2e, 0.99);
    out->ttft_p90_s = fs_hist_quantile(&st->ttft, 0.90);
    out->tpot_p90_s = fs_hist_quantile(&st->tpot, 0.90);
    out->e2e_p90_s = fs_hist_quantile(&st->e2e, 0.90);
    out->ttft_mean_s = fs_hist_mean(&st->ttft);
    out->tpot_mean_s = fs_hist_mean(&st->tpot);
    out->e2e_mean_s = fs_hist_mean(&st->e2e);
}
