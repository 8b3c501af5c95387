/* llm_fit.c -- the parameters fitted to measurements by weighted nonlinear
 * least squares (llm_fit.h).
 *
 * Each measured figure gives one residual, log(predicted / measured): a
 * relative error, the same whether the figure is 20 ms or 5,000 tokens/s,
 * and symmetric in over- and under-prediction.  Its weight is the
 * measurement's.  GSL's gsl_multifit_nlinear minimizes their weighted sum
 * of squares with a trust-region method (Levenberg-Marquardt with finite-
 * difference Jacobians).  A parameter x in [lo, hi] is fitted as u with
 * x = lo + (hi - lo) / (1 + e^-u), so no step leaves the bounds.
 *
 * Standard errors: the covariance (J^T W J)^-1 in u, scaled by the
 * residual variance chi2 / (figures - parameters) (the noise is estimated
 * from the fit, not assumed), carried to x by dx/du.  A parameter the
 * measurements do not move (its Jacobian column is zero at the start: a
 * decode efficiency when every step is bound by memory) is held at its
 * default and said so.  Leave-one-out: each measurement is predicted by a
 * fit to the others, started from the full fit. */
#include "models/llm/llm_fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fit_ctx {
    const fs_llm_config *c;
    const fs_llm_hw *hw;
    size_t cstep;   /* 0: c and hw for every measurement; 1: a profile row
                       fitted across deployments, c[i] and hw[i] */
    const fs_llm_measure *ms;
    size_t n, skip;                 /* skip: left out, or n */
    int idx[FS_FIT_NPARAMS], np;    /* the fitted parameters */
    double x[FS_FIT_NPARAMS];       /* the whole vector */
    char why[256];
} fit_ctx;

static double to_x(int i, double u)
{
    const fs_llm_param *p = fs_llm_param_at(i);
    return p->lo + (p->hi - p->lo) / (1.0 + exp(-u));
}

static double to_u(int i, double x)
{
    const fs_llm_param *p = fs_llm_param_at(i);
    double span = p->hi - p->lo, eps = 1e-9 * span;
    if (x < p->lo + eps)
        x = p->lo + eps;
    if (x > p->hi - eps)
        x = p->hi - eps;
    return log((x - p->lo) / (p->hi - x));
}

/* Figures a measurement counts in the fit. */
static size_t figures(const fs_llm_measure *m)
{
    size_t k = 0;
    for (int j = 0; j < FS_MET_COUNT; j++)
        k += fs_llm_measured(m, (fs_llm_metric)j) > 0;
    return k;
}

static size_t count_residuals(const fit_ctx *f)
{
    size_t r = 0;
    for (size_t i = 0; i < f->n; i++)
        if (i != f->skip)
            r += figures(&f->ms[i]);
    return r;
}

/* Predicted over measured, logged, for every figure of measurement m. */
static void log_ratios(const fs_llm_perf *p, const double *x,
                       const fs_llm_measure *m, double *out)
{
    fs_llm_prediction pr;
    fs_llm_predict(p, x[FS_FIT_REQUEST], m, &pr);
    for (int k = 0; k < FS_MET_COUNT; k++) {
        double meas = fs_llm_measured(m, (fs_llm_metric)k);
        out[k] = meas > 0 ? log(pr.v[k] / meas) : NAN;
    }
}

/* The replica measurement i ran on, with the vector f->x. */
static int perf_of(const fit_ctx *f, size_t i, fs_llm_perf *p, char *why,
                   size_t len)
{
    const fs_llm_config *c = f->c + i * f->cstep;
    const fs_llm_hw *hw = f->hw + i * f->cstep;
    return f->cstep ? fs_llm_perf_with_row(p, c, hw, f->x, why, len)
                    : fs_llm_perf_with(p, c, hw, f->x, why, len);
}

