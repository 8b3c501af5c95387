/* llm_predict.c -- a benchmark run's TTFT, TPOT and throughput, predicted
 * from the iteration time (llm_fit.h).
 *
 * Closed loop (n clients, each sending its next request when the last one
 * ends, as `--max-concurrency` and genai-perf's `--concurrency` run): the
 * steady state of models/llm/llm_bench.c at n running sequences, TPOT from the
 * iterations between a client's tokens and TTFT from the iteration that
 * prefills its prompt and the prefill queue; throughput n x out / the
 * request's end-to-end time.  Past the sequences the replica runs at once
 * (FS_LLM_MAX_RUNNING or its KV cache's room) the extra clients wait their
 * turn, which TTFT carries.  Where the engine hands a step's tokens out
 * only after the next step (the profile's output_lag), every token reaches
 * the client a step later: TTFT and the end-to-end time by one TPOT.
 *
 * Open loop (Poisson arrivals at rate r): the mean number running, N,
 * solves Little's law N = r x end-to-end(N); the figures are the closed
 * loop's at N, read between the whole numbers around it so that they move
 * continuously with the parameters (the fit differentiates them).  A rate
 * past what the replica serves at its most running is overloaded: the
 * figures of the full replica, flagged. */
#include "models/llm/llm_fit.h"
#include "models/llm/llm_bench.h"

#include <math.h>

const char *fs_llm_metric_name(fs_llm_metric k)
{
    static const char *const names[FS_MET_COUNT] = {"TTFT ms", "TPOT ms",
                                                    "out tok/s"};
    return k < FS_MET_COUNT ? names[k] : "?";
}

double fs_llm_measured(const fs_llm_measure *m, fs_llm_metric k)
{
    switch (k) {
    case FS_MET_TTFT: return m->ttft_ms;
    case FS_MET_TPOT: return m->tpot_ms;
    case FS_MET_TPUT: return m->throughput;
    default: return 0;
    }
}

/* The most sequences the replica runs at once at these lengths. */
static int running_cap(const fs_llm_perf *p, long in, long out)
{
    long room = p->kv_capacity_tokens / (in + out);
    if (room > FS_LLM_MAX_RUNNING)
        room = FS_LLM_MAX_RUNNING;
    return room < 1 ? 1 : (int)room;
}

/* n clients, all running: TTFT and TPOT in ms, output tokens/s, and the
 * end-to-end seconds of a request (e2e). */
static void at_clients(const fs_llm_perf *p, double request_s, int n,
                       long in, long cached, long out, double *v,
                       double *e2e)
{
    double tpot = fs_llm_tpot_at_concurrency(p, n, in, cached, out);
    /* an engine that hands a step's tokens out after the next step
     * (output_lag) delays the first token, and so the last, by a step */
    double ttft = request_s + fs_llm_ttft_at_concurrency(p, n, in, cached,
                                                           out) +
                  p->output_lag * tpot;
    *e2e = ttft + (double)(out - 1) * tpot;
    v[FS_MET_TTFT] = 1e3 * ttft;
    v[FS_MET_TPOT] = 1e3 * tpot;
    v[FS_MET_TPUT] = (double)n * (double)out / *e2e;
}

/* The same at a fractional n in [1, cap], between the whole numbers. */
static double at_running(const fs_llm_perf *p, double rq, double n, int cap,
                         long in, long cached, long out, double *v)
{
    int n0 = (int)floor(n);
    if (n0 < 1)
        n0 = 1;
    if (n0 >= cap)
        n0 = cap;
    double e0, v0[FS_MET_COUNT];
    at_clients(p, rq, n0, in, cached, out, v0, &e0);
    double f = n - n0;
    if (n0 >= cap || f <= 0) {
        for (int k = 0; k < FS_MET_COUNT; k++)
            v[k] = v0[k];
        return e0;
    }
    double e1, v1[FS_MET_COUNT];
    at_clients(p, rq, n0 + 1, in, cached, out, v1, &e1);
    for (int k = 0; k < FS_MET_COUNT; k++)
        v[k] = v0[k] + f * (v1[k] - v0[k]);
    return e0 + f * (e1 - e0);
}

static void closed_loop(const fs_llm_perf *p, double rq, double clients,
                        int cap, long in, long cached, long out,
                        fs_llm_prediction *r)
{
    double n = clients < cap ? clients : cap;
    double e2e = at_running(p, rq, n, cap, in, cached, out, r->v);
    r->running = n;
    /* the clients beyond the running ones wait for a place: a request's
     * cycle is clients x e2e / running, of which e2e is served */
    if (clients > n)
        r->v[FS_MET_TTFT] += 1e3 * e2e * (clients / n - 1);
}

static void open_loop(const fs_llm_perf *p, double rq, double rate, int cap,
                      long in, long cached, long out, fs_llm_prediction *r)
{
    double v[FS_MET_COUNT];
    double lo = 1, hi = cap;
    if (rate * at_running(p, rq, hi, cap, in, cached, out, v) > hi) {
        closed_loop(p, rq, hi, cap, in, cached, out, r);
        r->overloaded = 1;
        return;
    }
    if (rate * at_running(p, rq, lo, cap, in, cached, out, v) <= lo) {
        hi = lo;
    } else {
        /* Little's law: rate x e2e(N) - N changes sign once in [lo, hi] */
        for (int it = 0; it < 50 && hi - lo > 1e-9 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            if (rate * at_running(p, rq, mid, cap, in, cached, out, v) > mid)
                lo = mid;
            else
                hi = mid;
        }
    }
    at_running(p, rq, hi, cap, in, cached, out, r->v);
    r->running = hi;
    r->v[FS_MET_TPUT] = rate * (double)out;
}

void fs_llm_predict(const fs_llm_perf *p, double request_s,
                    const fs_llm_measure *m, fs_llm_prediction *out)
{
    long in = lround(m->in), o = lround(m->out), cached = lround(m->cached);
    if (in < 1)
        in = 1;
    if (o < 2)
        o = 2;
    if (cached < 0 || cached >= in)
        cached = cached < 0 ? 0 : in - 1;
    int cap = running_cap(p, in, o);
    out->overloaded = 0;
    if (m->concurrency > 0)
        closed_loop(p, request_s, m->concurrency, cap, in, cached, o, out);
    else if (isinf(m->rate))
        closed_loop(p, request_s, cap, cap, in, cached, o, out);
    else
        open_loop(p, request_s, m->rate, cap, in, cached, o, out);
}
