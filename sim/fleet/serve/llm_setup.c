/* llm_setup.c -- an llm workload's replicas on its pools, and the memory
 * fit that refuses a scenario before any event.
 *
 * On each pool, the replica is tp GPUs of the pool's type, each cut as the
 * server's shape says (shape.h: compute and memory fractions, whole GPUs
 * today, MIG slices alike), joined by the GPU's interconnect (NVLink on an
 * SXM part, else PCIe: fs_llm_hw_default).  fs_llm_perf_init fills the
 * constants its iterations need, or says why the model does not fit:
 * then the scenario is refused at the workload's service key with the
 * breakdown in GB and the nearest configurations that do fit (precision
 * and tp together, on precisions the GPU runs: models/llm/llm_nearest.c; a
 * larger MIG slice; a catalog GPU with more memory). */
#include "sim/fleet/serve/llm_server.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_spec.h"
#include "sim/fleet/serve/llm_adapter.h"
#include "models/llm/mig.h"
#include "sim/base/rng.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The slice a replica runs on: the pool's one shape, or on a MIG pool
 * the workload's mig_profile (without one, the slice with the least
 * memory, which binds the fit: fs_shape_for_profile). */
static const fs_server_shape *replica_shape(const fs_workload *w,
                                            const fs_servers *p)
{
    if (p->nshapes == 0)
        return &p->shape;
    const fs_server_shape *sh =
        fs_shape_for_profile(p->shapes, p->nshapes, w->conf->mig_profile);
    return sh ? sh : &p->shape;
}

/* The replica's hardware for its memory fit: its shape's share (of
 * compute, its speed: a MIG slice's SMs, as fs_mig_slice_hw); on a
 * shared pool (timeslice or mps, N replicas) the whole GPU's compute and
 * 1/N of its memory, so that N replicas' weights and KV caches fit the
 * GPU together (its speed is the sharing's, llm_server.c). */
static void replica_hw(const fs_workload *w, const fs_servers *p,
                       fs_llm_hw *hw)
{
    const fs_server_shape *sh = replica_shape(w, p);
    fs_llm_hw_default(hw, &p->conf->gpu);
    hw->compute_frac = p->sharing ? 1 : sh->speed;
    hw->memory_frac = p->sharing ? 1.0 / p->conf->sharing_n : sh->memory;
}

static void replica_config(const fs_workload *w, const fs_servers *p,
                           fs_llm_config *c)
{
    fs_scenario_llm_config(w->conf, p->conf, c);
}

static int fits(const fs_llm_config *c, const fs_llm_hw *hw)
{
    fs_llm_perf perf;
    char why[8];
    return fs_llm_perf_init(&perf, c, hw, why, sizeof why) == 0;
}

static int fits_on(void *hw, const fs_llm_config *c)
{
    return fits(c, hw);
}

/* Appends to buf (len bytes, *n used), never past its end. */
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    *n = k < 0 ? len : *n + (size_t)k;
}

/* On a MIG pool: the smallest larger slice of the same GPU on which the
 * replica fits as it is, or NULL. */
static const fs_mig_profile *larger_slice(const fs_workload *w,
                                          const fs_servers *p,
                                          const fs_llm_config *c)
{
    const fs_mig_profile *prof[FS_MIG_MAX_PROFILES], *best = NULL;
    const fs_scenario *sc = w->sim->sc;
    double now = replica_shape(w, p)->memory;
    size_t n = sc->mig ? fs_mig_profiles(sc->mig, p->conf->gpu.name, prof,
                                         FS_MIG_MAX_PROFILES) : 0;
    for (size_t i = 0; i < n; i++) {
        fs_llm_hw hw;
        double mem = (double)prof[i]->memory / prof[i]->gpu_memory;
        fs_mig_slice_hw(prof[i], &p->conf->gpu, &hw);
        if (mem > now + 1e-9 && fits(c, &hw) &&
            (!best || prof[i]->memory < best->memory))
            best = prof[i];
    }
    return best;
}

