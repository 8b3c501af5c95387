/* llm_adapter.c -- LoRA adapters on an LLM workload's base model.
 *
 * Teams serve dozens of fine-tuned adapters on one base model: the base
 * weights once per replica, the adapters' small matrices beside them, and
 * requests for different adapters batched together (vLLM multi-LoRA,
 * S-LoRA arXiv:2311.03285, Punica arXiv:2310.18547).  As vLLM runs it:
 *
 *   - Each request asks for one of the workload's `adapters`, drawn from
 *     `adapter_popularity` (zipf(S): adapter i, 1 the most popular, with
 *     weight i^-S) by GSL's discrete (alias) sampler on the workload's own
 *     stream "adapter:NAME", so the other streams draw as without it.
 *   - A replica holds at most `max_adapters` loaded (vLLM's max_loras),
 *     whose memory, max_adapters x the adapter's bytes (16-bit, r x
 *     layers x (in + out) of every attention and FFN matrix), is taken
 *     from its KV cache up front, as vLLM preallocates its LoRA slots.
 *   - A request is admitted when its adapter is loaded, or when a slot is
 *     free or holds an adapter no running request uses (the least
 *     recently used such slot is evicted); otherwise it waits at the head
 *     of the queue (FIFO: the requests behind it wait too).  A missing
 *     adapter loads in the iteration that admits its request: vLLM
 *     copies it in before the step runs, so the whole batch waits for
 *     it, and the request's TTFT holds the load.  The load takes
 *     `adapter_load_time`, by default the adapter's bytes over the PCIe
 *     link from host memory (S-LoRA keeps every adapter in host memory;
 *     one from disk loads slower: measure it).
 *   - Every iteration of a replica serving adapters pays the batched
 *     kernels' time, `adapter_overhead` (default 2 ms: Punica's SGMV
 *     kernels add about 2 ms a token, abstract and section 7, and their
 *     cost hardly moves with the number of distinct adapters in the
 *     batch), so with every adapter loaded the latency is that of one
 *     adapter served alone.
 *
 * Results per adapter: requests, tokens, mean TTFT and end-to-end
 * latency, loads, and the GPU-seconds its requests took (each iteration's
 * time split equally among the requests it ran, a load charged to the
 * adapter loaded), by which the workload's cost is shown back. */
#include "sim/fleet/serve/llm_adapter.h"
#include "sim/fleet/serve/dispatch.h"
#include "sim/fleet/serve/llm_run.h"
#include "sim/base/owned.h"
#include "sim/base/rng.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lora_stat {
    long requests, measured, loads;
    double tokens_in, tokens_out, ttft_sum, e2e_sum, gpu_s;
} lora_stat;

struct fs_lora_run {
    const fs_adapter_conf *conf;
    gsl_rng *rng;
    gsl_ran_discrete_t *table;
    lora_stat *st;          /* conf->n */
    double load_s[FS_MAX_POOLS_PER_WORKLOAD];   /* per pool of the workload */
    long loads;
    double load_sum;        /* seconds iterations waited for loads */
};

/* A replica's adapter slots: which adapter each holds (-1 none), how many
 * running requests use it, and when it was last used (a counter). */
typedef struct fs_lora_slots {
    const fs_workload *w;   /* whose adapters the ids are */
    int n;
    int32_t *id, *refs;
    unsigned long *used, tick;
    double pending_s;       /* loads of the iteration being planned */
} fs_lora_slots;

double fs_lora_adapter_bytes(const fs_llm_model *m, long rank)
{
    return fs_llm_lora_params(m, rank) * 2.0;
}

/* sum_j j^-s over the n adapters, smallest terms first. */
static double zipf_sum(long n, double s)
{
    double sum = 0;
    for (long j = n; j >= 1; j--)
        sum += pow((double)j, -s);
    return sum;
}

double fs_lora_share(long n, double s, long i)
{
    return pow((double)(i + 1), -s) / zipf_sum(n, s);
}

static int pool_index(const fs_workload *w, const fs_servers *p)
{
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k] == p)
            return k;
    return 0;
}

double fs_lora_load_s(const fs_workload *w, const fs_llm_perf *perf)
{
    const fs_adapter_conf *a = &w->conf->adapters;
    if (!isnan(a->load_s))
        return a->load_s;
    const fs_gpu *g = perf->hw.gpu;
    double gbs = g && g->pcie_gbs > 0 ? g->pcie_gbs / 2 : 16;
    double bytes = fs_lora_adapter_bytes(w->conf->service.llm.model, a->rank);
    int tp = perf->cfg.tp > 0 ? perf->cfg.tp : 1;
    return bytes / tp / (gbs * 1e9);
}

