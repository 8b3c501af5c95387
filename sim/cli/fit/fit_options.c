/* fit_options.c -- the options of `fleetsim fit` (its table, which help
 * and the reference print) and their checks: the values are read after the
 * parse, as one set, because an option of serving refuses --training and
 * one of a fine-tune needs it. */
#include "sim/cli/fit/fit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/catalog/catalog.h"
#include "sim/cli/commands.h"

static int whole(const char *opt, const char *v, long lo, long hi, long *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < lo || n > hi)
        return fs_usage_error("fit", "%s '%s': expected a whole number from "
                              "%ld to %ld", opt, v, lo, hi);
    *out = n;
    return 0;
}

/* The values of the options, in fs_options_fit's order; read after the
 * parse (values_serving, values_training), as one set. */
enum { V_GPU, V_PREC, V_KV, V_TP, V_EP, V_ENGINE, V_CONTEXT, V_BATCH, V_SEQ,
       V_OPTIMIZER, V_ZERO, V_GPUS, V_MFU, V_LORA, V_MODELS, V_CATALOG,
       V_DRAFT, NVALUES };

#define FIT_VALUE(l, k, argh, h) OPT_STRING(0, l, fit_args, v[k], argh, h)
const fs_option fs_options_fit[] = {
    OPT__GPU(fit_args, v[V_GPU]),
    OPT__PRECISION(fit_args, v[V_PREC]),
    FIT_VALUE("kv-precision", V_KV, "P",
              "the KV cache (default: the weights', fp8 kept)"),
    OPT__TP(fit_args, v[V_TP]),
    FIT_VALUE("ep", V_EP, "N",
              "expert-parallel GPUs (MoE): 1, 2, 4 or 8; a replica is "
              "max(tp, ep) GPUs"),
    OPT__ENGINE(fit_args, v[V_ENGINE]),
    FIT_VALUE("context", V_CONTEXT, "N", "tokens a sequence (with --batch)"),
    FIT_VALUE("batch", V_BATCH, "N",
              "sequences at once (serving: with --context)"),
    OPT_BOOL(0, "training", fit_args, training,
             "size a fine-tune instead (needs --batch and --seq)"),
    FIT_VALUE("seq", V_SEQ, "S", "--training: tokens a sequence"),
    OPT_BOOL(0, "activation-checkpointing", fit_args, ckpt,
             "--training: keep only each layer's input"),
    FIT_VALUE("optimizer", V_OPTIMIZER, "O",
              "--training: adam (default), adam8bit or sgd"),
    FIT_VALUE("zero", V_ZERO, "0-3",
              "--training: the ZeRO stage, sharding over --gpus"),
    FIT_VALUE("gpus", V_GPUS, "N", "--training: data-parallel GPUs"),
    OPT_BOOL(0, "no-master-weights", fit_args, no_master,
             "--training: no fp32 master weights"),
    FIT_VALUE("mfu", V_MFU, "X",
              "--training: model FLOPs utilization for tokens/s (default "
              "by GPU generation)"),
    FIT_VALUE("lora-rank", V_LORA, "R",
              "--training: LoRA adapters of rank R on a frozen base"),
    OPT_BOOL(0, "qlora", fit_args, qlora,
             "--training: LoRA on a 4-bit (int4) base"),
    FIT_VALUE("draft", V_DRAFT, "M",
              "speculative decoding: a draft model's weights and KV cache "
              "beside the model's"),
    OPT_BOOL(0, "mtp", fit_args, mtp,
             "speculative decoding: the model's MTP module (one block and "
             "a 2h x h projection) beside it"),
    OPT__MODELS(fit_args, v[V_MODELS]),
    OPT__CATALOG(fit_args, v[V_CATALOG]),
    OPT_END(),
};

_Static_assert(NVALUES == sizeof ((fit_args *)0)->v / sizeof (char *),
               "fit_args.v holds a value for each V_");

