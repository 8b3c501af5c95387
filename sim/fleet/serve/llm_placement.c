/* llm_placement.c -- several LLM models on one pool, each replica
 * hosting one.
 *
 * A pool serving llm workloads of different models keeps each model's
 * weights on its own replicas, as a fleet of dedicated deployments behind
 * one pool would: a replica serves only its model's requests (dispatch
 * asks fs_server_takes, servers.c).  How many replicas host each model:
 *
 *   - stated: `replicas = N` on the workloads (a model's is the largest
 *     its workloads on the pool state); every model of the pool states
 *     one or none does, and on a pool of fixed count they add up to its
 *     replicas (count x replicas an instance);
 *   - by default, in proportion to each model's demand: the GPU-seconds
 *     its requests need at a full batch, arrival rate x mean tokens (in +
 *     out; 1 a request when a trace gives them) x the seconds a token
 *     takes at a full decode batch on this pool (llm_setup.c's measure
 *     for the autoscaler), rounded by largest remainder, at least one
 *     replica each.
 *
 * The replicas are dealt out in order of their index by smooth weighted
 * round robin of those counts (nginx's), so the first count x per-instance
 * servers hold exactly the counts and an autoscaled pool's later
 * instances keep the proportions.  Pools of one model are left as they
 * are, bit for bit. */
#include "sim/fleet/serve/llm_placement.h"
#include "sim/fleet/serve/dispatch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct model_group {
    const void *model;
    double weight;
    long stated, count;
    const fs_workload *first;
} model_group;

static int pool_index(const fs_workload *w, const fs_servers *p)
{
    for (int k = 0; k < w->npools; k++)
        if (w->pools[k] == p)
            return k;
    return 0;
}

/* Its demand on p: GPU-seconds a second at a full batch. */
static double demand(const fs_workload *w, const fs_servers *p)
{
    const fs_llm_service *l = &w->conf->service.llm;
    double tokens = l->has_tokens_in && l->has_tokens_out
        ? fs_dist_mean(&l->tokens_in) + fs_dist_mean(&l->tokens_out) : 1;
    double rate = w->arrivals ? fs_arrivals_mean_rate(w->arrivals) : 0;
    double d = rate * tokens * w->speed[pool_index(w, p)];
    return isfinite(d) && d > 0 ? d : 0;
}

/* The pool's models, in the order their first workload binds. */
static int groups_of(const fs_servers *p, model_group *g)
{
    int n = 0;
    for (int k = 0; k < p->nwls; k++) {
        const fs_workload *w = p->wls[k];
        const void *m = fs_workload_model(w);
        if (!m)
            continue;
        int i = 0;
        while (i < n && g[i].model != m)
            i++;
        if (i == n)
            g[n++] = (model_group){m, 0, 0, 0, w};
        g[i].weight += demand(w, p);
        if (w->conf->replicas > g[i].stated)
            g[i].stated = w->conf->replicas;
    }
    return n;
}

static int refuse(const fs_workload *w, fs_error *err, const char *why)
{
    const fs_config_entry *e = w->conf->replicas_entry;
    char key[FS_NAME_MAX + 24];
    snprintf(key, sizeof key, "%s.replicas", w->conf->section);
    return fs_error_at(err, e ? e->file : w->sim->sc->path, e ? e->line : 0,
                       key, "%s", why);
}

/* The stated counts, checked: all or none, adding up on a fixed pool. */
static int stated_counts(const fs_servers *p, model_group *g, int n,
                         long total, fs_error *err)
{
    long sum = 0;
    int with = 0;
    const fs_workload *at = NULL;
    for (int i = 0; i < n; i++) {
        with += g[i].stated > 0;
        sum += g[i].stated;
        if (g[i].stated > 0 && !at)
            at = g[i].first;
    }
    if (with == 0)
        return 0;
    char why[400];
    for (int i = 0; i < n && with < n; i++)
        if (g[i].stated == 0) {
            snprintf(why, sizeof why, "pool %s serves several models: give "
                     "replicas on a workload of each (%s has none) or on "
                     "none (split by demand)", p->conf->name,
                     g[i].first->conf->name);
            return refuse(at, err, why);
        }
    if (p->conf->scale == FS_SCALE_FIXED && sum != total) {
        snprintf(why, sizeof why, "the models' replicas add up to %ld, "
                 "pool %s has %ld (count x replicas an instance)", sum,
                 p->conf->name, total);
        return refuse(at, err, why);
    }
    for (int i = 0; i < n; i++)
        g[i].weight = (double)g[i].stated;
    return 1;
}

/* Integer counts of total by largest remainder of the weights, at least
 * one each while there are enough replicas. */
static void round_counts(model_group *g, int n, long total)
{
    double sum = 0;
    long given = 0;
    for (int i = 0; i < n; i++)
        sum += g[i].weight;
    for (int i = 0; i < n; i++) {
        double share = sum > 0 ? g[i].weight / sum : 1.0 / n;
        g[i].count = (long)floor(share * (double)total);
        if (g[i].count < 1 && total >= n)
            g[i].count = 1;
        given += g[i].count;
    }
    while (given < total) {   /* the largest remainders, first first */
        int best = 0;
        double most = -1;
        for (int i = 0; i < n; i++) {
            double share = sum > 0 ? g[i].weight / sum : 1.0 / n;
            double r = share * (double)total - (double)g[i].count;
            if (r > most) {
                most = r;
                best = i;
            }
        }
        g[best].count++;
        given++;
    }
    while (given > total) {   /* the minimum of one took too many */
        int most = 0;
        for (int i = 1; i < n; i++)
            if (g[i].count > g[most].count)
                most = i;
        g[most].count--;
        given--;
    }
}

int fs_llm_place(fs_servers *p, fs_error *err)
{
    model_group g[FS_MAX_WORKLOADS_PER_POOL];
    int n = groups_of(p, g);
    if (n < 2)
        return 0;
    long total = p->conf->count * p->per_instance;
    if (total <= 0 || total > (long)p->nservers)
        total = (long)p->nservers;
    if (total < n) {
        char why[300];
        snprintf(why, sizeof why, "pool %s serves %d models on %ld "
                 "replicas: each replica hosts one model, so it needs one "
                 "a model at least", p->conf->name, n, total);
        return refuse(g[0].first, err, why);
    }
    int st = stated_counts(p, g, n, total, err);
    if (st < 0)
        return -1;
    round_counts(g, n, total);
    double cur[FS_MAX_WORKLOADS_PER_POOL] = {0};
    for (size_t j = 0; j < p->nservers; j++) {
        int best = 0;
        for (int i = 0; i < n; i++) {
            cur[i] += (double)g[i].count;
            if (cur[i] > cur[best])
                best = i;
        }
        cur[best] -= (double)total;
        p->servers[j].hosts = g[best].model;
    }
    p->placed = total;
    return 0;
}

long fs_llm_placed(const fs_servers *p, const void *model)
{
    long n = 0;
    for (long j = 0; j < p->placed; j++)
        n += p->servers[j].hosts == model;
    return n;
}
