/* llm_nearest.c -- the configurations nearest one that does not fit: for
 * each precision the GPU runs (fs_precision_runs_on) with no more bytes a
 * weight than the replica's, the least tensor parallelism (the replica's,
 * doubling up to max_tp) at which it fits.  Precision and TP are searched
 * together, so a model that needs both (llama-3-70b on L4s: int4 and
 * tp 2) is found.  Shared by the scenario's refusal
 * (sim/fleet/serve/llm_setup.c) and `fleetsim fit`, which judge a fit each its
 * own way (the caller's fits). */
#include "models/llm/llm.h"

/* The weights tried, largest first; fp16 only where bf16 does not run
 * (on the others it is bf16's twin). */
static const fs_precision order[] = {FS_PREC_BF16, FS_PREC_FP16, FS_PREC_FP8,
                                     FS_PREC_INT8, FS_PREC_INT4};

static int worth_trying(const fs_llm_config *c, const fs_gpu *g,
                        fs_precision p)
{
    if (fs_precision_bytes(p) > fs_precision_bytes(c->weights) ||
        !fs_precision_runs_on(g, p, NULL, 0))
        return 0;
    return p != FS_PREC_FP16 || c->weights == FS_PREC_FP16 ||
           !fs_precision_runs_on(g, FS_PREC_BF16, NULL, 0);
}

int fs_llm_nearest(const fs_llm_config *c, const fs_gpu *g, int max_tp,
                   int kv_follows, fs_llm_fits_fn fits, void *ctx,
                   fs_llm_config *out, int max)
{
    int n = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0] && n < max; k++) {
        if (!worth_trying(c, g, order[k]))
            continue;
        for (int tp = c->tp; tp <= max_tp; tp *= 2) {
            fs_llm_config t = *c;
            t.weights = order[k];
            t.tp = tp;
            if (kv_follows)
                t.kv = fs_llm_kv_default(order[k]);
            if ((tp == c->tp && order[k] == c->weights) || !fits(ctx, &t))
                continue;
            out[n++] = t;
            break;
        }
    }
    return n;
}
