/* scenario_llm_train.c -- `model =` on a training workload: the memory fit
 * and the rescaling of the jobs' durations across GPU types.
 *
 *   model = llama-2-7b(batch=16, seq=2048, precision=bf16, optimizer=adam,
 *                      checkpointing=yes, master_weights=yes, zero=0,
 *                      gpus=1, reference_gpu=A100-80GB, mfu=0.4)
 *
 * Every argument is optional.  The fine-tune's memory per GPU
 * (models/llm/llm_memory.c) must fit each pool's GPU, or the scenario is
 * refused at this key with the breakdown and the catalog GPUs that hold it.
 * The jobs' durations are stated for reference_gpu (default: the first
 * pool's GPU) and rescale by the training throughput rule, tokens/s = MFU x
 * peak / (6 x active parameters), 8 x with checkpointing: a job runs
 * tokens/s(reference) / tokens/s(pool GPU) times as long.  The workload's
 * pools then share one GPU type.  The model is a row of the catalog's
 * models.csv. */
#include "sim/scenario/scenario_impl.h"
#include "models/llm/llm.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const model_args[] = {
    "batch", "seq", "precision", "optimizer", "checkpointing",
    "master_weights", "zero", "gpus", "reference_gpu", "mfu", NULL};

/* Optional argument key: a whole number from lo to hi into *out, left
 * as it is when the call does not name key. */
static int int_arg(const fs_call *c, const char *key, long lo, long hi,
                   int *out, char *why, size_t len)
{
    const char *v = fs_call_get(c, key);
    long n;
    if (!v)
        return 0;
    if (fs_parse_count(v, &n, why, len) || n < lo || n > hi)
        return snprintf(why, len, "%s: expected %ld to %ld", key, lo, hi), -1;
    *out = (int)n;
    return 0;
}

/* The call's arguments into t (defaults: batch 1, seq 2048, bf16, adam,
 * no checkpointing, master weights, ZeRO 0 over 1 GPU). */
static int read_args(const fs_call *c, fs_llm_training *t, double *mfu,
                     char *why, size_t len)
{
    *t = (fs_llm_training){FS_PREC_BF16, 1, 2048, 0, FS_OPT_ADAM, 1, 0, 1, 0};
    *mfu = 0;
    if (fs_call_check_keys(c, model_args, why, len))
        return -1;
    const char *v;
    if (int_arg(c, "batch", 1, 1000000, &t->batch, why, len))
        return -1;
    if ((v = fs_call_get(c, "seq")) &&
        (fs_parse_count(v, &t->seq, why, len) || t->seq < 1))
        return snprintf(why, len, "seq: expected a token count >= 1"), -1;
    if ((v = fs_call_get(c, "precision")) && fs_precision_parse(v, &t->weights))
        return snprintf(why, len, "precision '%s': expected fp32, bf16, "
                        "fp16, fp8, int8 or int4", v), -1;
    if ((v = fs_call_get(c, "optimizer")) &&
        fs_optimizer_parse(v, &t->optimizer))
        return snprintf(why, len, "optimizer '%s': expected adam, adam8bit "
                        "or sgd", v), -1;
    if ((v = fs_call_get(c, "checkpointing")) &&
        fs_parse_bool(v, &t->checkpointing, why, len))
        return -1;
    if ((v = fs_call_get(c, "master_weights")) &&
        fs_parse_bool(v, &t->master_weights, why, len))
        return -1;
    if (int_arg(c, "zero", 0, 3, &t->zero, why, len) ||
        int_arg(c, "gpus", 1, 100000, &t->gpus, why, len))
        return -1;
    if ((v = fs_call_get(c, "mfu")) &&
        (fs_parse_fraction(v, mfu, why, len) || *mfu <= 0))
        return snprintf(why, len, "mfu: expected a fraction above 0"), -1;
    return 0;
}

/* "fits on: A100-80GB, H100-80GB" (the catalog GPUs that hold it). */
static void list_fits(const fs_catalog *cat, const fs_llm_model *m,
                      const fs_llm_training *t, char *buf, size_t len)
{
    size_t off = (size_t)snprintf(buf, len, "fits on:");
    int any = 0;
    for (size_t i = 0; i < cat->ngpus && off < len; i++) {
        fs_llm_hw hw;
        fs_llm_hw_default(&hw, &cat->gpus[i]);
        fs_llm_memory mem;
        fs_llm_fit_training(m, t, &hw, &mem);
        if (mem.fits) {
            off += (size_t)snprintf(buf + off, len - off, "%s %s",
                                    any ? "," : "", cat->gpus[i].name);
            any = 1;
        }
    }
    if (!any && off < len)
        snprintf(buf + off, len - off, " no catalog GPU");
}

/* "; on A10G it fits with zero=2, gpus=8 (14.1 GB a GPU) or zero=3,
 * gpus=8 (8.2 GB)": each ZeRO stage above t's, at t's GPUs (or the fewest
 * powers of two to 64 past them), the same sequences per GPU; "" when
 * none does. */
