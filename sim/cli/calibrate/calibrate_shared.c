/* calibrate_shared.c -- `fleetsim calibrate FILE... --shared --gpu G`: one
 * engine-profile row fitted to the runs of several deployments of one GPU
 * (models and TPs), as the shipped `vllm` row for Hopper was fitted
 * (doc/llm-validation.md).
 *
 * A profile has one row per GPU generation and a deployment's model and TP
 * enter its iteration time through the row's per-step, per-layer and
 * per-TP terms, so runs of several models and TPs can share one row
 * (fs_llm_calibrate_profile): each run is simulated with its own model and
 * TP, read from its row of the file (a run that does not say which it ran
 * is refused, naming it).  The rest of the row (scheduler limits, memory,
 * all-reduce latency) is the --engine profile's for the GPU's generation. */
#include "sim/cli/calibrate/calibrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether runs i and j ran the same deployment (model and TP). */
static int same_deployment(const fs_llm_measure *a, const fs_llm_measure *b)
{
    return a->tp == b->tp && strcasecmp(a->model, b->model) == 0;
}

static size_t count_deployments(const fs_measures *ms)
{
    size_t n = 0;
    for (size_t i = 0; i < ms->n; i++) {
        size_t j = 0;
        while (j < i && !same_deployment(&ms->v[i], &ms->v[j]))
            j++;
        n += j == i;
    }
    return n;
}

int calibrate_shared_setup(calibration *c, const fs_llm_catalog *mc,
                           char *why, size_t len)
{
    c->cfgs = calloc(c->ms.n, sizeof *c->cfgs);
    c->hws = calloc(c->ms.n, sizeof *c->hws);
    if (!c->cfgs || !c->hws) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < c->ms.n; i++) {
        const fs_llm_measure *m = &c->ms.v[i];
        if (!m->model[0] || m->tp < 1) {
            snprintf(why, len, "%s: a shared fit needs each run's model "
                     "and tp (CSV columns model and tp)", m->source);
            return -1;
        }
        const fs_llm_model *mod = fs_llm_catalog_find(mc, m->model);
        if (!mod) {
            char hint[512];
            fs_llm_catalog_suggest(mc, m->model, hint, sizeof hint);
            snprintf(why, len, "%s: model: unknown '%s' %s", m->source,
                     m->model, hint);
            return -1;
        }
        c->cfgs[i] = c->cfg;
        c->cfgs[i].model = mod;
        c->cfgs[i].tp = m->tp;
        c->hws[i] = c->hw;
    }
    c->deployments = count_deployments(&c->ms);
    return 0;
}

int calibrate_shared_fit(calibration *c, const int *use, char *why,
                         size_t len)
{
    if (c->start)
        return fs_llm_calibrate_profile_from(c->cfgs, c->hws, c->start,
                                             c->ms.v, c->ms.n, use, 1,
                                             &c->fit, why, len);
    return fs_llm_calibrate_profile(c->cfgs, c->hws, c->ms.v, c->ms.n, use,
                                    1, &c->fit, why, len);
}

void calibrate_shared_heading(const calibration *c)
{
    printf("calibrate: one %s row for %s (%s), %s, over %zu deployment%s:",
           c->cfg.engine, c->hw.gpu->name, c->hw.gpu->generation,
           fs_precision_name(c->cfg.weights), c->deployments,
           c->deployments == 1 ? "" : "s");
    for (size_t i = 0; i < c->ms.n; i++) {
        size_t j = 0;
        while (j < i && !same_deployment(&c->ms.v[i], &c->ms.v[j]))
            j++;
        if (j == i)
            printf(" %s TP %d", c->cfgs[i].model->name, c->cfgs[i].tp);
    }
    printf("; %zu runs, %zu figures from %d file%s", c->ms.n, c->fit.nres,
           c->nfiles, c->nfiles == 1 ? "" : "s");
}

int calibrate_shared_row(const calibration *c, fs_llm_engine *row,
                         char *why, size_t len)
{
    char source[512];
    snprintf(source, sizeof source, "fleetsim calibrate --shared: %zu runs "
             "of %zu deployments on %s (%s; engine %s)", c->ms.n,
             c->deployments, c->hw.gpu->name,
             fs_precision_name(c->cfg.weights), c->cfg.engine);
    if (fs_llm_params_row(&c->cfgs[0], &c->hws[0], c->fit.x, "calibrated",
                          source, row)) {
        snprintf(why, len, "no engine profile '%s'", c->cfg.engine);
        return -1;
    }
    row->current = 1;   /* as a single fit's: the file's `vllm` */
    return 0;
}

/* The command ends after it: nothing is read again. */
void calibrate_shared_free(calibration *c)
{
    free(c->cfgs);
    free(c->hws);
}
