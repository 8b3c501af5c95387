/* shape.c -- server shapes from a pool's configuration; see shape.h. */
#include "sim/fleet/serve/shape.h"

#include <math.h>
#include <string.h>

fs_server_shape fs_shape_of_pool(const fs_pool_conf *conf)
{
    fs_server_shape s = {
        .gpus = (int)conf->gpus_per_server,
        .compute = 1,
        .memory = 1,
        .memory_gb = (double)conf->gpus_per_server * conf->gpu.memory_gb,
        .speed = 1,
    };
    return s;
}

int fs_shape_of_gpu(const fs_pool_conf *conf,
                    fs_server_shape out[FS_SHAPES_PER_GPU])
{
    const fs_mig_layout *l = &conf->mig;
    for (int i = 0; i < l->n; i++) {
        const fs_mig_profile *m = l->slice[i];
        out[i] = (fs_server_shape){
            .gpus = 1,
            .compute = (double)m->sms / m->gpu_sms,
            .memory = (double)m->memory / m->gpu_memory,
            .memory_gb = m->memory_gb,
            .speed = (double)m->sms / m->gpu_sms,
            .profile = m->name,
            .slot = i,
        };
    }
    if (l->n)
        return l->n;
    for (int i = 0; i < conf->sharing_n && conf->sharing; i++)
        out[i] = (fs_server_shape){
            .gpus = 1,
            .compute = conf->sharing == FS_SHARING_MPS ? conf->sharing_cap
                                                       : 1,
            .memory = 1,
            .memory_gb = conf->gpu.memory_gb,
            .speed = 1,
            .slot = i,
        };
    return conf->sharing ? conf->sharing_n : 0;
}

const fs_server_shape *fs_shape_for_profile(const fs_server_shape *shapes,
                                            int n, const char *profile)
{
    const fs_server_shape *best = NULL;
    for (int i = 0; i < n; i++) {
        const fs_server_shape *s = &shapes[i];
        if (profile[0] && s->profile && strcmp(s->profile, profile) == 0)
            return s;
        if (!profile[0] && (!best || s->memory_gb < best->memory_gb))
            best = s;
    }
    return best;
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
