/* plan_choices.c -- what `fleetsim plan` searches beside the GPU, the
 * precision, TP and EP, where the scenario makes it a choice (issues 28
 * and 29):
 *   - routing (--try routing=...): least-loaded or prefix-aware (or round-robin),
 *     where the workload's prompts have a prefix identity (a Mooncake
 *     trace's hash ids, prefix = shared(...), sessions = turns(...)) and
 *     one of its pools keeps a prefix cache;
 *   - speculative decoding on or off (--try spec=...), where the workload sets
 *     spec = (off: spec = none, and the candidate's memory holds no
 *     proposer);
 *   - a disaggregated deployment's prefill:decode ratio (--try
 *     pd-ratio=...),
 *     the other pool sized from the searched one, and `colocated`: the
 *     searched pool alone serving prompts and decoding (the other pool
 *     set to 0 instances).
 * Each choice is a candidate of its own, searched and priced as the
 * others, so the plan's first is the cheapest that meets the SLOs among
 * them all; each adds its --set lines (fs_plan_choice_sets) and its words
 * to the run's name. */
#include "sim/cli/plan/plan.h"
#include "sim/cli/commands.h"
#include "sim/scenario/config.h"

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

/* Do the workload's prompts name their prefixes (what a prefix cache and
 * prefix-aware routing act on)? */
static int prefix_identity(const fs_config *c, const char *ws)
{
    const char *arr = get(c, ws, "arrivals");
    return get(c, ws, "prefix") || get(c, ws, "sessions") ||
           (arr && strstr(arr, "mooncake"));
}

void fs_plan_choices_read(fs_plan *p, const fs_config *c, const char *ws)
{
    char buf[1024], *save = NULL, ps[FS_NAME_MAX + 8];
    const char *pools = get(c, ws, "pools");
    snprintf(buf, sizeof buf, "%s", pools ? pools : "");
    int identity = prefix_identity(c, ws);
    for (char *t = strtok_r(buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save)) {
        snprintf(ps, sizeof ps, "pool.%s", t);
        const char *role = get(c, ps, "role"), *pc = get(c, ps,
                                                          "prefix_cache");
        if (identity && pc && strcmp(pc, "no") && !p->cache_pool[0])
            snprintf(p->cache_pool, sizeof p->cache_pool, "%s", t);
        if (role && strcmp(role, "colocated") && strcmp(t, p->pool)) {
            snprintf(p->partner, sizeof p->partner, "%s", t);
            p->partner_autoscale = get(c, ps, "max") || get(c, ps,
                                                            "autoscale");
        }
        if (role && strcmp(t, p->pool) == 0)
            p->pool_prefill = strcmp(role, "prefill") == 0;
    }
    const char *spec = get(c, ws, "spec");
    p->spec_choice = spec && strcmp(spec, "none") != 0;
}

int fs_plan_shared_pools(const fs_config *c, const char *ws, char *msg,
                         size_t len)
{
    char buf[1024], *save = NULL, ps[FS_NAME_MAX + 8];
    const char *pools = get(c, ws, "pools");
    snprintf(buf, sizeof buf, "%s", pools ? pools : "");
    for (char *t = strtok_r(buf, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save)) {
        snprintf(ps, sizeof ps, "pool.%s", t);
        const fs_config_entry *e = fs_config_find(c, ps, "share_instances");
        if (e) {
            snprintf(msg, len, "%s:%d: %s.share_instances: plan does not "
                     "search pools that share instances in this version "
                     "(their prefill:decode ratio is the split of each "
                     "instance's GPUs): run each split as a scenario",
                     e->file ? e->file : "--set", e->line, ps);
            return 1;
        }
    }
    return 0;
}

/* routing=: each a policy, none twice. */
static int take_routings(fs_plan *p, const char *list)
{
    static const char *const names[] = {"least-loaded", "round-robin",
                                        "prefix-aware"};
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    if (fs_plan_check_list("--try routing", list, 3))
        return FS_EXIT_USAGE;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < 3 && strcmp(t, names[k]))
            k++;
        if (k == 3)
            return fs_usage_error("plan", "--try routing: unknown '%s' "
                                  "(least-loaded, round-robin, prefix-aware)",
                                  t);
        for (int j = 0; j < p->nrouting; j++)
            if (strcmp(p->routings[j], t) == 0)
                return fs_usage_error("plan", "--try routing: '%s' given twice",
                                      t);
        snprintf(p->routings[p->nrouting++], sizeof p->routings[0], "%s", t);
    }
    return 0;
}

