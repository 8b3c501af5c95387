/* shape.c -- server shapes from a pool's configuration; see shape.h. */
#include "sim/fleet/shape.h"

#include <math.h>

fs_server_shape fs_shape_of_pool(const fs_pool_conf *conf)
{
    fs_server_shape s = {
        .gpus = (int)conf->gpus_per_server,
        .compute = 1,
        .memory = 1,
        .memory_gb = (double)conf->gpus_per_server * conf->gpu.memory_gb,
    };
    return s;
}

int fs_shape_per_instance(const fs_server_shape *s, long gpus_per_instance)
{
    if (s->compute >= 1 && s->memory >= 1)
        return (int)(gpus_per_instance / s->gpus);
    /* Slices of one GPU: as many as both its compute and memory allow (the
     * 1e-9 keeps 7 x 1/7 from rounding down to 6). */
    double by_compute = floor(1 / s->compute + 1e-9);
    double by_memory = floor(1 / s->memory + 1e-9);
    double per_gpu = by_compute < by_memory ? by_compute : by_memory;
    return (int)(gpus_per_instance * (long)per_gpu);
}
