/* plan_candidates.c -- what `fleetsim plan` tries: the workload and pool
 * it sizes, and each GPU x precision x TP, with those on which the model
 * does not fit in memory excluded before any simulation.
 *
 * The scenario is read as a config (keys, not a built world) so that the
 * candidates are known, and memory-excluded, before anything runs; each
 * probe then loads the whole scenario through fs_run_scenario with the
 * candidate's --set assignments (plan_search.c). */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "sim/base/grammar.h"
#include "sim/scenario/config.h"
#include "models/catalog/catalog.h"
#include "models/purchase/purchase.h"
#include "models/dist/dist.h"
#include "models/llm/llm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *get(const fs_config *c, const char *section,
                       const char *key)
{
    const fs_config_entry *e = fs_config_find(c, section, key);
    return e ? e->value : NULL;
}

/* The workload: --workload, else the only inference workload. */
static int find_workload(fs_plan *p, const fs_config *c, char *section,
                         size_t len)
{
    char names[1024] = "";
    int n = 0;
    const char *only = NULL;
    for (size_t i = 0; i < c->n; i++) {
        const char *s = c->e[i].section;
        if (strncmp(s, "workload.", 9) || strcmp(c->e[i].key, "pools"))
            continue;
        const char *kind = get(c, s, "kind");
        if (kind && strcmp(kind, "inference"))
            continue;
        if (p->workload && strcmp(s + 9, p->workload) == 0) {
            snprintf(section, len, "%s", s);
            return 0;
        }
        only = s + 9;
        snprintf(names + strlen(names), sizeof names - strlen(names),
                 "%s%s", n++ ? ", " : "", s + 9);
    }
    if (p->workload) {
        fs_plan_say("%s: --workload: no inference workload '%s' "
                "(it has: %s)", p->scenario, p->workload,
                n ? names : "none");
        return FS_EXIT_FAIL;
    }
    if (n != 1) {
        if (n)
            fs_plan_say("%s has %d inference workloads "
                    "(%s): name one with --workload", p->scenario, n,
                    names);
        else
            fs_plan_say("%s has no inference workload "
                    "to plan for", p->scenario);
        return n ? FS_EXIT_USAGE : FS_EXIT_FAIL;
    }
    snprintf(p->workload_name, sizeof p->workload_name, "%s", only);
    p->workload = p->workload_name;
    snprintf(section, len, "workload.%s", only);
    return 0;
}

/* The service: an llm(...) call's model and other arguments, or a
 * distribution's mean for the Erlang C bracket. */
static void read_service(fs_plan *p, const char *service)
{
    fs_call call;
    char why[256];
    p->mean_s = NAN;
    if (!service || fs_parse_call(service, &call, why, sizeof why))
        return;
    if (strcmp(call.name, "llm") == 0) {
        p->llm = 1;
        for (int k = 0; k < call.nargs; k++) {
            const char *key = call.args[k].key, *v = call.args[k].value;
            if (strcmp(key, "engine") == 0)
                snprintf(p->llm_engine, sizeof p->llm_engine, "%s", v);
            if (strcmp(key, "model") == 0)
                snprintf(p->llm_model, sizeof p->llm_model, "%s", v);
            else if (key[0] && strcmp(key, "precision") &&
                     strcmp(key, "tp") && strcmp(key, "ep"))
                snprintf(p->service_args + strlen(p->service_args),
                         sizeof p->service_args - strlen(p->service_args),
                         ",%s=%s", key, v);
        }
        return;
    }
    fs_dist d;
    if (fs_dist_parse(&call, &d, why, sizeof why) == 0)
        p->mean_s = fs_dist_mean(&d);
}

/* The mean of tokens_in = / tokens_out = (a call's mean= or const's
 * value), or NaN. */
static double token_mean(const char *text)
{
    fs_call call;
    char why[256];
    double v = NAN;
    if (!text || fs_parse_call(text, &call, why, sizeof why))
        return NAN;
    const char *m = fs_call_get(&call, "mean");
    if (!m && strcmp(call.name, "const") == 0)
        m = call.nargs ? call.args[0].value : NULL;
    if (!m || fs_parse_number(m, &v, why, sizeof why) || !(v > 0))
        return NAN;
    return v;
}

