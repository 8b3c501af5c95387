/* cmd_fit.c -- `fleetsim fit MODEL --gpu GPU`: does a model fit a GPU.
 *
 * Inference (weights, KV cache for --batch sequences of --context tokens,
 * activations, runtime overhead) or, with --training, a fine-tune's memory
 * (weights, gradients, optimizer states, fp32 master weights on their own
 * line, activations for --batch x --seq with or without activation
 * checkpointing, ZeRO 0-3 over --gpus; LoRA adapters of --lora-rank on a
 * frozen base, --qlora on a 4-bit one) and its tokens/s.  Prints the
 * breakdown in GB (10^9 bytes) per GPU, whether it fits, the largest batch
 * (and context) that fits, the nearest configurations that fit when it does
 * not (a fine-tune: the ZeRO stages and GPU counts), and every catalog GPU on which it fits with its cheapest instance
 * type, cheapest first.  The arithmetic is models/llm/llm_memory.c's. */
#include "sim/cli/commands.h"
#include "sim/cli/fit/fit.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"
#include "sim/store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* One line of the breakdown; zero lines are left out. */
static void line(const char *what, double gb, const char *note)
{
    printf("  %-18s %8.1f GB%s%s\n", what, gb, note[0] ? "   " : "", note);
}

static void print_verdict(const fs_llm_memory *m)
{
    printf("  %-18s %8.1f GB of %.1f GB: %s\n", "total", m->total,
           m->capacity, m->fits ? "fits" : "does NOT fit");
}

/* With an engine the memory is what the driver reports, as the engine
 * sizes its cache from it (gpus.csv reported_gib), not the datasheet's. */
static void print_reported(const fs_gpu *g, const fs_llm_memory *m)
{
    char note[160];
    if (g->reported_gib > 0)
        snprintf(note, sizeof note, "(the driver's total, %.2f GiB, that "
                 "the engine sizes from; datasheet %g GB)", g->reported_gib,
                 g->memory_gb);
    else
        snprintf(note, sizeof note, "(the datasheet's: no total reported "
                 "by the driver found for %s)", g->name);
    line("memory", m->capacity, note);
}

/* The memory for the arguments on one GPU: training or inference. */
static void fit_on(const fit_args *a, const fs_llm_model *m,
                   const fs_llm_config *cfg, const fs_gpu *g, int batch,
                   long context, fs_llm_memory *out)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, g);
    if (a->training) {
        fs_llm_training t = a->train;
        t.batch = batch;
        fs_llm_fit_training(m, &t, &hw, out);
    } else {
        fs_llm_fit_inference(cfg, &hw, context, batch, out);
    }
}

/* The largest whole n in [1, hi] for which fits(n), by bisection (memory
 * grows with n); 0 when not even 1 fits. */
