/* llm_params.c -- the parameter vector calibration fits (llm_fit.h).
 *
 * Five of the serving model's constants: the prefill and decode compute
 * efficiencies, the bandwidth efficiency and the two fixed costs of an
 * iteration; and a sixth, the time a request spends before its first
 * token outside the GPU (the API server's parsing and tokenization, the
 * network: what makes a measured TTFT at one client tens of ms where the
 * prefill takes a few), which the simulator adds to a request's TTFT and
 * end-to-end latency, never to the GPU's time (a profile's request_s).
 * Fitting it keeps that time out of the GPU's parameters.  A fitted vector
 * leaves as an engine-profile row (models/llm/llm_engine.h) that gives the
 * same iteration times: fs_llm_params_profile.  Their defaults are what an uncalibrated run uses for the
 * configuration (the stack's figures for the GPU's generation, or the
 * configuration's own mfu and bw_efficiency); a vector reaches the
 * iteration time through fs_llm_perf_with only, which sets the replica's
 * constants from it.  The per-step cost is the replica's whole (its
 * per-layer part and the growth with TP included): the figure the
 * iteration time adds. */
#include "models/llm/llm_fit.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const fs_llm_param params[FS_FIT_NPARAMS] = {
    {"mfu", "", 1, 0.02, 1.0,
     "prefill compute efficiency (of the dense tensor peak)"},
    {"decode_frac", "", 1, 0.02, 1.0,
     "decode GEMM efficiency, a fraction of mfu"},
    {"bw_efficiency", "", 1, 0.05, 1.0,
     "memory bandwidth efficiency"},
    {"step_ms", "ms", 1e3, 0.0, 0.1,
     "fixed time of every iteration (scheduling, sampling, launches)"},
    {"prefill_ms", "ms", 1e3, 0.0, 0.5,
     "fixed time of an iteration that prefills a prompt"},
    {"request_ms", "ms", 1e3, 0.0, 1.0,
     "fixed time before a request's first token, off the GPU (API, network)"},
};

const fs_llm_param *fs_llm_param_at(int i)
{
    return i >= 0 && i < FS_FIT_NPARAMS ? &params[i] : NULL;
}

int fs_llm_param_find(const char *name)
{
    for (int i = 0; i < FS_FIT_NPARAMS; i++)
        if (strcasecmp(params[i].name, name) == 0)
            return i;
    return -1;
}

int fs_llm_params_default(const fs_llm_config *c, const fs_llm_hw *hw,
                          double *x, char *why, size_t len)
{
    fs_llm_perf p;
    if (fs_llm_perf_init(&p, c, hw, why, len))
        return -1;
    /* perf_init found the profile's row for this GPU */
    const fs_llm_engine *e = fs_llm_engines_find(c->engines, c->engine,
                                                 hw->gpu->generation);
    x[FS_FIT_MFU] = c->mfu > 0 ? c->mfu : e->mfu;
    x[FS_FIT_BW] = c->bw_efficiency > 0 ? c->bw_efficiency
                                        : e->bw_efficiency;
    x[FS_FIT_DECODE] = p.decode_flops / p.peak_flops;
    x[FS_FIT_STEP] = p.step_overhead_s;
    x[FS_FIT_PREFILL] = p.prefill_overhead_s;
    x[FS_FIT_REQUEST] = p.request_s;   /* the profile's (0 unless set) */
    return 0;
}

int fs_llm_perf_with(fs_llm_perf *p, const fs_llm_config *c,
                     const fs_llm_hw *hw, const double *x, char *why,
                     size_t len)
{
    fs_llm_config cfg = *c;
    cfg.mfu = x[FS_FIT_MFU];
    cfg.bw_efficiency = x[FS_FIT_BW];
    if (fs_llm_perf_init(p, &cfg, hw, why, len))
        return -1;
    p->decode_flops = p->peak_flops * x[FS_FIT_DECODE];
    p->step_overhead_s = x[FS_FIT_STEP];
    p->prefill_overhead_s = x[FS_FIT_PREFILL];
    p->request_s = x[FS_FIT_REQUEST];
    return 0;
}