static void read_arrivals(fs_plan *p, const char *arrivals)
{
    fs_call call;
    char why[256];
    p->lambda = NAN;
    if (!arrivals || fs_parse_call(arrivals, &call, why, sizeof why) ||
        strcmp(call.name, "poisson"))
        return;
    const char *rate = fs_call_get(&call, "rate");
    if (rate && fs_parse_rate(rate, &p->lambda, why, sizeof why))
        p->lambda = NAN;
}

/* The pool sized: --pool, which must be one of the workload's, else its
 * first. */
static int pick_pool(fs_plan *p, const char *pools)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", pools ? pools : "");
    int found = 0;
    for (char *t = strtok_r(buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save)) {
        p->npools++;
        if (!found && (!p->pool_arg || strcmp(t, p->pool_arg) == 0)) {
            snprintf(p->pool, sizeof p->pool, "%s", t);
            found = 1;
        }
    }
    if (found)
        return 0;
    fs_plan_say("%s: --pool %s is not a pool of "
            "workload '%s' (its pools: %s)", p->scenario,
            p->pool_arg ? p->pool_arg : "", p->workload, pools ? pools : "");
    return -1;
}

int fs_plan_read_scenario(fs_plan *p)
{
    fs_error err;
    fs_config *c = fs_config_load(p->scenario, &err);
    for (int i = 0; c && i < p->nsets; i++)
        if (fs_config_set(c, p->sets[i], &err)) {
            fs_config_free(c);
            c = NULL;
        }
    if (!c)
        return fs_fail(err.msg);
    char ws[128];
    int rc = find_workload(p, c, ws, sizeof ws);
    if (rc) {
        fs_config_free(c);
        return rc;
    }
    if (pick_pool(p, get(c, ws, "pools"))) {
        fs_config_free(c);
        return FS_EXIT_FAIL;
    }
    char ps[128], msg[512];
    if (fs_plan_shared_pools(c, ws, msg, sizeof msg)) {
        fs_config_free(c);
        return fs_fail(msg);
    }
    snprintf(ps, sizeof ps, "pool.%s", p->pool);
    const char *max = get(c, ps, "max"), *min = get(c, ps, "min");
    p->autoscale = max != NULL || get(c, ps, "autoscale") != NULL;
    p->base_min = min ? atol(min) : -1;
    fs_plan_choices_read(p, c, ws);
    read_service(p, get(c, ws, "service"));
    read_arrivals(p, get(c, ws, "arrivals"));
    p->tokens_in = token_mean(get(c, ws, "tokens_in"));
    p->tokens_out = token_mean(get(c, ws, "tokens_out"));
    const char *spec = get(c, ws, "spec");
    snprintf(p->llm_spec, sizeof p->llm_spec, "%s", spec ? spec : "");
    const char *ref = get(c, ws, "reference_gpu");
    const char *gpu = get(c, ps, "gpu");
    const char *inst = get(c, ps, "instance");
    snprintf(p->ref_gpu, sizeof p->ref_gpu, "%s", ref ? ref : gpu ? gpu : "");
    snprintf(p->pool_gpu, sizeof p->pool_gpu, "%s", gpu ? gpu : "");
    snprintf(p->pool_instance, sizeof p->pool_instance, "%s",
             inst ? inst : "");
    const char *prices[FS_PLAN_USER_PRICES];
    for (int i = 0; i < FS_PLAN_USER_PRICES; i++)
        prices[i] = get(c, ps, fs_plan_user_price_key(i));
    fs_plan_user_prices_read(p, prices);
    const char *gpi = get(c, ps, "gpus_per_instance");
    p->pool_gpus = gpi ? atoi(gpi) : 0;   /* 0: the instance's, else 1 */
    const char *pricing = get(c, ps, "pricing");
    const fs_purchase_option *po = pricing ? fs_purchase_find(pricing) : NULL;
    p->pool_on_demand = !pricing || (po && po->list_priced &&
                                     strcmp(pricing, po->name) == 0);
    p->pin_ref = !ref && !p->llm;
    fs_config_free(c);
    if (!gpu && !inst) {
        fs_plan_say("%s: pool '%s' names neither a gpu "
                "nor an instance", p->scenario, p->pool);
        return FS_EXIT_FAIL;
    }
    return 0;
}