static void zero_hint(const fs_llm_model *m, const fs_llm_training *t,
                      const fs_llm_hw *hw, char *buf, size_t len)
{
    int per = (t->batch + t->gpus - 1) / t->gpus;
    size_t off = 0;
    buf[0] = '\0';
    for (int zero = t->zero + 1; zero <= 3 && off < len; zero++)
        for (int n = t->gpus > 1 ? t->gpus : 2; n <= 64; n *= 2) {
            fs_llm_training z = *t;
            fs_llm_memory mem;
            z.zero = zero;
            z.gpus = n;
            z.batch = per * n;
            fs_llm_fit_training(m, &z, hw, &mem);
            if (!mem.fits)
                continue;
            if (off)
                off += (size_t)snprintf(buf + off, len - off, " or zero=%d, "
                                        "gpus=%d (%.1f GB)", zero, n,
                                        mem.total);
            else
                off = (size_t)snprintf(buf, len, "; on %s it fits with "
                                       "zero=%d, gpus=%d (%.1f GB a GPU)",
                                       hw->gpu->name, zero, n, mem.total);
            break;
        }
}

/* A resumable checkpoint of the fine-tune, GB: every parameter's weight
 * at its precision, its fp32 master copy and its optimizer states (Adam's
 * m and v 8 bytes, 8-bit Adam's 2, SGD's momentum 4): what the job must
 * save to go on where it stopped.  ZeRO shards it over the GPUs; the
 * shards add up to the same. */
static double checkpoint_gb(const fs_llm_model *m, const fs_llm_training *t)
{
    static const double opt[FS_OPT_COUNT] = {8, 2, 4};
    double bytes = fs_precision_bytes(t->weights) +
                   (t->master_weights ? 4 : 0) + opt[t->optimizer];
    return m->params * bytes / 1e9;
}

/* Every pool's GPU holds the fine-tune; 0 or -1 with the message set. */
static int check_fit(fs_reader *rd, const fs_config_entry *e,
                     const fs_scenario *sc, const fs_workload_conf *w,
                     const fs_llm_model *m, const fs_llm_training *t)
{
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        fs_llm_hw hw;
        fs_llm_hw_default(&hw, &p->gpu);
        fs_llm_memory mem;
        fs_llm_fit_training(m, t, &hw, &mem);
        if (mem.fits)
            continue;
        char breakdown[512], where[512], zero[160], why[1400];
        fs_llm_memory_format(&mem, breakdown, sizeof breakdown);
        list_fits(sc->catalog, m, t, where, sizeof where);
        zero_hint(m, t, &hw, zero, sizeof zero);
        snprintf(why, sizeof why, "%s training does not fit pool %s's %s "
                 "(per GPU): %s; %s%s", m->name, p->name, p->gpu.name,
                 breakdown, where, zero);
        return fs_rd_bad(rd, e, "%s", why);
    }
    return 0;
}

int fs_scenario_training_model(fs_reader *rd, fs_scenario *sc,
                               fs_workload_conf *w)
{
    fs_config_entry *e = fs_rd_entry(rd, "model");
    if (!e)
        return 0;
    char why[1200];
    fs_call c;
    if (fs_parse_call(e->value, &c, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    fs_llm_training t;
    double mfu;
    if (read_args(&c, &t, &mfu, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    fs_error lerr;
    fs_llm_catalog *mc = fs_llm_catalog_load_default(&lerr);
    if (!mc)
        return fs_rd_bad(rd, e, "%s", lerr.msg);
    int rc = -1;
    const fs_llm_model *m = fs_llm_catalog_find(mc, c.name);
    const fs_gpu *first = &sc->pools[w->pools[0]].gpu;
    const fs_gpu *ref = first;
    const char *rv = fs_call_get(&c, "reference_gpu");
    if (!m) {
        char hint[512];
        fs_llm_catalog_suggest(mc, c.name, hint, sizeof hint);
        snprintf(why, sizeof why, "unknown model '%s' %s", c.name, hint);
        fs_rd_bad(rd, e, "%s", why);
    } else if (rv && !(ref = fs_catalog_gpu(sc->catalog, rv))) {
        char hint[512];
        fs_catalog_suggest_gpu(sc->catalog, rv, hint, sizeof hint);
        snprintf(why, sizeof why, "reference_gpu: unknown GPU '%s' %s", rv,
                 hint);
        fs_rd_bad(rd, e, "%s", why);
    } else if (!check_fit(rd, e, sc, w, m, &t)) {
        for (int k = 1; k < w->npools; k++)
            if (strcasecmp(sc->pools[w->pools[k]].gpu.name, first->name)) {
                fs_rd_bad(rd, e, "%s", "the jobs rescale to one GPU type: "
                          "the pools of a workload with model = must have "
                          "the same GPU");
                goto out;
            }
        double scale = fs_llm_training_tokens_per_s(m, ref, t.weights, mfu,
                                                    t.checkpointing, 0) /
                       fs_llm_training_tokens_per_s(m, first, t.weights, mfu,
                                                    t.checkpointing, 0);
        for (size_t i = 0; i < w->training.jobs.n; i++)
            w->training.jobs.jobs[i].duration_s *= scale;
        w->training.checkpoint_gb = checkpoint_gb(m, &t);
        rc = 0;
    }
out:
    fs_llm_catalog_free(mc);
    return rc;
}