int fs_llm_params_profile(const fs_llm_config *c, const fs_llm_hw *hw,
                          const double *x, const char *source,
                          fs_llm_engine *row, char *why, size_t len)
{
    fs_llm_perf p;
    if (fs_llm_perf_with(&p, c, hw, x, why, len))
        return -1;
    *row = *fs_llm_engines_find(c->engines, c->engine, hw->gpu->generation);
    snprintf(row->version, sizeof row->version, "calibrated");
    row->current = 1;
    snprintf(row->generation, sizeof row->generation, "%s",
             hw->gpu->generation);
    row->mfu = x[FS_FIT_MFU];
    row->decode_fraction = x[FS_FIT_DECODE];
    row->bw_efficiency = x[FS_FIT_BW];
    /* the replica's whole at this model and TP: no per-layer part, no
     * growth with TP (it was measured at this TP) */
    row->step_s = x[FS_FIT_STEP];
    row->layer_s = 0;
    row->tp_step_growth = 0;
    row->prefill_s = x[FS_FIT_PREFILL];
    row->pad_tokens = p.prefill_pad_tokens;
    row->tp_pad_growth = 0;
    row->request_s = x[FS_FIT_REQUEST];
    snprintf(row->source, sizeof row->source, "%s", source);
    return 0;
}

/* The profile row of c's engine for hw's GPU with the vector's
 * efficiencies and fixed costs in the row's own terms: step_s before the
 * row's per-layer part and growth with TP, so that one row serves every
 * model and TP (fs_llm_calibrate_profile). */
static int row_with(const fs_llm_config *c, const fs_llm_hw *hw,
                    const double *x, fs_llm_engine *row, char *why,
                    size_t len)
{
    const fs_llm_engine *e = fs_llm_engines_find(c->engines, c->engine,
                                                 hw->gpu->generation);
    if (!e) {
        if (why)
            snprintf(why, len, "no engine profile '%s'", c->engine);
        return -1;
    }
    *row = *e;
    row->mfu = x[FS_FIT_MFU];
    row->decode_fraction = x[FS_FIT_DECODE];
    row->bw_efficiency = x[FS_FIT_BW];
    row->step_s = x[FS_FIT_STEP];
    row->prefill_s = x[FS_FIT_PREFILL];
    row->request_s = x[FS_FIT_REQUEST];
    return 0;
}

void fs_llm_params_of_row(const fs_llm_engine *e, double *x)
{
    x[FS_FIT_MFU] = e->mfu;
    x[FS_FIT_DECODE] = e->decode_fraction;
    x[FS_FIT_BW] = e->bw_efficiency;
    x[FS_FIT_STEP] = e->step_s;
    x[FS_FIT_PREFILL] = e->prefill_s;
    x[FS_FIT_REQUEST] = e->request_s;
}

int fs_llm_perf_with_row(fs_llm_perf *p, const fs_llm_config *c,
                         const fs_llm_hw *hw, const double *x, char *why,
                         size_t len)
{
    fs_llm_engine row;
    fs_llm_config cfg = *c;
    cfg.mfu = 0;   /* the row's, not an override */
    cfg.bw_efficiency = 0;
    if (row_with(c, hw, x, &row, why, len))
        return -1;
    return fs_llm_perf_init_row(p, &cfg, hw, &row, why, len);
}

int fs_llm_params_row(const fs_llm_config *c, const fs_llm_hw *hw,
                      const double *x, const char *version,
                      const char *source, fs_llm_engine *row)
{
    if (row_with(c, hw, x, row, NULL, 0))
        return -1;
    snprintf(row->version, sizeof row->version, "%s", version);
    snprintf(row->source, sizeof row->source, "%s", source);
    return 0;
}
