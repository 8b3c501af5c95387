/* cmd_catalog.c -- `fleetsim catalog gpus|instances|models|mig`: print the
 * catalogs; its options are read here for `catalog mig` too. */
#include "sim/cli/commands.h"
#include "sim/cli/catalog/catalog.h"
#include "models/catalog/catalog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_price(double p)
{
    if (isnan(p))
        printf("  %9s", "-");
    else
        printf("  %9.4f", p);
}

static void print_gpus(const fs_catalog *c)
{
    printf("%-10s %7s %8s %9s %9s %9s %9s %9s %9s %7s %7s %4s %-7s %-5s "
           "%6s %4s %9s  %-22s %s\n", "gpu", "mem_GB", "drv_GiB", "bw_GB/s",
           "bf16_TF",
           "fp16_TF", "fp8_TF", "int8_TOPS", "int4_TOPS", "nvlink", "pcie",
           "fp8", "gen", "form", "TDP_W", "MIG", "boost_MHz", "unsourced",
           "source");
    for (size_t i = 0; i < c->ngpus; i++) {
        const fs_gpu *g = &c->gpus[i];
        printf("%-10s %7.0f ", g->name, g->memory_gb);
        if (g->reported_gib > 0)
            printf("%8.2f", g->reported_gib);
        else
            printf("%8s", "-");
        printf(" %9.0f %9.1f %9.1f %9.1f %9.1f %9.1f %7.0f %7.0f "
               "%4s %-7s %-5s %6.0f %4s ", g->memory_bw_gbs, g->bf16_tflops,
               g->fp16_tflops,
               isnan(g->fp8_tflops) ? 0 : g->fp8_tflops,
               isnan(g->int8_tops) ? 0 : g->int8_tops, g->int4_tops,
               g->nvlink_gbs, g->pcie_gbs, g->fp8_native ? "yes" : "no",
               g->generation, g->form, isnan(g->tdp_w) ? 0 : g->tdp_w,
               g->mig ? "yes" : "no");
        if (g->boost_mhz > 0)
            printf("%9.0f", g->boost_mhz);
        else
            printf("%9s", "-");
        printf("  %-22s %s%s%s%s%s\n", g->unsourced[0] ? g->unsourced : "-",
               g->source, g->clock_source[0] ? "; clock: " : "",
               g->clock_source, g->reported_gib > 0 ? "; driver: " : "",
               g->reported_gib > 0 ? g->reported_source : "");
    }
    printf("\nTensor peaks dense; nvlink and pcie in GB/s per GPU, both "
           "directions (0 = none); fp8 = fp8 tensor cores; gen sets the LLM "
           "model's default efficiencies; GPUs of an sxm part talk over "
           "NVLink, others over PCIe; boost_MHz = the clock the tensor peaks "
           "are stated at (- = no vendor document gives it); unsourced = "
           "figures no vendor document gives for this part; drv_GiB = the "
           "total the driver reports (torch, nvidia-smi, vLLM's log), "
           "which LLM engines size their KV cache from (- = none found: "
           "the datasheet's mem_GB).  Sources: models/catalog/SOURCES.md."
           "\n");
}

/* A Savings Plan discount as a percentage, or '-' when unknown. */
static void print_discount(double d)
{
    if (isnan(d))
        printf("  %6s", "-");
    else
        printf("  %5.1f%%", 100 * d);
}

static void print_instances(const fs_catalog *c)
{
    printf("%-34s %-10s %4s  %9s  %9s  %9s  %9s  %6s  %6s  %-12s %-10s\n",
           "instance", "gpu", "gpus", "on-demand", "spot", "1y-resv",
           "3y-resv", "sp-1y", "sp-3y", "region", "as of");
    for (size_t i = 0; i < c->ninst; i++) {
        const fs_instance_type *t = &c->inst[i];
        char name[96];
        snprintf(name, sizeof name, "%s:%s", t->provider, t->name);
        printf("%-34s %-10s %4d", name, t->gpu, t->gpus);
        print_price(t->on_demand);
        print_price(t->spot);
        print_price(t->reserved_1y);
        print_price(t->reserved_3y);
        print_discount(t->sp_discount[0]);
        print_discount(t->sp_discount[1]);
        printf("  %-12s %-10s\n", t->region, t->as_of);
    }
    printf("\n$ per instance-hour; 1y/3y-resv = reserved or committed use, "
           "no upfront; sp = Savings Plan discount off on-demand; '-' = not "
           "offered or not found.  Sources: the source column of "
           "instances.csv (and SOURCES.md).\n");
}

/* One payment option: "upfront + hourly/h" and where it comes from
 * (published, derived, derived from the no-upfront rate), or "not sold". */
static void print_option(const fs_instance_type *t, int term, int upfront)
{
    fs_reserved_option o;
    char cell[64];
    if (fs_instance_reserved_option(t, term, upfront, &o) < 0)
        snprintf(cell, sizeof cell, "%s", o.status == FS_RATE_NOT_SOLD
                 ? "not sold" : "-");
    else
        snprintf(cell, sizeof cell, "%.0f + %.4f/h %s", o.upfront, o.hourly,
                 o.from_rate ? "derived*" : o.derived ? "derived"
                                                      : "published");
    printf("  %-30s", cell);
}