/* Splits a comma list into items[0..*n) (pointers into buf). */
static int split(char *buf, char **items, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t && n < max;
         t = strtok_r(NULL, ",", &save))
        items[n++] = t;
    return n;
}

/* The candidate's replica: the model at its precision (the KV cache at
 * the default for it) and tp, on whole GPUs of g. */
static void candidate_llm(const fs_plan *p, const fs_plan_candidate *c,
                          const fs_gpu *g, const fs_llm_model *m,
                          fs_llm_config *cfg, fs_llm_hw *hw)
{
    fs_llm_config_default(cfg, m, p->engines);
    if (p->llm_engine[0])
        snprintf(cfg->engine, sizeof cfg->engine, "%s", p->llm_engine);
    fs_precision_parse(c->precision, &cfg->weights);
    cfg->kv = fs_llm_kv_default(cfg->weights);
    cfg->tp = c->tp;
    cfg->ep = c->ep;
    cfg->spec = p->spec.kind != FS_SPEC_OFF && !c->spec_off ? &p->spec
                                                            : NULL;
    fs_llm_hw_default(hw, g);
}

/* A precision the GPU cannot run (fp8 on a T4): excluded, never priced. */
static void check_precision(fs_plan_candidate *c, const fs_gpu *g)
{
    fs_precision pr;
    char why[256];
    if (fs_precision_parse(c->precision, &pr) == 0 &&
        !fs_precision_runs_on(g, pr, why, sizeof why)) {
        c->excluded_other = 1;
        snprintf(c->reason, sizeof c->reason, "precision: %s", why);
    }
}

/* Memory: one request of the model's context (at most 8192 tokens). */
static void check_memory(const fs_plan *p, fs_plan_candidate *c,
                         const fs_gpu *g, const fs_llm_model *m)
{
    fs_llm_config cfg;
    fs_llm_hw hw;
    candidate_llm(p, c, g, m, &cfg, &hw);
    fs_llm_memory mem;
    long ctx = m->max_context > 0 && m->max_context < 8192 ? m->max_context
                                                           : 8192;
    fs_llm_fit_inference(&cfg, &hw, ctx, 1, &mem);
    fs_llm_memory_format(&mem, c->memory, sizeof c->memory);
    c->excluded_memory = !mem.fits;
    if (c->excluded_memory)
        snprintf(c->reason, sizeof c->reason, "memory: %.300s (one %ld-token "
                 "request, tp %d, ep %d)", c->memory, ctx, c->tp, c->ep);
    (void)p;
}

/* The roofline's lower bound on instances: the replicas whose prefill
 * (at peak compute) and decode (at the largest batch the KV cache holds)
 * time per second of traffic reaches one, at lambda x the token means;
 * -1 when those are unknown.  A start for the search, never the answer. */
static long roofline_bound(const fs_plan *p, const fs_plan_candidate *c,
                           const fs_gpu *g, const fs_llm_model *m)
{
    if (isnan(p->lambda) || isnan(p->tokens_in) || isnan(p->tokens_out))
        return -1;
    fs_llm_config cfg;
    fs_llm_hw hw;
    candidate_llm(p, c, g, m, &cfg, &hw);
    fs_llm_perf perf;
    char why[512];
    if (fs_llm_perf_init(&perf, &cfg, &hw, why, sizeof why))
        return -1;
    double seq = p->tokens_in + p->tokens_out;
    long batch = (long)(perf.kv_capacity_tokens / seq);
    if (batch > 256)
        batch = 256;
    if (batch < 1)
        batch = 1;
    double token_s = fs_plan_decode_token_s(p, &perf, (int)batch,
                                            (long)(batch * (p->tokens_in +
                                                            p->tokens_out /
                                                                2)));
    double prefill = perf.peak_flops / perf.flops_per_token;
    double busy = p->lambda * (p->tokens_in / prefill +
                               p->tokens_out * token_s);
    int width = fs_llm_gpus(&cfg);
    long per_instance = p->pool_instance[0] && c->tp > 0
                            ? (c->instance[0] ? 1 : p->pool_instance_gpus /
                                                        width)
                            : 1;
    if (per_instance < 1)
        per_instance = 1;
    long n = (long)ceil(busy / (double)per_instance);
    return n < 1 ? 1 : n;
}

