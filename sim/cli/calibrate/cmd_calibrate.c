/* cmd_calibrate.c -- `fleetsim calibrate MEASUREMENTS... --model M --gpu G`:
 * fits a serving stack's efficiencies and fixed costs to a user's own
 * benchmark runs.
 *
 * Reads every file (models/llm/measure.h: vLLM, genai-perf, GuideLLM,
 * inference-perf JSON or plain CSV), keeps the runs of the configuration
 * named (CSV rows of other models, GPUs, precisions or TP are skipped and
 * counted), fits (models/llm/llm_fit.h), prints each parameter with its
 * standard error, each run's residuals and leave-one-out errors, and with
 * --out writes the fitted profile.  --shared fits one row to the runs of
 * several models and TPs on the GPU (calibrate_shared.c).  A malformed file: its name and key,
 * exit 1, nothing written. */
#include "sim/cli/commands.h"
#include "sim/cli/calibrate/calibrate.h"
#include "models/catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

typedef struct calib_args {
    const char *model, *gpu, *engine, *precision, *tp, *out, *format, *fit,
        *models_csv, *dir, *start;
    char **files;
    int nfiles;
    int shared;
    int use[FS_FIT_NPARAMS];
} calib_args;

/* --fit mfu,bw_efficiency,...: the parameters to fit (default all).
 * -1 to go on, or FS_EXIT_USAGE. */
static int parse_fit(calib_args *a)
{
    for (int i = 0; i < FS_FIT_NPARAMS; i++)
        a->use[i] = a->fit == NULL;
    if (!a->fit)
        return -1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", a->fit);
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
        int i = fs_llm_param_find(s);
        if (i < 0)
            return fs_usage_error("calibrate", "--fit '%s': expected mfu, "
                                  "decode_frac, bw_efficiency, step_ms or "
                                  "prefill_ms", s);
        a->use[i] = 1;
    }
    return -1;
}

const fs_option fs_options_calibrate[] = {
    OPT_STRING(0, "model", calib_args, model, "M",
               "the model benchmarked (a row of models.csv)"),
    OPT_BOOL(0, "shared", calib_args, shared, "one row for every model "
             "and TP of the runs (each run's from its row; no --model)"),
    OPT__GPU(calib_args, gpu),
    OPT__ENGINE(calib_args, engine),
    OPT_STRING(0, "start", calib_args, start, "E",
               "--shared: start the fit from profile E's figures (default "
               "--engine's; the columns not fitted stay --engine's)"),
    OPT__PRECISION(calib_args, precision),
    OPT__TP(calib_args, tp),
    OPT_STRING(0, "out", calib_args, out, "PROFILE.csv",
               "write the fit as an engine profile row"),
    OPT_STRING(0, "fit", calib_args, fit, "LIST",
               "fit only these parameters (mfu,bw_efficiency,...)"),
    OPT_STRING(0, "format", calib_args, format, "F",
               "the files' format: vllm, genai-perf, guidellm, "
               "inference-perf or csv (default: found from the keys)"),
    OPT__MODELS(calib_args, models_csv),
    OPT__CATALOG(calib_args, dir),
    OPT_END(),
};

/* -1 to go on, or the exit status (a usage error). */
static int parse(calib_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->dir = fs_catalog_default_dir();
    a->engine = fs_llm_engine_default();
    a->precision = "bf16";
    a->files = calloc((size_t)argc, sizeof *a->files);
    if (!a->files)
        return fs_fail("out of memory");
    int rc = fs_parse_options("calibrate", argc, argv, fs_options_calibrate,
                              a, (const char **)a->files, &a->nfiles);
    if (rc)
        return rc;
    if (a->shared && (a->model || a->tp))
        return fs_usage_error("calibrate", "--shared takes each run's model "
                              "and TP from its row: no --model or --tp");
    if (a->start && !a->shared)
        return fs_usage_error("calibrate", "--start is for --shared fits");
    if (!a->nfiles || (!a->model && !a->shared) || !a->gpu)
        return fs_usage_error("calibrate", "which runs, model and GPU? "
                              "fleetsim calibrate FILE... --model M --gpu G "
                              "(or --shared --gpu G)");
    if (a->format && fs_measure_format_known(a->format))
        return fs_usage_error("calibrate", "--format '%s': expected %s",
                              a->format, fs_measure_format_names());
    return parse_fit(a);   /* -1: go on */
}

/* The configuration the options name, checked against the catalogs: 0,
 * or the exit status. */
static int configure(const calib_args *a, const fs_catalog *cat,
                     const fs_llm_catalog *mc, const fs_llm_engines *engines,
                     calibration *c)
{
    char hint[1024];
    /* --shared: each run's model, set from its row (calibrate_shared.c) */
    const fs_llm_model *m = a->shared ? fs_llm_catalog_at(mc, 0)
                                      : fs_llm_catalog_find(mc, a->model);
    const fs_gpu *g = fs_catalog_gpu(cat, a->gpu);
    if (!m)
        fs_llm_catalog_suggest(mc, a->model ? a->model : "", hint,
                               sizeof hint);
    else if (!g)
        fs_catalog_suggest_gpu(cat, a->gpu, hint, sizeof hint);
    if (!m || !g) {
        fprintf(stderr, "fleetsim: calibrate: unknown %s '%s' %s\n",
                m ? "GPU" : "model", m ? a->gpu : a->model ? a->model : "",
                hint);
        return FS_EXIT_FAIL;
    }
    fs_llm_config_default(&c->cfg, m, engines);
    if (fs_precision_parse(a->precision, &c->cfg.weights))
        return fs_usage_error("calibrate", "--precision '%s': expected "
                              "fp32, bf16, fp16, fp8, int8 or int4",
                              a->precision);
    c->cfg.kv = fs_llm_kv_default(c->cfg.weights);
    char *end;
    long tp = strtol(a->tp ? a->tp : "1", &end, 10);
    if (*end || tp < 1 || tp > 8 || (tp & (tp - 1)))
        return fs_usage_error("calibrate", "--tp '%s': expected 1, 2, 4 or "
                              "8", a->tp);
    c->cfg.tp = (int)tp;
    if (strlen(a->engine) >= sizeof c->cfg.engine ||
        !fs_llm_engines_find(engines, a->engine, NULL)) {
        fs_llm_engines_suggest(engines, a->engine, hint, sizeof hint);
        return fs_usage_error("calibrate", "--engine '%s': no such profile "
                              "(%s)", a->engine, hint);
    }
    snprintf(c->cfg.engine, sizeof c->cfg.engine, "%s", a->engine);
    fs_llm_hw_default(&c->hw, g);
    if (a->start &&
        !(c->start = fs_llm_engines_find(engines, a->start, g->generation))) {
        fs_llm_engines_suggest(engines, a->start, hint, sizeof hint);
        return fs_usage_error("calibrate", "--start '%s': no such profile "
                              "for %s (%s)", a->start, g->name, hint);
    }
    return 0;
}

