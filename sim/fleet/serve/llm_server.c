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
#include "sim/fleet/serve/llm_kvcache.h"
#include "sim/fleet/serve/llm_prefix.h"
#include "sim/fleet/serve/llm_run.h"
#include "sim/fleet/serve/llm_spec.h"
#include "sim/fleet/serve/llm_route.h"
#include "sim/fleet/serve/llm_disagg.h"
#include "sim/fleet/serve/llm_adapter.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    q->first_t = r->arrival + fabs((double)r->ttft);
    q->fill = q->in + q->generated;
    q->hold.last = -1;
    if (run->kv && r->prefix >= 0)
        fs_llm_prefix_acquire(s, q);
    if (signbit(r->ttft))   /* its KV cache came from a prefill pool */
        q->prefilled = q->fill;
    q->blocks = blocks_for((long)q->fill + 1) - q->shared;
    q->admitted = now;
    fs_lora_acquire(s, r);
    /* the first request of an empty set always fits (drop_unservable),
     * a later one fits beside the watermark (admit) */
    assert(q->blocks <= run->free_blocks);
    run->free_blocks -= q->blocks;
    if (r->arrival >= w->sim->sc->warmup_s &&
        fs_llm_disagg_counts_wait(s->pool)) {
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
    fs_llm_prefix_forget(w, r);
    return 1;
}

/* Admits waiting requests while the batch has room and their prompts'
 * KV blocks are free; none while the instance takes no new work. */
static void admit(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    fs_servers *p = s->pool;
    const fs_llm_router *route = fs_llm_router_of(p);
    fs_queue *wq = fs_workload_queue_of(w, p);
    if (!fs_capacity_takes_work(p->cap, s->instance) || run->preempted)
        return;
    while (run->n < run->cap && wq->len) {
        const fs_request *head = fs_queue_peek(wq);
        if (drop_unservable(run, w, head)) {
            fs_queue_pop(wq);
            continue;
        }
        long fill = (long)at_least_one(head->tokens_in) + head->generated;
        if ((blocks_for(fill + 1) > run->free_blocks - run->watermark &&
             run->n > 0) || !route->admits(s, head) ||
            !fs_lora_admits(s, head))
            break;
        fs_request r = fs_queue_pop(wq);
        add_seq(s, &r, now);
        if (route->admitted)
            route->admitted(s);
    }
}

/* Takes back request q's wait (it will be counted when it is admitted
 * again) and frees its blocks. */
static void unadmit(fs_server *s, llm_seq *q)
{
    fs_workload *w = s->wl;
    if (q->r.arrival >= w->sim->sc->warmup_s &&
        fs_llm_disagg_counts_wait(s->pool)) {
        w->wait_sum -= q->admitted - q->r.arrival;
        w->measured_started--;
        assert(w->measured_started >= 0);
    }
    s->llm->free_blocks += q->blocks;
    fs_llm_prefix_release(s->llm, q);
    fs_lora_release(s, &q->r);
}

/* q goes back to the head of the queue: with what it has generated after
 * a preemption (resume), from the start after an interruption. */
