/* shape.h -- a server's share of one instance.
 *
 * A server runs one replica of a workload.  Its shape says which part of
 * its instance it holds: a number of GPUs and, of each, a fraction of the
 * compute and of the memory.  A whole GPU is {1, 1, 1}; a tensor-parallel
 * group of four is {4, 1, 1}; a MIG 3g.40gb slice of an A100 is about
 * {1, 3/7, 1/2}.  Everything that depends on the share reads it from the
 * shape: how many servers an instance holds, the GPUs a busy server counts
 * for in utilization and cost allocation, and (for the service model) how
 * fast it runs.  Dispatch never looks inside: a new kind of share is a new
 * way to fill this struct, not a branch in the fleet. */
#ifndef FS_SHAPE_H
#define FS_SHAPE_H

#include "sim/scenario/scenario.h"

typedef struct fs_server_shape {
    int gpus;            /* GPUs it spans: > 1 for tensor parallelism */
    double compute;      /* fraction of each GPU's compute: 1, or a slice's */
    double memory;       /* fraction of each GPU's memory */
    double memory_gb;    /* memory it holds, all its GPUs together */
    double speed;        /* its speed alone, a whole GPU's = 1: a MIG
                            slice's SMs / the GPU's */
    const char *profile; /* its MIG profile ("2g.20gb"), or NULL */
    int slot;            /* its place among its GPU's servers */
} fs_server_shape;

/* Servers on one GPU at most: a MIG layout's instances, or the replicas
 * of sharing = timeslice(N) | mps(N). */
#define FS_SHAPES_PER_GPU 48

/* The shape of a pool's servers as the scenario describes them: whole
 * GPUs, gpus_per_server of them. */
fs_server_shape fs_shape_of_pool(const fs_pool_conf *conf);

/* The servers of each GPU of a pool that cuts or shares its GPUs: one
 * shape per MIG instance of its layout (compute = speed = the slice's SMs
 * / the GPU's, memory = its memory slices / the GPU's), or N replicas of
 * the whole GPU (mps: at most sm_cap each).  0 for a pool of whole GPUs
 * (fs_shape_of_pool). */
int fs_shape_of_gpu(const fs_pool_conf *conf,
                    fs_server_shape out[FS_SHAPES_PER_GPU]);

/* The shape a workload with this mig_profile runs on among a GPU's n
 * shapes: the first of that profile; for "" (any server) the one with the
 * least memory, which binds a memory fit; NULL when none matches.  For
 * the LLM model's fit per slice (fs_llm_hw from compute and memory). */
const fs_server_shape *fs_shape_for_profile(const fs_server_shape *shapes,
                                            int n, const char *profile);

/* How many servers of this shape an instance of gpus_per_instance GPUs
 * holds: gpus_per_instance / gpus whole-GPU servers, or as many slices as
 * fit in each GPU's compute and memory. */
int fs_shape_per_instance(const fs_server_shape *s, long gpus_per_instance);

/* GPUs a busy server counts for: busy GPU-seconds are its busy seconds
 * times gpus x compute (a busy MIG slice counts its fraction of the GPU). */
static inline double fs_shape_busy_gpus(const fs_server_shape *s)
{
    return s->gpus * s->compute;
}

#endif
