/* catalog_mig.c -- `fleetsim catalog mig [GPU]`: MIG profiles and layouts.
 *
 * Without a GPU: every profile of models/catalog/mig.csv.  With one: its
 * profiles, its default balanced layout and every maximal placement (no
 * instance can be added), as NVIDIA's MIG user guide draws them, each with
 * the layout a pool writes for it.  With --model, whether the LLM fits
 * each profile's slice (models/llm/mig_fit.c): the memory breakdown, and the
 * most sequences of --context tokens its KV cache holds. */
#include "sim/cli/commands.h"
#include "sim/cli/catalog/catalog.h"
#include "models/llm/mig.h"
#include "models/llm/llm.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

static void print_profile(const fs_mig_profile *p)
{
    char starts[32] = "";
    size_t used = 0;
    for (int k = 0; k < p->nstarts && used < sizeof starts; k++)
        used += (size_t)snprintf(starts + used, sizeof starts - used, "%s%d",
                                 k ? "," : "", p->starts[k]);
    printf("%-10s %-10s %7d %7d %7.2f %4d/%-4d %4d  %-14s %s\n", p->gpu,
           p->name, p->compute, p->memory, p->memory_gb, p->sms, p->gpu_sms,
           p->max_count, starts, p->source);
}

/* Layouts already printed: a layout placed several ways prints once, with
 * its first placement. */
typedef struct printed {
    char text[256][96];
    int n;
} printed;

static void print_placement(const fs_mig_layout *l, void *ctx)
{
    printed *pr = ctx;
    char text[96], slots[160] = "";
    size_t used = 0;
    fs_mig_layout_format(l, text, sizeof text);
    for (int i = 0; i < pr->n; i++)
        if (strcmp(pr->text[i], text) == 0)
            return;
    if (pr->n < 256)
        memcpy(pr->text[pr->n], text, sizeof text);
    for (int i = 0; i < l->n && used < sizeof slots; i++)
        used += (size_t)snprintf(slots + used, sizeof slots - used,
                                 "%s%s@%d", i ? " " : "", l->slice[i]->name,
                                 l->start[i]);
    printf("%3d  %-34s %s\n", ++pr->n, text, slots);
}

typedef struct fit_args {
    const char *model, *precision;
    long context;
    int batch;
} fit_args;

/* --model: each profile of gpu, fits or not, with the breakdown. */
static int print_fits(const char *dir, const fs_mig_profile *const *prof,
                      size_t n, const fit_args *a)
{
    char path[2100], gpus[2100], inst[2100], buf[512];
    snprintf(path, sizeof path, "%s/models.csv", dir);
    snprintf(gpus, sizeof gpus, "%s/gpus.csv", dir);
    snprintf(inst, sizeof inst, "%s/instances.csv", dir);
    fs_error err;
    fs_llm_catalog *mc = fs_llm_catalog_load(path, &err);
    fs_catalog *gc = mc ? fs_catalog_load(gpus, inst, &err) : NULL;
    int rc = FS_EXIT_OK;
    if (!mc || !gc) {
        rc = fs_fail(err.msg);
        goto done;
    }
    const fs_llm_model *m = fs_llm_catalog_find(mc, a->model);
    const fs_gpu *g = fs_catalog_gpu(gc, prof[0]->gpu);
    fs_llm_config cfg;
    if (!m) {
        fs_llm_catalog_suggest(mc, a->model, buf, sizeof buf);
        fprintf(stderr, "fleetsim: catalog mig: unknown model '%s' %s\n",
                a->model, buf);
        rc = FS_EXIT_FAIL;
        goto done;
    }
    if (!g) {
        fprintf(stderr, "fleetsim: catalog mig: %s has MIG profiles but no "
                "row in gpus.csv: its memory is unknown\n", prof[0]->gpu);
        rc = FS_EXIT_FAIL;
        goto done;
    }
    fs_llm_config_default(&cfg, m, NULL);   /* memory only */
    if (a->precision && fs_precision_parse(a->precision, &cfg.weights)) {
        rc = fs_usage_error("catalog", "unknown precision '%s' (fp32, bf16, "
                            "fp16, fp8, int8, int4)", a->precision);
        goto done;
    }
    cfg.kv = fs_llm_kv_default(cfg.weights);
    printf("\n%s %s on one slice (tp 1), %d sequence%s of %ld tokens, GB "
           "(10^9 bytes):\n", m->name, fs_precision_name(cfg.weights),
           a->batch, a->batch == 1 ? "" : "s", a->context);
    for (size_t i = 0; i < n; i++) {
        fs_llm_memory mem;
        fs_mig_llm_fit(prof[i], g, &cfg, a->context, a->batch, &mem);
        fs_llm_memory_format(&mem, buf, sizeof buf);
        int most = fs_mig_llm_max_batch(prof[i], g, &cfg, a->context, 65536);
        printf("  %-10s %-13s %s", prof[i]->name,
               mem.fits ? "fits" : "does not fit", buf);
        if (most > 0)
            printf("; KV cache for %d sequence%s", most, most == 1 ? "" : "s");
        printf("\n");
    }
done:
    fs_catalog_free(gc);
    fs_llm_catalog_free(mc);
    return rc;
}