static void requeue(fs_server *s, const llm_seq *q, int resume)
{
    fs_workload *w = s->wl;
    fs_request r = q->r;
    r.generated = resume ? q->generated : 0;
    r.ttft = resume ? (float)(q->first_t - q->r.arrival) : 0;
    if (fs_queue_push_front(fs_workload_queue_of(w, s->pool), r)) {
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
    /* speculative decoding: the verify pass writes k more tokens' KV */
    int la = fs_spec_lookahead(s->wl, LONG_MAX);
    long most = la ? blocks_for(la + 1) + 1 : 1;
    while (run->free_blocks < run->n * most && run->n > 1) {
        long need = 0;
        for (int i = 0; i < run->n; i++) {
            const llm_seq *q = &run->seq[i];
            if (q->prefilled == q->fill)
                need += blocks_for((long)q->in + q->generated + 1 +
                                   fs_spec_lookahead(s->wl, q->out -
                                                     q->generated - 1)) -
                        q->shared - q->blocks;
        }
        if (need <= run->free_blocks)
            break;
        llm_seq *newest = &run->seq[--run->n];
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

/* Schedules the iteration planned (the decode batch's requests and KV
 * tokens, the prefill's tokens and attention context), or gives the
 * server back when nothing runs. */
static void schedule_iteration(fs_server *s, double now, long prefill,
                               double attn, int batch, long kv)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    if (run->n == 0) {
        s->pool->done(s);
        return;
    }
    s->nbatch = run->n;
    w->llm.iterations++;
    w->llm.running_sum += run->n;
    double t = fs_spec_iteration_time(w, run->perf, prefill, attn, batch,
                                      kv);
    if (s->pool->sharing)   /* a shared GPU: at its speed now */
        t /= fs_sharing_speed(s->pool->sharing, s);
    t += fs_lora_step(s, t);   /* adapters' loads and kernels */
    s->timer = fs_engine_at(w->sim->engine, now + t, on_iteration, s, 0);
    if (!s->timer) {
        fs_error_set(w->sim->err, "out of memory scheduling an iteration "
                     "of workload %s", w->conf->name);
        fs_sim_fail(w->sim);
    }
}

/* Plans and schedules the next iteration, or gives the server back when
 * nothing runs: the decoding requests' next blocks (preempting when the
 * cache is full), then new requests if none was preempted, then the
 * prefill chunks within the budget, in admission order.  Two passes over
 * the running requests at most (and a third only when the cache is
 * nearly full); the decoding ones are summed on the way
 * (fs_llm_totals_add) for the iterations that follow. */
static void iterate(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    fs_workload *w = s->wl;
    long prefill = 0, budget = run->chunk, kv = 0, held = 0;
    double attn = 0;
    int batch = 0;
    run->preempted = 0;
    preempt_for_decode(s);
    fs_llm_totals_reset(run, fs_spec_plain(w) &&
                             !fs_llm_disagg_hands_off(s->pool));
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (q->prefilled == q->fill) {
            long b = blocks_for((long)q->in + q->generated + 1 +
                                fs_spec_lookahead(w, q->out - q->generated -
                                                  1)) - q->shared;
            run->free_blocks -= b - q->blocks;
            q->blocks = b;
            q->decoding = 1;
            batch++;
            kv += (long)q->in + q->generated;
            fs_llm_totals_add(run, q);
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
    fs_llm_prefix_trim(run);
    /* every block is held by a running request or free: none lost, none
     * counted twice, and the decode reservations fit (preempt_for_decode);
     * with a prefix cache a shared block is held once by several requests */
    assert_run(run);
    assert(run->kv || held == run->total_blocks - run->free_blocks);
    (void)held;
    schedule_iteration(s, now, prefill, attn, batch, kv);
}

/* The next iteration when the requests of the totals only decode in it
 * (and had one more token from the one that ended): planned from the
 * totals (llm_totals.c) without a visit to each; the requests admitted
 * since (step_tail) and new ones (admitted as in iterate) have their
 * prefill planned in admission order. */
static void iterate_from_totals(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    long prefill = 0, budget = run->chunk;
    double attn = 0;
    long kv = fs_llm_totals_step(run);
    run->preempted = 0;
    admit(s, now);
    for (int i = run->tot.n; i < run->n; i++)
        plan_prefill(&run->seq[i], &budget, &prefill, &attn);
    fs_llm_prefix_trim(run);
    assert_run(run);
    schedule_iteration(s, now, prefill, attn, run->tot.n, kv);
}

/* Brings the requests the totals stood in for up to date: the tokens and
 * blocks of the iterations planned from them (before any is visited). */
static void catch_up(fs_llm_run *run)
{
    long lazy = run->tot.lazy;
    if (lazy == 0)
        return;
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (!q->decoding)   /* admitted since: not in the totals */
            continue;
        q->generated += (int32_t)lazy;
        q->blocks = blocks_for((long)q->in + q->generated + 1) - q->shared;
    }
    run->tot.lazy = 0;
}

/* A prefill pool's request q has its first token: its KV cache leaves
 * for the decode pool (llm_disagg.c), and its blocks here come free.  Its
 * wait (arrival to admission here) is measured now; the pool counts the
 * prompt tokens it prefilled (and found cached), the decode pool the
 * request when it completes. */
static void hand_off(fs_server *s, llm_seq *q, double now)
{
    fs_request r = q->r;
    r.generated = q->generated;
    if (r.arrival >= s->wl->sim->sc->warmup_s)
        fs_hist_add(&s->wl->wait, q->admitted - r.arrival);
    s->pool->tokens_in += q->r.tokens_in > 0 ? q->r.tokens_in : 0;
    s->pool->tokens_cached += q->r.cached > 0 ? q->r.cached : 0;
    s->llm->free_blocks += q->blocks;
    fs_llm_prefix_release(s->llm, q);
    fs_lora_release(s, &q->r);
    fs_llm_disagg_send(s, &r, now);
}

/* q's prefill chunk of the iteration that ended at now is done; a
 * prefill ends with a token: the first, or after a preemption the next. */
static void end_prefill_step(llm_seq *q, double now)
{
    q->prefilled += q->step;
    q->step = 0;
    if (q->prefilled == q->fill && q->generated++ == 0)
        q->first_t = now;
}

/* The requests of the totals whose last token came in the iteration
 * that ended (next_done of them) retire, in admission order, and leave
 * the totals; the rest (and those admitted since) close up behind. */
static void retire_due(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    int kept = 0, n = run->tot.n;
    long next = LONG_MAX;
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        long left = i < n ? fs_llm_totals_left(run, q) : 1;
        if (left == 0) {
            fs_llm_totals_leave(run, q);
            /* the blocks its last step took */
            q->blocks = blocks_for((long)q->in + q->generated) - q->shared;
            fs_llm_retire(s, q, now);
            continue;
        }
        if (i < n && left < next)
            next = left;
        if (kept++ != i)
            run->seq[kept - 1] = *q;
    }
    run->n = kept;
    run->tot.next_done = next == LONG_MAX ? LONG_MAX
                                          : next + run->tot.lazy + 1;
}

/* The iteration that ended, for the requests admitted since the totals
 * were taken (all prefilling, in admission order after them): their
 * prefill chunks, as on_iteration does; one whose prefill ended has its
 * token and retires if it was its last, else joins the totals. */
static void step_tail(fs_server *s, double now)
{
    fs_llm_run *run = s->llm;
    int kept = run->tot.n;
    for (int i = run->tot.n; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (q->step)
            end_prefill_step(q, now);
        if (q->generated >= q->out) {
            fs_llm_retire(s, q, now);
            continue;
        }
        if (kept++ != i)
            run->seq[kept - 1] = *q;
        q = &run->seq[kept - 1];
        if (q->prefilled == q->fill) {
            q->decoding = 1;
            fs_llm_totals_enter(run, q);
        }
    }
    run->n = kept;
}

static void on_iteration(fs_engine *e, void *obj, long arg)
{
    (void)arg;
    fs_server *s = obj;
    fs_llm_run *run = s->llm;
    double now = fs_engine_now(e);
    s->timer = 0;
    if (fs_llm_totals_skip(run)) {
        if (run->tot.lazy + 1 == run->tot.next_done)
            retire_due(s, now);
        step_tail(s, now);
        iterate_from_totals(s, now);
        return;
    }
    catch_up(run);
    int kept = 0;
    for (int i = 0; i < run->n; i++) {
        llm_seq *q = &run->seq[i];
        if (q->step) {
            end_prefill_step(q, now);
        } else if (q->decoding) {
            q->generated += fs_spec_tokens(s->wl);
            q->decoding = 0;
        }
        if (q->generated >= q->out)
            fs_llm_retire(s, q, now);
        else if (fs_llm_disagg_hands_off(s->pool) && q->prefilled == q->fill)
            hand_off(s, q, now);
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
    fs_llm_totals_reset(run, 0);
    run->cap = w->conf->service.llm.max_batch;
    long chunk = w->conf->service.llm.chunked_prefill;
    run->chunk = chunk > 0 ? chunk : LONG_MAX;
    if (fs_llm_prefix_setup(s)) {
        fs_error_set(w->sim->err, "out of memory caching prefixes");
        fs_sim_fail(w->sim);
        return;
    }
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
    catch_up(run);
    for (int i = run->n - 1; i >= 0; i--) {
        unadmit(s, &run->seq[i]);
        requeue(s, &run->seq[i], 0);
    }
    if (run->kv)   /* the instance is gone, and its cache with it */
        fs_kv_cache_clear(run->kv);
    fs_lora_lose(s);   /* and its adapters */
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
