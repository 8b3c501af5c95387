/* mig_fit.c -- an LLM's memory fit on one MIG slice; see mig.h.
 *
 * A slice is the LLM model's hardware cut to shares (llm.h, fs_llm_hw):
 * its SMs over the GPU's for compute, its memory slices over the GPU's
 * for memory capacity and bandwidth (an A100-80GB 2g.20gb: 28/108 and
 * 2/8).  A replica on a slice has tp = 1: slices do not talk over NVLink. */
#include "models/llm/mig.h"

void fs_mig_slice_hw(const fs_mig_profile *p, const fs_gpu *g,
                     fs_llm_hw *hw)
{
    fs_llm_hw_default(hw, g);
    hw->compute_frac = (double)p->sms / p->gpu_sms;
    hw->memory_frac = (double)p->memory / p->gpu_memory;
}

void fs_mig_llm_fit(const fs_mig_profile *p, const fs_gpu *g,
                    const fs_llm_config *c, long context, int batch,
                    fs_llm_memory *out)
{
    fs_llm_hw hw;
    fs_mig_slice_hw(p, g, &hw);
    fs_llm_fit_inference(c, &hw, context, batch, out);
}

int fs_mig_llm_max_batch(const fs_mig_profile *p, const fs_gpu *g,
                         const fs_llm_config *c, long context, int cap)
{
    int lo = 0, hi = cap;
    fs_llm_memory m;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        fs_mig_llm_fit(p, g, c, context, mid, &m);
        if (m.fits)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
