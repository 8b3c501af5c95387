/* llm_precision.c -- the numeric precisions of weights and KV cache
 * (fp32 ... int4): their names and bytes per element; see llm.h.
 *
 * Apart from llm_perf.c (the roofline) because the memory model
 * (llm_memory.c), which the roofline calls to fit a replica, needs the
 * bytes too: kept below both, they call down to it and never round a
 * circle. */
#include "models/llm.h"

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
