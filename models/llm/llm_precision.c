/* llm_precision.c -- the numeric precisions of weights and KV cache
 * (fp32 ... int4): their names and bytes per element; see llm.h.
 *
 * Apart from llm_perf.c (the roofline) because the memory model
 * (llm_memory.c), which the roofline calls to fit a replica, needs the
 * bytes too: kept below both, they call down to it and never round a
 * circle. */
#include "models/llm/llm.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    double bytes;
} precisions[FS_PREC_COUNT] = {
    {"fp32", 4}, {"bf16", 2}, {"fp16", 2}, {"fp8", 1}, {"int8", 1},
    {"int4", 0.5}};

int fs_precision_parse(const char *s, fs_precision *out)
{
    for (int p = 0; p < FS_PREC_COUNT; p++)
        if (strcasecmp(s, precisions[p].name) == 0) {
            *out = (fs_precision)p;
            return 0;
        }
    return -1;
}

const char *fs_precision_name(fs_precision p)
{
    return p < FS_PREC_COUNT ? precisions[p].name : "?";
}

double fs_precision_bytes(fs_precision p)
{
    return p < FS_PREC_COUNT ? precisions[p].bytes : 2;
}

/* What a GPU generation cannot run, as vLLM runs models: bf16 needs
 * compute capability 8.0 (Ampere; vLLM refuses it below, "Bfloat16 is
 * only supported on GPUs with compute capability of at least 8.0"); fp8
 * needs fp8 tensor cores (Ada, Hopper) or Ampere's weight-only FP8
 * kernels (Marlin, compute capability 8.0 and up): Volta and Turing have
 * neither.  Sources: doc/llm-validation.md, "Precisions a GPU runs". */
static const struct {
    const char *generation;
    unsigned lacks;   /* bits by fs_precision */
    const char *instead;
} lacking[] = {
    {"volta", 1u << FS_PREC_BF16 | 1u << FS_PREC_FP8, "fp16, int8 or int4"},
    {"turing", 1u << FS_PREC_BF16 | 1u << FS_PREC_FP8, "fp16, int8 or int4"},
};

int fs_precision_runs_on(const fs_gpu *g, fs_precision p, char *why,
                         size_t len)
{
    for (size_t i = 0; i < sizeof lacking / sizeof lacking[0]; i++)
        if (strcasecmp(g->generation, lacking[i].generation) == 0 &&
            (lacking[i].lacks & (1u << p))) {
            if (why)
                snprintf(why, len, "%s (%s) cannot run %s (it needs compute "
                         "capability 8.0 or later); %s run there", g->name,
                         g->generation, fs_precision_name(p),
                         lacking[i].instead);
            return 0;
        }
    return 1;
}