static void set_vector(fit_ctx *f, const gsl_vector *u)
{
    for (int j = 0; j < f->np; j++)
        f->x[f->idx[j]] = to_x(f->idx[j], gsl_vector_get(u, j));
}

static int residuals(const gsl_vector *u, void *data, gsl_vector *res)
{
    fit_ctx *f = data;
    set_vector(f, u);
    fs_llm_perf p;
    size_t r = 0;
    double lr[FS_MET_COUNT];
    for (size_t i = 0; i < f->n; i++) {
        if (i == f->skip)
            continue;
        /* one replica for every measurement, or each its own */
        if ((r == 0 || f->cstep) &&
            perf_of(f, i, &p, f->why, sizeof f->why))
            return GSL_EDOM;
        log_ratios(&p, f->x, &f->ms[i], lr);
        for (int k = 0; k < FS_MET_COUNT; k++)
            if (!isnan(lr[k]))
                gsl_vector_set(res, r++, isfinite(lr[k]) ? lr[k] : 50.0);
    }
    return GSL_SUCCESS;
}

typedef struct solver {
    gsl_multifit_nlinear_workspace *w;
    gsl_vector *u, *wts;
    gsl_multifit_nlinear_fdf fdf;
} solver;

static void solver_free(solver *s)
{
    if (s->w)
        gsl_multifit_nlinear_free(s->w);
    gsl_vector_free(s->u);
    gsl_vector_free(s->wts);
}

/* A workspace at the current vector, f and J evaluated. */
static int solver_init(solver *s, fit_ctx *f, size_t nres)
{
    memset(s, 0, sizeof *s);
    gsl_multifit_nlinear_parameters prm =
        gsl_multifit_nlinear_default_parameters();
    s->w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm,
                                      nres, (size_t)f->np);
    s->u = gsl_vector_alloc((size_t)f->np);
    s->wts = gsl_vector_alloc(nres);
    size_t r = 0;
    for (size_t i = 0; i < f->n; i++)
        for (size_t k = 0; i != f->skip && k < figures(&f->ms[i]); k++)
            gsl_vector_set(s->wts, r++, f->ms[i].weight > 0
                                            ? f->ms[i].weight : 1.0);
    for (int j = 0; j < f->np; j++)
        gsl_vector_set(s->u, j, to_u(f->idx[j], f->x[f->idx[j]]));
    /* fs_llm_calibrate starts inside the bounds: at a bound the logistic's
     * slope, and so the Jacobian's column, vanishes */
    s->fdf.f = residuals;
    s->fdf.df = NULL;
    s->fdf.fvv = NULL;
    s->fdf.n = nres;
    s->fdf.p = (size_t)f->np;
    s->fdf.params = f;
    return gsl_multifit_nlinear_winit(s->u, s->wts, &s->fdf, s->w);
}

/* Drops the parameters whose Jacobian column is (nearly) zero at the
 * start: the measurements cannot move them. */
static int drop_flat(fit_ctx *f, const gsl_matrix *J)
{
    double norm[FS_FIT_NPARAMS], top = 0;
    for (int j = 0; j < f->np; j++) {
        gsl_vector_const_view col = gsl_matrix_const_column(J, j);
        norm[j] = gsl_blas_dnrm2(&col.vector);
        if (norm[j] > top)
            top = norm[j];
    }
    int kept = 0;
    for (int j = 0; j < f->np; j++)
        if (norm[j] > 1e-6 * top && norm[j] > 1e-12)
            f->idx[kept++] = f->idx[j];
    int dropped = f->np - kept;
    f->np = kept;
    return dropped;
}

static int solve(solver *s, fit_ctx *f, int *iters)
{
    int info;
    int st = gsl_multifit_nlinear_driver(200, 1e-10, 1e-10, 0.0, NULL, NULL,
                                         &info, s->w);
    if (st != GSL_SUCCESS && st != GSL_EMAXITER && st != GSL_ENOPROG) {
        if (!f->why[0])
            snprintf(f->why, sizeof f->why, "the solver stopped: %s",
                     gsl_strerror(st));
        return -1;
    }
    set_vector(f, s->w->x);
    if (iters)
        *iters = (int)gsl_multifit_nlinear_niter(s->w);
    return 0;
}

