/* service_llm.c -- llm(model=M, precision=P[, tp=N][, ep=N][, max_batch=B]
 * [, kv_precision=P][, engine=E][, profile=FILE][, chunked_prefill=T]): an
 * LLM served by iteration-level continuous batching.  The engine names a
 * serving-stack profile (models/llm/llm_engine.h), resolved by the scenario
 * against engines.csv or profile=FILE.
 *
 * A request's work follows from its tokens, not from a drawn duration: the
 * prompt (tokens_in) is prefilled, then one token is generated per decode
 * iteration until tokens_out are out.  Traces carry both counts (Azure LLM
 * traces: ContextTokens, GeneratedTokens); for generated arrivals, or a
 * trace without them, they are drawn at arrival from the workload's
 * tokens_in = / tokens_out = distributions on its service stream, in/out
 * in that order (common random numbers across fleets).
 *
 * The time an iteration takes is the hardware model's (models/llm/llm.h); the
 * fleet's continuous-batching server (sim/fleet/serve/llm_server.c) runs it, so
 * this model's batch_time is never called for lockstep batches.  A
 * request's demand is its token count, in+out: the work the autoscaler
 * sees queued (the server converts tokens to seconds). */
#include "models/service/service.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Tokens of one request, at least 1 and at most FS_LLM_TOKENS_MAX. */
#define FS_LLM_TOKENS_MAX 10000000

static int llm_int_arg(const fs_call *c, const char *key, long lo, long hi,
                       long *out, char *why, size_t whylen)
{
    const char *v = fs_call_get(c, key);
    if (!v)
        return 0;
    char w[160];
    if (fs_parse_count(v, out, w, sizeof w) || *out < lo || *out > hi) {
        snprintf(why, whylen, "llm(): %s must be an integer from %ld to %ld, "
                 "got '%s'", key, lo, hi, v);
        return -1;
    }
    return 0;
}

static int llm_precision_arg(const fs_call *c, const char *key,
                             fs_precision *out, char *why, size_t whylen)
{
    const char *v = fs_call_get(c, key);
    if (!v)
        return 0;
    if (fs_precision_parse(v, out) || *out == FS_PREC_FP32) {
        snprintf(why, whylen, "llm(): %s must be bf16, fp16, fp8, int8 or "
                 "int4, got '%s'", key, v);
        return -1;
    }
    return 1;
}

/* engine=NAME[@VERSION] and profile=FILE, kept as written: the scenario
 * finds the profile (scenario_llm_engine.c). */
static int llm_engine_args(const fs_call *c, fs_llm_service *l, char *why,
                           size_t whylen)
{
    const char *e = fs_call_get(c, "engine");
    const char *f = fs_call_get(c, "profile");
    l->engine_set = e != NULL;
    if (!e)
        e = fs_llm_engine_default();
    if (!e[0] || strlen(e) >= sizeof l->engine) {
        snprintf(why, whylen, "llm(): engine: expected a profile name of 1 "
                 "to %zu characters (vllm, vllm@0.2, trt-llm, ...)",
                 sizeof l->engine - 1);
        return -1;
    }
    snprintf(l->engine, sizeof l->engine, "%s", e);
    if (f && (!f[0] || strlen(f) >= sizeof l->profile)) {
        snprintf(why, whylen, "llm(): profile: expected a file name of 1 to "
                 "%zu characters", sizeof l->profile - 1);
        return -1;
    }
    snprintf(l->profile, sizeof l->profile, "%s", f ? f : "");
    return 0;
}

