/* llm_fit.h -- calibration: a serving stack's parameters fitted to a
 * user's own benchmark runs.
 *
 * Three parts, one file each:
 *   - the parameter vector (llm_params.c): which of the model's constants a
 *     fit may move, their bounds, their defaults for a configuration, and
 *     an fs_llm_perf built from a vector;
 *   - predictions (llm_predict.c): TTFT, TPOT and output throughput of one
 *     measurement's conditions (closed-loop clients or an open request
 *     rate, mean prompt and output lengths) from the iteration time;
 *   - the fit (llm_fit.c): weighted nonlinear least squares on the log
 *     ratio of predicted to measured figures (GSL's gsl_multifit_nlinear,
 *     trust region, each parameter kept within its bounds by a logistic
 *     transform), standard errors from the covariance scaled by the
 *     residual variance, and a leave-one-out prediction error.
 * The vector is the only place that knows how a parameter reaches the
 * iteration time, so a new engine parameter is a row of its table. */
#ifndef FS_LLM_FIT_H
#define FS_LLM_FIT_H

#include <stddef.h>
#include "models/llm/llm.h"

/* ---- the parameter vector ----------------------------------------------- */

enum {
    FS_FIT_MFU,        /* prefill compute efficiency */
    FS_FIT_DECODE,     /* decode GEMM efficiency, a fraction of mfu */
    FS_FIT_BW,         /* bandwidth efficiency */
    FS_FIT_STEP,       /* fixed seconds per iteration (this model and TP) */
    FS_FIT_PREFILL,    /* fixed seconds per iteration with a prompt */
    FS_FIT_REQUEST,    /* fixed seconds a request spends off the GPU
                          before its first token (API server, network) */
    FS_FIT_NPARAMS
};

typedef struct fs_llm_param {
    const char *name;       /* "mfu", "decode_frac", ... (--fit names) */
    const char *unit;       /* "" or "ms": how it is printed */
    double print_scale;     /* value x print_scale is printed */
    double lo, hi;          /* bounds the fit keeps it within */
    const char *what;
} fs_llm_param;

const fs_llm_param *fs_llm_param_at(int i);
/* The index of a parameter by name; -1 when unknown. */
int fs_llm_param_find(const char *name);

/* The stack's defaults for this configuration and hardware (what an
 * uncalibrated run uses), into x[FS_FIT_NPARAMS].  0, or -1 with why when
 * the model does not fit. */
int fs_llm_params_default(const fs_llm_config *c, const fs_llm_hw *hw,
                          double *x, char *why, size_t len);
/* The replica's constants with the parameters x. */
int fs_llm_perf_with(fs_llm_perf *p, const fs_llm_config *c,
                     const fs_llm_hw *hw, const double *x, char *why,
                     size_t len);

/* The fit as an engine-profile row (models/llm/llm_engine.h) that reproduces
 * fs_llm_perf_with(x) for this configuration: the configuration's profile
 * row for the GPU with version "calibrated", current, the GPU's
 * generation, the fitted efficiencies, and the fixed costs and padding as
 * the replica's whole at this model and TP (no per-layer part, no growth
 * with TP), and request_s, the time off the GPU the simulator adds to
 * each request's TTFT and end-to-end latency. */
int fs_llm_params_profile(const fs_llm_config *c, const fs_llm_hw *hw,
                          const double *x, const char *source,
                          fs_llm_engine *row, char *why, size_t len);

/* A profile row shared by several deployments (models, TPs): the vector's
 * mfu, decode fraction, bandwidth efficiency, step_ms and prefill_ms are
 * the row's own columns (step_s before its per-layer part and growth with
 * TP), the rest of the row is the configuration's profile's.
 * fs_llm_params_of_row: a row's figures as a vector;
 * fs_llm_perf_with_row: the replica of c with that row;
 * fs_llm_params_row: the row itself, with its version and source.  0, or
 * -1 (with why) when c's engine has no profile. */
void fs_llm_params_of_row(const fs_llm_engine *e, double *x);
int fs_llm_perf_with_row(fs_llm_perf *p, const fs_llm_config *c,
                         const fs_llm_hw *hw, const double *x, char *why,
                         size_t len);
int fs_llm_params_row(const fs_llm_config *c, const fs_llm_hw *hw,
                      const double *x, const char *version,
                      const char *source, fs_llm_engine *row);

/* ---- measurements and predictions ---------------------------------------- */

/* Requests a serving stack keeps running at most (vLLM's max_num_seqs). */
#define FS_LLM_MAX_RUNNING 256