/* pd-ratio=: PREFILL:DECODE pairs of whole numbers 1..8, or colocated. */
static int take_ratios(fs_plan *p, const char *list)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", list);
    if (fs_plan_check_list("--try pd-ratio", list, FS_PLAN_PD_MAX))
        return FS_EXIT_USAGE;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        int a = 0, b = 0, n = 0;
        if (strcmp(t, "colocated") &&
            (sscanf(t, "%d:%d%n", &a, &b, &n) != 2 || t[n] || a < 1 ||
             a > 8 || b < 1 || b > 8))
            return fs_usage_error("plan", "--try pd-ratio: expected PREFILL:"
                                  "DECODE (whole numbers 1 to 8, e.g. 1:2) "
                                  "or colocated, got '%s'", t);
        for (int j = 0; j < p->npd; j++)
            if (p->pd[j][0] * b == p->pd[j][1] * a &&
                (p->pd[j][0] == 0) == (a == 0))   /* 1:1 and 2:2 alike */
                return fs_usage_error("plan", "--try pd-ratio: '%s' given twice",
                                      t);
        p->pd[p->npd][0] = a;
        p->pd[p->npd++][1] = b;
    }
    return 0;
}

/* spec=: on, off or both. */
static int take_spec(fs_plan *p, const char *list)
{
    if (strcmp(list, "on") == 0 || strcmp(list, "off") == 0 ||
        strcmp(list, "on,off") == 0 || strcmp(list, "off,on") == 0) {
        p->spec_on = strstr(list, "on") != NULL;
        p->spec_off = strstr(list, "off") != NULL;
        return 0;
    }
    return fs_usage_error("plan", "--try spec: expected on, off or on,off, got "
                          "'%s'", list);
}

/* Where a kind of choice applies: 1, or 0 with why it does not. */
static int has_cache(const fs_plan *p)
{
    return p->llm && p->cache_pool[0];
}

static int has_pd(const fs_plan *p)
{
    return p->llm && p->partner[0] && !p->partner_autoscale;
}

static int has_spec(const fs_plan *p)
{
    return p->llm && p->spec_choice;
}

/* The kinds of choice, registered here: --try NAME=LIST, its default
 * where the scenario makes it a choice, and what it needs. */