/* The Savings Plan's hourly rate, or not found. */
static void print_plan(const fs_instance_type *t, int term)
{
    double h;
    char cell[64];
    if (fs_instance_plan_rate(t, term, &h) == 0)
        snprintf(cell, sizeof cell, "%.4f/h published", h);
    else
        snprintf(cell, sizeof cell, "not published");
    printf("  %-20s", cell);
}

static void print_upfront_options(const fs_catalog *c)
{
    printf("\nCommitment options: $ up front per instance for the term + $ "
           "per instance-hour, and where each comes from\n");
    printf("%-34s %4s  %-30s  %-30s  %-30s  %-20s\n", "instance", "term",
           "no upfront", "partial upfront", "all upfront", "savings plan");
    for (size_t i = 0; i < c->ninst; i++) {
        const fs_instance_type *t = &c->inst[i];
        for (int term = 0; term < 2; term++) {
            int any = 0;
            for (int u = FS_UPFRONT_NONE; u <= FS_COMMIT_PLAN; u++)
                any |= t->commit[term][u].status != FS_RATE_UNKNOWN;
            if (!any && isnan(term ? t->reserved_3y : t->reserved_1y))
                continue;
            char name[96];
            snprintf(name, sizeof name, "%s:%s", t->provider, t->name);
            printf("%-34s %4s", name, term ? "3y" : "1y");
            for (int u = FS_UPFRONT_NONE; u <= FS_UPFRONT_ALL; u++)
                print_option(t, term, u);
            print_plan(t, term);
            printf("\n");
        }
    }
    printf("\npublished = the provider's figure (commitments.csv, sources in "
           "SOURCES.md); derived = split from a published effective rate by "
           "the provider's documented rule (AWS partial upfront: half the "
           "term's cost up front, half as the hourly rate) or paid monthly "
           "at the same total (Azure); derived* = nothing of the "
           "provider's for this option: computed from the no-upfront rate "
           "(the same total over the term); not sold = the provider does "
           "not offer it, never derived.  A pool priced this way says so in "
           "the run summary's \"priced from\".\n");
}

const fs_option fs_options_catalog[] = {
    OPT__CATALOG(fs_catalog_args, dir),
    OPT_STRING(0, "model", fs_catalog_args, model, "M",
               "mig GPU: whether this LLM (a row of models.csv) fits each "
               "profile's slice"),
    OPT_STRING(0, "precision", fs_catalog_args, precision, "P",
               "mig GPU --model: the weights' precision (default bf16)"),
    OPT_INT(0, "context", fs_catalog_args, context, "N",
            "mig GPU --model: tokens a sequence (default 4096)", 1,
            10000000),
    OPT_INT(0, "batch", fs_catalog_args, batch, "N",
            "mig GPU --model: sequences at once (default 1)", 1, 65536),
    OPT_END(),
};

/* The catalog named and the options: 0, or the exit status. */
static int parse(int argc, char **argv, fs_catalog_args *a,
                 const char **what, const char **gpu)
{
    const char *ops[2];
    int n = 0;
    int rc = fs_parse_options_few("catalog", argc, argv, fs_options_catalog,
                                  a, ops, 2, &n);
    int mig = n > 0 && strcmp(ops[0], "mig") == 0;
    *what = n ? ops[0] : NULL;
    *gpu = mig && n > 1 ? ops[1] : NULL;
    if (!rc && n > 1 + mig)
        rc = fs_usage_error("catalog", mig ? "one GPU at a time"
                                           : "one catalog at a time");
    if (!rc && !mig && (a->model || a->precision || a->context != 4096 ||
                        a->batch != 1))
        rc = fs_usage_error("catalog", "--model, --precision, --context "
                            "and --batch go with catalog mig GPU");
    return rc;
}

int cmd_catalog(int argc, char **argv)
{
    fs_catalog_args a = {fs_catalog_default_dir(), NULL, NULL, 4096, 1};
    const char *what = NULL, *gpu = NULL;
    int rc = parse(argc, argv, &a, &what, &gpu);
    if (rc)
        return rc;
    if (what && strcmp(what, "mig") == 0)
        return fs_catalog_mig(gpu, &a);
    const char *dir = a.dir;
    if (!what)
        return fs_usage_error("catalog", "which catalog? gpus or instances");
    if (strcmp(what, "models") == 0)
        return fs_catalog_print_models(dir, NULL);
    if (strcmp(what, "llms") == 0) {
        fprintf(stderr, "fleetsim: catalog %s is not in this version of "
                "fleetsim (gpus, instances and models are)\n", what);
        return FS_EXIT_FAIL;
    }
    if (strcmp(what, "gpus") != 0 && strcmp(what, "instances") != 0)
        return fs_usage_error("catalog", "unknown catalog '%s' (gpus, "
                              "instances, models or mig)", what);
    char gpus[2048], inst[2048];
    snprintf(gpus, sizeof gpus, "%s/gpus.csv", dir);
    snprintf(inst, sizeof inst, "%s/instances.csv", dir);
    fs_error err;
    fs_catalog *c = fs_catalog_load(gpus, inst, &err);
    if (!c)
        return fs_fail(err.msg);
    if (strcmp(what, "gpus") == 0)
        print_gpus(c);
    else {
        print_instances(c);
        print_upfront_options(c);
    }
    fs_catalog_free(c);
    return FS_EXIT_OK;
}
