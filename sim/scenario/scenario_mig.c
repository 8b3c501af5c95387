/* scenario_mig.c -- GPU sharing keys: a pool's mig layout, its sharing
 * (timeslice or MPS replicas) and timeslice_efficiency; a workload's
 * mig_profile.
 *
 * A layout is checked against NVIDIA's profiles and placement rules
 * (models/llm/mig.c) for the pool's GPU; a GPU without MIG, a layout that does
 * not place, or a workload's profile that none of its pools has is
 * refused with the layout, the reason and the nearest valid layouts.
 * mig.csv is read beside the GPU catalog (else the installed catalog's)
 * the first time a pool needs it. */
#include "sim/scenario/scenario_impl.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The default timeslice_efficiency: see doc/simulation.md, "GPU sharing". */
#define TIMESLICE_EFFICIENCY 0.9

void fs_scenario_mig_path(fs_scenario *sc, const char *gpus_csv)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", gpus_csv);
    snprintf(sc->mig_csv, sizeof sc->mig_csv, "%.4000s/mig.csv", dirname(tmp));
    if (access(sc->mig_csv, R_OK) != 0)
        snprintf(sc->mig_csv, sizeof sc->mig_csv, "%.4000s/mig.csv",
                 fs_catalog_default_dir());
}

static int load_mig(fs_reader *rd, fs_scenario *sc)
{
    if (sc->mig)
        return 0;
    sc->mig = fs_mig_load(sc->mig_csv, rd->err);
    return sc->mig ? 0 : -1;
}

