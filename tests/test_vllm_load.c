/* test_vllm_load.c -- a current vLLM on H100 under load: the shipped
 * `vllm` profile's Hopper row, fitted and predicted.
 *
 * The data (tests/data/vllm-h100-load/, README there): 24 stages of
 * inference-perf against vLLM on H100 SXM (Llama-2-7B at TP 1,
 * CodeLlama-34B and Mixtral-8x7B at TP 2, Llama-2-70B at TP 4;
 * max_num_seqs 128, max_num_batched_tokens 2048), Poisson arrivals at 4-20
 * requests/s, four workloads, each cycling 100 fixed prompts (so the
 * server's prefix cache holds each prompt but its last partial block:
 * cached_tokens).  Split by workload, a rule fixed before any fit:
 * "general" (both rates of every deployment) is the calibration set,
 * "codegen" and "roleplay" the validation set; "reasoning" the real server
 * did not sustain: overloaded.csv.
 *
 * Checked here, through the calibrate predictor (Little's law at the open
 * rate over the steady iteration; the discrete-event server's check of the
 * same stages is tests/cli_vllm_load.sh):
 *   - the profile: ONE row for all four deployments (mfu, bandwidth
 *     efficiency, per-iteration and per-prefill fixed costs and the time off
 *     the GPU), fitted on the 8 calibration stages only
 *     (fs_llm_calibrate_profile_from, from vllm@0.6's Hopper figures
 *     with the shipped row's other columns), is the row engines.csv ships
 *     as `vllm` (each figure within 1%, the rounding);
 *   - the shipped `vllm` profile on the 12 validation stages: no run
 *     overloaded, and the median |error| of the mean end-to-end latency,
 *     time per output token and TTFT within the bounds in main (the
 *     figures reached plus a margin; the issue's: 15%, 15%, 25%);
 *   - vllm@0.6 (0.6.0's figures) on the same stages, printed: slow;
 *   - of the runs the real server did not sustain, the dense models'
 *     come out overloaded.
 * The measured time per output token is (e2e - TTFT) / (out - 1) from the
 * means (the README there says why not inference-perf's own figure). */
#include "tests/check.h"
#include "tests/llm_common.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm_fit.h"
#include "models/llm/measure.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static llm_catalogs all;

static int read_set(const char *name, fs_measures *ms)
{
    char p[1024], rel[256];
    fs_error err;
    snprintf(rel, sizeof rel, "tests/data/vllm-h100-load/%s", name);
    check_path(p, sizeof p, rel);
    int rc = fs_measures_read(p, NULL, ms, &err);
    if (rc)
        printf("%s\n", err.msg);
    return rc;
}

/* The deployment a row was run on: its model at bf16, its TP, the
 * engine profile named. */
static int setup(const fs_llm_measure *m, const char *engine,
                 fs_llm_config *c, fs_llm_hw *hw)
{
    const fs_llm_model *mod = fs_llm_catalog_find(all.models, m->model);
    const fs_gpu *g = fs_catalog_gpu(all.cat, m->gpu);
    CHECK(mod && g);
    if (!mod || !g)
        return -1;
    fs_llm_config_default(c, mod, all.engines);
    c->tp = m->tp;
    snprintf(c->engine, sizeof c->engine, "%s", engine);
    fs_llm_hw_default(hw, g);
    return 0;
}

enum { E_E2E, E_TPOT, E_TTFT, E_N };
static const char *const err_names[E_N] = {"end-to-end", "TPOT", "TTFT"};

/* A row's relative errors under a profile; its predicted overload flag is
 * returned (-1: the profile could not be set up). */