static const struct {
    const char *name, *dflt, *needs;
    int (*applies)(const fs_plan *p);
    int (*take)(fs_plan *p, const char *list);
} kinds[] = {
    {"routing", "least-loaded,prefix-aware", "prompts with a prefix "
     "identity (prefix =, sessions = or a Mooncake trace) on a pool with "
     "prefix_cache", has_cache, take_routings},
    {"pd-ratio", "2:1,1:1,1:2,colocated", "a prefill pool and a decode pool "
     "of fixed count", has_pd, take_ratios},
    {"spec", "on,off", "spec = on the workload", has_spec, take_spec},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* The kind of "NAME=LIST", its list in *list: the index, or -1 after a
 * usage error. */
static int kind_of(const char *t, const char **list)
{
    const char *eq = strchr(t, '=');
    size_t n = eq ? (size_t)(eq - t) : strlen(t);
    for (size_t k = 0; eq && k < NKINDS; k++)
        if (strlen(kinds[k].name) == n && strncmp(t, kinds[k].name, n) == 0) {
            *list = eq + 1;
            return (int)k;
        }
    fs_usage_error("plan", "--try: expected routing=LIST, pd-ratio=LIST or "
                   "spec=LIST, got '%s'", t);
    return -1;
}

int fs_plan_choices(fs_plan *p, char *const *tries, int ntries)
{
    const char *lists[NKINDS] = {NULL};
    for (int i = 0; i < ntries; i++) {
        const char *list;
        int k = kind_of(tries[i], &list);
        if (k < 0)
            return FS_EXIT_USAGE;
        if (lists[k])
            return fs_usage_error("plan", "--try %s given twice",
                                  kinds[k].name);
        if (!kinds[k].applies(p))
            return fs_usage_error("plan", "--try %s: workload '%s' has no "
                                  "such choice (it needs %s)", kinds[k].name,
                                  p->workload, kinds[k].needs);
        lists[k] = list;
    }
    int rc = 0;
    for (size_t k = 0; k < NKINDS && !rc; k++)
        if (kinds[k].applies(p))
            rc = kinds[k].take(p, lists[k] ? lists[k] : kinds[k].dflt);
    return rc;
}

int fs_plan_choice_count(const fs_plan *p)
{
    int n = p->nrouting > 0 ? p->nrouting : 1;
    n *= p->npd > 0 ? p->npd : 1;
    return n * (p->spec_on + p->spec_off > 0 ? p->spec_on + p->spec_off : 1);
}

/* The choices as a run's name holds them (its 64 bytes): the routing's
 * initials (ll, rr, pa), pdP:D or coloc, spec or nospec. */
static void choice_tag(const fs_plan *p, fs_plan_candidate *c)
{
    size_t n = 0;
    c->tag[0] = '\0';
    if (c->routing[0])
        n += (size_t)snprintf(c->tag, sizeof c->tag, "%c%c", c->routing[0],
                              strchr(c->routing, '-')[1]);
    if (p->npd > 0 && c->pd[0])
        n += (size_t)snprintf(c->tag + n, sizeof c->tag - n, "%spd%d:%d",
                              n ? "," : "", c->pd[0], c->pd[1]);
    else if (p->npd > 0)
        n += (size_t)snprintf(c->tag + n, sizeof c->tag - n, "%scoloc",
                              n ? "," : "");
    if (p->spec_on + p->spec_off > 0)
        snprintf(c->tag + n, sizeof c->tag - n, "%s%s", n ? "," : "",
                 c->spec_off ? "nospec" : "spec");
}

void fs_plan_choice_apply(const fs_plan *p, fs_plan_candidate *c, int j)
{
    int nr = p->nrouting > 0 ? p->nrouting : 1;
    int nd = p->npd > 0 ? p->npd : 1;
    if (p->nrouting > 0)
        snprintf(c->routing, sizeof c->routing, "%s", p->routings[j % nr]);
    if (p->npd > 0) {
        c->pd[0] = p->pd[j / nr % nd][0];
        c->pd[1] = p->pd[j / nr % nd][1];
    }
    /* spec: on first where both are asked */
    c->spec_off = p->spec_off && (!p->spec_on || j / (nr * nd) == 1);
    c->choice[0] = '\0';
    if (c->routing[0])
        snprintf(c->choice, sizeof c->choice, "routing=%s", c->routing);
    if (p->npd > 0 && c->pd[0])
        snprintf(c->choice + strlen(c->choice),
                 sizeof c->choice - strlen(c->choice), "%spd=%d:%d",
                 c->choice[0] ? "," : "", c->pd[0], c->pd[1]);
    else if (p->npd > 0)
        snprintf(c->choice + strlen(c->choice),
                 sizeof c->choice - strlen(c->choice), "%scolocated",
                 c->choice[0] ? "," : "");
    if (p->spec_on + p->spec_off > 0)
        snprintf(c->choice + strlen(c->choice),
                 sizeof c->choice - strlen(c->choice), "%sspec=%s",
                 c->choice[0] ? "," : "", c->spec_off ? "off" : "on");
    choice_tag(p, c);
}

long fs_plan_partner_count(const fs_plan *p, const fs_plan_candidate *c,
                           long n)
{
    double mine = p->pool_prefill ? c->pd[0] : c->pd[1];
    double other = p->pool_prefill ? c->pd[1] : c->pd[0];
    return (long)ceil((double)n * other / mine);
}

int fs_plan_choice_sets(const fs_plan *p, const fs_plan_candidate *c,
                        long n, char **s, int k)
{
    int ok = 1;
    if (c->routing[0])
        ok &= asprintf(&s[k++], "pool.%s.routing=%s", p->cache_pool,
                       c->routing) >= 0;
    if (c->spec_off)
        ok &= asprintf(&s[k++], "workload.%s.spec=none", p->workload) >= 0;
    if (p->npd > 0 && c->pd[0]) {
        ok &= asprintf(&s[k++], "pool.%s.count=%ld", p->partner,
                       fs_plan_partner_count(p, c, n)) >= 0;
    } else if (p->npd > 0) {   /* colocated: the searched pool alone */
        ok &= asprintf(&s[k++], "pool.%s.role=colocated", p->pool) >= 0;
        ok &= asprintf(&s[k++], "pool.%s.role=colocated", p->partner) >= 0;
        ok &= asprintf(&s[k++], "pool.%s.count=0", p->partner) >= 0;
        ok &= asprintf(&s[k++], "workload.%s.pools=%s", p->workload,
                       p->pool) >= 0;
    }
    return ok ? k : -1;
}