/* mig = LAYOUT on a GPU that has MIG. */
static int parse_mig(fs_reader *rd, fs_scenario *sc, fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "mig");
    if (!e)
        return 0;
    char why[1400];
    if (load_mig(rd, sc))
        return -1;
    if (fs_mig_layout_parse(sc->mig, p->gpu.name, e->value, &p->mig, why,
                            sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (p->gpus_per_server > 1)
        return fs_rd_bad(rd, e, "%s", "a MIG slice is a server of its own: "
                         "not with gpus_per_server above 1");
    fs_mig_layout_format(&p->mig, p->mig_text, sizeof p->mig_text);
    return 0;
}

/* sharing = timeslice(N) | mps(N[, sm_cap=F]), N from 2 to 48 (MPS's
 * client limit). */
static int parse_call(fs_reader *rd, fs_pool_conf *p, fs_config_entry *e)
{
    static const char *const mps_keys[] = {"sm_cap", NULL};
    fs_call c;
    char why[400];
    double n;
    if (fs_parse_call(e->value, &c, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    if (strcmp(c.name, "timeslice") == 0)
        p->sharing = FS_SHARING_TIMESLICE;
    else if (strcmp(c.name, "mps") == 0)
        p->sharing = FS_SHARING_MPS;
    else
        return fs_rd_bad(rd, e, "%s", "expected timeslice(N) or mps(N), N "
                         "replicas per GPU");
    /* timeslice() takes no keyed argument at all: sm_cap is mps()'s */
    for (int i = 0; p->sharing == FS_SHARING_TIMESLICE && i < c.nargs; i++)
        if (c.args[i].key[0])
            return fs_rd_bad(rd, e, "timeslice() takes one argument, the "
                             "replicas per GPU, e.g. timeslice(4); it has "
                             "no '%s' (sm_cap is mps()'s)", c.args[i].key);
    if (fs_call_check_keys(&c, mps_keys, why, sizeof why))
        return fs_rd_bad(rd, e, "%s", why);
    const char *v = fs_call_positional(&c, 0);
    if (!v || fs_parse_number(v, &n, why, sizeof why) ||
        !(n >= 2 && n <= 48) || n != (int)n)    /* range before the cast */
        return fs_rd_bad(rd, e, "%s", "the replicas per GPU must be a whole "
                         "number from 2 to 48, e.g. timeslice(4)");
    p->sharing_n = (int)n;
    p->sharing_cap = 1.0 / n;
    const char *cap = fs_call_get(&c, "sm_cap");
    if (cap && (fs_parse_fraction(cap, &p->sharing_cap, why, sizeof why) ||
                !(p->sharing_cap > 0 && p->sharing_cap <= 1)))
        return fs_rd_bad(rd, e, "%s", "sm_cap must be a fraction above 0 "
                         "and at most 1, e.g. sm_cap=50%");
    return 0;
}

int fs_scenario_parse_sharing(fs_reader *rd, fs_scenario *sc,
                              fs_pool_conf *p)
{
    fs_config_entry *e = fs_rd_entry(rd, "sharing");
    fs_config_entry *te = fs_rd_entry(rd, "timeslice_efficiency");
    char why[200];
    p->sharing_efficiency = TIMESLICE_EFFICIENCY;
    if (parse_mig(rd, sc, p))
        return -1;
    if (!e) {
        if (te)
            return fs_rd_bad(rd, te, "%s", "needs sharing = timeslice(N)");
        return 0;
    }
    if (p->mig.n)
        return fs_rd_bad(rd, e, "%s", "not with mig: a pool's GPUs are cut "
                         "into MIG slices or shared by replicas, not both");
    if (p->gpus_per_server > 1)
        return fs_rd_bad(rd, e, "%s", "replicas share one GPU: not with "
                         "gpus_per_server above 1");
    if (parse_call(rd, p, e))
        return -1;
    if (te) {
        if (p->sharing != FS_SHARING_TIMESLICE)
            return fs_rd_bad(rd, te, "%s", "applies to sharing = "
                             "timeslice(N) only");
        if (fs_parse_fraction(te->value, &p->sharing_efficiency, why,
                              sizeof why) ||
            !(p->sharing_efficiency > 0 && p->sharing_efficiency <= 1))
            return fs_rd_bad(rd, te, "%s", "must be a fraction above 0 and "
                             "at most 1, e.g. 0.9 or 90%");
    }
    return 0;
}

/* The pools of w that have a slice of profile name. */
static int pools_with(const fs_scenario *sc, const fs_workload_conf *w,
                      const char *name)
{
    int n = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_mig_layout *l = &sc->pools[w->pools[k]].mig;
        int has = 0;
        for (int i = 0; i < l->n; i++)
            has |= strcasecmp(l->slice[i]->name, name) == 0;
        n += has;
    }
    return n;
}

/* The profile of the workload's pools one edit from name (a typo such as
 * 3g.40g), or NULL: 7g.80gb is two edits from 3g.40gb, and a profile of
 * another layout, not a slip. */
static const char *nearest_profile(const fs_scenario *sc,
                                   const fs_workload_conf *w, const char *name)
{
    const char *names[65];
    int n = 0;
    for (int k = 0; k < w->npools; k++) {
        const fs_mig_layout *l = &sc->pools[w->pools[k]].mig;
        for (int i = 0; i < l->n && n < 64; i++)
            names[n++] = l->slice[i]->name;
    }
    names[n] = NULL;
    const char *near = name[0] ? fs_nearest_name(name, names) : NULL;
    return near && fs_edit_distance(name, near) <= 1 ? near : NULL;
}

int fs_scenario_parse_mig_profile(fs_reader *rd, fs_scenario *sc,
                                  fs_workload_conf *w)
{
    fs_config_entry *e = fs_rd_entry(rd, "mig_profile");
    char why[1200];
    if (w->kind == FS_KIND_TRAINING)
        for (int k = 0; k < w->npools; k++) {
            const fs_pool_conf *p = &sc->pools[w->pools[k]];
            if (!p->mig.n && !p->sharing)
                continue;
            snprintf(why, sizeof why, "pool %s is %s: training jobs take "
                     "whole GPUs", p->name, p->mig.n ? "cut into MIG slices"
                                                     : "shared by replicas");
            return fs_rd_bad(rd, fs_rd_entry(rd, "pools"), "%s", why);
        }
    if (!e)
        return 0;
    if (w->kind == FS_KIND_TRAINING)
        return fs_rd_bad(rd, e, "%s", "applies to inference and batch "
                         "workloads only");
    if (strlen(e->value) >= sizeof w->mig_profile ||
        pools_with(sc, w, e->value) == 0) {
        size_t used = (size_t)snprintf(why, sizeof why, e->value[0]
                                       ? "no pool of this workload has a %s "
                                         "slice; their layouts:"
                                       : "empty%s: name a profile of the "
                                         "workload's pools; their layouts:",
                                       e->value);
        for (int k = 0; k < w->npools && used < sizeof why; k++) {
            const fs_pool_conf *p = &sc->pools[w->pools[k]];
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     "%s %s mig = %s", k ? ";" : "", p->name,
                                     p->mig.n ? p->mig_text
                                              : "(none: whole GPUs)");
        }
        const char *near = nearest_profile(sc, w, e->value);
        if (near && used < sizeof why)
            snprintf(why + used, sizeof why - used, " (did you mean %s?)",
                     near);
        return fs_rd_bad(rd, e, "%s", why);
    }
    /* As the catalog spells it. */
    for (int k = 0; k < w->npools; k++) {
        const fs_mig_layout *l = &sc->pools[w->pools[k]].mig;
        for (int i = 0; i < l->n; i++)
            if (strcasecmp(l->slice[i]->name, e->value) == 0)
                snprintf(w->mig_profile, sizeof w->mig_profile, "%s",
                         l->slice[i]->name);
    }
    return 0;
}
