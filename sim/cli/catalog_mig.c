/* catalog_mig.c -- `fleetsim catalog mig [GPU]`: MIG profiles and layouts.
 *
 * Without a GPU: every profile of models/catalog/mig.csv.  With one: its
 * profiles, its default balanced layout and every maximal placement (no
 * instance can be added), as NVIDIA's MIG user guide draws them, each with
 * the layout a pool writes for it. */
#include "sim/cli/commands.h"
#include "models/mig.h"

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

int fs_catalog_mig(const char *dir, const char *gpu)
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
        fprintf(stderr, "fleetsim: catalog mig: %s has no MIG profiles "
                "(fleetsim catalog mig lists the GPUs that do)\n", gpu);
        rc = FS_EXIT_FAIL;
    } else if (gpu) {
        fs_mig_layout l;
        char why[512], text[128];
        if (fs_mig_layout_parse(c, gpu, "balanced", &l, why, sizeof why) == 0) {
            fs_mig_layout_format(&l, text, sizeof text);
            printf("\nbalanced = %s\n", text);
        }
        printf("\nMaximal layouts of %s (no instance can be added): the "
               "layout a pool writes (mig = ...), then one placement, each "
               "instance at its first memory slice\n", gpu);
        static printed pr;
        pr.n = 0;
        fs_mig_maximal(c, gpu, ~0u, print_placement, &pr);
    }
    if (!gpu || shown)
        printf("\ncompute/memory = slices; SMs = the slice's / the whole "
               "GPU's (service times scale by their ratio); starts = the "
               "memory slices an instance may start at.  Sources: "
               "SOURCES.md, \"MIG profiles\".\n");
    fs_mig_free(c);
    return rc;
}