static int list_mig(const char *dir, const char *gpu, const fit_args *fit);

int fs_catalog_mig(const char *gpu, const fs_catalog_args *c)
{
    fit_args a = {c->model, c->precision, c->context, (int)c->batch};
    if ((a.model || a.precision) && !gpu)
        return fs_usage_error("catalog", "--model needs a GPU: catalog mig "
                              "GPU --model MODEL");
    return list_mig(c->dir, gpu, &a);
}

/* The GPU of the MIG catalog nearest name (A100-80G: A100-80GB), or
 * NULL. */
static const char *nearest_gpu(const fs_mig_catalog *c, const char *name)
{
    const char *names[33];
    size_t n = 0;
    for (size_t i = 0; i < c->n && n < 32; i++)
        if (n == 0 || strcmp(names[n - 1], c->p[i].gpu))
            names[n++] = c->p[i].gpu;   /* a GPU's rows are together */
    names[n] = NULL;
    return fs_nearest_name(name, names);
}

static int list_mig(const char *dir, const char *gpu, const fit_args *fit)
{
    char path[2100];
    snprintf(path, sizeof path, "%s/mig.csv", dir);
    fs_error err;
    fs_mig_catalog *c = fs_mig_load(path, &err);
    if (!c)
        return fs_fail(err.msg);
    const fs_mig_profile *mine[FS_MIG_MAX_PROFILES];
    size_t shown = gpu ? fs_mig_profiles(c, gpu, mine, FS_MIG_MAX_PROFILES)
                       : c->n;
    if (shown)
        printf("%-10s %-10s %7s %7s %7s %9s %4s  %-14s %s\n", "gpu",
               "profile", "compute", "memory", "mem_GB", "SMs", "max",
               "starts", "source");
    for (size_t i = 0; i < c->n; i++)
        if (!gpu || strcasecmp(c->p[i].gpu, gpu) == 0)
            print_profile(&c->p[i]);
    int rc = FS_EXIT_OK;
    if (gpu && !shown) {
        const char *near = nearest_gpu(c, gpu);
        fprintf(stderr, "fleetsim: catalog mig: %s has no MIG profiles "
                "(%s%s%sfleetsim catalog mig lists the GPUs that do)\n", gpu,
                near ? "did you mean '" : "", near ? near : "",
                near ? "'? " : "");
        rc = FS_EXIT_FAIL;
    } else if (gpu) {
        fs_mig_layout l;
        char why[512], text[128];
        if (!fs_mig_layout_parse(c, gpu, "balanced", &l, why, sizeof why)) {
            fs_mig_layout_format(&l, text, sizeof text);
            printf("\nbalanced = %s\n", text);
        }
        printf("\nMaximal layouts of %s (no instance can be added): the "
               "layout a pool writes (mig = ...), then one placement, each "
               "instance at its first memory slice\n", gpu);
        static printed pr;
        pr.n = 0;
        fs_mig_maximal(c, gpu, ~0u, print_placement, &pr);
        if (fit->model)
            rc = print_fits(dir, mine, shown, fit);
    }
    if (!gpu || shown)
        printf("\ncompute/memory = slices; SMs = the slice's / the whole "
               "GPU's (service times scale by their ratio); starts = the "
               "memory slices an instance may start at.  Sources: "
               "SOURCES.md, \"MIG profiles\".\n");
    fs_mig_free(c);
    return rc;
}