/* Standard errors of the fitted parameters, scaled by chi2 / dof. */
static void standard_errors(const solver *s, const fit_ctx *f, double chi2,
                            size_t nres, fs_llm_fit *out)
{
    gsl_matrix *cov = gsl_matrix_alloc((size_t)f->np, (size_t)f->np);
    gsl_matrix *J = gsl_multifit_nlinear_jac(s->w);
    gsl_multifit_nlinear_covar(J, 1e-12, cov);
    double scale = chi2 / (double)(nres - (size_t)f->np);
    for (int j = 0; j < f->np; j++) {
        int i = f->idx[j];
        const fs_llm_param *p = fs_llm_param_at(i);
        double x = f->x[i];
        double dxdu = (x - p->lo) * (p->hi - x) / (p->hi - p->lo);
        double c = gsl_matrix_get(cov, (size_t)j, (size_t)j);
        out->se[i] = c > 0 ? dxdu * sqrt(c * scale) : NAN;
    }
    gsl_matrix_free(cov);
}

/* The fit on f's measurements from f->x: the vector in f->x. */
static int fit_once(fit_ctx *f, fs_llm_fit *out)
{
    size_t nres = count_residuals(f);
    if (nres <= (size_t)f->np) {
        snprintf(f->why, sizeof f->why, "%zu measured figures cannot set %d "
                 "parameters: give more runs, or fewer parameters to --fit",
                 nres, f->np);
        return -1;
    }
    solver s;
    int rc = -1;
    if (solver_init(&s, f, nres) == GSL_SUCCESS) {
        if (out && drop_flat(f, gsl_multifit_nlinear_jac(s.w))) {
            solver_free(&s);
            return f->np ? fit_once(f, out) : -1;
        }
        rc = solve(&s, f, out ? &out->iterations : NULL);
    }
    if (rc == 0 && out) {
        double chi2;
        gsl_blas_ddot(gsl_multifit_nlinear_residual(s.w),
                      gsl_multifit_nlinear_residual(s.w), &chi2);
        out->chi2 = chi2;
        out->nres = nres;
        out->rms = sqrt(chi2 / (double)(nres - (size_t)f->np));
        standard_errors(&s, f, chi2, nres, out);
    }
    if (rc && !f->why[0])
        snprintf(f->why, sizeof f->why, "the model cannot be evaluated");
    solver_free(&s);
    return rc;
}

/* Each measurement predicted by a fit to the others. */
static void leave_one_out(fit_ctx *f, const double *best, fs_llm_fit *out)
{
    out->loo = malloc(f->n * FS_MET_COUNT * sizeof *out->loo);
    double *abs_err = malloc(f->n * FS_MET_COUNT * sizeof *abs_err);
    size_t nerr = 0;
    for (size_t i = 0; i < f->n; i++) {
        double *lr = out->loo + i * FS_MET_COUNT;
        for (int k = 0; k < FS_MET_COUNT; k++)
            lr[k] = NAN;
        memcpy(f->x, best, sizeof f->x);
        f->skip = i;
        fs_llm_perf p;
        if (fit_once(f, NULL) || perf_of(f, i, &p, NULL, 0))
            continue;
        log_ratios(&p, f->x, &f->ms[i], lr);
        for (int k = 0; k < FS_MET_COUNT; k++)
            if (!isnan(lr[k]))
                abs_err[nerr++] = fabs(expm1(lr[k]));
    }
    f->skip = f->n;
    f->why[0] = 0;
    memcpy(f->x, best, sizeof f->x);
    if (nerr) {
        gsl_sort(abs_err, 1, nerr);
        out->loo_median = gsl_stats_median_from_sorted_data(abs_err, 1, nerr);
        out->loo_worst = abs_err[nerr - 1];
    }
    free(abs_err);
}