int fs_lora_fit(fs_workload *w, int k, fs_error *err)
{
    const fs_adapter_conf *a = &w->conf->adapters;
    fs_llm_perf *perf = &w->perf[k];
    if (a->n <= 0)
        return 0;
    double each = fs_lora_adapter_bytes(w->conf->service.llm.model, a->rank);
    double bytes = each * (double)a->max_loaded;
    long tokens = perf->kv_bytes_per_token > 0
        ? (long)ceil(bytes / perf->kv_bytes_per_token) : 0;
    tokens = (tokens + 15) / 16 * 16;
    /* one block of KV cache at least, and room for one request */
    if (perf->kv_capacity_tokens - tokens >= 32) {
        perf->kv_capacity_tokens -= tokens;
        return 0;
    }
    const fs_config_entry *e = a->max_entry ? a->max_entry : a->entry;
    char key[FS_NAME_MAX + 32];
    snprintf(key, sizeof key, "%s.%s", w->conf->section, e->key);
    return fs_error_at(err, e->file, e->line, key, "%ld adapters of rank "
                       "%ld (%.3f GB each, %.2f GB loaded at once) do not "
                       "fit beside %s on pool %s: its KV cache holds "
                       "%.2f GB (%ld tokens); lower max_adapters or "
                       "adapter_rank, or give the replica more memory",
                       a->max_loaded, a->rank, each / 1e9, bytes / 1e9,
                       w->conf->service.llm.model->name,
                       w->pools[k]->conf->name,
                       perf->kv_capacity_tokens * perf->kv_bytes_per_token /
                           1e9, perf->kv_capacity_tokens);
}

int fs_lora_workload_init(fs_workload *w, unsigned replication,
                          fs_error *err)
{
    const fs_adapter_conf *a = &w->conf->adapters;
    if (a->n <= 0)
        return 0;
    fs_lora_run *lr = calloc(1, sizeof *lr);
    double *weight = malloc((size_t)a->n * sizeof *weight);
    w->lora = lr;
    if (lr)
        lr->st = calloc((size_t)a->n, sizeof *lr->st);
    if (!lr || !weight || !lr->st) {
        free(weight);
        return fs_error_set(err, "out of memory");
    }
    lr->conf = a;
    for (long i = 0; i < a->n; i++)
        weight[i] = pow((double)(i + 1), -a->zipf_s);
    lr->table = gsl_ran_discrete_preproc((size_t)a->n, weight);
    free(weight);
    char source[FS_NAME_MAX + 16];
    snprintf(source, sizeof source, "adapter:%s", w->conf->name);
    lr->rng = fs_rng_new(w->sim->sc->seed, replication, source);
    for (int k = 0; k < w->npools; k++)
        lr->load_s[k] = fs_lora_load_s(w, &w->perf[k]);
    return lr->table && lr->rng ? 0 : fs_error_set(err, "out of memory");
}

void fs_lora_workload_free(fs_workload *w)
{
    fs_lora_run *lr = w->lora;
    if (!lr)
        return;
    if (lr->table)
        gsl_ran_discrete_free(lr->table);
    if (lr->rng)
        gsl_rng_free(lr->rng);
    free(lr->st);
    free(lr);
    w->lora = NULL;
}

int32_t fs_lora_draw(fs_workload *w)
{
    if (!w->lora)
        return -1;
    return (int32_t)gsl_ran_discrete(w->lora->rng, w->lora->table);
}

/* s's slots for its workload's adapters, made the first time (once per
 * server, never per request) and emptied when the server turns to
 * another workload's adapters; NULL when out of memory. */
static fs_lora_slots *slots_of(fs_server *s)
{
    fs_lora_slots *sl = s->llm->lora;
    int n = (int)s->wl->conf->adapters.max_loaded;
    if (sl && sl->n < n) {
        fs_lora_slots_free(s->llm);
        sl = NULL;
    }
    if (!sl) {
        sl = calloc(1, sizeof *sl);
        if (!sl)
            return NULL;
        sl->id = malloc((size_t)n * sizeof *sl->id);
        sl->refs = calloc((size_t)n, sizeof *sl->refs);
        sl->used = calloc((size_t)n, sizeof *sl->used);
        s->llm->lora = sl;
        if (!sl->id || !sl->refs || !sl->used)
            return NULL;
        sl->n = n;
        sl->w = NULL;
    }
    if (sl->w != s->wl) {
        for (int i = 0; i < sl->n; i++) {
            sl->id[i] = -1;
            sl->refs[i] = 0;
            sl->used[i] = 0;
        }
        sl->w = s->wl;
        sl->n = n;
    }
    return sl;
}

/* The slot holding adapter a, or the slot to load it into (a free one,
 * else the least recently used idle one), or -1. */
static int slot_for(const fs_lora_slots *sl, int32_t a, int *loaded)
{
    int best = -1;
    *loaded = 0;
    for (int i = 0; i < sl->n; i++) {
        if (sl->id[i] == a) {
            *loaded = 1;
            return i;
        }
        if (sl->refs[i] == 0 &&
            (best < 0 || (sl->id[best] >= 0 &&
                          (sl->id[i] < 0 || sl->used[i] < sl->used[best]))))
            best = i;
    }
    return best;
}

int fs_lora_admits(const fs_server *s, const fs_request *r)
{
    const fs_lora_slots *sl = s->llm->lora;
    int loaded;
    if (!s->wl->lora || r->adapter < 0 || !sl || sl->w != s->wl)
        return 1;
    return slot_for(sl, r->adapter, &loaded) >= 0;
}

