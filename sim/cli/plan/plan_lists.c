/* plan_lists.c -- the --gpus, --precision, --tp and --ep lists of `fleetsim
 * plan` checked before any candidate is made: each item known (the GPU
 * in the catalog, with its nearest name), each given once (L4,L4 or
 * fp8,FP8 would search and rank one candidate twice), no list empty or
 * longer than the candidates it may make.  Each refusal is a usage error
 * (exit status 2). */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "models/catalog/catalog.h"
#include "models/llm/llm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fs_plan_check_list(const char *opt, const char *v, int max)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", v);
    int n = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        n++;
    if (n == 0)
        return fs_usage_error("plan", "%s: no value in '%s'", opt, v);
    if (n > max)
        return fs_usage_error("plan", "%s: at most %d values, got %d", opt,
                              max, n);
    return 0;
}

/* Option opt's value v[i] (its canonical name canon[i]) given before: a
 * candidate would be searched and ranked twice.  0, or the usage error. */
static int refuse_twice(const char *opt, char *const *v, const char **canon,
                        int i)
{
    for (int j = 0; j < i; j++)
        if (strcmp(canon[i], canon[j]) == 0)
            return fs_usage_error("plan", "%s: '%s' and '%s' are the same "
                                  "candidate (%s): give each once", opt,
                                  v[j], v[i], canon[i]);
    return 0;
}

static int check_gpu(const fs_catalog *cat, const char *g)
{
    if (fs_catalog_gpu(cat, g))
        return 0;
    char s[512];
    fs_catalog_suggest_gpu(cat, g, s, sizeof s);
    return fs_usage_error("plan", "--gpus: unknown GPU '%s' %s", g, s);
}

int fs_plan_check_sizes(const char *opt, char *const *tl, int nt)
{
    static const char *const names[] = {"", "1", "2", "", "4", "", "", "",
                                        "8"};
    const char *canon[32];
    int rc = 0;
    for (int k = 0; k < nt && !rc; k++) {
        char *end;
        long t = strtol(tl[k], &end, 10);
        if (*end || (t != 1 && t != 2 && t != 4 && t != 8))
            rc = fs_usage_error("plan", "%s: expected 1, 2, 4 or 8, got "
                                "'%s'", opt, tl[k]);
        else {
            canon[k] = names[t];
            rc = refuse_twice(opt, tl, canon, k);
        }
    }
    return rc;
}

int fs_plan_check_lists(const fs_plan *p, const fs_catalog *cat,
                        char *const *gl, int ng, char *const *pl, int np,
                        char *const *tl, int nt)
{
    const char *canon[32];
    int rc = 0;
    for (int i = 0; i < ng && !rc; i++)
        if (!(rc = check_gpu(cat, gl[i]))) {
            canon[i] = fs_catalog_gpu(cat, gl[i])->name;
            rc = refuse_twice("--gpus", gl, canon, i);
        }
    for (int j = 0; p->llm && j < np && !rc; j++) {
        fs_precision pr;
        if (fs_precision_parse(pl[j], &pr))
            rc = fs_usage_error("plan", "--precision: unknown precision "
                                "'%s' (bf16, fp16, fp8, int8, int4)", pl[j]);
        else {
            canon[j] = fs_precision_name(pr);
            rc = refuse_twice("--precision", pl, canon, j);
        }
    }
    if (p->llm && !rc)
        rc = fs_plan_check_sizes("--tp", tl, nt);
    return rc;
}