static int row_errors(const char *engine, const fs_llm_measure *m,
                      double *e)
{
    fs_llm_config c;
    fs_llm_hw hw;
    fs_llm_perf p;
    if (setup(m, engine, &c, &hw) || fs_llm_perf_init(&p, &c, &hw, NULL, 0))
        return -1;
    fs_llm_prediction pr;
    fs_llm_predict(&p, p.request_s, m, &pr);
    double e2e_meas = m->ttft_ms + (m->out - 1) * m->tpot_ms;
    double e2e_pred = pr.v[FS_MET_TTFT] + (m->out - 1) * pr.v[FS_MET_TPOT];
    e[E_E2E] = e2e_pred / e2e_meas - 1;
    e[E_TPOT] = pr.v[FS_MET_TPOT] / m->tpot_ms - 1;
    e[E_TTFT] = pr.v[FS_MET_TTFT] / m->ttft_ms - 1;
    return pr.overloaded;
}

/* The one row fitted to every calibration stage, started from vllm@0.6's
 * Hopper figures (the columns not fitted, e.g. no growth of the step with
 * TP, the shipped row's), against the row engines.csv ships as `vllm`. */
static void fitted_profile(const fs_measures *cal)
{
    fs_llm_config cs[8];
    fs_llm_hw hs[8];
    CHECK(cal->n == 8);
    for (size_t i = 0; i < cal->n && i < 8; i++)
        if (setup(&cal->v[i], "vllm", &cs[i], &hs[i]))
            return;
    const fs_llm_engine *start = fs_llm_engines_find(all.engines,
                                                     "vllm@0.6", "hopper");
    CHECK(start != NULL);
    static const int use[FS_FIT_NPARAMS] = {1, 0, 1, 1, 1, 1};
    fs_llm_fit f;
    char why[512];
    int rc = fs_llm_calibrate_profile_from(cs, hs, start, cal->v, cal->n,
                                           use, 0, &f, why, sizeof why);
    CHECK(rc == 0);
    if (rc) {
        printf("the profile fit: %s\n", why);
        return;
    }
    const fs_llm_engine *shipped = fs_llm_engines_find(all.engines, "vllm",
                                                       "hopper");
    CHECK(shipped != NULL);
    fs_llm_engine row;
    CHECK(fs_llm_params_row(&cs[0], &hs[0], f.x, "fit", "", &row) == 0);
    printf("the shared profile, fitted on 8 stages (rms %.3f):\n", f.rms);
    static const size_t off[] = {offsetof(fs_llm_engine, mfu),
                                 offsetof(fs_llm_engine, bw_efficiency),
                                 offsetof(fs_llm_engine, step_s),
                                 offsetof(fs_llm_engine, prefill_s),
                                 offsetof(fs_llm_engine, request_s)};
    static const int param[] = {FS_FIT_MFU, FS_FIT_BW, FS_FIT_STEP,
                                FS_FIT_PREFILL, FS_FIT_REQUEST};
    for (size_t k = 0; shipped && k < 5; k++) {
        double fit = *(const double *)((const char *)&row + off[k]);
        double ship = *(const double *)((const char *)shipped + off[k]);
        printf("  %-14s %.6g +- %.2g (shipped %.6g)\n",
               fs_llm_param_at(param[k])->name, fit, f.se[param[k]], ship);
        CHECK_NEAR(ship, fit, 0.01 * fit);
    }
    fs_llm_fit_free(&f);
}

static double median_abs(double *v, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        v[i] = fabs(v[i]);
    gsl_sort(v, 1, n);
    return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* Median |error| of the rows by TP and by load (the lower rates, 5-6/s,
 * and 10/s): the doc's table. */
static void print_groups(const fs_measures *val, double err[E_N][32],
                         size_t n)
{
    static const char *const names[] = {"TP 1", "TP 2", "TP 4",
                                        "5-6/s", "10/s"};
    for (int g = 0; g < 5; g++) {
        double v[E_N][32];
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            const fs_llm_measure *m = &val->v[i];
            int in = g < 3 ? m->tp == (1 << g) : (g == 3) == (m->rate < 8);
            for (int e = 0; in && e < E_N; e++)
                v[e][k] = err[e][i];
            k += in;
        }
        printf("%-6s %2zu rows: median |error| e2e %.1f%%, TPOT %.1f%%, "
               "TTFT %.1f%%\n", names[g], k, 100 * median_abs(v[E_E2E], k),
               100 * median_abs(v[E_TPOT], k), 100 * median_abs(v[E_TTFT], k));
    }
}