void fs_lora_acquire(fs_server *s, const fs_request *r)
{
    fs_lora_run *lr = s->wl->lora;
    if (!lr || r->adapter < 0)
        return;
    fs_lora_slots *sl = slots_of(s);
    if (!sl) {
        fs_error_set(s->wl->sim->err, "out of memory loading adapters");
        fs_sim_fail(s->wl->sim);
        return;
    }
    int loaded, i = slot_for(sl, r->adapter, &loaded);
    if (i < 0)   /* fs_lora_admits said yes: a run's first never waits */
        return;
    if (!loaded) {
        double t = lr->load_s[pool_index(s->wl, s->pool)];
        sl->id[i] = r->adapter;
        sl->pending_s += t;
        lr->st[r->adapter].loads++;
        lr->st[r->adapter].gpu_s += t;
        lr->loads++;
        lr->load_sum += t;
    }
    sl->refs[i]++;
    sl->used[i] = ++sl->tick;
}

void fs_lora_release(fs_server *s, const fs_request *r)
{
    fs_lora_slots *sl = s->llm->lora;
    if (!s->wl->lora || r->adapter < 0 || !sl || sl->w != s->wl)
        return;
    for (int i = 0; i < sl->n; i++)
        if (sl->id[i] == r->adapter && sl->refs[i] > 0) {
            sl->refs[i]--;
            sl->used[i] = ++sl->tick;
            return;
        }
}

double fs_lora_step(fs_server *s, double t)
{
    fs_lora_run *lr = s->wl->lora;
    fs_lora_slots *sl = s->llm->lora;
    fs_llm_run *run = s->llm;
    if (!lr || run->n == 0)
        return 0;
    double extra = lr->conf->overhead_s;
    if (sl) {
        extra += sl->pending_s;
        sl->pending_s = 0;
    }
    double each = (t + lr->conf->overhead_s) / run->n;
    for (int i = 0; i < run->n; i++)
        if (run->seq[i].r.adapter >= 0)
            lr->st[run->seq[i].r.adapter].gpu_s += each;
    return extra;
}

void fs_lora_retire(fs_server *s, const fs_request *r, double ttft,
                    double e2e, int measured)
{
    fs_lora_run *lr = s->wl->lora;
    if (!lr || r->adapter < 0)
        return;
    lora_stat *st = &lr->st[r->adapter];
    st->requests++;
    st->tokens_in += r->tokens_in > 0 ? r->tokens_in : 0;
    st->tokens_out += r->tokens_out > 0 ? r->tokens_out : 0;
    if (measured) {
        st->measured++;
        st->ttft_sum += ttft;
        st->e2e_sum += e2e;
    }
    fs_lora_release(s, r);
}

void fs_lora_lose(fs_server *s)
{
    fs_lora_slots *sl = s->llm->lora;
    if (sl)
        sl->w = NULL;   /* emptied when next used */
}

void fs_lora_slots_free(fs_llm_run *run)
{
    fs_lora_slots *sl = run->lora;
    if (sl)
        FS_FREE_ALL(sl->id, sl->refs, sl->used, sl);
    run->lora = NULL;
}

int fs_lora_collect(const fs_workload *w, double cost_usd, fs_llm_row *row,
                    fs_results *out)
{
    const fs_lora_run *lr = w->lora;
    if (!lr)
        return 0;
    const fs_adapter_conf *a = lr->conf;
    double gpu = 0, norm = zipf_sum(a->n, a->zipf_s);
    for (long i = 0; i < a->n; i++)
        gpu += lr->st[i].gpu_s;
    row->adapters = a->n;
    row->adapter_rank = a->rank;
    row->max_adapters = a->max_loaded;
    row->adapter_zipf_s = a->zipf_s;
    row->adapter_load_s = lr->load_s[0];
    row->adapter_loads = lr->loads;
    row->adapter_load_sum_s = lr->load_sum;
    for (long i = 0; i < a->n; i++) {
        const lora_stat *st = &lr->st[i];
        fs_adapter_row *ar = fs_results_add_adapter(out);
        if (!ar)
            return -1;
        snprintf(ar->workload, sizeof ar->workload, "%s", w->conf->name);
        ar->adapter = i + 1;
        ar->share_expected = pow((double)(i + 1), -a->zipf_s) / norm;
        ar->requests = st->requests;
        ar->tokens_in = st->tokens_in;
        ar->tokens_out = st->tokens_out;
        ar->ttft_mean_s = st->measured ? st->ttft_sum / st->measured : NAN;
        ar->e2e_mean_s = st->measured ? st->e2e_sum / st->measured : NAN;
        ar->loads = st->loads;
        ar->gpu_s = st->gpu_s;
        ar->cost_usd = gpu > 0 ? cost_usd * st->gpu_s / gpu : 0;
        double tok = st->tokens_in + st->tokens_out;
        ar->cost_per_mtok_usd = tok > 0 ? ar->cost_usd / tok * 1e6 : NAN;
    }
    return 0;
}