/* A CSV row says which configuration it measured; others are skipped
 * (with --shared, runs of any model and TP are kept). */
static int same_config(const fs_llm_measure *m, const fs_llm_config *cfg,
                       const fs_gpu *g, int shared)
{
    fs_precision p;
    if (!shared && m->model[0] && strcasecmp(m->model, cfg->model->name))
        return 0;
    if (m->gpu[0] && strcasecmp(m->gpu, g->name))
        return 0;
    if (m->precision[0] &&
        (fs_precision_parse(m->precision, &p) || p != cfg->weights))
        return 0;
    return shared || m->tp == 0 || m->tp == cfg->tp;
}

static int read_all(const calib_args *a, const fs_llm_catalog *mc,
                    calibration *c)
{
    fs_error err;
    for (int i = 0; i < a->nfiles; i++)
        if (fs_measures_read(a->files[i], a->format, &c->ms, &err))
            return fs_fail(err.msg);
    size_t kept = 0;
    for (size_t i = 0; i < c->ms.n; i++)
        if (same_config(&c->ms.v[i], &c->cfg, c->hw.gpu, a->shared))
            c->ms.v[kept++] = c->ms.v[i];
    c->skipped = c->ms.n - kept;
    c->ms.n = kept;
    c->nfiles = a->nfiles;
    if (!kept) {
        fprintf(stderr, "fleetsim: calibrate: no run of %s on %s (%s, TP "
                "%d) in the files (%zu of other configurations)\n",
                a->shared ? "any model" : c->cfg.model->name,
                c->hw.gpu->name, fs_precision_name(c->cfg.weights),
                c->cfg.tp, c->skipped);
        return FS_EXIT_FAIL;
    }
    char why[1024];
    c->shared = a->shared;
    if (a->shared && calibrate_shared_setup(c, mc, why, sizeof why))
        return fs_fail(why);
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int run(const calib_args *a, const fs_llm_catalog *mc,
               calibration *c)
{
    int rc = read_all(a, mc, c);
    if (rc)
        return rc;
    char why[1024];
    double t0 = now();
    if (a->shared ? calibrate_shared_fit(c, a->use, why, sizeof why)
                  : fs_llm_calibrate(&c->cfg, &c->hw, c->ms.v, c->ms.n,
                                     a->use, 1, &c->fit, why, sizeof why)) {
        fprintf(stderr, "fleetsim: calibrate: %s\n", why);
        return FS_EXIT_FAIL;
    }
    c->seconds = now() - t0;
    fs_error err;
    if (a->out && calibrate_write_profile(c, a->out, &err))
        return fs_fail(err.msg);
    calibrate_print(c);
    if (a->out)
        printf("profile written to %s\n", a->out);
    return FS_EXIT_OK;
}

/* The catalogs, the configuration, the fit: an exit status. */
static int load_and_run(const calib_args *a, calibration *c)
{
    char gpus[2048], inst[2048], models[2048], engines[2048];
    snprintf(engines, sizeof engines, "%s/engines.csv", a->dir);
    snprintf(gpus, sizeof gpus, "%s/gpus.csv", a->dir);
    snprintf(inst, sizeof inst, "%s/instances.csv", a->dir);
    snprintf(models, sizeof models, "%s/models.csv", a->dir);
    fs_error err;
    fs_catalog *cat = fs_catalog_load(gpus, inst, &err);
    if (!cat)
        return fs_fail(err.msg);
    fs_llm_catalog *mc = fs_llm_catalog_load(a->models_csv ? a->models_csv
                                                           : models, &err);
    /* the engine profiles beside the catalog, else the installed ones */
    fs_llm_engines *eng = NULL;
    if (mc)
        eng = access(engines, R_OK) == 0 ? fs_llm_engines_load(engines, &err)
                                         : fs_llm_engines_load_default(&err);
    int rc = mc && eng ? configure(a, cat, mc, eng, c) : fs_fail(err.msg);
    if (rc == 0)
        rc = run(a, mc, c);
    fs_llm_engines_free(eng);
    fs_llm_catalog_free(mc);
    fs_catalog_free(cat);
    return rc;
}

int cmd_calibrate(int argc, char **argv)
{
    calib_args a;
    calibration c;
    memset(&c, 0, sizeof c);
    int rc = parse(&a, argc, argv);
    if (rc < 0)
        rc = load_and_run(&a, &c);
    fs_llm_fit_free(&c.fit);
    calibrate_shared_free(&c);
    fs_measures_free(&c.ms);
    free(a.files);
    return rc;
}
