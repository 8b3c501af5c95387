/* test_vllm_load.c -- held-out runs of a current vLLM on H100 under load.
 *
 * The data (tests/data/vllm-h100-load/, README there): 24 stages of
 * inference-perf against vLLM on H100 SXM (Llama-2-7B at TP 1,
 * CodeLlama-34B and Mixtral-8x7B at TP 2, Llama-2-70B at TP 4;
 * max_num_seqs 128, max_num_batched_tokens 2048), Poisson arrivals at 4-20
 * requests/s, four workloads.  Split by workload, a rule fixed before any
 * fit: "general" (both rates of every deployment) is the calibration set,
 * "codegen" and "roleplay" the validation set; "reasoning" (1,100 in /
 * 1,100-1,450 out at 4/s) the real server did not sustain (33-85% of the
 * requests failed, or the queue grew to a TTFT of two minutes):
 * overloaded.csv.
 *
 * Each deployment's mfu, bandwidth efficiency, per-iteration fixed cost
 * and time off the GPU are fitted (fs_llm_calibrate, the fit `fleetsim
 * calibrate` runs) on its calibration rows only; each validation row is
 * then predicted at its own rate and mean lengths (fs_llm_predict:
 * Little's law at the open rate over the steady iteration).  Asserted:
 *   - no validation run comes out overloaded, fitted or not;
 *   - over the 12 validation rows, median |error| of mean end-to-end
 *     latency, time per output token and TTFT within what the model
 *     reaches (bounds in main, the reached figures plus a margin; all
 *     inside the 15% / 15% / 25%);
 *   - the calibration rows against their fit and the runs the server did
 *     not sustain, as they stand (overload(): a known weakness at 20/s).
 * The measured time per output token is (e2e - TTFT) / (out - 1) from the
 * means (the README there says why not inference-perf's own figure).
 * Printed: every row's errors (the table of doc/llm-validation.md). */
#include "tests/check.h"
#include "tests/llm_common.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm_fit.h"
#include "models/llm/measure.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

static llm_catalogs all;
static fs_catalog *cat;
static fs_llm_catalog *models;
static fs_llm_engines *engines;

static void load_catalogs(void)
{
    CHECK(llm_catalogs_load(&all) == 0);
    cat = all.cat;
    models = all.models;
    engines = all.engines;
}

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

/* The deployment a row was run on: its model at bf16, its TP, vllm. */
static int setup(const fs_llm_measure *m, fs_llm_config *c, fs_llm_hw *hw)
{
    const fs_llm_model *mod = fs_llm_catalog_find(models, m->model);
    const fs_gpu *g = fs_catalog_gpu(cat, m->gpu);
    CHECK(mod && g);
    if (!mod || !g)
        return -1;
    fs_llm_config_default(c, mod, engines);
    c->tp = m->tp;
    fs_llm_hw_default(hw, g);
    return 0;
}

enum { E_E2E, E_TPOT, E_TTFT, E_N };
static const char *const err_names[E_N] = {"end-to-end", "TPOT", "TTFT"};

/* A row's relative errors; its predicted overload flag is returned. */
static int row_errors(const fs_llm_perf *p, double request_s,
                      const fs_llm_measure *m, double *e)
{
    fs_llm_prediction pr;
    fs_llm_predict(p, request_s, m, &pr);
    double e2e_meas = m->ttft_ms + (m->out - 1) * m->tpot_ms;
    double e2e_pred = pr.v[FS_MET_TTFT] + (m->out - 1) * pr.v[FS_MET_TPOT];
    e[E_E2E] = e2e_pred / e2e_meas - 1;
    e[E_TPOT] = pr.v[FS_MET_TPOT] / m->tpot_ms - 1;
    e[E_TTFT] = pr.v[FS_MET_TTFT] / m->ttft_ms - 1;
    return pr.overloaded;
}

/* The calibration rows of m's deployment. */
static size_t same_deployment(const fs_measures *cal, const fs_llm_measure *m,
                              fs_llm_measure *out)
{
    size_t n = 0;
    for (size_t i = 0; i < cal->n; i++)
        if (strcmp(cal->v[i].model, m->model) == 0 && cal->v[i].tp == m->tp)
            out[n++] = cal->v[i];
    return n;
}

/* The parameters fitted to a deployment's calibration rows: the bandwidth
 * efficiency, the per-iteration and per-prefill fixed costs and the time
 * off the GPU (two rates give four figures that move: TTFT and TPOT; the
 * throughput of an open rate is the rate's). */
static int fit_deployment(const fs_measures *cal, const fs_llm_measure *m,
                          fs_llm_perf *p, double *request_s)
{
    fs_llm_config c;
    fs_llm_hw hw;
    fs_llm_measure rows[8];
    size_t n = same_deployment(cal, m, rows);
    CHECK(n == 2);
    if (n < 2 || setup(m, &c, &hw))
        return -1;
    static const int use[FS_FIT_NPARAMS] = {1, 0, 1, 1, 0, 1};
    fs_llm_fit f;
    char why[512];
    int rc = fs_llm_calibrate(&c, &hw, rows, n, use, 0, &f, why, sizeof why);
    CHECK(rc == 0);
    if (rc) {
        printf("%s: %s\n", m->model, why);
        return -1;
    }
    rc = fs_llm_perf_with(p, &c, &hw, f.x, why, sizeof why);
    *request_s = f.x[FS_FIT_REQUEST];
    fs_llm_fit_free(&f);
    return rc;
}

