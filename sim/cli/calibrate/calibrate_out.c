/* calibrate_out.c -- what `fleetsim calibrate` prints and writes.
 *
 * The parameters (default, fitted, standard error; "held" for one the runs
 * cannot move), then a line per measured figure: the run, its load, the
 * figure measured, fitted, the residual (fitted / measured - 1) and the
 * leave-one-out error (the run predicted by a fit to the others), then the
 * leave-one-out median and worst.  The profile (--out) is one row of the
 * engine-profile columns (models/catalog/engines.csv: fs_llm_engine_write)
 * made by fs_llm_params_profile (with --shared, the shared row:
 * calibrate_shared.c). */
#include "sim/cli/calibrate/calibrate.h"
#include "sim/base/outfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void print_params(const calibration *c)
{
    const fs_llm_fit *f = &c->fit;
    printf("%-14s %10s %10s %10s\n", "parameter", "default", "fitted",
           "std error");
    for (int i = 0; i < FS_FIT_NPARAMS; i++) {
        const fs_llm_param *p = fs_llm_param_at(i);
        double s = p->print_scale;
        printf("%-14s %10.4g ", p->name, f->x0[i] * s);
        if (!f->fitted[i])
            printf("%10s %10s", "held", "-");
        else if (isnan(f->se[i]))
            printf("%10.4g %10s", f->x[i] * s, "undefined");
        else
            printf("%10.4g %10.2g", f->x[i] * s, f->se[i] * s);
        /* at a bound the fit pressed against it: the value is a limit */
        double span = p->hi - p->lo;
        int bound = f->fitted[i] && (f->x[i] - p->lo < 1e-4 * span ||
                                     p->hi - f->x[i] < 1e-4 * span);
        printf("  %s%s%s%s\n", p->unit, p->unit[0] ? ": " : "", p->what,
               bound ? " [at its bound]" : "");
    }
}

static void load_text(const fs_llm_measure *m, char *buf, size_t len)
{
    if (m->concurrency > 0)
        snprintf(buf, len, "%g clients", m->concurrency);
    else if (isinf(m->rate))
        snprintf(buf, len, "all at once");
    else
        snprintf(buf, len, "%g req/s", m->rate);
}

/* The last n characters of a run's name: its file and line or entry. */
static const char *tail(const char *s, size_t n)
{
    size_t len = strlen(s);
    return len > n ? s + len - n : s;
}

static void print_residuals(const calibration *c)
{
    const fs_llm_fit *f = &c->fit;
    printf("\n%-34s %-12s %9s %-9s %10s %10s %8s %8s\n", "run", "load",
           "in/out", "figure", "measured", "fitted", "resid", "loo");
    for (size_t i = 0; i < c->ms.n; i++) {
        const fs_llm_measure *m = &c->ms.v[i];
        char load[32], lens[32];
        load_text(m, load, sizeof load);
        snprintf(lens, sizeof lens, "%.0f/%.0f", m->in, m->out);
        for (int k = 0; k < FS_MET_COUNT; k++) {
            double meas = fs_llm_measured(m, (fs_llm_metric)k);
            if (meas <= 0)
                continue;
            double r = f->resid[i * FS_MET_COUNT + k];
            double l = f->loo ? f->loo[i * FS_MET_COUNT + k] : NAN;
            printf("%-34s %-12s %9s %-9s %10.4g %10.4g %+7.1f%% ",
                   tail(m->source, 34), load, lens,
                   fs_llm_metric_name((fs_llm_metric)k),
                   meas, meas * exp(r), 100 * expm1(r));
            if (isnan(l))
                printf("%8s\n", "-");
            else
                printf("%+7.1f%%\n", 100 * expm1(l));
        }
    }
}

void calibrate_print(const calibration *c)
{
    const fs_llm_fit *f = &c->fit;
    if (c->shared)
        calibrate_shared_heading(c);
    else
        printf("calibrate: %s on %s, %s, TP %d, %s: %zu runs, %zu figures "
               "from %d file%s", c->cfg.model->name, c->hw.gpu->name,
               fs_precision_name(c->cfg.weights), c->cfg.tp, c->cfg.engine,
               c->ms.n, f->nres, c->nfiles, c->nfiles == 1 ? "" : "s");
    if (c->skipped)
        printf(" (%zu runs of other configurations skipped)", c->skipped);
    printf("\nfit: %d iterations, residual rms %.1f%% (weighted sum of "
           "squares %.4g)\n\n", f->iterations, 100 * f->rms, f->chi2);
    print_params(c);
    print_residuals(c);
    if (f->loo)
        printf("\nleave-one-out: median |error| %.1f%%, worst %.1f%%\n",
               100 * f->loo_median, 100 * f->loo_worst);
    printf("calibrated %zu runs in %.3f s\n", c->ms.n, c->seconds);
}

int calibrate_write_profile(const calibration *c, const char *path,
                            fs_error *err)
{
    char source[512], why[512];
    snprintf(source, sizeof source, "fleetsim calibrate: %zu runs of %s on "
             "%s (%s; TP %d; engine %s)", c->ms.n, c->cfg.model->name,
             c->hw.gpu->name, fs_precision_name(c->cfg.weights), c->cfg.tp,
             c->cfg.engine);
    fs_llm_engine row;
    if (c->shared ? calibrate_shared_row(c, &row, why, sizeof why)
                  : fs_llm_params_profile(&c->cfg, &c->hw, c->fit.x, source,
                                          &row, why, sizeof why))
        return fs_error_set(err, "%s", why);
    fs_outfile o;
    if (fs_outfile_open(&o, path, err))
        return -1;
    if (fs_llm_engine_write(o.f, &row, 1)) {
        fs_outfile_abort(&o);
        return fs_error_set(err, "%s: cannot write", path);
    }
    return fs_outfile_commit(&o, err);
}
