/* scenario_llm.c -- the keys of LLM serving.
 *
 *   [scenario]  models = FILE          a user's own LLMs (models.csv columns)
 *   [workload]  service = llm(model=M, precision=P, ...)   (models/service/service_llm.c)
 *               model = custom(params_b=, layers=, ...)     llm(model=custom)
 *               tokens_in = DIST, tokens_out = DIST         generated requests
 *               slo_ttft = D, slo_tpot = D                  objectives
 *   [pool]      mfu = F, bw_efficiency = F                  efficiencies
 *
 * The model named by llm(model=...) is resolved here, against the user's
 * file first and then the catalog's models.csv (loaded only when a
 * workload serves an LLM), with "did you mean" for an unknown name.
 * Whether it fits its pools' GPUs is the fleet's question (the server
 * shape decides the memory): sim/fleet/serve/llm_server.c refuses it before any
 * event.  The llm keys on a workload that does not serve an llm are
 * refused, not ignored. */
#include "sim/scenario/scenario_impl.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const llm_keys[] = {
    "tokens_in", "tokens_out", "slo_ttft", "slo_tpot", "model", NULL,
};

void fs_scenario_llm_catalog_path(fs_scenario *sc, const char *gpus_csv)
{
    char tmp[sizeof sc->llm_catalog_csv];
    snprintf(tmp, sizeof tmp, "%s", gpus_csv);
    snprintf(sc->llm_catalog_csv, sizeof sc->llm_catalog_csv,
             "%.4000s/models.csv", dirname(tmp));
}

/* The catalogs, loaded once: models = FILE, then the catalog's. */
static int load_catalogs(fs_reader *rd, fs_scenario *sc)
{
    if (sc->llm_models)
        return 0;
    fs_config_entry *e = fs_config_find(sc->cfg, "scenario", "models");
    if (e && !sc->llm_user_models) {
        char path[2200];
        if (e->value[0] == '/' || e->line == 0)
            snprintf(path, sizeof path, "%s", e->value);
        else
            snprintf(path, sizeof path, "%s/%s",
                     fs_config_entry_dir(e, sc->dir), e->value);
        fs_error why;
        sc->llm_user_models = fs_llm_catalog_load(path, &why);
        if (!sc->llm_user_models) {
            fs_reader srd = {sc->cfg, "scenario", rd->err};
            return fs_rd_bad(&srd, e, "%s", why.msg);
        }
    }
    sc->llm_models = fs_llm_catalog_load(sc->llm_catalog_csv, rd->err);
    return sc->llm_models ? 0 : -1;
}

/* llm(model=custom): the workload's model = custom(params_b=, layers=,
 * hidden=, heads=, kv_heads=, head_dim=, ffn=, vocab=, max_context=[,
 * experts=, experts_per_token=, shared_experts=, dense_layers=, dense_ffn=,
 * attention=, kv_lora_rank=, q_lora_rank=, rope_head_dim=,
 * active_params_b=, name=]),
 * the columns of models.csv checked as a row of it is
 * (models/llm/llm_catalog.c). */