/* Which mode's option was given: one of the other mode is refused. */
static void note_modes(fit_args *a)
{
    static const char *const names[NVALUES] = {
        [V_SEQ] = "--seq", [V_OPTIMIZER] = "--optimizer", [V_ZERO] = "--zero",
        [V_GPUS] = "--gpus", [V_MFU] = "--mfu", [V_KV] = "--kv-precision",
        [V_TP] = "--tp", [V_EP] = "--ep", [V_ENGINE] = "--engine",
        [V_CONTEXT] = "--context", [V_DRAFT] = "--draft"};
    static const int train_only[] = {V_SEQ, V_OPTIMIZER, V_ZERO, V_GPUS,
                                     V_MFU};
    static const int serve_only[] = {V_KV, V_TP, V_EP, V_ENGINE,
                                     V_CONTEXT, V_DRAFT};
    for (size_t k = 0; k < sizeof train_only / sizeof *train_only; k++)
        if (a->v[train_only[k]])
            a->train_only = names[train_only[k]];
    for (size_t k = 0; k < sizeof serve_only / sizeof *serve_only; k++)
        if (a->v[serve_only[k]])
            a->serve_only = names[serve_only[k]];
    if (a->ckpt)
        a->train_only = "--activation-checkpointing";
    if (a->no_master)
        a->train_only = "--no-master-weights";
    if (a->qlora)
        a->train_only = "--qlora";
    if (a->mtp)
        a->serve_only = "--mtp";
}

/* --precision, --kv-precision, --tp, --ep, --engine, --context, --batch. */
static int values_serving(fit_args *a)
{
    const char *const *v = a->v;
    fs_precision p;
    long n;
    for (int k = V_PREC; k <= V_KV; k++) {
        if (!v[k])
            continue;
        if (fs_precision_parse(v[k], &p))
            return fs_usage_error("fit", "precision '%s': expected fp32, "
                                  "bf16, fp16, fp8, int8 or int4", v[k]);
        if (k == V_PREC)
            a->cfg.weights = a->train.weights = p;
        else
            a->cfg.kv = p, a->kv_set = 1;
    }
    if (v[V_TP]) {
        if (whole("--tp", v[V_TP], 1, 8, &n) || (n & (n - 1)))
            return fs_usage_error("fit", "--tp: expected 1, 2, 4 or 8");
        a->cfg.tp = (int)n;
    }
    if (v[V_EP]) {
        if (whole("--ep", v[V_EP], 1, 8, &n) || (n & (n - 1)))
            return fs_usage_error("fit", "--ep: expected 1, 2, 4 or 8");
        a->cfg.ep = (int)n;
    }
    if (v[V_ENGINE]) {
        if (strlen(v[V_ENGINE]) >= sizeof a->cfg.engine)
            return fs_usage_error("fit", "--engine '%s': expected a profile "
                                  "name (vllm, vllm@0.2, trt-llm, ...)",
                                  v[V_ENGINE]);
        snprintf(a->cfg.engine, sizeof a->cfg.engine, "%s", v[V_ENGINE]);
    }
    if (v[V_CONTEXT] && whole("--context", v[V_CONTEXT], 1, 100000000,
                              &a->context))
        return FS_EXIT_USAGE;
    if (v[V_BATCH] && whole("--batch", v[V_BATCH], 1, 1000000, &n))
        return FS_EXIT_USAGE;
    if (v[V_BATCH])
        a->batch = a->train.batch = (int)n;
    return 0;
}