/* One benchmark run: its conditions and what it measured (0: not
 * measured).  Exactly one of concurrency and rate is set; rate is INFINITY
 * for "all requests at once" with no concurrency limit. */
typedef struct fs_llm_measure {
    char source[160];       /* "file" or "file:line", for messages */
    char model[64], gpu[32], precision[8];  /* "" when the file says none */
    int tp;                 /* 0 when the file says none */
    double in, out;         /* mean prompt and output tokens a request */
    double cached;          /* of the prompt, mean tokens the server's
                               prefix cache held (not prefilled; 0) */
    double concurrency;     /* closed-loop clients */
    double rate;            /* requests/s, Poisson */
    double ttft_ms, tpot_ms;/* means */
    double throughput;      /* output tokens/s, the whole replica */
    double weight;          /* of its residuals in the fit (default 1) */
} fs_llm_measure;

typedef enum { FS_MET_TTFT, FS_MET_TPOT, FS_MET_TPUT, FS_MET_COUNT } fs_llm_metric;
const char *fs_llm_metric_name(fs_llm_metric k);   /* "TTFT ms", ... */
/* The measured figure of kind k (0 when not measured). */
double fs_llm_measured(const fs_llm_measure *m, fs_llm_metric k);

typedef struct fs_llm_prediction {
    double v[FS_MET_COUNT]; /* TTFT ms, TPOT ms, output tokens/s */
    double running;         /* mean sequences in the batch */
    int overloaded;         /* an open rate beyond what the replica serves */
} fs_llm_prediction;

/* The model's figures for a measurement's conditions; request_s is the
 * time each request spends before its first token off the GPU
 * (x[FS_FIT_REQUEST]). */
void fs_llm_predict(const fs_llm_perf *p, double request_s,
                    const fs_llm_measure *m, fs_llm_prediction *out);

/* ---- the fit ------------------------------------------------------------- */

typedef struct fs_llm_fit {
    double x[FS_FIT_NPARAMS];       /* fitted (or the default, held) */
    double x0[FS_FIT_NPARAMS];      /* the defaults it started from */
    double se[FS_FIT_NPARAMS];      /* standard errors; 0 when held */
    int fitted[FS_FIT_NPARAMS];     /* 1: fitted; 0: held at its default */
    size_t nres;                    /* residuals (measured figures) */
    double chi2;                    /* weighted sum of squared residuals */
    double rms;                     /* sqrt(chi2 / (nres - fitted)) */
    double *resid;                  /* [n x FS_MET_COUNT]: log(pred/meas),
                                       NAN where not measured */
    double *loo;                    /* the same, each measurement predicted
                                       by a fit to the others (NULL when
                                       too few to leave one out) */
    int iterations;
    double loo_median, loo_worst;   /* |relative error| over the figures */
} fs_llm_fit;

/* Fits the parameters named by use[] (1 = fit; NULL = all) to n
 * measurements, starting from the defaults.  0, or -1 with why (too few
 * figures for the parameters, the model does not fit, the solver failed). */
int fs_llm_calibrate(const fs_llm_config *c, const fs_llm_hw *hw,
                     const fs_llm_measure *ms, size_t n, const int *use,
                     int leave_one_out, fs_llm_fit *out, char *why,
                     size_t len);
/* One profile row fitted to the runs of several deployments at once:
 * measurement i ran cfgs[i] on hws[i] (its model, TP and GPU), and the
 * vector is the row's (fs_llm_perf_with_row), started from the first
 * configuration's profile row.  use[] as fs_llm_calibrate's; the time off
 * the GPU becomes the row's request_s. */
int fs_llm_calibrate_profile(const fs_llm_config *cfgs,
                             const fs_llm_hw *hws, const fs_llm_measure *ms,
                             size_t n, const int *use, int leave_one_out,
                             fs_llm_fit *out, char *why, size_t len);
/* The same fit started from another row's efficiencies and fixed costs
 * (start), each run still evaluated with its own configuration's row for
 * the columns not fitted: a row whose fixed columns differ from the row
 * the fit is to start from (the current vllm profile, fitted from vLLM
 * 0.6.0's figures; doc/llm-validation.md). */
int fs_llm_calibrate_profile_from(const fs_llm_config *cfgs,
                                  const fs_llm_hw *hws,
                                  const fs_llm_engine *start,
                                  const fs_llm_measure *ms, size_t n,
                                  const int *use, int leave_one_out,
                                  fs_llm_fit *out, char *why, size_t len);
void fs_llm_fit_free(fs_llm_fit *f);

#endif