static int llm_parse(const fs_call *c, fs_service *s, char *why,
                     size_t whylen)
{
    static const char *const keys[] = {
        "model", "precision", "tp", "ep", "max_batch", "kv_precision",
        "engine", "chunked_prefill", "profile", NULL};
    fs_llm_service *l = &s->llm;
    if (fs_call_check_keys(c, keys, why, whylen))
        return -1;
    const char *m = fs_call_get(c, "model");
    if (!m)
        m = fs_call_positional(c, 0);
    if (!m || !*m) {
        snprintf(why, whylen, "llm() needs model= (a model of `fleetsim "
                 "catalog models`, e.g. llm(model=llama-3-8b, "
                 "precision=bf16))");
        return -1;
    }
    if (strlen(m) >= sizeof l->model_name) {
        snprintf(why, whylen, "llm(): model name too long: '%s'", m);
        return -1;
    }
    snprintf(l->model_name, sizeof l->model_name, "%s", m);
    l->weights = FS_PREC_BF16;
    long tp = 1, ep = 1, batch = 256, chunk = 0;
    if (llm_precision_arg(c, "precision", &l->weights, why, whylen) < 0)
        return -1;
    int kv = llm_precision_arg(c, "kv_precision", &l->kv, why, whylen);
    if (kv < 0)
        return -1;
    l->kv_set = kv;
    if (llm_int_arg(c, "tp", 1, 8, &tp, why, whylen) ||
        llm_int_arg(c, "ep", 1, 8, &ep, why, whylen) ||
        llm_int_arg(c, "max_batch", 1, 4096, &batch, why, whylen) ||
        llm_int_arg(c, "chunked_prefill", 16, 1 << 20, &chunk, why, whylen))
        return -1;
    if (tp & (tp - 1)) {
        snprintf(why, whylen, "llm(): tp must be 1, 2, 4 or 8, got %ld", tp);
        return -1;
    }
    if (ep & (ep - 1)) {
        snprintf(why, whylen, "llm(): ep must be 1, 2, 4 or 8, got %ld", ep);
        return -1;
    }
    l->tp = (int)tp;
    l->ep = (int)ep;
    l->max_batch = (int)batch;
    l->chunked_prefill = chunk;
    l->max_batch_set = fs_call_get(c, "max_batch") != NULL;
    l->chunk_set = fs_call_get(c, "chunked_prefill") != NULL;
    return llm_engine_args(c, l, why, whylen);
}

/* A token count drawn from d: rounded, at least 1. */
static int32_t draw_tokens(const fs_dist *d, gsl_rng *rng)
{
    double x = floor(fs_dist_draw(d, rng) + 0.5);
    if (!(x >= 1))
        return 1;
    return x > FS_LLM_TOKENS_MAX ? FS_LLM_TOKENS_MAX : (int32_t)x;
}

static void llm_arrive(const fs_service *s, gsl_rng *rng, double recorded_s,
                       fs_request *r)
{
    (void)recorded_s;
    const fs_llm_service *l = &s->llm;
    if (r->tokens_in < 0 && l->has_tokens_in)
        r->tokens_in = draw_tokens(&l->tokens_in, rng);
    if (r->tokens_out < 0 && l->has_tokens_out)
        r->tokens_out = draw_tokens(&l->tokens_out, rng);
    if (r->tokens_in < 0)
        r->tokens_in = 1;
    if (r->tokens_out < 0)
        r->tokens_out = 1;
    r->demand = (double)r->tokens_in + (double)r->tokens_out;
}

/* Not a lockstep model: the continuous-batching server times iterations
 * itself.  Kept total for callers that ask anyway: the demand in tokens. */
static double llm_batch_time(const fs_service *s, const fs_request *batch,
                             int n, double speed)
{
    return fs_service_longest(s, batch, n, speed);
}

const fs_service_model fs_service_llm = {
    .name = "llm",
    .usage = "llm(model=M, precision=bf16|fp16|fp8|int8|int4, tp=1|2|4|8, "
             "ep=1|2|4|8, max_batch=256, kv_precision=P, engine=vllm|vllm@VERSION|trt-llm|"
             "sglang, profile=FILE, chunked_prefill=512)",
    .server = "continuous",
    .parse = llm_parse,
    .arrive = llm_arrive,
    .batch_time = llm_batch_time,
};