/* The smallest catalog GPU with more memory than the pool's that holds
 * the replica as it is and runs its precision, or NULL. */
static const fs_gpu *larger_gpu(const fs_workload *w, const fs_servers *p,
                                const fs_llm_config *c, const fs_llm_hw *hw)
{
    const fs_catalog *cat = w->sim->sc->catalog;
    const fs_gpu *best = NULL;
    for (size_t i = 0; i < cat->ngpus; i++) {
        const fs_gpu *g = &cat->gpus[i];
        if (g->memory_gb <= p->conf->gpu.memory_gb ||
            (best && g->memory_gb >= best->memory_gb) ||
            !fs_precision_runs_on(g, c->weights, NULL, 0))
            continue;
        fs_llm_hw h = *hw;
        fs_llm_hw_default(&h, g);
        if (p->sharing)
            h.memory_frac = hw->memory_frac;
        if (fits(c, &h))
            best = g;
    }
    return best;
}

/* "tp=8 bf16 (instances of 8 GPUs), tp=2 int4; a larger slice: 3g.40gb;
 * a larger GPU: H100-80GB (80 GB)", or "": precision and TP searched
 * together on the pool's GPU (more TP only on whole, unshared GPUs:
 * slices do not talk over NVLink), then the same replica on a larger
 * slice or GPU. */
static void nearest_fits(const fs_workload *w, const fs_servers *p,
                         char *buf, size_t len)
{
    fs_llm_config c, near[6];
    fs_llm_hw hw;
    size_t n = 0;
    buf[0] = '\0';
    replica_config(w, p, &c);
    replica_hw(w, p, &hw);
    int sliced = p->nshapes && replica_shape(w, p)->profile;
    int k = fs_llm_nearest(&c, &p->conf->gpu, sliced || p->sharing ? c.tp : 8,
                           !w->conf->service.llm.kv_set, fits_on, &hw, near,
                           6);
    for (int i = 0; i < k; i++) {
        append(buf, len, &n, "%stp=%d %s", i ? ", " : "", near[i].tp,
               fs_precision_name(near[i].weights));
        if (near[i].tp > p->conf->gpus_per_instance)
            append(buf, len, &n, " (instances of %d GPUs)", near[i].tp);
    }
    const fs_mig_profile *slice = sliced ? larger_slice(w, p, &c) : NULL;
    if (slice)
        append(buf, len, &n, "%sa larger slice: %s", n ? "; " : "",
               slice->name);
    const fs_gpu *best = larger_gpu(w, p, &c, &hw);
    if (best)
        append(buf, len, &n, "%sa larger GPU: %s (%.0f GB)", n ? "; " : "",
               best->name, best->memory_gb);
}

static int refuse(const fs_workload *w, const fs_servers *p, const char *why,
                  fs_error *err)
{
    const fs_workload_conf *c = w->conf;
    const fs_llm_service *l = &c->service.llm;
    const fs_config_entry *e = fs_config_find(w->sim->sc->cfg, c->section,
                                              "service");
    char key[FS_NAME_MAX + 24], near[512];
    snprintf(key, sizeof key, "%s.service", c->section);
    nearest_fits(w, p, near, sizeof near);
    char shared[160] = "";
    if (p->sharing)
        snprintf(shared, sizeof shared, " as one of its %d %s replicas "
                 "(each %.1f GB: the replicas' models must fit the GPU "
                 "together)", p->conf->sharing_n,
                 p->conf->sharing == FS_SHARING_MPS ? "MPS" : "time-sliced",
                 p->conf->gpu.memory_gb / p->conf->sharing_n);
    else if (p->nshapes && replica_shape(w, p)->profile)
        snprintf(shared, sizeof shared, " on a %s slice (%.1f GB)",
                 replica_shape(w, p)->profile,
                 p->conf->gpu.memory_gb * replica_shape(w, p)->memory);
    return fs_error_at(err, e ? e->file : w->sim->sc->path, e ? e->line : 0,
                       key, "%s %s does not fit pool %s's %d x %s (tp=%d)%s: "
                       "%s; %s%s", l->model->name,
                       fs_precision_name(l->weights), p->conf->name,
                       l->tp > l->ep ? l->tp : l->ep, p->conf->gpu.name,
                       l->tp, shared, why,
                       near[0] ? "fits with " : "no configuration on the "
                       "catalog's GPUs fits", near);
}