/* Every row of a set under the shipped profile and vllm@0.6; medians into
 * med[E_N] and old[E_N], overloaded rows counted into over[2]. */
static void judge(const char *set, const fs_measures *ms, double *med,
                  double *old, int *over)
{
    double cur_e[E_N][32], old_e[E_N][32];
    size_t n = ms->n < 32 ? ms->n : 32;
    printf("%s: %-14s tp rate  in/out     | vllm: e2e   TPOT   TTFT | "
           "vllm@0.6: e2e   TPOT   TTFT\n", set, "model");
    for (size_t i = 0; i < n; i++) {
        const fs_llm_measure *m = &ms->v[i];
        double e[E_N], oe[E_N];
        int o = row_errors("vllm", m, e), oo = row_errors("vllm@0.6", m, oe);
        CHECK(o >= 0 && oo >= 0);
        over[0] += o == 1;
        over[1] += oo == 1;
        for (int k = 0; k < E_N; k++) {
            cur_e[k][i] = e[k];
            old_e[k][i] = oe[k];
        }
        printf("  %-14s %d  %4.0f  %4.0f/%4.0f  | %+6.1f%% %+6.1f%% %+6.1f%%%s "
               "| %+6.1f%% %+6.1f%% %+6.1f%%%s\n", m->model, m->tp, m->rate,
               m->in, m->out, 100 * e[0], 100 * e[1], 100 * e[2],
               o == 1 ? " (overloaded)" : "", 100 * oe[0], 100 * oe[1],
               100 * oe[2], oo == 1 ? " (overloaded)" : "");
    }
    if (med)
        print_groups(ms, cur_e, n);
    for (int k = 0; med && k < E_N; k++) {
        med[k] = median_abs(cur_e[k], n);
        old[k] = median_abs(old_e[k], n);
        printf("median |error| %s: vllm %.1f%%, vllm@0.6 %.1f%%\n",
               err_names[k], 100 * med[k], 100 * old[k]);
    }
}

int main(void)
{
    CHECK(llm_catalogs_load(&all) == 0);
    fs_measures cal = {0}, val = {0}, over = {0};
    CHECK(read_set("calibration.csv", &cal) == 0 && cal.n == 8);
    CHECK(read_set("validation.csv", &val) == 0 && val.n == 12);
    CHECK(read_set("overloaded.csv", &over) == 0 && over.n == 4);
    if (all.cat && all.models && all.engines && cal.n == 8 && val.n == 12) {
        fitted_profile(&cal);
        double med[E_N], old[E_N];
        int n_over[2] = {0, 0}, c_over[2] = {0, 0}, r_over[2] = {0, 0};
        judge("validation", &val, med, old, n_over);
        /* reached: 6.9%, 7.0% and 4.4% with the profile's output_lag
         * and no growth of the step with TP (8.6%, 8.7% and 3.2% with
         * it; the targets: 15%, 15% and 25%); the bounds leave
         * about two points */
        CHECK(med[E_E2E] <= 0.09);
        CHECK(med[E_TPOT] <= 0.09);
        CHECK(med[E_TTFT] <= 0.06);
        CHECK(n_over[0] == 0);
        /* 0.6.0's figures on this server: printed; slow */
        CHECK(old[E_E2E] > 0.15);
        judge("calibration", &cal, NULL, NULL, c_over);
        judge("not sustained", &over, NULL, NULL, r_over);
        CHECK(r_over[0] >= 3);
    }
    fs_measures_free(&cal);
    fs_measures_free(&val);
    fs_measures_free(&over);
    llm_catalogs_free(&all);
    return check_report("vllm_load");
}