static void final_residuals(fit_ctx *f, fs_llm_fit *out)
{
    out->resid = malloc(f->n * FS_MET_COUNT * sizeof *out->resid);
    fs_llm_perf p;
    for (size_t i = 0; i < f->n; i++) {
        double *lr = out->resid + i * FS_MET_COUNT;
        if ((i == 0 || f->cstep) && perf_of(f, i, &p, NULL, 0)) {
            for (int k = 0; k < FS_MET_COUNT; k++)
                lr[k] = NAN;
            continue;
        }
        log_ratios(&p, f->x, &f->ms[i], lr);
    }
}

/* The fit of f's measurements from the defaults in f->x. */
static int calibrate(fit_ctx *f, const int *use, int leave_one_out_too,
                     fs_llm_fit *out, char *why, size_t len)
{
    memcpy(out->x0, f->x, sizeof f->x);
    for (int i = 0; i < FS_FIT_NPARAMS; i++)
        if (!use || use[i]) {
            const fs_llm_param *p = fs_llm_param_at(i);
            double margin = 0.01 * (p->hi - p->lo);
            f->x[i] = fmin(fmax(f->x[i], p->lo + margin), p->hi - margin);
            f->idx[f->np++] = i;
        }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = f->np ? fit_once(f, out) : -1;
    if (rc == 0) {
        for (int j = 0; j < f->np; j++)
            out->fitted[f->idx[j]] = 1;
        memcpy(out->x, f->x, sizeof f->x);
        final_residuals(f, out);
        if (leave_one_out_too)
            leave_one_out(f, out->x, out);
    } else if (why) {
        snprintf(why, len, "%s", f->why[0] ? f->why
                                           : "no parameter the measurements "
                                             "can set");
    }
    gsl_set_error_handler(old);
    return rc;
}

int fs_llm_calibrate(const fs_llm_config *c, const fs_llm_hw *hw,
                     const fs_llm_measure *ms, size_t n, const int *use,
                     int leave_one_out_too, fs_llm_fit *out, char *why,
                     size_t len)
{
    memset(out, 0, sizeof *out);
    fit_ctx f = {.c = c, .hw = hw, .ms = ms, .n = n, .skip = n};
    if (fs_llm_params_default(c, hw, f.x, why, len))
        return -1;
    return calibrate(&f, use, leave_one_out_too, out, why, len);
}

int fs_llm_calibrate_profile(const fs_llm_config *cfgs,
                             const fs_llm_hw *hws, const fs_llm_measure *ms,
                             size_t n, const int *use, int leave_one_out_too,
                             fs_llm_fit *out, char *why, size_t len)
{
    const fs_llm_engine *e =
        n ? fs_llm_engines_find(cfgs->engines, cfgs->engine,
                                hws->gpu->generation)
          : NULL;
    return fs_llm_calibrate_profile_from(cfgs, hws, e, ms, n, use,
                                         leave_one_out_too, out, why, len);
}

int fs_llm_calibrate_profile_from(const fs_llm_config *cfgs,
                                  const fs_llm_hw *hws,
                                  const fs_llm_engine *start,
                                  const fs_llm_measure *ms, size_t n,
                                  const int *use, int leave_one_out_too,
                                  fs_llm_fit *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    fit_ctx f = {.c = cfgs, .hw = hws, .cstep = 1, .ms = ms, .n = n,
                 .skip = n};
    if (!n || !start) {
        if (why)
            snprintf(why, len, "no measurement, or no engine profile");
        return -1;
    }
    fs_llm_params_of_row(start, f.x);
    return calibrate(&f, use, leave_one_out_too, out, why, len);
}

void fs_llm_fit_free(fs_llm_fit *f)
{
    free(f->resid);
    free(f->loo);
    f->resid = f->loo = NULL;
}