static int add(fs_plan *p, const char *gpu, const char *prec, int tp,
               int ep)
{
    fs_plan_candidate *n = realloc(p->cand, (size_t)(p->ncand + 1) *
                                   sizeof *n);
    if (!n)
        return -1;
    p->cand = n;
    fs_plan_candidate *c = &p->cand[p->ncand++];
    memset(c, 0, sizeof *c);
    snprintf(c->gpu, sizeof c->gpu, "%s", gpu);
    snprintf(c->precision, sizeof c->precision, "%s", prec ? prec : "");
    c->tp = tp;
    c->ep = ep;
    c->min = -1;
    for (int k = 0; k < FS_PLAN_PURCHASES; k++)
        c->cost[k] = NAN;
    c->monthly = NAN;
    return 0;
}

/* A pool given as instance = PROVIDER:TYPE: its GPU is the pool's. */
static int pool_instance(fs_plan *p, const fs_catalog *cat)
{
    const fs_instance_type *t = fs_catalog_instance(cat, p->pool_instance);
    if (!t) {
        fs_plan_say("%s: pool '%s': unknown instance "
                "'%s'", p->scenario, p->pool, p->pool_instance);
        return FS_EXIT_FAIL;
    }
    snprintf(p->pool_gpu, sizeof p->pool_gpu, "%s", t->gpu);
    if (!p->ref_gpu[0])
        snprintf(p->ref_gpu, sizeof p->ref_gpu, "%s", t->gpu);
    p->pool_instance_gpus = t->gpus;
    if (p->pool_gpus < 1)
        p->pool_gpus = t->gpus;
    return 0;
}

/* On a pool given by instance type: the pool's own type for its GPU (and
 * a TP it holds), else the catalog's cheapest on-demand type of the
 * candidate's GPU with tp GPUs (any provider); none: excluded.  Returns
 * the GPUs of the candidate's instances (fs_plan_sets sets them). */
static int choose_instance(const fs_plan *p, const fs_catalog *cat,
                           fs_plan_candidate *c)
{
    int need = c->tp > c->ep ? c->tp : c->ep;
    if (need < 1)
        need = 1;
    if (!p->pool_instance[0])
        return need > 1 ? need : p->pool_gpus;
    if (strcmp(c->gpu, p->pool_gpu) == 0 && p->pool_instance_gpus >= need)
        return p->pool_gpus;
    const fs_instance_type *t = fs_catalog_cheapest(cat, c->gpu, need, 0);
    if (t && t->gpus >= need) {
        snprintf(c->instance, sizeof c->instance, "%s:%s", t->provider,
                 t->name);
        return t->gpus;
    }
    c->excluded_memory = 0;
    c->excluded_other = 1;
    snprintf(c->reason, sizeof c->reason, "no catalog instance type has "
             "%d x %s priced on demand", need, c->gpu);
    return need;
}

/* One candidate: gpu g at a precision, tp and ep, its instance, price,
 * memory and roofline bound.  0, or -1 out of memory. */
static int add_candidate(fs_plan *p, const fs_catalog *cat, const fs_gpu *g,
                         const fs_llm_model *m, const char *prec, int tp,
                         int ep, int choice)
{
    if (add(p, g->name, p->llm ? prec : NULL, p->llm ? tp : 0, ep))
        return -1;
    fs_plan_candidate *c = &p->cand[p->ncand - 1];
    fs_plan_choice_apply(p, c, choice);
    c->gpu_tflops = g->bf16_tflops;
    fs_plan_user_price(p, c, choose_instance(p, cat, c));
    if (p->llm && !c->excluded_other)
        check_precision(c, g);
    if (p->llm && !c->excluded_other)
        check_memory(p, c, g, m);
    /* a P/D ratio: the searched pool does one side, which the roofline's
     * bound (both) would overstate */
    if (p->llm && !c->excluded_other && !c->excluded_memory && !c->pd[0])
        c->estimate = roofline_bound(p, c, g, m);
    return 0;
}