static int custom_model(fs_reader *rd, fs_workload_conf *w,
                        const fs_config_entry *svc)
{
    fs_llm_service *l = &w->service.llm;
    fs_config_entry *e = fs_rd_entry(rd, "model");
    int custom = strcmp(l->model_name, "custom") == 0;
    if (!e && !custom)
        return 0;
    if (!e)
        return fs_rd_bad(rd, svc, "%s", "llm(model=custom) needs the "
                         "workload's model = custom(params_b=, layers=, "
                         "hidden=, heads=, kv_heads=, head_dim=, ffn=, "
                         "vocab=, max_context=)");
    char why[600];
    fs_call c;
    if (fs_parse_call(e->value, &c, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (!custom || strcmp(c.name, "custom"))
        return fs_rd_bad(rd, e, "%s", "on a workload serving an llm, model "
                         "= custom(...) gives the shape of "
                         "llm(model=custom)");
    fs_llm_model *m = &w->custom_model;
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "custom");
    snprintf(m->source, sizeof m->source, "%s", "the scenario's model key");
    for (int i = 0; i < c.nargs; i++) {
        const char *k = c.args[i].key;
        if (!k[0])
            return fs_rd_bad(rd, e, "%s", "custom(): every argument is "
                             "KEY=VALUE, e.g. layers=32");
        if (fs_llm_model_set(m, k, c.args[i].value, why, sizeof why)) {
            char msg[700];
            snprintf(msg, sizeof msg, "custom(): %s: %s", k, why);
            return fs_rd_bad(rd, e, "%s", msg);
        }
    }
    if (fs_llm_model_finish(m, why, sizeof why)) {
        char msg[700];
        snprintf(msg, sizeof msg, "custom(): %s", why);
        return fs_rd_bad(rd, e, "%s", msg);
    }
    l->model = m;
    return 0;
}

const fs_llm_model *fs_scenario_llm_find(fs_reader *rd, fs_scenario *sc,
                                         const char *name,
                                         const fs_config_entry *e,
                                         const char *what)
{
    if (load_catalogs(rd, sc))
        return NULL;
    const fs_llm_model *m = sc->llm_user_models
        ? fs_llm_catalog_find(sc->llm_user_models, name) : NULL;
    if (!m)
        m = fs_llm_catalog_find(sc->llm_models, name);
    if (m)
        return m;
    char hint[1024], why[1200];
    fs_llm_catalog_suggest(sc->llm_models, name, hint, sizeof hint);
    snprintf(why, sizeof why, "%s: unknown model '%s' %s; models = "
             "FILE adds your own", what, name, hint);
    fs_rd_bad(rd, e, "%s", why);
    return NULL;
}

static int resolve_model(fs_reader *rd, fs_scenario *sc, fs_llm_service *l,
                         const fs_config_entry *e)
{
    if (l->model)   /* model = custom(...) */
        return 0;
    l->model = fs_scenario_llm_find(rd, sc, l->model_name, e, "llm()");
    return l->model ? 0 : -1;
}

/* tokens_in = DIST: a distribution of the grammar, in tokens
 * (empirical(FILE) against the scenario's directory). */
static int token_dist(fs_reader *rd, const char *dir, const char *key,
                      fs_dist *d, int *has)
{
    static const fs_empirical_words w = {"a token count", "tokens", 1};
    fs_config_entry *e = fs_rd_entry(rd, key);
    *has = 0;
    if (!e)
        return 0;
    fs_call c;
    char why[600];
    if (fs_parse_call(e->value, &c, why, sizeof why) ||
        fs_dist_parse_in(&c, fs_config_entry_dir(e, dir), w, d, why,
                         sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (!(fs_dist_mean(d) >= 1)) {
        snprintf(why, sizeof why, "a mean of at least 1 token, got '%s'",
                 e->value);
        return fs_rd_bad(rd, e, "%s", why);
    }
    *has = 1;
    return 0;
}

/* The fewest tokens key's draws give (rounded, at least 1: as
 * models/service/service_llm.c draws them); 1 without the key. */
static double least_tokens(int has, const fs_dist *d)
{
    double m = has ? floor(fs_dist_min(d) + 0.5) : 1;
    return m < 1 ? 1 : m;
}

/* A request longer than the model's context (prompt and output) is
 * dropped as vLLM refuses it (sim/fleet/serve/llm_server.c); distributions that
 * can only draw such requests are refused here, at the key to blame. */
static int check_context(fs_reader *rd, const fs_llm_service *l)
{
    long ctx = l->model->max_context;
    double in = least_tokens(l->has_tokens_in, &l->tokens_in);
    double out = least_tokens(l->has_tokens_out, &l->tokens_out);
    if (ctx <= 0 || in + out <= (double)ctx)
        return 0;
    const char *key = in + 1 > (double)ctx ? "tokens_in" : "tokens_out";
    char why[400];
    snprintf(why, sizeof why, "every request would be longer than %s's "
             "context of %ld tokens (max_context): prompts of at least %.0f "
             "tokens and outputs of at least %.0f; vLLM refuses such "
             "requests (max_model_len)", l->model->name, ctx, in, out);
    return fs_rd_bad(rd, fs_rd_entry(rd, key), "%s", why);
}

static int slo_key(fs_reader *rd, const char *key, double *out)
{
    if (fs_rd_double(rd, key, fs_parse_duration, NAN, out))
        return -1;
    fs_config_entry *e = fs_rd_entry(rd, key);
    if (e && !(*out > 0))
        return fs_rd_bad(rd, e, "%s", "must be longer than 0s");
    return 0;
}

/* The precisions of the weights and of the KV cache (when given) must run
 * on every pool's GPU (models/llm/llm_precision.c: no fp8 or bf16 before
 * Ampere), or vLLM would refuse to start. */
static int check_precision(fs_reader *rd, const fs_scenario *sc,
                           const fs_workload_conf *w,
                           const fs_config_entry *e)
{
    const fs_llm_service *l = &w->service.llm;
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        char why[300], msg[400];
        const char *key = "precision";
        fs_precision bad = l->weights;
        int ok = fs_precision_runs_on(&p->gpu, bad, why, sizeof why);
        if (ok && l->kv_set) {
            key = "kv_precision";
            bad = l->kv;
            ok = fs_precision_runs_on(&p->gpu, bad, why, sizeof why);
        }
        if (!ok) {
            snprintf(msg, sizeof msg, "llm(): %s=%s on pool %s: %s", key,
                     fs_precision_name(bad), p->name, why);
            return fs_rd_bad(rd, e, "%s", msg);
        }
    }
    return 0;
}

/* tp = N (and ep = M): each replica spans max(N, M) GPUs of one instance,
 * so the pools' servers are that wide (gpus_per_server, set here when the
 * pool leaves it).  ep spreads experts: a dense model has none. */
static int apply_tp(fs_reader *rd, fs_scenario *sc, const fs_workload_conf *w,
                    const fs_config_entry *e)
{
    const fs_llm_service *l = &w->service.llm;
    long tp = l->tp > l->ep ? l->tp : l->ep;
    char why[512], shape[64];
    if (l->ep > 1)
        snprintf(shape, sizeof shape, "tp=%d, ep=%d (%ld GPUs a replica)",
                 l->tp, l->ep, tp);
    else
        snprintf(shape, sizeof shape, "tp=%ld", tp);
    if (l->ep > 1 && l->model->experts <= 0) {
        snprintf(why, sizeof why, "llm(): ep=%d spreads a mixture of "
                 "experts' experts over GPUs, but %s has none (use tp)",
                 l->ep, l->model->name);
        return fs_rd_bad(rd, e, "%s", why);
    }
    for (int k = 0; k < w->npools; k++) {
        fs_pool_conf *p = &sc->pools[w->pools[k]];
        const fs_config_entry *g = fs_config_find(sc->cfg, p->section,
                                                  "gpus_per_server");
        if (p->gpus_per_instance % tp) {
            snprintf(why, sizeof why, "llm(): %s needs instances of a "
                     "multiple of %ld GPUs; pool %s's have %ld", shape, tp,
                     p->name, p->gpus_per_instance);
            return fs_rd_bad(rd, e, "%s", why);
        }
        if (p->gpus_per_server != tp && (g || p->gpus_per_server != 1)) {
            snprintf(why, sizeof why, "llm(): %s, but pool %s's servers "
                     "are %ld GPUs wide (gpus_per_server, or another llm "
                     "workload's tp)", shape, p->name, p->gpus_per_server);
            return fs_rd_bad(rd, e, "%s", why);
        }
        p->gpus_per_server = tp;
    }
    return 0;
}

/* autoscale = utilization(...) on a pool of llm servers is refused: a
 * continuous-batching server is busy whenever it holds one request, so
 * its utilization reads 100% at any load and the pool would sit at max.
 * queue(target=N) counts the requests each replica holds instead. */
static int refuse_utilization(fs_reader *rd, const fs_scenario *sc,
                              const fs_workload_conf *w)
{
    for (int k = 0; k < w->npools; k++) {
        const fs_pool_conf *p = &sc->pools[w->pools[k]];
        if (p->scale != FS_SCALE_UTILIZATION)
            continue;
        fs_reader prd = {sc->cfg, p->section, rd->err};
        return fs_rd_bad(&prd, fs_rd_entry(&prd, "autoscale"),
                         "%s", "utilization cannot scale a pool of llm "
                         "servers: one batching server is busy whenever it "
                         "holds a request, so utilization reads 100% at any "
                         "load and the pool would stay at max; use "
                         "queue(target=N), N the requests a replica should "
                         "hold (about its max_batch at the load you want)");
    }
    return 0;
}

int fs_scenario_parse_llm(fs_reader *rd, fs_scenario *sc,
                          fs_workload_conf *w, const fs_config_entry *e)
{
    w->slo_ttft_s = w->slo_tpot_s = NAN;
    if (!w->service.model->server) {
        for (const char *const *k = llm_keys; *k; k++) {
            fs_config_entry *x = fs_rd_entry(rd, *k);
            if (x)
                return fs_rd_bad(rd, x, "%s", "applies to workloads with "
                                 "service = llm(...) only");
        }
        return 0;
    }
    fs_llm_service *l = &w->service.llm;
    if (custom_model(rd, w, e) || resolve_model(rd, sc, l, e) ||
        token_dist(rd, sc->dir, "tokens_in", &l->tokens_in, &l->has_tokens_in) ||
        token_dist(rd, sc->dir, "tokens_out", &l->tokens_out, &l->has_tokens_out) ||
        check_context(rd, l) ||
        slo_key(rd, "slo_ttft", &w->slo_ttft_s) ||
        slo_key(rd, "slo_tpot", &w->slo_tpot_s) || apply_tp(rd, sc, w, e) ||
        check_precision(rd, sc, w, e) || refuse_utilization(rd, sc, w))
        return -1;
    if (w->batch_max != 1 || fs_rd_entry(rd, "batch_wait"))
        return fs_rd_bad(rd, fs_rd_entry(rd, "batch_max")
                         ? fs_rd_entry(rd, "batch_max")
                         : fs_rd_entry(rd, "batch_wait"), "%s",
                         "an llm server batches continuously: set "
                         "max_batch= in llm(...) instead");
    return 0;
}

static int efficiency(fs_reader *rd, const char *key, double *out)
{
    if (fs_rd_double(rd, key, fs_parse_fraction, 0, out))
        return -1;
    fs_config_entry *e = fs_rd_entry(rd, key);
    if (e && !(*out > 0))
        return fs_rd_bad(rd, e, "%s", "must be above 0");
    return 0;
}

int fs_scenario_parse_llm_pool(fs_reader *rd, fs_pool_conf *p)
{
    return efficiency(rd, "mfu", &p->mfu) ||
           efficiency(rd, "bw_efficiency", &p->bw_efficiency) ? -1 : 0;
}

void fs_scenario_llm_config(const fs_workload_conf *wc,
                            const fs_pool_conf *pc, fs_llm_config *c)
{
    const fs_llm_service *l = &wc->service.llm;
    memset(c, 0, sizeof *c);
    c->model = l->model;
    c->weights = l->weights;
    c->kv = l->kv_set ? l->kv : fs_llm_kv_default(l->weights);
    c->tp = l->tp;
    c->ep = l->ep;
    snprintf(c->engine, sizeof c->engine, "%s", l->engine);
    /* llm_profile = FILE on the pool: its profile of that name, else its
     * first (scenario_llm_engine.c) */
    c->engines = pc->llm_profile ? pc->llm_profile : l->engines;
    if (pc->llm_profile && !fs_llm_engines_find(c->engines, c->engine, NULL))
        fs_llm_engines_first(c->engines, c->engine, sizeof c->engine);
    c->mfu = pc->mfu;
    c->bw_efficiency = pc->bw_efficiency;
    c->spec = l->spec.kind != FS_SPEC_OFF ? &l->spec : NULL;
}