static long largest(const fit_args *a, const fs_llm_model *m,
                    const fs_gpu *g, int by_context, long hi)
{
    fs_llm_memory mem;
    long lo = 0;
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (by_context)
            fit_on(a, m, &a->cfg, g, a->batch ? a->batch : 1, mid, &mem);
        else
            fit_on(a, m, &a->cfg, g, (int)mid,
                   a->context ? a->context : m->max_context, &mem);
        if (mem.fits)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* A mixture of experts: the experts a decode step touches at a few
 * batches (fs_llm_moe_route) and, with EP, the all-to-all a token pays. */
static void print_moe(const fs_llm_perf *p)
{
    const fs_llm_model *m = p->cfg.model;
    int ep = p->cfg.ep > 1 ? p->cfg.ep : 1;
    if (m->experts <= 0)
        return;
    printf("  routed experts a decode step touches a MoE layer (of %d, top "
           "%d, %d shared; E (1 - (1 - k/E)^B))", m->experts,
           m->experts_per_token, m->shared_experts);
    if (ep > 1)
        printf(" (and per EP rank of %d)", ep);
    printf(":");
    static const int batches[] = {1, 16, 64, 256};
    for (int i = 0; i < 4; i++) {
        fs_llm_moe_load l;
        fs_llm_moe_route(m->experts, m->experts_per_token, m->shared_experts,
                         batches[i], &l);
        printf("%s B %d: %.1f", i ? "," : "", batches[i], l.touched);
        if (ep > 1)
            printf(" (%.1f)", l.touched / ep);
    }
    printf("\n");
    if (ep > 1)
        printf("  all-to-all (dispatch + combine, %d MoE layers): %.2f us a "
               "token, %.1f distinct ranks of a token's %d experts\n",
               fs_llm_moe_layers(m), p->alltoall_s * 1e6,
               fs_llm_ep_ranks_per_token(m->experts, ep,
                                         m->experts_per_token),
               m->experts_per_token);
}

/* "KV cache: 1,234,567 tokens at 16-token blocks": what the engine's
 * profile makes of the memory beside the weights (fs_llm_perf_init). */
static void print_kv_capacity(const fit_args *a, const fs_gpu *g)
{
    fs_llm_hw hw;
    fs_llm_perf p;
    char why[512], num[32];
    fs_llm_hw_default(&hw, g);
    if (fs_llm_perf_init(&p, &a->cfg, &hw, why, sizeof why)) {
        printf("  KV cache: none (no 16-token block fits)\n");
        return;
    }
    fs_format_thousands((double)p.kv_capacity_tokens, 0, num, sizeof num);
    printf("  KV cache: %s tokens at 16-token blocks (engine %s, the whole "
           "replica)\n", num, a->cfg.engine);
    const fs_llm_model *m = a->cfg.model;
    int groups = fs_llm_kv_groups(m);
    char held[64] = "";
    if (groups == 1 && a->cfg.tp > 1)
        snprintf(held, sizeof held, "; whole on each GPU of tp");
    else if (groups < a->cfg.tp)
        snprintf(held, sizeof held, "; each KV head on %d GPUs",
                 a->cfg.tp / groups);
    printf("  a token caches %.0f bytes: %d layers x %.0f values (%s) x "
           "%g bytes%s\n", fs_llm_kv_bytes_per_token(&a->cfg), m->layers,
           fs_llm_kv_values(m), m->attention == FS_ATTN_MLA
               ? "MLA: the latent kv_lora_rank + the rotary key"
               : "GQA: 2 x KV heads x head_dim",
           fs_precision_bytes(a->cfg.kv), held);
    print_moe(&p);
}

/* The weights; an MoE's in its two parts: the dense part (attention,
 * dense layers, shared experts, embeddings) over tp, the routed experts
 * over the replica's GPUs. */
static void weights_line(const fs_llm_config *c, const fs_llm_memory *mem)
{
    const fs_llm_model *m = c->model;
    char note[160] = "";
    if (m->experts > 0) {
        double wb = fs_precision_bytes(c->weights);
        double routed = m->expert_params * m->experts * wb;
        snprintf(note, sizeof note, "(dense part %.1f over tp=%d + %d routed "
                 "experts %.1f over %d GPUs)",
                 (m->params * wb - routed) / (c->tp > 0 ? c->tp : 1) / 1e9,
                 c->tp, m->experts, routed / fs_llm_gpus(c) / 1e9,
                 fs_llm_gpus(c));
    }
    line("weights", mem->weights, note);
}

/* A release that keeps its all-reduce inputs to the pass's end: how
 * many, of how many tokens (llm_memory.c). */
static void held_line(const fs_llm_config *c, const fs_gpu *g,
                      const fs_llm_memory *mem)
{
    const fs_llm_engine *e = fs_llm_engines_find(c->engines, c->engine,
                                                 g->generation);
    char note[200];
    snprintf(note, sizeof note, "(held: %g a layer x %d layers, %.0f "
             "tokens' hidden state each; %s keeps each to the profiling "
             "pass's end)", e->allreduce_held, c->model->layers,
             e->max_num_batched_tokens, c->engine);
    line("all-reduce inputs", mem->allreduce_held, note);
}

static void print_inference(const fit_args *a, const fs_llm_model *m,
                            const fs_gpu *g, const fs_llm_memory *mem)
{
    printf("%s on %s: %s weights, %s KV cache, tp=%d", m->name, g->name,
           fs_precision_name(a->cfg.weights), fs_precision_name(a->cfg.kv),
           a->cfg.tp);
    if (a->cfg.ep > 1)
        printf(", ep=%d (%d GPUs a replica)", a->cfg.ep,
               fs_llm_gpus(&a->cfg));
    printf(" (per GPU; GB = 10^9 bytes)\n");
    char note[160];
    weights_line(&a->cfg, mem);
    if (mem->spec > 0)
        line("draft/MTP weights", mem->spec, a->spec.draft
             ? "(the draft model's; its KV cache beside the model's)"
             : "(the MTP module: a block and its projection; its KV cache "
               "beside the model's)");
    snprintf(note, sizeof note, "(%d x %ld tokens, %.0f bytes a token on "
             "each GPU)", a->batch, a->context,
             fs_llm_kv_bytes_per_gpu_token(&a->cfg) +
                 fs_llm_spec_kv_bytes_gpu_token(&a->cfg));
    if (a->batch)
        line("KV cache", mem->kv_cache, note);
    int stack = mem->reserved > 0 || mem->cuda_graphs > 0;
    line("activations", mem->activations, stack ? "(the engine's profiling "
         "run)" : "(one prefill chunk)");
    if (mem->allreduce_held > 0)
        held_line(&a->cfg, g, mem);
    line("runtime overhead", mem->overhead, stack ? "(outside the engine's "
         "tensors: context, communication buffers)" : "(CUDA context, "
         "workspaces: 1 GB + 4% of memory)");
    line("CUDA graphs", mem->cuda_graphs, "");
    snprintf(note, sizeof note, "(the %s engine's share left unused)",
             a->cfg.engine);
    line("kept free", mem->reserved, note);
    if (stack)
        print_reported(g, mem);
    print_verdict(mem);
    print_kv_capacity(a, g);
    long ctx = a->context ? a->context : m->max_context;
    long b = largest(a, m, g, 0, 100000);
    printf("  largest batch at %ld tokens of context: %ld\n", ctx, b);
    long c = largest(a, m, g, 1, m->max_context);
    printf("  largest context at batch %d: %ld tokens%s\n",
           a->batch ? a->batch : 1, c,
           c == m->max_context ? " (the model's maximum)" : "");
}

/* tokens/s per GPU and the FLOPs a token takes: 6 x (8 x recomputing)
 * the active parameters, or with LoRA 4 x (6 x) the frozen base, whose
 * weight gradients are never computed, plus 6 x (8 x) the adapters. */
static void print_throughput(const fs_llm_training *t, const fs_llm_model *m,
                             const fs_gpu *g, double mfu)
{
    double tps = fs_llm_training_tokens_per_s(m, g, t->weights, mfu,
                                              t->checkpointing, t->lora_rank);
    double flops = fs_llm_training_flops_per_token(m, t->lora_rank,
                                                   t->checkpointing);
    int rc = t->checkpointing ? 2 : 0;
    printf("  throughput: %.0f tokens/s per GPU (MFU %.2f x %.1f TFLOPS / "
           "%.2f GFLOP a token: ", tps, mfu, g->bf16_tflops, flops / 1e9);
    if (t->lora_rank > 0)
        printf("%d x %.2f B frozen parameters, no weight gradients, + %d x "
               "%.1f M adapter parameters)\n", 4 + rc,
               m->active_params / 1e9, 6 + rc,
               (flops - (4 + rc) * m->active_params) / (6 + rc) / 1e6);
    else
        printf("%d x %.2f B active parameters)\n", 6 + rc,
               m->active_params / 1e9);
}

static void print_training(const fit_args *a, const fs_llm_model *m,
                           const fs_gpu *g, const fs_llm_memory *mem)
{
    const fs_llm_training *t = &a->train;
    static const char *const opt_note[] = {
        "(adam: fp32 m and v, 8 bytes a parameter)",
        "(adam8bit: 8-bit m and v, 2 bytes a parameter)",
        "(sgd: fp32 momentum, 4 bytes a parameter)"};
    printf("%s %straining on %s: %s weights, %s, batch %d x %ld tokens, "
           "%s, ZeRO %d over %d GPU%s (per GPU; GB = 10^9 bytes)\n", m->name,
           t->lora_rank ? t->weights == FS_PREC_INT4 ? "QLoRA " : "LoRA "
                        : "", g->name, fs_precision_name(t->weights),
           fs_optimizer_name(t->optimizer), t->batch, t->seq,
           t->checkpointing ? "activation checkpointing"
                            : "no activation checkpointing",
           t->zero, t->gpus, t->gpus > 1 ? "s" : "");
    char note[160];
    int lora = t->lora_rank > 0;
    if (lora) {
        snprintf(note, sizeof note, "(frozen, %s: no gradients, no "
                 "optimizer states)", fs_precision_name(t->weights));
        line("base weights", mem->weights, note);
        snprintf(note, sizeof note, "(rank %ld on q, k, v, o, gate, up, "
                 "down: %.1f M parameters, 16-bit)", t->lora_rank,
                 fs_llm_lora_params(m, t->lora_rank) / 1e6);
        line("LoRA adapters", mem->adapters, note);
        if (mem->quant_consts > 0)
            line("quant. constants", mem->quant_consts,
                 "(QLoRA double quantization: 0.127 bits a base parameter)");
    } else
        line("weights", mem->weights, "");
    line("gradients", mem->gradients, lora ? "(16-bit, adapters only)"
                                           : "(16-bit)");
    line("optimizer states", mem->optimizer, opt_note[t->optimizer]);
    if (mem->master_weights > 0)
        line("master weights", mem->master_weights,
             "(fp32 copy; --no-master-weights leaves it out)");
    snprintf(note, sizeof note, "(%d x %ld tokens%s)",
             (t->batch + t->gpus - 1) / t->gpus, t->seq,
             t->checkpointing ? ": layer inputs + one layer recomputed"
                              : ": every layer kept");
    line("activations", mem->activations, note);
    line("runtime overhead", mem->overhead,
         "(CUDA context, workspaces: 1 GB + 4% of memory)");
    print_verdict(mem);
    printf("  largest batch that fits: %ld\n", largest(a, m, g, 0, 100000));
    double mfu = a->mfu > 0 ? a->mfu : fs_llm_training_mfu(g);
    print_throughput(t, m, g, mfu);
}

/* A fine-tune that does not fit one GPU: for each ZeRO stage from the one
 * given, the fewest data-parallel GPUs (powers of two up to 64) on which
 * it fits, at the same sequences per GPU (the global batch grows with
 * the GPUs), and what a GPU then holds. */
static void print_zero(const fit_args *a, const fs_llm_model *m,
                       const fs_gpu *g)
{
    fs_llm_hw hw;
    fs_llm_hw_default(&hw, g);
    int per = (a->train.batch + a->train.gpus - 1) / a->train.gpus, shown = 0;
    printf("Fits on %s with:", g->name);
    for (int zero = a->train.zero > 0 ? a->train.zero : 1; zero <= 3;
         zero++)
        for (int n = 2; n <= 64; n *= 2) {
            fs_llm_training t = a->train;
            t.zero = zero;
            t.gpus = n;
            t.batch = per * n;
            fs_llm_memory mem;
            fs_llm_fit_training(m, &t, &hw, &mem);
            if (!mem.fits || (zero == a->train.zero && n <= a->train.gpus))
                continue;
            printf("%s ZeRO-%d over %d GPUs (%.1f GB a GPU)",
                   shown++ ? "," : "", zero, n, mem.total);
            break;
        }
    printf("%s\n", shown ? " (same sequences per GPU; --zero, --gpus)"
                         : " no ZeRO stage up to 64 GPUs");
    printf("  over 8 GPUs (one 8-GPU instance), a GPU holds:");
    for (int zero = 1; zero <= 3; zero++) {
        fs_llm_training t = a->train;
        t.zero = zero;
        t.gpus = 8;
        t.batch = per * 8;
        fs_llm_memory mem;
        fs_llm_fit_training(m, &t, &hw, &mem);
        printf("%s ZeRO-%d %.1f GB (%s)", zero > 1 ? "," : "", zero,
               mem.total, mem.fits ? "fits" : "no");
    }
    printf("\n");
}

/* What fits_at needs: the question asked, on one GPU. */
typedef struct fit_ctx {
    const fit_args *a;
    const fs_llm_model *m;
    const fs_gpu *g;
} fit_ctx;

static int fits_at(void *ctx, const fs_llm_config *c)
{
    const fit_ctx *f = ctx;
    fs_llm_memory mem;
    fit_on(f->a, f->m, c, f->g, f->a->batch, f->a->context, &mem);
    return mem.fits;
}

/* When it does not fit: the nearest configurations on this GPU that do
 * (precision and TP together, on precisions the GPU runs). */
static void print_nearest(const fit_args *a, const fs_llm_model *m,
                          const fs_gpu *g)
{
    fit_ctx f = {a, m, g};
    fs_llm_config near[6];
    int n = fs_llm_nearest(&a->cfg, g, 8, !a->kv_set, fits_at, &f, near, 4);
    printf("Fits on %s with:", g->name);
    for (int i = 0; i < n; i++) {
        fs_llm_memory mem;
        fit_on(a, m, &near[i], g, a->batch, a->context, &mem);
        printf("%s tp=%d %s (%.1f GB)", i ? "," : "", near[i].tp,
               fs_precision_name(near[i].weights), mem.total);
    }
    printf("%s\n", n ? "" : " nothing up to tp=8 and int4");
}

typedef struct where {
    const fs_gpu *g;
    const fs_instance_type *inst;
    double usd_h, total;
} where;

static int by_price(const void *x, const void *y)
{
    const where *a = x, *b = y;
    double pa = isnan(a->usd_h) ? INFINITY : a->usd_h;
    double pb = isnan(b->usd_h) ? INFINITY : b->usd_h;
    return (pa > pb) - (pa < pb);
}

/* Every catalog GPU on which it fits, cheapest replica first (on-demand,
 * the cheapest instance type with enough GPUs, per replica-hour). */
static void print_where(const fit_args *a, const fs_llm_model *m,
                        const fs_catalog *cat)
{
    where *w = calloc(cat->ngpus, sizeof *w);
    size_t n = 0;
    int per = a->training ? 1 : fs_llm_gpus(&a->cfg);
    for (size_t i = 0; w && i < cat->ngpus; i++) {
        fs_llm_memory mem;
        if (!a->training &&
            !fs_precision_runs_on(&cat->gpus[i], a->cfg.weights, NULL, 0))
            continue;   /* it fits, but cannot be served there */
        fit_on(a, m, &a->cfg, &cat->gpus[i], a->training ? a->train.batch
                                                         : a->batch,
               a->context, &mem);
        if (!mem.fits)
            continue;
        w[n].g = &cat->gpus[i];
        w[n].total = mem.total;
        w[n].inst = fs_catalog_cheapest(cat, cat->gpus[i].name, per, 0);
        w[n].usd_h = w[n].inst && w[n].inst->gpus >= per
                         ? w[n].inst->on_demand / w[n].inst->gpus * per
                         : NAN;
        n++;
    }
    qsort(w, n, sizeof *w, by_price);
    printf("\nFits on (cheapest first; on-demand $ per %s-hour of %d "
           "GPU%s):\n", a->training ? "GPU" : "replica", per,
           per > 1 ? "s" : "");
    if (!n)
        printf("  no catalog GPU\n");
    for (size_t i = 0; i < n; i++) {
        char inst[96] = "-";
        if (w[i].inst && !isnan(w[i].usd_h))
            snprintf(inst, sizeof inst, "%s:%s", w[i].inst->provider,
                     w[i].inst->name);
        printf("  %-10s %7.1f GB of %5.0f  %-34s", w[i].g->name, w[i].total,
               w[i].g->memory_gb, inst);
        if (isnan(w[i].usd_h))
            printf(" %9s\n", "-");
        else
            printf(" %9.3f\n", w[i].usd_h);
    }
    free(w);
}

/* --draft M or --mtp: the proposer whose weights and KV cache the
 * replica holds too (models/llm/llm_spec.c); 0, or the exit status after
 * saying why not. */
static int set_spec(fit_args *a, const fs_llm_catalog *mc,
                    const fs_llm_model *m)
{
    const char *name = fs_fit_draft(a);
    char why[1024];
    if (!name && !a->mtp)
        return 0;
    a->spec = (fs_llm_spec){a->mtp ? FS_SPEC_MTP : FS_SPEC_DRAFT, 1, 0.5,
                            NULL};
    a->cfg.spec = &a->spec;
    if (a->mtp)
        return 0;
    a->spec.draft = fs_llm_catalog_find(mc, name);
    if (!a->spec.draft) {
        fs_llm_catalog_suggest(mc, name, why, sizeof why);
        fprintf(stderr, "fleetsim: fit: --draft: unknown model '%s' %s\n",
                name, why);
        return FS_EXIT_FAIL;
    }
    if (fs_llm_spec_check_draft(m, a->spec.draft, why, sizeof why)) {
        fprintf(stderr, "fleetsim: fit: --draft: %s\n", why);
        return FS_EXIT_FAIL;
    }
    return 0;
}

static int run(fit_args *a, const fs_catalog *cat, const fs_llm_catalog *mc)
{
    const fs_llm_model *m = fs_llm_catalog_find(mc, a->model);
    char hint[1024];
    if (!m) {
        fs_llm_catalog_suggest(mc, a->model, hint, sizeof hint);
        fprintf(stderr, "fleetsim: fit: unknown model '%s' %s\n", a->model,
                hint);
        return FS_EXIT_FAIL;
    }
    const fs_gpu *g = fs_catalog_gpu(cat, a->gpu);
    if (!g) {
        fs_catalog_suggest_gpu(cat, a->gpu, hint, sizeof hint);
        fprintf(stderr, "fleetsim: fit: unknown GPU '%s' %s\n", a->gpu, hint);
        return FS_EXIT_FAIL;
    }
    a->cfg.model = m;
    if (set_spec(a, mc, m))
        return FS_EXIT_FAIL;
    char why[256];
    if (!a->training && !fs_precision_runs_on(g, a->cfg.weights, why,
                                              sizeof why)) {
        fprintf(stderr, "fleetsim: fit: --precision %s: %s\n",
                fs_precision_name(a->cfg.weights), why);
        return FS_EXIT_FAIL;
    }
    if (!a->training && a->cfg.ep > 1 && m->experts <= 0) {
        fprintf(stderr, "fleetsim: fit: --ep %d: %s has no experts to "
                "spread (expert parallelism is for a mixture of experts)\n",
                a->cfg.ep, m->name);
        return FS_EXIT_FAIL;
    }
    if (!a->training && a->context > m->max_context) {
        fprintf(stderr, "fleetsim: fit: --context %ld is beyond %s's "
                "maximum of %ld tokens\n", a->context, m->name,
                m->max_context);
        return FS_EXIT_FAIL;
    }
    fs_llm_memory mem;
    fit_on(a, m, &a->cfg, g, a->training ? a->train.batch : a->batch,
           a->context, &mem);
    if (a->training)
        print_training(a, m, g, &mem);
    else
        print_inference(a, m, g, &mem);
    if (!mem.fits && !a->training)
        print_nearest(a, m, g);
    else if (!mem.fits)
        print_zero(a, m, g);
    print_where(a, m, cat);
    return FS_EXIT_OK;
}

/* The engine profiles beside the catalog (else the installed ones), and
 * --engine checked against them. */
static fs_llm_engines *load_engines(fit_args *a, int *rc)
{
    char path[2048];
    fs_error err;
    snprintf(path, sizeof path, "%s/engines.csv", a->dir);
    fs_llm_engines *t = access(path, R_OK) == 0
                            ? fs_llm_engines_load(path, &err)
                            : fs_llm_engines_load_default(&err);
    if (!t) {
        *rc = fs_fail(err.msg);
        return NULL;
    }
    a->cfg.engines = t;
    if (fs_llm_engines_find(t, a->cfg.engine, NULL))
        return t;
    char hint[1024];
    fs_llm_engines_suggest(t, a->cfg.engine, hint, sizeof hint);
    *rc = fs_usage_error("fit", "--engine '%s': no such profile (%s)",
                         a->cfg.engine, hint);
    fs_llm_engines_free(t);
    return NULL;
}

int cmd_fit(int argc, char **argv)
{
    fit_args a;
    int rc = fs_fit_parse(&a, argc, argv);
    if (rc)
        return rc;
    char gpus[2048], inst[2048], models[2048];
    snprintf(gpus, sizeof gpus, "%s/gpus.csv", a.dir);
    snprintf(inst, sizeof inst, "%s/instances.csv", a.dir);
    snprintf(models, sizeof models, "%s/models.csv", a.dir);
    fs_error err;
    fs_catalog *cat = fs_catalog_load(gpus, inst, &err);
    if (!cat)
        return fs_fail(err.msg);
    fs_llm_catalog *mc = fs_llm_catalog_load(a.models_csv ? a.models_csv
                                                          : models, &err);
    if (!mc) {
        fs_catalog_free(cat);
        return fs_fail(err.msg);
    }
    fs_llm_engines *eng = load_engines(&a, &rc);
    if (eng)
        rc = run(&a, cat, mc);
    fs_llm_engines_free(eng);
    fs_llm_catalog_free(mc);
    fs_catalog_free(cat);
    return rc;
}