/* The replica of a shared pool: its KV cache is what fits in its 1/N
 * of the GPU's memory (hw, checked by the caller), its timing the whole
 * GPU's alone (memory bandwidth too), slowed by the sharing at each
 * iteration (llm_server.c). */
static void shared_timing(fs_llm_perf *perf, const fs_llm_config *c,
                          const fs_llm_hw *hw)
{
    fs_llm_hw whole = *hw;
    fs_llm_perf alone;
    char why[8];
    whole.memory_frac = 1;
    if (fs_llm_perf_init(&alone, c, &whole, why, sizeof why) == 0) {
        alone.kv_capacity_tokens = perf->kv_capacity_tokens;
        alone.hw = perf->hw;
        *perf = alone;
    }
}

/* Seconds per token at a full decode batch: the autoscaler's measure of
 * queued work (a request's demand is its tokens). */
static double seconds_per_token(const fs_llm_perf *perf, int max_batch)
{
    const long ctx = 1024;
    long b = perf->kv_capacity_tokens / (2 * ctx);
    if (b > max_batch)
        b = max_batch;
    if (b < 1)
        b = 1;
    return fs_llm_iteration_time(perf, 0, 0, (int)b, b * ctx) / (double)b;
}

/* The pool's prefix_cache, or the engine profile's default: 0 (none) or
 * the fs_prefix_cache_mode its replicas run. */
static int prefix_mode(const fs_llm_perf *perf, const fs_pool_conf *pc)
{
    if (pc->prefix_cache == FS_PREFIX_CACHE_ENGINE)
        return perf->prefix_cache ? FS_PREFIX_CACHE_YES : 0;
    return pc->prefix_cache == FS_PREFIX_CACHE_NO ? 0 : (int)pc->prefix_cache;
}

/* sessions = turns(...): w's open sessions, from their own stream (with
 * or without a prefix cache: prefix_cache = no serves the same turns). */
static int session_init(fs_workload *w, unsigned replication, fs_error *err)
{
    const fs_workload_conf *c = w->conf;
    if (c->session_turns <= 0)
        return 0;
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "session:%s", c->name);
    w->session_rng = fs_rng_new(w->sim->sc->seed, replication, source);
    if (w->session_rng)
        w->sessions = fs_session_set_new(c->session_turns,
                                         c->session_think_s, w->session_rng);
    return w->sessions ? 0 : fs_error_set(err, "out of memory");
}

/* Prefix caching on any of w's pools: the store of its requests'
 * prefixes, keyed apart from other workloads' by its name, and the stream
 * that draws which requests start with prefix = shared(...)'s prompt. */
static int prefix_init(fs_workload *w, unsigned replication, int on,
                       fs_error *err)
{
    const fs_workload_conf *c = w->conf;
    if (!on)
        return 0;
    uint64_t salt = 1469598103934665603ULL;   /* FNV-1a of the name */
    for (const char *p = c->name; *p; p++)
        salt = (salt ^ (unsigned char)*p) * 1099511628211ULL;
    if (c->prefix_tokens > 0) {
        char source[FS_NAME_MAX + 16];
        snprintf(source, sizeof source, "prefix:%s", c->name);
        w->prefix_rng = fs_rng_new(w->sim->sc->seed, replication, source);
        if (!w->prefix_rng)
            return fs_error_set(err, "out of memory");
    }
    w->prefix = fs_prefix_store_new(salt, c->prefix_tokens, c->prefix_share,
                                    w->prefix_rng);
    return w->prefix ? 0 : fs_error_set(err, "out of memory");
}