/* --ep: for an llm serving a mixture of experts; each item 1, 2, 4, 8. */
static int check_eps(const fs_plan *p, const fs_llm_model *m, char *const *el,
                     int ne)
{
    if (!p->eps)
        return 0;
    if (!p->llm)
        return fs_usage_error("plan", "--ep needs an llm(...) service; "
                              "workload '%s' has another", p->workload);
    int rc = fs_plan_check_list("--ep", p->eps, 8);
    if (!rc)
        rc = fs_plan_check_sizes("--ep", el, ne);
    for (int k = 0; !rc && m && k < ne; k++)
        if (m->experts <= 0 && atoi(el[k]) > 1)
            rc = fs_usage_error("plan", "--ep %s: %s has no experts to "
                                "spread (expert parallelism is for a "
                                "mixture of experts)", el[k], m->name);
    return rc;
}

/* The catalogs the candidates are made from: the GPUs (and, for an llm,
 * the model and the engine profiles, kept in p->engines meanwhile). */
static int load_catalogs(fs_plan *p, fs_catalog **cat, fs_llm_catalog **mc,
                         const fs_llm_model **m, fs_llm_engines **eng)
{
    char dir[2048], dir2[2048];
    fs_error err;
    snprintf(dir, sizeof dir, "%s/gpus.csv", fs_catalog_default_dir());
    snprintf(dir2, sizeof dir2, "%s/instances.csv", fs_catalog_default_dir());
    *cat = fs_catalog_load(dir, dir2, &err);
    if (!*cat)
        return fs_fail(err.msg);
    *mc = p->llm ? fs_llm_catalog_load_default(&err) : NULL;
    *m = *mc ? fs_llm_catalog_find(*mc, p->llm_model) : NULL;
    *eng = *mc ? fs_llm_engines_load_default(&err) : NULL;
    p->engines = *eng;
    fs_plan_spec_read(p, *mc);
    int rc = p->llm && (!*mc || !*eng) ? fs_fail(err.msg) : 0;
    if (!rc && p->llm && !*m) {
        char s[512];
        fs_llm_catalog_suggest(*mc, p->llm_model, s, sizeof s);
        fs_plan_say("%s: unknown model '%s' (%s)",
                p->scenario, p->llm_model, s);
        rc = FS_EXIT_FAIL;
    }
    return rc;
}

int fs_plan_candidates(fs_plan *p, const char *gpus, const char *precs,
                       const char *tps)
{
    char gbuf[1024], pbuf[256], tbuf[128], ebuf[128];
    char *gl[32], *pl[8], *tl[8], *el[8];
    snprintf(gbuf, sizeof gbuf, "%s", gpus ? gpus : p->pool_gpu);
    snprintf(pbuf, sizeof pbuf, "%s", precs ? precs : "bf16");
    snprintf(tbuf, sizeof tbuf, "%s", tps ? tps : "1");
    snprintf(ebuf, sizeof ebuf, "%s", p->eps ? p->eps : "1");
    if ((gpus && fs_plan_check_list("--gpus", gpus, 32)) ||
        (precs && fs_plan_check_list("--precision", precs, 8)) ||
        (tps && fs_plan_check_list("--tp", tps, 8)))
        return FS_EXIT_USAGE;
    int ng = 0, np = split(pbuf, pl, 8), nt = split(tbuf, tl, 8);
    int ne = split(ebuf, el, 8);
    if (!p->llm && (precs || tps))
        return fs_usage_error("plan", "--precision and --tp need an llm(...) "
                              "service; workload '%s' has another",
                              p->workload);
    fs_catalog *cat;
    fs_llm_catalog *mc;
    const fs_llm_model *m;
    fs_llm_engines *eng;
    int rc = load_catalogs(p, &cat, &mc, &m, &eng);
    if (!cat)
        return rc;
    if (!rc)
        rc = check_eps(p, m, el, ne);
    if (!rc && p->pool_instance[0])
        rc = pool_instance(p, cat);
    if (p->pool_gpus < 1)
        p->pool_gpus = 1;
    if (!rc && !gpus)
        snprintf(gbuf, sizeof gbuf, "%s", p->pool_gpu);
    ng = split(gbuf, gl, 32);
    const fs_gpu *ref = fs_catalog_gpu(cat, p->ref_gpu);
    p->ref_tflops = ref ? ref->bf16_tflops : NAN;
    if (!rc)
        rc = fs_plan_check_lists(p, cat, gl, ng, pl, np, tl, nt);
    int n = p->llm ? np * nt * ne : 1, nc = fs_plan_choice_count(p);
    for (int i = 0; i < ng && !rc; i++)
        for (int j = 0; j < n * nc && !rc; j++)
            if (add_candidate(p, cat, fs_catalog_gpu(cat, gl[i]), m,
                              pl[j / nc / (nt * ne)],
                              atoi(tl[j / nc / ne % nt]),
                              atoi(el[j / nc % ne]), j % nc))
                rc = fs_fail("out of memory");
    fs_llm_catalog_free(mc);
    fs_llm_engines_free(eng);
    p->engines = NULL;
    p->spec.draft = NULL;   /* mc's row */
    fs_catalog_free(cat);
    return rc;
}