/* The stack's own profile, uncalibrated (request_s 0). */
static int default_deployment(const fs_llm_measure *m, fs_llm_perf *p)
{
    fs_llm_config c;
    fs_llm_hw hw;
    if (setup(m, &c, &hw))
        return -1;
    return fs_llm_perf_init(p, &c, &hw, NULL, 0);
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

/* Median |error| of the calibrated rows by TP and by load (the lower
 * rates, 5-6/s, and 10/s): the doc's table. */
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

/* Every validation row, calibrated and not; medians into med[E_N]. */
static void validation(const fs_measures *cal, const fs_measures *val,
                       double *med, double *med_default)
{
    double cal_e[E_N][32], def_e[E_N][32];
    size_t n = val->n < 32 ? val->n : 32;
    printf("%-14s tp rate  in/out     | calibrated: e2e   TPOT   TTFT | "
           "default: e2e   TPOT   TTFT\n", "model");
    for (size_t i = 0; i < n; i++) {
        const fs_llm_measure *m = &val->v[i];
        fs_llm_perf p, d;
        double rq = 0, e[E_N], de[E_N];
        if (fit_deployment(cal, m, &p, &rq) || default_deployment(m, &d))
            return;
        CHECK(row_errors(&p, rq, m, e) == 0);
        CHECK(row_errors(&d, 0, m, de) == 0);
        for (int k = 0; k < E_N; k++) {
            cal_e[k][i] = e[k];
            def_e[k][i] = de[k];
        }
        printf("%-14s %d  %4.0f  %4.0f/%4.0f  | %+6.1f%% %+6.1f%% %+6.1f%% "
               "| %+6.1f%% %+6.1f%% %+6.1f%%\n", m->model, m->tp, m->rate,
               m->in, m->out, 100 * e[0], 100 * e[1], 100 * e[2],
               100 * de[0], 100 * de[1], 100 * de[2]);
    }
    print_groups(val, cal_e, n);
    for (int k = 0; k < E_N; k++) {
        med[k] = median_abs(cal_e[k], n);
        med_default[k] = median_abs(def_e[k], n);
        printf("median |error| %s: calibrated %.1f%%, default %.1f%%\n",
               err_names[k], 100 * med[k], 100 * med_default[k]);
    }
}

/* A row predicted by the fit of its deployment: its errors into e, and
 * whether it comes out overloaded (1), or -1 when the fit failed. */
static int fitted_row(const fs_measures *cal, const fs_llm_measure *m,
                      double *e)
{
    fs_llm_perf p;
    double rq;
    if (fit_deployment(cal, m, &p, &rq))
        return -1;
    return row_errors(&p, rq, m, e);
}

/* The calibration rows against their own fit.  Known weakness (asserted
 * as it stands, so that a change either way updates the doc): at 20
 * requests/s Llama-2-70B at TP 4 and CodeLlama-34B at TP 2 stay more than
 * 50% slow even at the fit's bounds (the 70B comes out overloaded); the
 * other six rows are within 10%.  Of the four runs the real server did not
 * sustain, the 7B, 70B and 34B come out overloaded; Mixtral (its decode
 * reads only the experts its tokens touch) does not. */
/* Each row of `set` against the fit of its deployment, printed; counts
 * into n[]: of a sustained set, rows at 20/s of TP 2-4 more than 50% off
 * end-to-end (n[0]) and rows within 10% (n[1]); of a set not sustained,
 * rows that come out overloaded (n[2]). */
static void judge(const fs_measures *cal, const fs_measures *set,
                  int sustained, int *n)
{
    for (size_t i = 0; i < set->n; i++) {
        const fs_llm_measure *m = &set->v[i];
        double e[E_N];
        int o = fitted_row(cal, m, e);
        if (o < 0)
            continue;
        printf("%s: %s tp %d at %g/s, %.0f/%.0f tokens: e2e %+.1f%%, "
               "TPOT %+.1f%%, TTFT %+.1f%%%s\n",
               sustained ? "calibration" : "not sustained", m->model, m->tp,
               m->rate, m->in, m->out, 100 * e[E_E2E], 100 * e[E_TPOT],
               100 * e[E_TTFT], o ? " (overloaded)" : "");
        if (sustained) {
            n[0] += fabs(e[E_E2E]) > 0.5 && m->rate == 20 && m->tp > 1;
            n[1] += fabs(e[E_E2E]) <= 0.10 && fabs(e[E_TPOT]) <= 0.10;
        } else {
            n[2] += o;
            if (strcmp(m->model, "mixtral-8x7b") != 0)
                CHECK(o == 1);
        }
    }
}

static void overload(const fs_measures *cal, const fs_measures *over)
{
    int n[3] = {0, 0, 0};
    judge(cal, cal, 1, n);
    judge(cal, over, 0, n);
    CHECK(n[0] == 2 && n[1] == 6);
    CHECK(n[2] == 3);
}

int main(void)
{
    load_catalogs();
    fs_measures cal = {0}, val = {0}, over = {0};
    CHECK(read_set("calibration.csv", &cal) == 0 && cal.n == 8);
    CHECK(read_set("validation.csv", &val) == 0 && val.n == 12);
    CHECK(read_set("overloaded.csv", &over) == 0 && over.n == 4);
    if (cat && models && engines && cal.n == 8 && val.n == 12) {
        double med[E_N], med_default[E_N];
        validation(&cal, &val, med, med_default);
        /* reached: 4.1%, 4.1% and 7.3% (the targets: 15%, 15%
         * and 25%); the bounds leave two points (three for TTFT) */
        CHECK(med[E_E2E] <= 0.06);
        CHECK(med[E_TPOT] <= 0.06);
        CHECK(med[E_TTFT] <= 0.10);
        /* the stack's own profile, uncalibrated: printed; it is slow */
        CHECK(med_default[E_E2E] > 0.15);
        overload(&cal, &over);
    }
    fs_measures_free(&cal);
    fs_measures_free(&val);
    fs_measures_free(&over);
    llm_catalogs_free(&all);
    return check_report("vllm_load");
}