int fs_llm_workload_init(fs_workload *w, unsigned replication, fs_error *err)
{
    int caching = 0;
    if (fs_hist_init(&w->llm.ttft) || fs_hist_init(&w->llm.tpot))
        return fs_error_set(err, "out of memory");
    for (int k = 0; k < w->npools; k++) {
        fs_servers *p = w->pools[k];
        fs_llm_config c;
        fs_llm_hw hw;
        char why[512];
        replica_config(w, p, &c);
        replica_hw(w, p, &hw);
        if (fs_llm_perf_init(&w->perf[k], &c, &hw, why, sizeof why))
            return refuse(w, p, why, err);
        if (p->sharing)
            shared_timing(&w->perf[k], &c, &hw);
        if (p->conf->kv_cache_tokens > 0)   /* the pool's kv_cache_tokens */
            w->perf[k].kv_capacity_tokens = p->conf->kv_cache_tokens / 16 * 16;
        if (fs_lora_fit(w, k, err))   /* adapters' memory from the KV */
            return -1;
        w->perf[k].prefix_cache = prefix_mode(&w->perf[k], p->conf);
        w->perf[k].prefix_cache_tokens = p->conf->prefix_cache_tokens;
        caching |= w->perf[k].prefix_cache != 0;
        w->speed[k] = seconds_per_token(&w->perf[k],
                                        w->conf->service.llm.max_batch);
        if (fs_llm_servers_init(p))
            return fs_error_set(err, "out of memory");
    }
    if (fs_spec_workload_init(w, replication, err) ||
        fs_llm_disagg_init(w, err) ||
        fs_lora_workload_init(w, replication, err))
        return -1;
    return prefix_init(w, replication, caching, err) ||
           session_init(w, replication, err);
}

int fs_llm_check_tokens(const fs_workload *w, const fs_trace_stats *st,
                        fs_error *err)
{
    static const char *const keys[] = {"tokens_in", "tokens_out"};
    static const char *const what[] = {"prompt", "output"};
    static const char *const eg[] = {"lognormal(mean=1000, sigma=1)",
                                     "lognormal(mean=250, sigma=0.8)"};
    const fs_workload_conf *c = w->conf;
    const fs_llm_service *l = &c->service.llm;
    int has[] = {l->has_tokens_in || st->has_tokens_in,
                 l->has_tokens_out || st->has_tokens_out};
    const fs_config_entry *e = fs_config_find(w->sim->sc->cfg, c->section,
                                              "service");
    for (int i = 0; i < 2; i++) {
        char key[FS_NAME_MAX + 24];
        if (has[i])
            continue;
        snprintf(key, sizeof key, "%s.%s", c->section, keys[i]);
        return fs_error_at(err, e ? e->file : w->sim->sc->path,
                           e ? e->line : 0, key, "llm(): the requests' %s "
                           "lengths are unknown: give %s = (a distribution "
                           "of token counts, e.g. %s), or replay a trace "
                           "with a %s column (format=azure-llm, or generic "
                           "with %s=COLUMN)", what[i], keys[i], eg[i],
                           keys[i], keys[i]);
    }
    return 0;
}

void fs_llm_workload_free(fs_workload *w)
{
    if (w->llm.ttft.n)
        fs_hist_free(&w->llm.ttft);
    if (w->llm.tpot.n)
        fs_hist_free(&w->llm.tpot);
    fs_spec_workload_free(w);
    fs_llm_disagg_free(w);
    fs_lora_workload_free(w);
}

double fs_llm_estimate_iterations(const fs_workload *w, double requests)
{
    const fs_llm_service *l = &w->conf->service.llm;
    double horizon = w->sim->sc->horizon_s, most = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_servers *p = w->pools[k];
        double t = fs_llm_iteration_time(&w->perf[k], 0, 0, 1, 1);
        if (t > 0)
            most += (double)p->nservers * horizon / t;
    }
    if (!l->has_tokens_out)
        return most;
    double per = fs_dist_mean(&l->tokens_out) + 1;
    return requests * per < most ? requests * per : most;
}