char **fs_plan_sets(const fs_plan *p, const fs_plan_candidate *c, long n,
                    int spot, int *nsets)
{
    int total = p->nsets + 12 + FS_PLAN_USER_PRICES;
    char **s = calloc((size_t)total, sizeof *s);
    if (!s)
        return NULL;
    memcpy(s, p->sets, (size_t)p->nsets * sizeof *s);
    int k = p->nsets, ok = 1;
    char name[FS_NAME_MAX];
    fs_plan_run_name(p, c, n, spot, name, sizeof name);
    if (spot)
        ok &= asprintf(&s[k++], "pool.%s.pricing=spot", p->pool) >= 0;
    if (c->instance[0])
        ok &= asprintf(&s[k++], "pool.%s.instance=%s", p->pool,
                       c->instance) >= 0;
    else if (!p->pool_instance[0])
        ok &= asprintf(&s[k++], "pool.%s.gpu=%s", p->pool, c->gpu) >= 0;
    ok &= asprintf(&s[k++], "pool.%s.%s=%ld", p->pool,
                   p->autoscale ? "max" : "count", n) >= 0;
    if (p->autoscale && p->base_min > n)
        ok &= asprintf(&s[k++], "pool.%s.min=%ld", p->pool, n) >= 0;
    if (p->pin_ref)
        ok &= asprintf(&s[k++], "workload.%s.reference_gpu=%s", p->workload,
                       p->ref_gpu) >= 0;
    if (p->llm) {
        char ep[16] = "";
        int width = c->tp > c->ep ? c->tp : c->ep;
        if (c->ep > 1)
            snprintf(ep, sizeof ep, ",ep=%d", c->ep);
        ok &= asprintf(&s[k++], "workload.%s.service=llm(model=%s,"
                       "precision=%s,tp=%d%s%s)", p->workload, p->llm_model,
                       c->precision, c->tp, ep, p->service_args) >= 0;
        if (width > 1 && !p->pool_instance[0])
            ok &= asprintf(&s[k++], "pool.%s.gpus_per_instance=%d", p->pool,
                           width) >= 0;
    }
    for (int i = 0; i < FS_PLAN_USER_PRICES; i++)
        if (c->scaled_price[i][0])
            ok &= asprintf(&s[k++], "pool.%s.%s=%s", p->pool,
                           fs_plan_user_price_key(i), c->scaled_price[i]) >= 0;
    if (p->llm && ok && (k = fs_plan_choice_sets(p, c, n, s, k)) < 0) {
        fs_plan_sets_free(p, s, total);
        return NULL;
    }
    ok &= asprintf(&s[k++], "scenario.name=%s", name) >= 0;
    *nsets = k;
    if (!ok) {
        fs_plan_sets_free(p, s, k);
        return NULL;
    }
    return s;
}

void fs_plan_sets_free(const fs_plan *p, char **sets, int n)
{
    for (int k = p->nsets; sets && k < n; k++)
        free(sets[k]);
    free(sets);
}

void fs_plan_run_name(const fs_plan *p, const fs_plan_candidate *c, long n,
                      int spot, char *buf, size_t len)
{
    const char *tail = spot ? ",spot]" : "]";
    char ep[16] = "";
    if (c->ep > 1)
        snprintf(ep, sizeof ep, ",ep=%d", c->ep);
    if (p->llm)
        snprintf(buf, len, "plan[gpu=%s,precision=%s,tp=%d%s%s%s,%s=%ld%s",
                 c->gpu, c->precision, c->tp, ep, c->tag[0] ? "," : "",
                 c->tag, p->autoscale ? "max" : "count", n, tail);
    else
        snprintf(buf, len, "plan[gpu=%s,%s=%ld%s", c->gpu,
                 p->autoscale ? "max" : "count", n, tail);
}
