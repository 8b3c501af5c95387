/* mig.h -- NVIDIA MIG profiles and the layouts a GPU can be cut into.
 *
 * models/catalog/mig.csv gives, per GPU and profile (3g.40gb): its compute
 * and memory slices, usable memory, SM count (and the whole GPU's), how
 * many a GPU holds, and the memory-slice indices it may start at (as
 * `nvidia-smi mig -lgipp` prints them).  A layout ("3g.40gb+2g.20gb*2",
 * or "balanced") is valid only when its instances can be placed at
 * allowed starts on memory slices that do not overlap, within the GPU's
 * compute slices and each profile's count: fs_mig_layout_parse searches
 * the placements (a few hundred at most) and, when none fits, says why
 * and names the nearest valid layouts. */
#ifndef FS_MIG_H
#define FS_MIG_H

#include <stddef.h>

#include "sim/base/error.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"

#define FS_MIG_MAX_SLOTS 8       /* memory slices (and placements) */
#define FS_MIG_MAX_INSTANCES 7   /* instances on one GPU */
#define FS_MIG_MAX_PROFILES 8    /* profiles of one GPU */

typedef struct fs_mig_profile {
    char gpu[32];
    char name[24];               /* "3g.40gb" */
    int compute;                 /* compute slices */
    int memory;                  /* memory slices */
    int gpu_memory;              /* the whole GPU's memory slices */
    double memory_gb;            /* usable memory */
    int sms, gpu_sms;            /* its SMs, and the whole GPU's */
    int max_count;
    int starts[FS_MIG_MAX_SLOTS];   /* allowed first memory slice */
    int nstarts;
    int balanced;                /* count in NVIDIA's all-balanced layout */
    char source[96];
} fs_mig_profile;

typedef struct fs_mig_catalog {
    fs_mig_profile *p;
    size_t n;
} fs_mig_catalog;

/* One GPU's layout: instances by profile, with where each one starts. */
typedef struct fs_mig_layout {
    int n;
    const fs_mig_profile *slice[FS_MIG_MAX_INSTANCES];
    int start[FS_MIG_MAX_INSTANCES];
} fs_mig_layout;

/* Reads mig.csv; NULL with "path:line: ..." in err. */
fs_mig_catalog *fs_mig_load(const char *path, fs_error *err);
void fs_mig_free(fs_mig_catalog *c);

/* The profiles of gpu (case-insensitive), in file order: how many, up to
 * max, with out[] set.  0: the GPU has no MIG profiles. */
size_t fs_mig_profiles(const fs_mig_catalog *c, const char *gpu,
                       const fs_mig_profile **out, size_t max);

/* The whole GPU's compute and memory slices (its largest profile's). */
int fs_mig_gpu_compute(const fs_mig_catalog *c, const char *gpu);
int fs_mig_gpu_memory(const fs_mig_catalog *c, const char *gpu);

/* Parses text ("3g.40gb+2g.20gb*2", "1g.10gb*7", "balanced") for gpu and
 * places it: 0 with *out set, or -1 with why (the layout, the reason and
 * the nearest valid layouts). */
int fs_mig_layout_parse(const fs_mig_catalog *c, const char *gpu,
                        const char *text, fs_mig_layout *out, char *why,
                        size_t len);

/* Places counts[i] instances of profile prof[i]: 1 with *out set when a
 * placement exists (and the compute and count limits hold), else 0. */
int fs_mig_place(const fs_mig_profile *const *prof, const int *counts,
                 int nprof, int total_compute, fs_mig_layout *out);

/* "3g.40gb+2g.20gb*2": profiles by memory then compute, largest first,
 * counts as *N. */
void fs_mig_layout_format(const fs_mig_layout *l, char *buf, size_t len);

/* Calls fn for every maximal placement (no instance can be added) on gpu
 * of the profiles whose bit is set in mask (bit i = i-th profile of
 * fs_mig_profiles), instances in start order; returns how many there are.
 * Placements count apart as in NVIDIA's figure of A100's 19 layouts
 * (2g+1g+1g and 1g+1g+2g on the first half are two). */
size_t fs_mig_maximal(const fs_mig_catalog *c, const char *gpu,
                      unsigned mask,
                      void (*fn)(const fs_mig_layout *, void *), void *ctx);

/* mig_fit.c: an LLM on one slice of profile p of GPU g (tp 1): the
 * slice as the LLM model's hardware (compute share = its SMs over the
 * GPU's, memory share = its memory slices over the GPU's), the memory fit
 * of batch sequences of context tokens, and the most sequences that fit
 * (0 to cap; 0 when the weights alone do not). */
void fs_mig_slice_hw(const fs_mig_profile *p, const fs_gpu *g,
                     fs_llm_hw *hw);
void fs_mig_llm_fit(const fs_mig_profile *p, const fs_gpu *g,
                    const fs_llm_config *c, long context, int batch,
                    fs_llm_memory *out);
int fs_mig_llm_max_batch(const fs_mig_profile *p, const fs_gpu *g,
                         const fs_llm_config *c, long context, int cap);

#endif