/* --seq, --optimizer, --zero, --gpus, --lora-rank, --mfu and the flags. */
static int values_training(fit_args *a)
{
    const char *const *v = a->v;
    long n;
    if (a->ckpt)
        a->train.checkpointing = 1;
    if (a->no_master)
        a->train.master_weights = 0;
    if (v[V_SEQ] && whole("--seq", v[V_SEQ], 1, 100000000, &a->train.seq))
        return FS_EXIT_USAGE;
    if (v[V_OPTIMIZER] && fs_optimizer_parse(v[V_OPTIMIZER],
                                             &a->train.optimizer))
        return fs_usage_error("fit", "--optimizer '%s': expected adam, "
                              "adam8bit or sgd", v[V_OPTIMIZER]);
    if (v[V_ZERO] && whole("--zero", v[V_ZERO], 0, 3, &n))
        return FS_EXIT_USAGE;
    if (v[V_ZERO])
        a->train.zero = (int)n;
    if (v[V_GPUS] && whole("--gpus", v[V_GPUS], 1, 100000, &n))
        return FS_EXIT_USAGE;
    if (v[V_GPUS])
        a->train.gpus = (int)n;
    if (v[V_LORA] && whole("--lora-rank", v[V_LORA], 1, 65536,
                           &a->train.lora_rank))
        return FS_EXIT_USAGE;
    if (v[V_MFU]) {
        a->mfu = strtod(v[V_MFU], NULL);
        if (!(a->mfu > 0 && a->mfu <= 1))
            return fs_usage_error("fit", "--mfu: expected a fraction from 0 "
                                  "to 1");
    }
    return 0;
}

/* The values of the options given, read (--qlora first: a --precision
 * other than int4 beside it is refused below). */
static int take_values(fit_args *a)
{
    note_modes(a);
    if (a->qlora)   /* QLoRA: a 4-bit frozen base */
        a->train.weights = FS_PREC_INT4;
    int rc = values_serving(a);
    if (!rc)
        rc = values_training(a);
    a->gpu = a->v[V_GPU];
    if (a->v[V_MODELS])
        a->models_csv = a->v[V_MODELS];
    if (a->v[V_CATALOG])
        a->dir = a->v[V_CATALOG];
    return rc;
}

int fs_fit_parse(fit_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->dir = fs_catalog_default_dir();
    fs_llm_config_default(&a->cfg, NULL, NULL);
    a->train = (fs_llm_training){FS_PREC_BF16, 0, 0, 0, FS_OPT_ADAM, 1, 0, 1, 0};
    const char *models[1];
    int n = 0;
    int rc = fs_parse_options_few("fit", argc, argv, fs_options_fit, a,
                                  models, 1, &n);
    if (rc == 0 && n > 1)
        rc = fs_usage_error("fit", "one model at a time");
    a->model = n ? models[0] : NULL;
    if (rc || (rc = take_values(a)))
        return rc;
    if (!a->model || !a->gpu)
        return fs_usage_error("fit", "which model and GPU? fleetsim fit "
                              "MODEL --gpu GPU");
    if (!a->training && a->train_only)
        return fs_usage_error("fit", "%s sizes a fine-tune: it goes with "
                              "--training", a->train_only);
    if (a->training && a->serve_only)
        return fs_usage_error("fit", "%s is for serving, not with "
                              "--training", a->serve_only);
    if (a->training && (!a->train.batch || !a->train.seq))
        return fs_usage_error("fit", "--training needs --batch and --seq");
    if ((a->train.lora_rank || a->qlora) && !a->training)
        return fs_usage_error("fit", "--lora-rank and --qlora are for a "
                              "fine-tune: add --training");
    if (a->qlora && !a->train.lora_rank)
        return fs_usage_error("fit", "--qlora trains LoRA adapters on a "
                              "4-bit base: give their --lora-rank (16, 64)");
    if (a->qlora && a->train.weights != FS_PREC_INT4)
        return fs_usage_error("fit", "--qlora is a 4-bit base: drop "
                              "--precision %s",
                              fs_precision_name(a->train.weights));
    if (!a->training && !a->batch != !a->context)
        return fs_usage_error("fit", "--context and --batch go together");
    if (a->train.zero && a->train.gpus < 2)
        return fs_usage_error("fit", "--zero %d shards over --gpus N (N >= "
                              "2)", a->train.zero);
    if (a->mtp && a->v[V_DRAFT])
        return fs_usage_error("fit", "--draft or --mtp: one proposer");
    if (!a->kv_set)
        a->cfg.kv = fs_llm_kv_default(a->cfg.weights);
    return 0;
}

const char *fs_fit_draft(const fit_args *a)
{
    return a->v[V_DRAFT];
}

